"""Small questions the app asks before it could lose work."""

from __future__ import annotations

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from voyage_tui.app.actions import action, bindings, of_scope
from voyage_tui.app.screens.base import VoyageModal
from voyage_tui.app.widgets.safe_text import printable

CANCEL = "cancel"

ANSWERS = [
    a.id.removeprefix("dialog.") for a in of_scope("dialog") if a.action.startswith("choose(")
]
"""Every answer a question may offer: the registry's `dialog.<answer>` actions."""


class ChoiceScreen(VoyageModal[str]):
    """A question with a few answers and Cancel; each answer has its key from the registry
    (`dialog.save` is `s` in every dialog), escape or `c` cancel."""

    BINDINGS = bindings("dialog", only=["dialog.cancel", *(f"dialog.{a}" for a in ANSWERS)])

    def __init__(
        self,
        question: str,
        answers: list[str],
        detail: str = "",
        labels: dict[str, str] | None = None,
    ) -> None:
        """answers: names of `dialog.*` actions (save, discard, ...) in button order; Cancel
        follows them. The screen returns the answer's name, or "cancel". labels: an answer's
        words for this question in place of the registry's (the key stays the answer's own)."""
        super().__init__()
        unknown = [a for a in answers if a not in ANSWERS]
        if unknown:
            raise ValueError(f"not a dialog answer: {', '.join(unknown)}")
        self.question = question
        self.answers = [*answers, CANCEL]
        self.detail = detail
        self.labels = labels or {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # Plain text, never markup: questions name files, and a name may hold `[/x]`.
            yield Static(Text(printable(self.question)), classes="question")
            if self.detail:
                with VerticalScroll(classes="dialog-detail"):
                    yield Static(Syntax(self.detail, "diff", theme="ansi_dark", word_wrap=True))
            with Horizontal(classes="buttons"):
                for answer in self.answers:
                    action_id = f"dialog.{answer}"
                    words = self.labels.get(answer, action(action_id).description)
                    yield Button(
                        f"{words} ({self.app.key_text(action_id)})",
                        id=f"choice-{answer}",
                        variant="primary" if answer == self.answers[0] else "default",
                    )

    def on_mount(self) -> None:
        self.query_one(f"#choice-{self.answers[0]}", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the answers this question offers have live keys."""
        if action == "choose":
            return bool(parameters) and parameters[0] in self.answers
        return True

    def action_choose(self, answer: str) -> None:
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(CANCEL)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))


def unsaved_changes(name: str) -> ChoiceScreen:
    return ChoiceScreen(f"{name} has unsaved changes.", ["save", "discard"])


def save_conflict(name: str, diff: str) -> ChoiceScreen:
    return ChoiceScreen(
        f"{name} changed on disk since you opened it; your save was refused so nothing is lost.\n"
        "Reload the file from disk (your edits are dropped), or keep yours (the disk version is "
        "overwritten)? The difference, disk → yours:",
        ["reload", "keep"],
        detail=diff or "(no textual difference)",
    )


def retire_question(*paths: str) -> ChoiceScreen:
    """The engine's question before a retire (engine/git/retire_question.py), as a dialog; it
    returns the answer's name, which RetireQuestion.commit_for reads."""
    from voyage_tui.engine.git.retire_question import retire_question as question_for

    question = question_for(paths)
    return ChoiceScreen(question.text, list(question.answers))
