"""An OptionList that moves with the keys every list of the app shares: `j`/`k` down and up,
`g`/`G` first and last (as the tree and triage do, and as lazygit's users expect). Every list
of the app is one of these, so a key means the same thing in all of them."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType
from textual.widgets import OptionList

from voyage_tui.app.actions import bindings


class KeyList(OptionList):
    # No SCOPE: a subclass (the diagnostics list) adds actions of its own scope.
    BINDINGS: ClassVar[list[BindingType]] = bindings("list")
