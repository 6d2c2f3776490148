"""Messages from workers to the screens: results come back as messages, never shared state."""

from __future__ import annotations

from textual.message import Message

from voyage_tui.engine.validation.view import SuiteView


class LoadProgress(Message):
    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class SuiteListed(Message):
    """The first load listed the files (and then each batch it checked): a view to act on
    while the rest are checked (`view.unchecked`)."""

    def __init__(self, view: SuiteView, done: int, total: int) -> None:
        super().__init__()
        self.view = view
        self.done = done
        self.total = total


class SuiteLoaded(Message):
    """The first full validation finished."""

    def __init__(self, view: SuiteView) -> None:
        super().__init__()
        self.view = view


class SuiteChanged(Message):
    """Files changed on disk and were re-validated; `touched` are the item paths affected."""

    def __init__(self, view: SuiteView, touched: set[str]) -> None:
        super().__init__()
        self.view = view
        self.touched = touched


class LoadFailed(Message):
    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error
