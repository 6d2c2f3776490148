"""The creation wizard: a task or trajectory fixture step by step, checked live by the engine.

The steps are down the left with their status; the current step's form is in the middle and its
diagnostics below it. Back and forward always work, from any step, with or without errors: every
answer stays in `self.answers` (forms edit it in place). The answers are checked in a worker a
quarter of a second after the last edit and whenever a step is left; they are saved as a draft in
`.voyage/drafts/` whenever a step is left and a moment after typing stops, so a closed terminal
loses at most that moment. The last step shows the YAML and every diagnostic; the file is written
only through the engine, which refuses anything validate would not accept.
"""

from __future__ import annotations

import copy
import os
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.wizard_forms import WIZARD_HELP, StepForm, form_class
from voyage_tui.app.screens.wizard_modals import DraftPicker, FixturePicker
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.app.widgets.step_list import StepList, StepStatus
from voyage_tui.engine.authoring import (
    PREVIEW,
    Answers,
    Authoring,
    Checked,
    DraftStore,
    DraftUnusable,
    NotWritten,
    StartError,
    Step,
    TaskAnswers,
    TrajectoryAnswers,
    WizardStart,
    Written,
    step_diagnostics,
    step_of_field,
    steps_for,
)
from voyage_tui.engine.authoring.choices import DEFAULT_VERDICT, Specialist
from voyage_tui.engine.authoring.drafts import Draft
from voyage_tui.engine.authoring.render import HOLDOUT
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.references.rubric import Dimension
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural, sentence
from voyage_tui.engine.workspace.model import Workspace

CHECK_DELAY = 0.25
"""Seconds of quiet typing before the answers are checked again (as in the editor)."""
AUTOSAVE_DELAY = 2.0
"""Seconds of quiet typing before the draft is saved (it is saved on every step change too)."""
REVEAL_WAIT = 3.0
"""After a write, how long to wait for the new fixture to reach the browser before going back."""

MISSING_FIELD = "missing-field"
KIND = "kind"
CHECK = "check"
"""The key of the answers' checks (`run_in_thread`): only the newest one's result is shown."""


@dataclass(slots=True)
class WizardOutcome:
    """How a wizard opened by `voyage-tui new` ended: what it wrote, or the draft it kept."""

    kind: str
    written: Written | None = None
    draft: str = ""
    """The draft holding the answers ("" when none was kept)."""
    notes: list[Diagnostic] = field(default_factory=list)
    """Diagnostics of the written file that did not stop the write (infos)."""


def prefilled(answers: Answers, step: Step) -> bool:
    """The step already holds an answer (from flags, a copied fixture or a draft)."""
    if step.name in (KIND, PREVIEW, "visibility"):
        return False
    if isinstance(answers, TrajectoryAnswers):
        if step.name == "phases":
            return any(not p.traversed for p in answers.phases)
        if step.name == "gates":
            # every gate starts recorded as pass: an answer is a gate that differs
            return any(g.verdict != DEFAULT_VERDICT or not g.recorded for g in answers.gates)
        if step.name == "routing":
            return bool(answers.routing_selected or answers.routing_skipped)
    if step.text is not None:
        return bool(step.text.get(answers).strip())
    if isinstance(answers, TaskAnswers):
        if step.name == "context":
            return bool(answers.context)
        if step.name == "scoring_notes":
            return bool(answers.scoring_notes)
    return False


class WizardScreen(VoyageScreen[None]):
    SCOPE = "wizard"
    HELP = WIZARD_HELP

    BINDINGS = bindings(
        "wizard",
        only=["wizard.forward", "wizard.back", "wizard.write", "wizard.steps", "wizard.leave"],
    )

    def __init__(self, start: WizardStart | None = None, *, standalone: bool = False) -> None:
        """`start`: the answers (and draft, and step) to open on; None opens a new task on the
        first step. `standalone`: opened by `voyage-tui new`, so leaving or writing ends the app."""
        super().__init__()
        self.start = start
        self.standalone = standalone
        self.answers: Answers = start.answers if start is not None else TaskAnswers()
        self.draft = start.draft if start is not None else ""
        self.step_name = ""
        self.visited: set[str] = set()
        """Steps left at least once: their status and all their diagnostics show."""
        self.checked: Checked | None = None
        self.authoring: Authoring | None = None
        self.drafts: DraftStore | None = None
        self.edited_any = False
        """The person changed something: worth a draft (a wizard left untouched keeps none)."""
        self.unsaved = False
        self.done = False
        self.closed = False
        self.written: Written | None = None
        self._other_kind: dict[str, Answers] = {}
        self._id_proposal = ""
        self._check_timer: Timer | None = None
        self._save_timer: Timer | None = None
        self._check_lock = threading.Lock()
        self._io_lock = threading.Lock()
        self._writing = False
        self._reveal_path = ""
        self._form: StepForm | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="wizard-title")
        with Horizontal(id="wizard-body"):
            yield StepList(id="wizard-steps")
            with Vertical(id="wizard-main"):
                yield Static(id="step-heading")
                yield Vertical(id="step-host")
                yield DiagnosticsList(id="step-diagnostics")
        yield KeyFooter()

    # --- what the forms ask -------------------------------------------------------------------

    @property
    def ws(self) -> Workspace:
        return self.app.ws

    @property
    def use_git(self) -> bool:
        return self.app.use_git

    def dimensions(self) -> list[Dimension]:
        return self.authoring.dimensions() if self.authoring is not None else []

    def specialists(self) -> list[Specialist]:
        return self.authoring.specialists() if self.authoring is not None else []

    def propose_id(self) -> str:
        """Fill the id in from the prompt while it is empty or still the last proposal (so it
        follows a changed prompt); returns the proposal ("" when there is none)."""
        if self.authoring is None:
            return ""
        current = self.answers.id
        if current.strip() and current != self._id_proposal:
            return ""
        proposal = self.authoring.propose_id(self.answers.prompt)
        self._id_proposal = proposal
        if proposal and proposal != current:
            self.answers.id = proposal
            self.note_edit()
        return proposal

    @property
    def form(self) -> StepForm | None:
        """The current step's form, once it is fully built (None while steps change)."""
        return self._form

    @property
    def settled(self) -> bool:
        """Nothing waiting to be checked, and the last check shown (for tests and screenshots)."""
        return self.authoring is not None and self._check_timer is None and not self.waiting(CHECK)

    def steps(self) -> list[Step]:
        return steps_for(self.answers)

    def step(self, name: str | None = None) -> Step:
        name = name or self.step_name
        steps = self.steps()
        return next((s for s in steps if s.name == name), steps[-1])

    # --- start ---------------------------------------------------------------------------------

    async def on_mount(self) -> None:
        self.drafts = DraftStore(self.ws)
        view = self.app.view
        if view is not None:
            self._use_view(view)
        if self.start is None and self.authoring is not None:
            self.answers = self.authoring.new("task")
        steps = self.steps()
        names = [s.name for s in steps]
        first = KIND
        if self.start is not None:
            wanted = self.start.step
            if wanted in names:
                first = wanted
                self.visited = set(names[: names.index(wanted)])
            else:
                self.visited = {KIND} | {s.name for s in steps if prefilled(self.answers, s)}
                first = next((n for n in names if n not in self.visited), PREVIEW)
        await self._show_step(first)
        self.check_now()
        for notice in self.start.notices if self.start is not None else ():
            self.notify(notice, severity="warning", timeout=15, markup=False)

    def suite_loaded(self, view: SuiteView) -> None:
        first = self.authoring is None
        self._use_view(view)
        if first:
            self.call_later(self._suite_arrived)
        else:
            self.check_now()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        self._use_view(view)
        if self._reveal_path:
            if self._reveal_path in view.items:
                self._reveal()
            return
        if not self.done:
            self.check_now()

    def _use_view(self, view: SuiteView) -> None:
        # The app's view, not its live suite: a view is a snapshot no worker changes, so a check
        # on another thread reads one consistent state (ids, references).
        if self.authoring is None:
            self.authoring = Authoring(view, use_git=self.use_git)  # type: ignore[arg-type]
        else:
            self.authoring.suite = view  # type: ignore[assignment]

    async def _suite_arrived(self) -> None:
        form = self.form
        if form is not None and form.needs_suite:
            await self._show_step(self.step_name)
        self.check_now()

    # --- moving between steps ----------------------------------------------------------------

    async def action_forward(self) -> None:
        names = [s.name for s in self.steps()]
        index = names.index(self.step_name) if self.step_name in names else -1
        if index + 1 < len(names):
            await self.goto(names[index + 1])
        else:
            self.notify("This is the last step: ctrl+s writes the file.", timeout=3)

    async def action_back(self) -> None:
        names = [s.name for s in self.steps()]
        index = names.index(self.step_name) if self.step_name in names else len(names)
        if index > 0:
            await self.goto(names[index - 1])

    async def goto(self, name: str) -> None:
        """Open another step: the one left is marked visited, the answers checked and saved as
        a draft."""
        if name == self.step_name:
            form = self.form
            if form is not None:
                form.focus_first()
            return
        if self.step_name:
            self.visited.add(self.step_name)
        await self._show_step(name)
        self.save_draft()  # the draft reopens on the step moved to
        self.check_now()

    async def _show_step(self, name: str) -> None:
        step = self.step(name)
        self.step_name = step.name
        host = self.query_one("#step-host")
        self._form = None
        await host.remove_children()
        form = form_class(step)(step, self.answers, self)
        await host.mount(form)
        self._form = form
        self._show_heading(step)
        self.refresh_status()
        form.focus_first()

    def _show_heading(self, step: Step) -> None:
        steps = self.steps()
        number = next((i for i, s in enumerate(steps, 1) if s.name == step.name), len(steps))
        title = Text(f" New {self.answers.kind}", style="bold")
        title.append(f" · step {number} of {len(steps)}")
        if self.written is not None:
            title.append(f" · created {self.written.path}", style="bold green")
        self.query_one("#wizard-title", Static).update(title)
        heading = Text(step.title, style="bold")
        if not step.required and not self._required_here(step):
            heading.append("  (optional)", style="dim")
        heading.append(f"\n{step.help}", style="dim")
        self.query_one("#step-heading", Static).update(heading)

    def _required_here(self, step: Step) -> bool:
        """A step optional in general that these answers need (the full path's commit)."""
        return (
            step.name == "final_head_sha"
            and isinstance(self.answers, TrajectoryAnswers)
            and self.answers.path.strip() == "full"
        )

    @on(StepList.Chosen)
    async def _step_chosen(self, event: StepList.Chosen) -> None:
        event.stop()
        await self.goto(event.name)

    @on(StepForm.Advance)
    async def _advance(self, event: StepForm.Advance) -> None:
        event.stop()
        await self.action_forward()

    @on(DiagnosticsList.Open, "#step-diagnostics")
    async def _open_diagnostic(self, event: DiagnosticsList.Open) -> None:
        """Enter on a diagnostic opens the step its field belongs to."""
        event.stop()
        checked = self.checked
        if checked is None:
            return
        found = next((f for f in checked.findings if f.diagnostic == event.diagnostic), None)
        name = step_of_field(self.answers, found.field if found else None)
        await self.goto(name)

    def action_start_from(self) -> None:
        self.pick_fixture()

    def action_resume(self) -> None:
        self.pick_draft()

    def action_focus_steps(self) -> None:
        self.query_one(StepList).focus()

    # --- status ------------------------------------------------------------------------------

    def diagnostics_of(self, step: Step) -> list[Diagnostic]:
        """What a step shows: a required answer reads as missing only once its step was left."""
        if self.checked is None:
            return []
        found = step_diagnostics(self.checked, step)
        if step.name in self.visited or step.name == PREVIEW:
            return found
        return [d for d in found if d.code != MISSING_FIELD]

    def refresh_status(self) -> None:
        steps = self.steps()
        if self.step_name not in {s.name for s in steps}:
            return  # the step just went away (the class changed); the next move shows another
        statuses = []
        for step in steps:
            # a step's status shows once it was left: an empty answer is not yet a mistake
            shown = step.name in self.visited
            found = self.diagnostics_of(step) if shown and self.checked is not None else []
            statuses.append(
                StepStatus(
                    step.name,
                    step.title,
                    shown and self.checked is not None,
                    sum(d.severity is Severity.ERROR for d in found),
                    sum(d.severity is Severity.WARNING for d in found),
                    not step.required,
                )
            )
        self.query_one(StepList).show(statuses, self.step_name)
        listing = self.query_one("#step-diagnostics", DiagnosticsList)
        if self.checked is None:
            listing.diagnostics = []
            listing.clear_options()
            listing.add_option(Option(Text("reading the suite…", style="dim"), disabled=True))
        else:
            listing.show(self.diagnostics_of(self.step()))
        self._show_heading(self.step())

    # --- edits and checks ---------------------------------------------------------------------

    @on(StepForm.Edited)
    def _edited(self, event: StepForm.Edited) -> None:
        event.stop()
        self.note_edit()

    def note_edit(self) -> None:
        self.edited_any = True
        self.unsaved = True
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(CHECK_DELAY, self.check_now)
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(AUTOSAVE_DELAY, self.save_draft)

    def _give_canary(self) -> None:
        # The engine gives a holdout its canary when it checks; the check runs on a copy, so the
        # canary is made here, once, and kept in the answers (preview, draft and file agree).
        if self.answers.visibility.strip() == HOLDOUT and not self.answers.canary.strip():
            self.answers.canary = str(uuid.uuid4())

    def check_now(self) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
            self._check_timer = None
        if self.authoring is None or self.done:
            return
        self._give_canary()
        authoring, answers = self.authoring, copy.deepcopy(self.answers)

        def check() -> Checked | Exception:
            with self._check_lock:
                try:
                    return authoring.check(answers)
                except Exception as exc:  # a check that fails is told, and typing goes on
                    return exc

        self.run_in_thread(check, self._show_checked, key=CHECK, stale=lambda: self.closed)

    def _show_checked(self, checked: Checked | Exception) -> None:
        if isinstance(checked, Exception):
            self.notify(
                sentence(f"The answers could not be checked: {checked}"),
                severity="error",
                markup=False,
            )
            return
        self.checked = checked
        self.refresh_status()
        form = self.form
        if form is not None:
            form.checked(checked)

    # --- drafts --------------------------------------------------------------------------------

    def save_draft(self, then: Callable[[], object] | None = None) -> None:
        """Save the answers as the draft (in a worker); `then` runs once it is on disk."""
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        if self.drafts is None or self.done or not self.edited_any:
            if then is not None:
                then()
            return
        if not self.draft:
            self.draft = DraftStore.new_name(self.answers.kind)
        self.unsaved = False
        drafts, name, answers, step = (
            self.drafts,
            self.draft,
            copy.deepcopy(self.answers),
            self.step_name,
        )

        def save() -> bool | Exception:
            """True once saved; False when the wizard was done first (written, discarded)."""
            with self._io_lock:
                if self.done:
                    return False
                try:
                    drafts.save(name, answers, step)
                except Exception as exc:  # a draft that cannot be saved must not stop the wizard
                    return exc
            return True

        def saved(outcome: bool | Exception) -> None:
            if isinstance(outcome, Exception):
                self._draft_failed(outcome)
            elif outcome and then is not None:
                then()

        self.run_in_thread(save, saved)

    def _draft_failed(self, error: Exception) -> None:
        self.unsaved = True
        self.notify(
            f"The draft could not be saved: {error}. Your answers are still here.",
            severity="error",
            timeout=10,
            markup=False,
        )

    def on_unmount(self) -> None:
        # Quitting the app (ctrl+q) from the wizard: whatever the last step changed goes into
        # the draft too. A small file, written here because no worker will run any more.
        if self.closed:
            return
        if not self.done and self.unsaved and self.edited_any and self.drafts is not None:
            try:
                if not self.draft:
                    self.draft = DraftStore.new_name(self.answers.kind)
                with self._io_lock:
                    self.drafts.save(self.draft, self.answers, self.step_name)
            except Exception:
                self.draft = ""
        self._record_outcome()

    # --- starting from elsewhere -----------------------------------------------------------------

    def choose_kind(self, kind: str) -> bool:
        """Switch between a task and a trajectory; the other kind's answers are kept for a switch
        back, and the prompt, id and visibility come along to a kind not tried yet."""
        if kind == self.answers.kind:
            return True
        if self.authoring is None:
            self.notify("The suite is still loading; choose again in a moment.", timeout=3)
            return False
        old = self.answers
        self._other_kind[old.kind] = old
        new = self._other_kind.pop(kind, None)
        if new is None:
            new = self.authoring.new(kind)
            new.prompt, new.id, new.visibility, new.canary = (
                old.prompt,
                old.id,
                old.visibility,
                old.canary,
            )
        self.answers = new
        self.visited = {KIND} | {s.name for s in self.steps() if s.name in self.visited}
        self.note_edit()
        return True

    def pick_fixture(self) -> None:
        if self.authoring is None:
            self.notify("The suite is still loading; try again in a moment.", timeout=3)
            return
        self.app.push_screen(FixturePicker(self.authoring.ids()), self._start_from)

    def _start_from(self, fixture_id: str | None) -> None:
        authoring = self.authoring
        if not fixture_id or authoring is None:
            return

        def start() -> tuple[Answers, Diagnostic | None] | StartError:
            try:
                answers = authoring.start_from(fixture_id)
            except StartError as exc:
                return exc
            return answers, authoring.exposed_source(fixture_id)

        def started(found: tuple[Answers, Diagnostic | None] | StartError) -> None:
            if isinstance(found, StartError):
                self.notify(
                    printable(sentence(found.diagnostic.message)), severity="error", markup=False
                )
                return
            answers, leaked = found
            self._restart(answers, None, f"Started from {printable(fixture_id, lines=False)}")
            if leaked is not None:
                self.notify(
                    printable(sentence(leaked.message)),
                    severity="warning",
                    markup=False,
                    timeout=12,
                )

        self.run_in_thread(start, started)

    def pick_draft(self) -> None:
        if self.drafts is not None:
            self.run_in_thread(self.drafts.drafts, self._show_drafts)

    def _show_drafts(self, listed: tuple[list[Draft], list[Diagnostic]]) -> None:
        found, problems = listed
        found = [d for d in found if d.name != self.draft]
        self.app.push_screen(DraftPicker(found, problems), self._resume)

    def _resume(self, name: str | None) -> None:
        drafts = self.drafts
        if not name or drafts is None:
            return

        def load() -> Draft | DraftUnusable:
            try:
                return drafts.load(name)
            except DraftUnusable as exc:
                return exc

        def loaded(draft: Draft | DraftUnusable) -> None:
            if isinstance(draft, DraftUnusable):
                self.notify(sentence(draft.diagnostic.message), severity="error", markup=False)
                return
            self._restart(draft.answers, draft, f"Resumed {name}")

        self.run_in_thread(load, loaded)

    def _restart(self, answers: Answers, draft: Draft | None, note: str) -> None:
        """Carry on from other answers: a copied fixture's (a new draft) or a draft's own."""
        self.save_draft()  # what was typed so far stays in its own draft
        self.answers = answers
        self._other_kind = {}
        self._id_proposal = ""
        steps = self.steps()
        names = [s.name for s in steps]
        if draft is not None:
            self.draft = draft.name
            first = draft.step if draft.step in names else names[1]
            self.visited = set(names[: names.index(first)])
        else:
            self.draft = ""
            self.visited = {KIND} | {s.name for s in steps if prefilled(answers, s)}
            first = next((s.name for s in steps if s.name == "id"), names[1])
        self.checked = None
        self.note_edit()
        self.notify(f"{note}: every answer is here; check each step.", timeout=5, markup=False)
        self.call_later(self._open_afresh, first)

    async def _open_afresh(self, name: str) -> None:
        """Open `name` as the first step of other answers (nothing to mark visited)."""
        self.step_name = ""
        await self._show_step(name)
        self.check_now()

    # --- writing and leaving -------------------------------------------------------------------

    async def action_write(self) -> None:
        if self.step_name != PREVIEW:
            await self.goto(PREVIEW)
            return
        if self.authoring is None or self.done or self._writing:
            return
        checked = self.checked
        if checked is not None and not checked.writable and not self.waiting(CHECK):
            count = len(checked.blocking)
            self.notify(
                f"Not written: {plural(count, 'problem')} to fix first (listed below)."
                if count
                else "Not written: the class and the id are needed first.",
                severity="warning",
                timeout=4,
            )
            return
        self._writing = True
        self._give_canary()
        authoring, answers, draft = self.authoring, copy.deepcopy(self.answers), self.draft

        def write() -> Written | NotWritten | Exception:
            with self._io_lock:
                try:
                    written = authoring.write(answers, draft or None)
                except NotWritten as exc:
                    return exc
                except (
                    Exception
                ) as exc:  # OSError of the write (what was made is removed), or worse
                    return exc
                self.done = True  # no draft save after this (the engine deleted the draft)
            return written

        def wrote(outcome: Written | NotWritten | Exception) -> None:
            if isinstance(outcome, NotWritten):
                self._not_written(outcome.problems)
            elif isinstance(outcome, Exception):
                self._write_failed(outcome)
            else:
                self._written(outcome)

        self.run_in_thread(write, wrote)

    def _not_written(self, problems: list[Diagnostic]) -> None:
        self._writing = False
        self.notify(
            f"Nothing was written; {plural(len(problems), 'problem')} to fix: "
            + " ".join(sentence(p.message) for p in problems[:3]),
            severity="error",
            timeout=10,
            markup=False,
        )
        self.check_now()

    def _write_failed(self, error: Exception) -> None:
        self._writing = False
        self.notify(
            f"Nothing was written: {error}. Your answers are still here.",
            severity="error",
            timeout=15,
            markup=False,
        )

    def _written(self, written: Written) -> None:
        self._writing = False
        self.written = written
        self.draft = ""  # the engine deleted it
        self._show_heading(self.step())
        self.app.notify(f"Created {written.path}.", timeout=5, markup=False)
        self.app.revalidate_paths(set(written.files))
        if self.standalone:
            self._close()
            return
        self._reveal_path = written.path
        self.set_timer(REVEAL_WAIT, self._reveal)

    def _reveal(self) -> None:
        path, self._reveal_path = self._reveal_path, ""
        if not path or self.closed:
            return
        self.closed = True
        self.app.reveal(path)

    def action_leave(self) -> None:
        if self.done or not self.edited_any:
            self._close()
            return
        name = self.draft or "(a new draft)"
        question = (
            f"Leave the wizard? Nothing is written. Keep your answers in the draft {name} "
            "(.voyage/drafts/: “Resume a draft” on the first step, or "
            f"`voyage-tui new {self.answers.kind} --resume`, reopens it), or discard the draft?"
        )
        dialog = ChoiceScreen(question, ["keep", "discard"], labels={"keep": "Keep the draft"})
        self.app.push_screen(dialog, self._leave_answer)

    def _leave_answer(self, choice: str | None) -> None:
        if choice == "keep":
            self.save_draft(then=self._close)
        elif choice == "discard":
            self._discard()

    def _discard(self) -> None:
        drafts, draft = self.drafts, self.draft

        def discard() -> None:
            with self._io_lock:
                self.done = True  # no draft save after this one
                if draft and drafts is not None:
                    drafts.delete(draft)

        def discarded(_: None) -> None:
            self.draft = ""
            self._close()

        self.run_in_thread(discard, discarded)

    def _kept_draft(self) -> str:
        """The draft holding the answers, if one is on disk."""
        if not self.draft or self.written is not None or self.drafts is None:
            return ""
        return self.draft if os.path.isfile(self.ws.abs(self.drafts.rel(self.draft))) else ""

    def _record_outcome(self) -> None:
        if not self.standalone:
            return
        notes = self.checked.diagnostics if self.checked is not None else []
        self.app.wizard_outcome = WizardOutcome(
            self.answers.kind,
            self.written,
            self._kept_draft(),
            [d for d in notes if d.severity is Severity.INFO],
        )

    def _close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._record_outcome()
        if self.standalone:
            self.app.exit(0 if self.written is not None else 1)
        else:
            self.app.pop_screen()
