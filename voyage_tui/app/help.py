"""The help panel (F1): the notes of the focused widget and of the screen, with the keys filled in
as the user's keymap has them, above Textual's list of every active key (which Textual already
shows remapped).

A screen's `HELP` names keys by binding id, `{browser.next-error}`, never by the key itself: a
keymap that moves next-error to `j` makes the note say `j`."""

from __future__ import annotations

from contextlib import suppress
from textwrap import dedent

from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import HelpPanel, Markdown

from voyage_tui.app.actions import fill_keys
from voyage_tui.app.keymap import KeymappedApp, keys_after


def help_text(app: object, template: str) -> str:
    """`template` with its `{id}` placeholders replaced by the keys `app` binds them to."""
    if isinstance(app, KeymappedApp):
        return fill_keys(template, app.key_names)
    return fill_keys(template, lambda action_id: keys_after({}, action_id))


class VoyageHelpPanel(HelpPanel):
    def update_help(self, focused_widget: Widget | None) -> None:
        """Textual's, with the keys filled in, and the screen's note under the focused
        widget's (Textual shows only the nearest one: in the browser, the tree's, never the
        screen's keys)."""
        if not self.app.app_focus or not self.screen.is_active:
            return
        start: Widget = focused_widget if focused_widget is not None else self.screen
        notes = []
        for node in start.ancestors_with_self:
            if isinstance(node, Widget) and node.HELP:
                notes.append(dedent(node.HELP).strip())
        template = "\n\n".join(dict.fromkeys(notes))
        self.set_class(bool(template), "-show-help")
        with suppress(NoMatches):
            self.query_one(Markdown).update(help_text(self.app, template))
