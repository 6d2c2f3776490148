"""The footer of every screen: Textual's, except that when its keys do not fit it drops the least
important first (the registry's `keep`: quit and help last), rather than cutting off whatever
comes last, which were quit and help."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from voyage_tui.app.actions import fit_footer
from voyage_tui.app.textual_private import FooterKey, footer_bindings_ready

PALETTE_FRAME = 2
"""Cells around the command palette's key besides its own: Textual's `border-left` and
`padding-right` for `FooterKey.-command-palette`."""


def key_cells(key_display: str, description: str) -> int:
    """The cells a key takes in the (not compact) footer: Textual's FooterKey pads the key with
    a cell each side and the description with one after it."""
    if not description:
        return cell_len(key_display)
    return cell_len(key_display) + 2 + cell_len(description) + 1


@dataclass(frozen=True)
class _Key:
    """One key as the footer draws it: what decides whether a recompose changes anything."""

    key: str
    display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    classes: str = ""


class KeyFooter(Footer):
    """Textual's footer, fitted to its width by importance (`actions.fit_footer`).

    Textual recomposes its footer whenever the screen's bindings may have changed, which is
    every focus change: a few dozen widgets styled and mounted for the same keys. This footer
    recomposes only when the keys it would show differ from those mounted."""

    def __init__(self) -> None:
        super().__init__()
        self._fitted_width = 0

    def _plan(self) -> tuple[_Key, ...]:
        active = self.screen.active_bindings
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in active.values():
            # One key per action, the first, as Textual's footer shows it.
            if binding.show and binding.action not in shown:
                shown[binding.action] = (binding, enabled, tooltip)
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        rows = list(shown.values())
        width = self.size.width
        if palette is not None:
            width -= PALETTE_FRAME + key_cells(
                self.app.get_key_display(palette.binding), palette.binding.description
            )
        kept = fit_footer(
            [(b.id, key_cells(self.app.get_key_display(b), b.description)) for b, _, _ in rows],
            width,
        )

        def key(binding: Binding, enabled: bool, tooltip: object, classes: str = "") -> _Key:
            display = self.app.get_key_display(binding)
            return _Key(
                binding.key,
                display,
                binding.description,
                binding.action,
                not enabled,
                str(tooltip or ""),
                classes,
            )

        plan = [
            key(binding, enabled, tooltip)
            for (binding, enabled, tooltip), keep in zip(rows, kept, strict=True)
            if keep
        ]
        if palette is not None:
            _, binding, enabled, _ = palette
            tooltip = binding.tooltip or binding.description
            plan.append(key(binding, enabled, tooltip, "-command-palette"))
        return tuple(plan)

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        self._fitted_width = self.size.width
        for key in self._plan():
            footer_key = FooterKey(
                key.key,
                key.display,
                key.description,
                key.action,
                classes=key.classes,
                disabled=key.disabled,
                tooltip=key.tooltip,
            )
            # Born with the compactness it will have and the class that goes with it: a key
            # restyled itself (and its parts) as it mounted, twice when bound to a footer that
            # is not compact: a sixth of the calls of starting a screen. (Reading the key's
            # `compact` before it mounts would restyle it too.)
            compact = True if key.classes else self.compact  # the palette's: as Textual's
            footer_key.set_reactive(FooterKey.compact, compact)
            footer_key.set_class(compact, "-compact", update=False)
            yield footer_key if key.classes else footer_key.data_bind(compact=Footer.compact)

    def _on_screen(self) -> tuple[_Key, ...]:
        return tuple(
            _Key(
                child.key,
                child.key_display,
                child.description,
                child.action,
                child.disabled,
                str(child.tooltip or ""),
                "-command-palette" if child.has_class("-command-palette") else "",
            )
            for child in self.children
            if isinstance(child, FooterKey)
        )

    async def recompose(self) -> None:
        # Compared with the keys mounted, not with the last plan: two recomposes can overlap
        # (a resize during a bindings change), and the one that mounts last must be right.
        if footer_bindings_ready(self) and self.is_attached and self._plan() == self._on_screen():
            return
        await super().recompose()

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def on_unmount(self) -> None:
        self.screen.screen_layout_refresh_signal.unsubscribe(self)

    def _laid_out(self, screen: Screen[object]) -> None:
        # Not on Resize alone: a panel docked beside the footer (help) can narrow it in a
        # layout that sends the footer no Resize event.
        self._refit(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self._refit(event.size.width)

    def _refit(self, width: int) -> None:
        if footer_bindings_ready(self) and width != self._fitted_width:
            self._fitted_width = width
            self.call_after_refresh(self.recompose)
