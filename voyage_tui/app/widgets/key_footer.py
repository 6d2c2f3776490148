"""The footer of every screen: Textual's, except that when its keys do not fit it drops the least
important first (the registry's `keep`: quit and help last), rather than cutting off whatever
comes last, which were quit and help."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
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


class KeyFooter(Footer):
    """Textual's footer, fitted to its width by importance (`actions.fit_footer`)."""

    def __init__(self) -> None:
        super().__init__()
        self._fitted_width = 0

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
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
        self._fitted_width = width
        if palette is not None:
            width -= PALETTE_FRAME + key_cells(
                self.app.get_key_display(palette.binding), palette.binding.description
            )
        kept = fit_footer(
            [(b.id, key_cells(self.app.get_key_display(b), b.description)) for b, _, _ in rows],
            width,
        )
        for (binding, enabled, tooltip), keep in zip(rows, kept, strict=True):
            if keep:
                yield FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    disabled=not enabled,
                    tooltip=tooltip,
                ).data_bind(compact=Footer.compact)
        if palette is not None:
            _, binding, enabled, tooltip = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )

    def on_resize(self, event: events.Resize) -> None:
        if footer_bindings_ready(self) and event.size.width != self._fitted_width:
            self.call_after_refresh(self.recompose)
