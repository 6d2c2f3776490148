"""Every action of the app, declared once: its id, default keys, what the footer and the help
panel call it, and its line in the command palette.

The screens build their `BINDINGS` from here (`bindings("browser")`), the command palette lists
the actions of the current screen and of the app from here, the help panel fills the keys into a
screen's help text from here, and the user's keymap file is checked against these ids.

An id is `<scope>.<name>`. The scope is the screen (or widget) the action runs on: a screen
declares `SCOPE = "browser"` and `BINDINGS = bindings("browser")`, and its `action_<name>`
methods do the work. `app.*` actions run on the app, `dialog.*` ones on whichever dialog is
open: a key means one thing in every dialog.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from textual.binding import Binding, BindingType


class Keep(IntEnum):
    """How long an action's key stays in a footer too short for all of them: the lowest goes
    first (and of two alike, the one further right)."""

    SPARE = 0
    """An alternative or a rarely used key: the first to go."""
    NORMAL = 1
    PRIMARY = 2
    """The screen's primary action, and going back."""
    ESSENTIAL = 3
    """Quit and help, on every screen: the last to go."""


@dataclass(frozen=True)
class Action:
    id: str
    """`<scope>.<name>`, stable: users' keymap files name it."""
    keys: str | None
    """Default keys, comma-separated in Textual's spelling ("n", "ctrl+s", "escape,c"); None for an
    action only the command palette runs."""
    action: str
    """The Textual action run on the scope's screen, widget or app: "next_error", "show('all')"."""
    description: str
    """A word or two, for the footer and the help panel's key list."""
    palette: str | None = None
    """Its title in the command palette; None keeps it out (an alternative key, a widget's action,
    or one Textual's own palette commands already offer)."""
    palette_help: str = ""
    """The line under the title in the palette; the keys are added after it."""
    show: bool = True
    """In the footer (every binding is in the help panel's key list either way)."""
    priority: bool = False
    """Checked before the focused widget's own keys (ctrl+s while typing in the editor)."""
    keep: Keep = Keep.NORMAL
    """How long it stays in a short footer (`fit_footer`)."""

    @property
    def scope(self) -> str:
        return self.id.split(".", 1)[0]

    def binding(self) -> Binding:
        assert self.keys is not None, f"{self.id} has no keys"
        return Binding(
            self.keys,
            self.action,
            self.description,
            show=self.show,
            priority=self.priority,
            id=self.id,
        )


OVERLAY_KEYS = frozenset({"app.close-help"})
"""Bindings that are live only while their overlay (the help panel) is open, and off otherwise
(`check_action`): they may share a key with a screen's binding without a clash."""


def _declare(*actions: Action) -> dict[str, Action]:
    registry: dict[str, Action] = {}
    for action in actions:
        if action.id in registry:
            raise ValueError(f"action {action.id} declared twice")
        registry[action.id] = action
    return registry


A = Action
SPARE, PRIMARY, ESSENTIAL = Keep.SPARE, Keep.PRIMARY, Keep.ESSENTIAL

# fmt: off
REGISTRY: dict[str, Action] = _declare(
    # --- the app: on every screen ---------------------------------------------------------
    A("app.help", "f1", "toggle_help", "Help", "Help",
      "Show the keys of the focused widget and a note on the screen", keep=ESSENTIAL),
    A("app.help-alt", "question_mark", "toggle_help", "Help", show=False),
    # Checked first: with the help open, escape closes it and does nothing else; without it,
    # the key goes on to the screen (the action skips).
    A("app.close-help", "escape", "close_help", "Close help", show=False, priority=True),
    # Quitting is in Textual's own palette commands ("Quit the application").
    A("app.quit", "ctrl+q", "quit", "Quit", priority=True, keep=ESSENTIAL),
    A("app.revalidate", None, "revalidate_all", "Re-validate", "Re-validate everything",
      "Read and check the whole workspace again"),
    A("app.runs", None, "runs_command", "Runs", "Runs of a gold file",
      "Every run of a gold file, ranked by F1"),
    A("app.compare-runs", None, "compare_runs_command", "Compare runs", "Compare runs",
      "Two runs of one gold: keys gained and lost, verdict flips"),
    A("app.rate", None, "rate_session", "Rate", "Rate agent runs",
      "The rater session: score each run on the rubric, blind"),
    A("app.triage", None, "triage", "Triage", "Triage queue",
      "Everything that needs a person, worst first"),
    A("app.agreement", None, "agreement", "Agreement", "Rater agreement",
      "Alpha per dimension, kappa per pair of raters, the most disputed items"),
    A("app.new-fixture", None, "new_fixture", "New fixture", "Create a fixture",
      "The creation wizard: a task or a trajectory, step by step"),
    # --- the browser ----------------------------------------------------------------------
    # Priority: handled in the order keys arrive, before they reach the tree, so the keys of a
    # burst after `/` (a paste, a fast typist) find the filter focused (browser.py).
    A("browser.filter", "slash", "filter", "Filter", "Filter the suite",
      "Filter the tree by id, path or prompt text", priority=True),
    A("browser.next-error", "n", "next_error", "Next error", "Next error",
      "Jump to the next item with an error"),
    A("browser.previous-error", "N", "previous_error", "Prev error", "Previous error",
      "Jump to the previous item with an error", show=False),
    A("browser.edit", "e", "edit", "Edit", "Edit selected item",
      "Open the selected file in the editor", keep=PRIMARY),
    A("browser.external-editor", "E", "external_editor", "$EDITOR",
      "Open selected item in $EDITOR", "Edit outside the app, then re-validate", show=False),
    A("browser.diagnostics", "d", "focus_diagnostics", "Problems",
      "Show problems of selected item", "Focus the diagnostics list"),
    A("browser.tree", "T", "focus_tree", "Tree", "Focus the suite tree",
      "Back to the tree from the filter or the diagnostics", show=False),
    A("browser.copy-path", "c", "copy_path", "Copy path", "Copy path of selected item",
      "Copy the workspace-relative path"),
    A("browser.runs", "r", "runs", "Runs", "Runs of the selected gold file",
      "Every run beside a gold file, ranked by F1", show=False),
    A("browser.retire", "R", "retire", "Retire holdout", "Retire the selected holdout",
      "Make it public (only its visibility changes), then commit", show=False),
    A("browser.triage", "t", "triage", "Triage", "Triage queue",
      "Everything that needs a person, worst first"),
    A("browser.rate", "s", "rate", "Rate", "Rate agent runs",
      "The rater session: score each run on the rubric, blind"),
    A("browser.results", "v", "results", "Results", "Results: which agent is better",
      "Means with intervals per agent and dimension, comparisons against the baseline",
      show=False),
    A("browser.add", "a", "add_fixture", "Add fixture", "Create a fixture",
      "The creation wizard: a task or a trajectory, step by step", keep=PRIMARY),
    A("browser.clear-filter", "escape", "clear_filter", "Clear filter", "Clear the filter",
      "Show the whole suite again", show=False),
    # --- the suite tree (a widget of the browser) ------------------------------------------
    A("tree.expand", "right,l", "expand_or_enter", "Open group", show=False),
    A("tree.collapse", "left,h", "collapse_or_leave", "Close group", show=False),
    A("tree.down", "j", "cursor_down", "Down", show=False),
    A("tree.up", "k", "cursor_up", "Up", show=False),
    A("tree.first", "g", "first", "First", show=False),
    A("tree.last", "G", "last", "Last", show=False),
    # --- every other list (diagnostics, diff rows, runs, steps, choices, pickers) ----------
    A("list.down", "j", "cursor_down", "Down", show=False),
    A("list.up", "k", "cursor_up", "Up", show=False),
    A("list.first", "g", "first", "First", show=False),
    A("list.last", "G", "last", "Last", show=False),
    # --- the diagnostics list (a widget of the browser and the editor) ----------------------
    A("diagnostics.copy", "c", "copy_diagnostic", "Copy"),
    # --- the editor -----------------------------------------------------------------------
    A("editor.save", "ctrl+s", "save", "Save", "Save",
      "Atomic; refused if the file changed on disk", priority=True, keep=PRIMARY),
    A("editor.close", "escape", "close", "Back", "Close the editor",
      "Back to the browser (asks first when there are unsaved changes)", keep=PRIMARY),
    A("editor.next-diagnostic", "f8", "next_diagnostic", "Next problem", "Next problem",
      "Move the cursor to the next diagnostic"),
    A("editor.previous-diagnostic", "shift+f8", "previous_diagnostic", "Prev problem",
      "Previous problem", "Move the cursor to the previous diagnostic", show=False),
    A("editor.external", "ctrl+o", "external_editor", "$EDITOR", "Open in $EDITOR",
      "Edit outside the app (save or discard first), then reload"),
    A("editor.diagnostics", "ctrl+d", "focus_diagnostics", "Problems", "Show problems",
      "Focus the diagnostics list", show=False),
    # --- gold vs run ----------------------------------------------------------------------
    A("diff.back", "escape", "back", "Back", "Back", "Close the diff", keep=PRIMARY),
    A("diff.next-difference", "n", "next_difference", "Next diff", "Next difference",
      "Anything but a clean match", keep=PRIMARY),
    A("diff.previous-difference", "N", "previous_difference", "Prev diff",
      "Previous difference", "Anything but a clean match", show=False),
    A("diff.show-all", "a", "show('all')", "All", "Show all rows", "Every row of the diff"),
    A("diff.show-matched", "equals_sign", "show('matched')", "Matched", "Show matched rows only",
      "Gold findings the run found"),
    A("diff.show-missed", "minus", "show('missed')", "Missed", "Show missed rows only",
      "Gold findings the run did not find"),
    A("diff.show-spurious", "plus", "show('spurious')", "Spurious", "Show spurious rows only",
      "Run findings the gold does not have"),
    # Before the focused row list's own `g` (first row): on the diff, `g` groups.
    A("diff.group", "g", "toggle_group", "Group by file", "Group rows by file",
      "Group the rows by file, or not", priority=True),
    A("diff.copy", "y", "copy_markdown", "Copy MD", "Copy the diff as Markdown",
      "A Markdown table of the rows shown, for a pull-request comment"),
    A("diff.write", "w", "write_markdown", "Write MD", "Write the diff as Markdown",
      "To a workspace-relative file, beside the run by default", show=False),
    A("diff.runs", "r", "runs", "Runs", "Runs of this gold file",
      "Every run of this gold file, ranked by F1"),
    A("diff.compare", "b", "compare", "Compare", "Compare with another run",
      "This run against another run of the same gold", show=False),
    # --- the runs of a gold file ----------------------------------------------------------
    A("runs.back", "escape", "back", "Back", "Back", "Close the runs list", keep=PRIMARY),
    A("runs.mark", "space", "mark", "Mark", "Mark the highlighted run",
      "The first mark is the baseline"),
    A("runs.compare", "c", "compare", "Compare", "Compare the marked runs",
      "Each marked run against the highlighted one", keep=PRIMARY),
    # --- run against run ------------------------------------------------------------------
    A("compare.back", "escape", "back", "Back", "Back", "Close the comparison", keep=PRIMARY),
    A("compare.swap", "s", "swap", "Swap", "Swap run and baseline",
      "Compare the other way round"),
    # --- the rater session ------------------------------------------------------------------
    A("rate.back", "escape", "back", "Back", "Back", "Leave the rater session", keep=PRIMARY),
    *[A(f"rate.score-{n}", str(n), f"score('{n}')", f"Score {n}", show=False) for n in range(10)],
    A("rate.previous-dimension", "left,shift+tab", "previous_dimension", "Prev dim",
      "Previous dimension", "Back to an earlier dimension before the last key", keep=SPARE),
    A("rate.next-dimension", "right,tab", "next_dimension", "Next dim", show=False),
    A("rate.confirm", "enter", "confirm", "Confirm", show=False),
    A("rate.note", "n", "note", "Note", "Add a note", "A one-line note, saved with the rating"),
    A("rate.undo", "u,backspace", "undo", "Undo", "Undo the last rating",
      "Take back the last rating of this session and reopen it", keep=PRIMARY),
    A("rate.redo", "ctrl+r", "redo", "Redo", "Redo", "Put back the rating last undone",
      keep=SPARE),
    A("rate.skip", "s", "skip", "Skip", "Skip this run", "It comes back after the others"),
    A("rate.other-pane", "o", "other_pane", "Other pane", "Scroll the other pane",
      "Switch the pane the arrow keys scroll"),
    A("rate.maximise", "z", "maximise_pane", "Maximise", "Maximise the pane",
      "The focused pane (task or run) fills the screen; z again restores it", keep=SPARE),
    A("rate.suspend", "ctrl+z", "suspend", "Suspend", show=False),
    # --- a scrolling pane of the rater session (leaves left, right and tab to the rubric) ----
    A("pane.up", "up", "scroll_up", "Scroll up", show=False),
    A("pane.down", "down", "scroll_down", "Scroll down", show=False),
    A("pane.page-up", "pageup", "page_up", "Page up", show=False),
    A("pane.page-down", "pagedown", "page_down", "Page down", show=False),
    A("pane.top", "home", "scroll_home", "Top", show=False),
    A("pane.bottom", "end", "scroll_end", "Bottom", show=False),
    A("pane.left", "shift+left,less_than_sign", "scroll_left", "Scroll left", show=False),
    A("pane.right", "shift+right,greater_than_sign", "scroll_right", "Scroll right", show=False),
    # --- rater agreement ------------------------------------------------------------------
    A("agreement.back", "escape", "back", "Back", "Back", "Close the agreement screen",
      keep=PRIMARY),
    A("agreement.reload", "r", "reload", "Reload", "Compute again",
      "Read the ratings again and recompute alpha and kappa"),
    A("agreement.status", "p", "status", "Progress", "Rating progress and pace",
      "Per rater: items assigned, done, left, seconds per item, items per hour"),
    # --- rating status (progress and pace) -------------------------------------------------
    A("rating-status.back", "escape", "back", "Back", "Back", "Close the rating status",
      keep=PRIMARY),
    A("rating-status.reload", "r", "reload", "Reload", "Compute again",
      "Read the ratings again and recount progress and pace"),
    A("agreement.adjudicate", "a", "adjudicate", "Adjudicate", "Adjudicate the disputed items",
      "Settle the final scores of the items the raters disagree on"),
    # --- adjudication ---------------------------------------------------------------------
    A("adjudicate.back", "escape", "back", "Back", "Back", "Close the adjudication screen",
      keep=PRIMARY),
    *[A(f"adjudicate.score-{n}", str(n), f"score('{n}')", f"Score {n}", show=False)
      for n in range(10)],
    A("adjudicate.previous-dimension", "left,shift+tab", "previous_dimension", "Prev dim",
      "Previous dimension", "Back to an earlier dimension of the final scores", keep=SPARE),
    A("adjudicate.next-dimension", "right,tab", "next_dimension", "Next dim", show=False),
    A("adjudicate.confirm", "enter", "confirm", "Confirm", show=False),
    A("adjudicate.note", "n", "note", "Note", "Add a note",
      "A one-line note, saved with the adjudication"),
    A("adjudicate.other-pane", "o", "other_pane", "Next pane", "Next pane",
      "Show and scroll the next pane: the ratings, the task, the run, then the item list"),
    A("adjudicate.maximise", "z", "maximise_pane", "Maximise", "Maximise the pane",
      "The pane shown (ratings, task or run) fills the screen; z again restores it",
      keep=SPARE),
    A("adjudicate.clear", "x", "clear", "Clear", "Clear the final scores",
      "Start the highlighted item's scores again"),
    A("adjudicate.undo", "u", "undo", "Undo", "Undo the adjudication",
      "Append a retraction: the highlighted item is unadjudicated again"),
    A("adjudicate.reload", "r", "reload", "Reload", "Read again",
      "Read the ratings and the adjudications again"),
    # --- results --------------------------------------------------------------------------
    A("results.back", "escape", "back", "Back", "Back", "Close the results screen",
      keep=PRIMARY),
    A("results.reload", "r", "reload", "Reload", "Compute again",
      "Read the ratings and gold runs again and recompute the results"),
    A("results.baseline", "b", "next_baseline", "Baseline", "Next baseline",
      "Compare every agent with the next one (after the last, no baseline)", keep=PRIMARY),
    A("results.export-md", "m", "export('md')", "Export md", "Export the results as Markdown",
      "Write reports/results.md, the file `voyage-tui results --format md` writes",
      keep=SPARE),
    A("results.export-html", "h", "export('html')", "Export html", "Export the results as HTML",
      "Write reports/results.html, the file `voyage-tui results --format html` writes",
      keep=SPARE),
    A("results-fixtures.back", "escape", "back", "Back", "Back", "Back to the results",
      keep=PRIMARY),
    # --- triage ---------------------------------------------------------------------------
    A("triage.back", "escape", "back", "Back", "Back", "Leave the triage queue", keep=PRIMARY),
    A("triage.open", "enter", "open", "Open", "Open the item where it is fixed",
      "The editor at the line, the diff, the rater session or the exposure signals",
      keep=PRIMARY),
    A("triage.external-editor", "e", "external_editor", "$EDITOR", "Open in $EDITOR",
      "Open the item's file in $EDITOR at its line", keep=SPARE),
    A("triage.snooze", "s", "snooze", "Snooze", "Snooze", "Until the file changes, or a date"),
    A("triage.retire", "R", "retire", "Retire", "Retire the exposed holdout",
      "Make it public (the engine's retire); commit with C"),
    A("triage.commit", "C", "commit", "Commit retired", "Commit the retired holdouts",
      "Commit the files retired from the queue", show=False),
    A("triage.undo", "u", "undo", "Undo", "Undo", "Undo the last snooze or retire"),
    A("triage.repeat", "full_stop", "repeat", "Repeat", "Repeat the last action",
      "On the current or the marked items", show=False),
    A("triage.mark", "space", "mark", "Mark", "Mark the item"),
    A("triage.mark-range", "v", "mark_range", "Mark range", "Mark a range", show=False),
    A("triage.mark-all", "asterisk", "mark_all", "Mark all", "Mark every item shown", show=False),
    # Priority, as the browser's: the keys of a burst after `/` find the filter focused.
    A("triage.filter", "slash", "filter", "Filter", "Filter the queue by text", priority=True),
    A("triage.down", "j", "down", "Down", show=False),
    A("triage.up", "k", "up", "Up", show=False),
    A("triage.first", "g", "first", "First", show=False),
    A("triage.last", "G", "last", "Last", show=False),
    A("triage.kind-all", "0", "kind('all')", "All kinds", show=False),
    *[A(f"triage.kind-{kind}", str(n), f"kind('{kind}')", title, show=False)
      for n, (kind, title) in enumerate([("error", "Errors"), ("exposed", "Exposed"),
                                          ("low-score", "Low scores"), ("drift", "Drift"),
                                          ("warning", "Warnings"), ("unrated", "Unrated")],
                                         start=1)],
    A("triage.next-kind", "tab", "next_kind", "Next kind", show=False),
    A("triage.previous-kind", "shift+tab", "previous_kind", "Prev kind", show=False),
    A("triage-list.down", "down", "cursor(1)", "Down", show=False),
    A("triage-list.up", "up", "cursor(-1)", "Up", show=False),
    A("triage-list.page-down", "pagedown", "page(1)", "Page down", show=False),
    A("triage-list.page-up", "pageup", "page(-1)", "Page up", show=False),
    A("triage-list.first", "home", "first", "First", show=False),
    A("triage-list.last", "end", "last", "Last", show=False),
    # The list's enter is the screen's `open` (the list has the focus, so its key is the shown one)
    A("triage-list.select", "enter", "select", "Open", keep=PRIMARY),
    # --- the creation wizard ---------------------------------------------------------------
    # Page keys and F-keys: ctrl+arrows move by word in every text field, ctrl+b is tmux's
    # prefix; priority, so they work from inside a text area too.
    A("wizard.forward", "pagedown,f8", "forward", "Next", "Next step",
      "Always allowed, errors or not; every answer is kept", priority=True, keep=PRIMARY),
    A("wizard.back", "pageup,f7", "back", "Back", "Previous step",
      "Always allowed, errors or not; every answer is kept", priority=True),
    A("wizard.write", "ctrl+s", "write", "Write", "Preview and write",
      "Opens the preview; there, writes the fixture (only when it validates clean)",
      priority=True, keep=PRIMARY),
    A("wizard.steps", "ctrl+l", "focus_steps", "Steps", "Go to a step",
      "The list of steps with their status; enter opens one", show=False),
    A("wizard.leave", "escape", "leave", "Leave", "Leave the wizard",
      "Nothing is written; the answers stay in a draft (or are deleted, as you choose)",
      keep=PRIMARY),
    # the kind step's and the context step's own keys (their widgets bind them)
    A("wizard.start-from", "f", "start_from", "From a fixture", "Start from an existing fixture",
      "Copy every answer of a fixture you pick (a new id, a new canary)", show=False),
    A("wizard.resume", "r", "resume", "Resume a draft", "Resume a draft",
      "Carry on from a draft in .voyage/drafts/", show=False),
    A("wizard.context-remove", "delete", "remove", "Remove entry", show=False),
    # --- the wizard's checklists (phases, gates, routing): rows move as in every list -------
    A("checklist.down", "down,j", "move(1)", "Down", show=False),
    A("checklist.up", "up,k", "move(-1)", "Up", show=False),
    A("checklist.toggle", "x", "toggle_button", "Tick", show=False),
    A("checklist.pass", "p", "verdict('pass')", "Pass", show=False),
    A("checklist.conditional", "c", "verdict('conditional')", "Conditional", show=False),
    A("checklist.blocked", "b", "verdict('blocked')", "Blocked", show=False),
    # --- dialogs: one meaning per key, whichever dialog asks --------------------------------
    A("dialog.cancel", "escape,c", "cancel", "Cancel", keep=PRIMARY),
    A("dialog.close", "enter", "cancel", "Close", show=False),
    A("dialog.save", "s", "choose('save')", "Save"),
    A("dialog.discard", "d", "choose('discard')", "Discard"),
    A("dialog.reload", "r", "choose('reload')", "Reload from disk"),
    A("dialog.keep", "k", "choose('keep')", "Keep mine"),
    A("dialog.commit", "m", "choose('commit')", "Retire and commit"),
    A("dialog.retire", "o", "choose('retire')", "Retire only"),
    A("dialog.retire-exposed", "R", "choose('retire')", "Retire"),
    A("dialog.edit", "e", "choose('edit')", "Edit"),
    A("dialog.yes", "y", "choose('yes')", "Yes"),
    A("dialog.overwrite", "w", "choose('overwrite')", "Overwrite"),
)
# fmt: on

del A, SPARE, PRIMARY, ESSENTIAL

_PLACES = {action_id: n for n, action_id in enumerate(REGISTRY)}


def action(action_id: str) -> Action:
    return REGISTRY[action_id]


def of_scope(scope: str) -> list[Action]:
    return [a for a in REGISTRY.values() if a.scope == scope]


def bindings(scope: str, *, only: Iterable[str] | None = None) -> list[BindingType]:
    """The `BINDINGS` of a screen or widget: every action of its scope that has keys (or those of
    `only`, ids, in that order)."""
    chosen = [REGISTRY[i] for i in only] if only is not None else of_scope(scope)
    for a in chosen:
        if a.scope != scope:
            raise ValueError(f"{a.id} is not an action of {scope}")
    return [a.binding() for a in chosen if a.keys is not None]


def binding_ids() -> list[str]:
    """The ids a keymap file may remap: the actions that have keys."""
    return [a.id for a in REGISTRY.values() if a.keys is not None]


def palette_actions(scope: str) -> list[Action]:
    return [a for a in of_scope(scope) if a.palette is not None]


def keep_of(action_id: str | None) -> Keep:
    """How long a binding stays in a short footer: its action's; NORMAL for a binding of one of
    Textual's own widgets, which has no id here."""
    found = REGISTRY.get(action_id) if action_id else None
    return found.keep if found is not None else Keep.NORMAL


def _declared_at(action_id: str | None) -> int:
    """An action's place in the registry; a binding without an id comes after every action."""
    return _PLACES.get(action_id, len(_PLACES)) if action_id else len(_PLACES)


def fit_footer(entries: Sequence[tuple[str | None, int]], width: int) -> list[bool]:
    """Which of a footer's keys, given as (action id, cells) in the order shown, are kept in
    `width` cells: the least kept go first, and of two alike the one declared later in the
    registry (then the one further right), until the rest fit. By the registry's order, not
    the footer's: a key the user's keymap moved is shown last but is not less important."""
    kept = [True] * len(entries)
    used = sum(cells for _, cells in entries)

    def going_first(i: int) -> tuple[int, int, int]:
        action_id = entries[i][0]
        return keep_of(action_id), -_declared_at(action_id), -i

    for i in sorted(range(len(entries)), key=going_first):
        if used <= width:
            break
        kept[i] = False
        used -= entries[i][1]
    return kept


def split_keys(keys: str) -> list[str]:
    return [k.strip() for k in keys.split(",") if k.strip()]


# --- help text ---------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9-]*\.[a-z0-9-]+)\}")
"""`{browser.next-error}` in a screen's HELP: its keys, as the user's keymap has them."""


def placeholders(text: str) -> list[str]:
    return PLACEHOLDER.findall(text)


def fill_keys(text: str, key_names: Callable[[str], list[str]]) -> str:
    """A HELP text with each `{id}` replaced by its keys in Markdown code (`` `n` ``)."""

    def keys(match: re.Match[str]) -> str:
        names = key_names(match.group(1))
        return " or ".join(f"`{name}`" for name in names) if names else "(no key)"

    return PLACEHOLDER.sub(keys, text)


# --- documentation -----------------------------------------------------------------------------


def keymap_table() -> str:
    """The Markdown table of every binding id in docs/app.md (a test keeps the two equal)."""
    lines = ["| id | default keys | action |", "|---|---|---|"]
    for a in REGISTRY.values():
        if a.keys is None:
            continue
        keys = " ".join(f"`{k}`" for k in split_keys(a.keys))
        lines.append(f"| `{a.id}` | {keys} | {a.palette or a.description} |")
    return "\n".join(lines)
