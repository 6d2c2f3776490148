"""The trajectory steps: the journey's phases and gates as checklists (each unticked one asks
for its reason), the commit `final_head_sha` binds to, and the routing table's specialists."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.wizard_forms import CHOSEN, StepForm
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.authoring import (
    VERDICT_CHOICES,
    Commit,
    GateMark,
    PhaseMark,
    RevisionError,
    RoutingSkip,
    TrajectoryAnswers,
)
from voyage_tui.engine.git.repo import GitUnavailable
from voyage_tui.engine.git.sha_check import is_full_sha
from voyage_tui.engine.wording import plural, sentence

FULL_PATH = "full"
PASSED, FAILED, NOT_NOW = "✓", "✗", "·"


def rule_line(state: str, text: str) -> Text:
    style = {PASSED: "green", FAILED: "bold red", NOT_NOW: "dim"}[state]
    line = Text()
    line.append(f"{state} ", style=style)
    line.append(text, style="dim" if state == NOT_NOW else "")
    return line


def rules_text(lines: list[Text]) -> Text:
    return Text("\n").join(lines)


def rules(lines: list[Text], widget_id: str = "rules") -> Static:
    shown = Static(rules_text(lines), id=widget_id, classes="rules")
    shown.border_title = "Rules"
    return shown


class Checklist(VerticalScroll):
    """The rows of a checklist. `up` / `down` (and `j` / `k`) move the focus from field to field
    down the rows, a row's tick and then its visible text fields, as any list of the app moves
    (a plain scrolling container would scroll the form under a focus that stays put); `space`
    or `x` on a tick ticks it. In a text field `j` and `k` are typed, the arrows still move."""

    BINDINGS = bindings("checklist", only=["checklist.down", "checklist.up"])

    def action_move(self, delta: int) -> None:
        fields = [w for w in self.screen.focus_chain if w is not self and self in w.ancestors]
        if not fields:
            return
        focused = self.screen.focused
        if focused not in fields:
            fields[0].focus()
            return
        index = fields.index(focused) + delta
        fields[max(0, min(index, len(fields) - 1))].focus()


class Tick(Checkbox):
    """A checkbox that reads without colour: `✓` ticked, blank not."""

    BINDINGS = bindings("checklist", only=["checklist.toggle"])

    @property
    def BUTTON_INNER(self) -> str:
        return "✓" if self.value else " "

    @BUTTON_INNER.setter
    def BUTTON_INNER(self, _: str) -> None:
        """The mark follows the value; nothing sets it."""


class JourneyForm(StepForm):
    @property
    def trajectory(self) -> TrajectoryAnswers:
        assert isinstance(self.answers, TrajectoryAnswers)
        return self.answers


# --- phases ----------------------------------------------------------------------------------------


def _reasons_line(unreasoned: int, rule: str) -> Text:
    """Each skipped step (phase or gate) says why."""
    return rule_line(
        FAILED if unreasoned else PASSED, rule + (f" ({unreasoned} without)" if unreasoned else "")
    )


def _full_path_line(
    answers: TrajectoryAnswers, noun: str, count: int, done: str, skipped: tuple[int, str]
) -> Text:
    """On the full path every phase (gate) is traversed (recorded); on the others the rule
    does not apply. `skipped`: how many are not, and the word for them."""
    if answers.path.strip() != FULL_PATH:
        return rule_line(NOT_NOW, f"full path: every {noun} {done}")
    left, word = skipped
    return rule_line(
        FAILED if left else PASSED,
        f"full path: all {plural(count, noun)} {done}" + (f" ({left} {word})" if left else ""),
    )


def _row_index(widget_id: str | None) -> int | None:
    """The row of a checklist widget, from its id (`phase-3`, `gate-2-reason`)."""
    parts = (widget_id or "").split("-")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def phase_rules(answers: TrajectoryAnswers) -> list[Text]:
    skipped = [p for p in answers.phases if not p.traversed]
    unreasoned = sum(1 for p in skipped if not p.reason.strip())
    return [
        _reasons_line(unreasoned, "each unticked phase has its reason"),
        _full_path_line(
            answers, "phase", len(answers.phases), "traversed", (len(skipped), "unticked")
        ),
        rule_line(PASSED, "numbered and named as in journey.md, in order"),
    ]


class PhasesForm(JourneyForm):
    """Tick each phase the journey traversed; an unticked phase asks for its reason."""

    def compose(self) -> ComposeResult:
        phases = self.trajectory.phases
        with Checklist(id="checklist"):
            if not phases:
                yield Static(
                    Text(
                        "journey.md yields no phases: fix it first (its diagnostics are in the "
                        "browser, under Workspace).",
                        style="bold red",
                    )
                )
            for index, phase in enumerate(phases):
                with Vertical(classes="check-row"):
                    yield Tick(
                        # journey.md's words: shown as they are, never read as markup
                        Text(printable(f"{phase.number}: {phase.name}", lines=False)),
                        phase.traversed,
                        id=f"phase-{index}",
                        compact=True,
                    )
                    reason = Input(
                        phase.reason,
                        id=f"phase-{index}-reason",
                        compact=True,
                        placeholder="why this phase was skipped (required)",
                        classes="reason",
                    )
                    reason.display = not phase.traversed
                    yield reason
        yield rules(phase_rules(self.trajectory))

    def _mark(self, widget_id: str | None) -> PhaseMark | None:
        index = _row_index(widget_id)
        phases = self.trajectory.phases
        return phases[index] if index is not None and index < len(phases) else None

    @on(Checkbox.Changed)
    def _ticked(self, event: Checkbox.Changed) -> None:
        event.stop()
        mark = self._mark(event.checkbox.id)
        if mark is None or mark.traversed == event.value:
            return
        mark.traversed = event.value
        reason = self.query_one(f"#{event.checkbox.id}-reason", Input)
        reason.display = not event.value
        if not event.value:
            reason.focus()
        self._changed()

    @on(Input.Changed, ".reason")
    def _reason(self, event: Input.Changed) -> None:
        event.stop()
        mark = self._mark(event.input.id)
        if mark is not None and mark.reason != event.value:
            mark.reason = event.value
            self._changed()

    def _changed(self) -> None:
        self.query_one("#rules", Static).update(rules_text(phase_rules(self.trajectory)))
        self.edited()


# --- gates -----------------------------------------------------------------------------------------


def gate_rules(answers: TrajectoryAnswers) -> list[Text]:
    recorded = [g for g in answers.gates if g.recorded]
    skipped = [g for g in answers.gates if not g.recorded]
    incomplete = sum(1 for g in recorded if not g.verdict.strip() or not g.description.strip())
    unreasoned = sum(1 for g in skipped if not g.reason.strip())
    return [
        rule_line(
            FAILED if incomplete else PASSED,
            "a recorded gate has a verdict and a description"
            + (f" ({incomplete} without)" if incomplete else ""),
        ),
        _reasons_line(unreasoned, "a skipped gate has its reason"),
        _full_path_line(answers, "gate", len(answers.gates), "recorded", (len(skipped), "skipped")),
    ]


VERDICT_VALUES = [c.value for c in VERDICT_CHOICES]


def verdict_text(verdict: str) -> Text:
    """A gate's verdict and the keys that change it (a verdict outside the vocabulary, from a
    draft or a copy, is shown as it is: the diagnostics say what is wrong with it)."""
    text = Text("verdict: ", style="dim")
    if verdict:
        style = "bold" if verdict in VERDICT_VALUES else "bold red"
        text.append(printable(verdict, lines=False), style=style)
    else:
        text.append("none", style="bold red")
    text.append("  (p, c, b)", style="dim")
    return text


class GateTick(Tick):
    """A gate's tick: `p`, `c` or `b` gives the gate its verdict (recording a skipped gate)."""

    BINDINGS = bindings(
        "checklist", only=["checklist.pass", "checklist.conditional", "checklist.blocked"]
    )

    class Verdict(Message):
        def __init__(self, tick: GateTick, verdict: str) -> None:
            super().__init__()
            self.tick = tick
            self.verdict = verdict

    def action_verdict(self, verdict: str) -> None:
        self.post_message(self.Verdict(self, verdict))


class VerdictLabel(Static):
    """A gate's verdict; a click gives it the next one (the keys are `p`, `c`, `b`)."""

    class Clicked(Message):
        def __init__(self, label: VerdictLabel) -> None:
            super().__init__()
            self.label = label

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self))


class GatesForm(JourneyForm):
    """Each gate recorded with a verdict (pass unless changed: `p`, `c`, `b` on its row) and a
    description, or skipped with a reason."""

    def compose(self) -> ComposeResult:
        with Checklist(id="checklist"):
            for index, gate in enumerate(self.trajectory.gates):
                with Vertical(classes="check-row"):
                    with Horizontal(classes="gate-head"):
                        yield GateTick(
                            f"gate-{gate.number} recorded",
                            gate.recorded,
                            id=f"gate-{index}",
                            compact=True,
                        )
                        verdict = VerdictLabel(
                            verdict_text(gate.verdict),
                            id=f"gate-{index}-verdict",
                            classes="verdict",
                        )
                        verdict.display = gate.recorded
                        yield verdict
                    description = Input(
                        gate.description,
                        id=f"gate-{index}-description",
                        compact=True,
                        placeholder="what the gate checked",
                        classes="description",
                    )
                    description.display = gate.recorded
                    yield description
                    reason = Input(
                        gate.reason,
                        id=f"gate-{index}-reason",
                        compact=True,
                        placeholder="why this gate was skipped (required)",
                        classes="reason",
                    )
                    reason.display = not gate.recorded
                    yield reason
        yield rules(gate_rules(self.trajectory))

    def _gate(self, widget_id: str | None) -> tuple[int, GateMark] | None:
        index = _row_index(widget_id)
        gates = self.trajectory.gates
        return (index, gates[index]) if index is not None and index < len(gates) else None

    @on(Checkbox.Changed)
    def _ticked(self, event: Checkbox.Changed) -> None:
        event.stop()
        found = self._gate(event.checkbox.id)
        if found is None or found[1].recorded == event.value:
            return
        index, gate = found
        gate.recorded = event.value
        self.query_one(f"#gate-{index}-verdict").display = event.value
        self.query_one(f"#gate-{index}-description").display = event.value
        reason = self.query_one(f"#gate-{index}-reason", Input)
        reason.display = not event.value
        if not event.value:
            reason.focus()
        self._changed()

    @on(GateTick.Verdict)
    def _verdict_key(self, event: GateTick.Verdict) -> None:
        event.stop()
        self._set_verdict(event.tick.id, event.verdict)

    @on(VerdictLabel.Clicked)
    def _verdict_clicked(self, event: VerdictLabel.Clicked) -> None:
        event.stop()
        found = self._gate(event.label.id)
        if found is not None:
            current = found[1].verdict
            at = VERDICT_VALUES.index(current) if current in VERDICT_VALUES else -1
            self._set_verdict(event.label.id, VERDICT_VALUES[(at + 1) % len(VERDICT_VALUES)])

    def _set_verdict(self, widget_id: str | None, verdict: str) -> None:
        found = self._gate(widget_id)
        if found is None:
            return
        index, gate = found
        if not gate.recorded:
            # a verdict is for a recorded gate: the key records it (its reason is kept)
            self.query_one(f"#gate-{index}", Checkbox).value = True
        if gate.verdict != verdict:
            gate.verdict = verdict
            self.query_one(f"#gate-{index}-verdict", Static).update(verdict_text(verdict))
            self._changed()

    @on(Input.Changed, ".description")
    def _description(self, event: Input.Changed) -> None:
        event.stop()
        found = self._gate(event.input.id)
        if found is not None and found[1].description != event.value:
            found[1].description = event.value
            self._changed()

    @on(Input.Changed, ".reason")
    def _reason(self, event: Input.Changed) -> None:
        event.stop()
        found = self._gate(event.input.id)
        if found is not None and found[1].reason != event.value:
            found[1].reason = event.value
            self._changed()

    def _changed(self) -> None:
        self.query_one("#rules", Static).update(rules_text(gate_rules(self.trajectory)))
        self.edited()


# --- final_head_sha ----------------------------------------------------------------------------


def commit_text(commit: Commit, chosen: bool) -> Text:
    text = Text()
    text.append(f"{CHOSEN if chosen else ' '} ", style="bold green")
    text.append(commit.sha[:10], style="bold yellow")
    text.append(f"  {printable(commit.subject, lines=False)}")
    # The date first: a long author line is cut at the end, and the date is what tells two
    # commits of one author apart.
    text.append(f"\n    {commit.date[:10]} · {printable(commit.author, lines=False)}", style="dim")
    return text


NO_COMMIT = "-"


class HeadForm(JourneyForm):
    """Pick the commit from the repository's recent ones (read in a worker), or name any
    revision; the full SHA is stored."""

    def compose(self) -> ComposeResult:
        yield Static(self._current(), id="head-current")
        yield KeyList(
            Option(Text("reading the recent commits…", style="dim"), disabled=True), id="commits"
        )
        yield Input(
            id="revision",
            compact=True,
            placeholder="or type a revision: a SHA, branch, tag, HEAD~2",
        )

    def on_mount(self) -> None:
        self.commits: list[Commit] = []
        if not self.wizard.use_git:
            self._show_commits([], "git is off (--no-git): type the full SHA (40 hex digits) below")
            return
        self.load_commits()

    def _current(self) -> Text:
        sha = self.trajectory.final_head_sha.strip()
        text = Text("final_head_sha: ", style="bold")
        if sha:
            text.append(sha, style="yellow")
        else:
            required = self.trajectory.path.strip() == FULL_PATH
            text.append(
                "none yet" + (" (the full path needs one)" if required else " (optional)"),
                style="dim",
            )
        return text

    @property
    def left(self) -> bool:
        """The step was left (this form removed) while git was asked: its answer is dropped."""
        return not self.is_attached

    def load_commits(self) -> None:
        authoring = self.wizard.authoring
        if authoring is None:
            return

        def read() -> tuple[list[Commit], str]:
            try:
                commits = authoring.recent_commits()
            except GitUnavailable as exc:
                return [], f"No commits to pick from: {exc}"
            return commits, "" if commits else "The repository has no commits yet."

        self.wizard.run_in_thread(
            read, lambda found: self._show_commits(*found), key="commits", stale=lambda: self.left
        )

    def _show_commits(self, commits: list[Commit], note: str) -> None:
        self.commits = commits
        listing = self.query_one("#commits", OptionList)
        listing.clear_options()
        sha = self.trajectory.final_head_sha.strip()
        options = [Option(Text("  (none)", style="dim"), id=NO_COMMIT)]
        options += [Option(commit_text(c, c.sha == sha), id=c.sha) for c in commits]
        if note:
            options.append(Option(Text(note, style="dim"), disabled=True))
        listing.add_options(options)
        listing.highlighted = next((i for i, o in enumerate(options) if o.id == sha and sha), 0)

    @on(OptionList.OptionSelected, "#commits")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        sha = "" if event.option.id == NO_COMMIT else event.option.id or ""
        self._choose_sha(sha)
        self.post_message(self.Advance())

    @on(Input.Submitted, "#revision")
    def _revision(self, event: Input.Submitted) -> None:
        event.stop()
        revision = event.value.strip()
        if not revision:
            return
        if not self.wizard.use_git:
            if is_full_sha(revision):
                self._choose_sha(revision.lower())
                event.input.value = ""
            else:
                self.app.notify(
                    "Git is off: give the full SHA (40 or 64 hex digits).", severity="warning"
                )
            return
        self.resolve(revision)

    def resolve(self, revision: str) -> None:
        authoring = self.wizard.authoring
        if authoring is None:
            return

        def resolve() -> str | RevisionError | GitUnavailable:
            try:
                return authoring.resolve_revision(revision)
            except (RevisionError, GitUnavailable) as exc:
                return exc

        self.wizard.run_in_thread(resolve, self._resolved, key="revision")

    def _resolved(self, sha: str | RevisionError | GitUnavailable) -> None:
        if not isinstance(sha, str):
            self.app.notify(sentence(f"Not set: {sha}"), severity="warning", markup=False)
        elif not self.left:
            self.query_one("#revision", Input).value = ""
            self._choose_sha(sha)

    def _choose_sha(self, sha: str) -> None:
        if sha != self.trajectory.final_head_sha:
            self.trajectory.final_head_sha = sha
            self.edited()
        self.query_one("#head-current", Static).update(self._current())
        self._show_commits(self.commits, "")


# --- routing -----------------------------------------------------------------------------------


class RoutingForm(JourneyForm):
    """Each specialist of the routing table: ticked (loaded), or not loaded with an optional
    reason (`routing_skipped`). Metadata for the raters; never validated."""

    needs_suite = True

    def compose(self) -> ComposeResult:
        answers = self.trajectory
        table = self.wizard.specialists()
        skip_when = {s.name: s.skip_when for s in table}
        reasons = {r.skill: r.reason for r in answers.routing_skipped}
        names = [s.name for s in table]
        names += [n for n in (*answers.routing_selected, *reasons) if n not in names]
        self.names: list[str] = []
        with Checklist(id="checklist"):
            if not table:
                yield Static(
                    Text("The routing table names no specialists; add any below.", style="dim")
                )
            for name in dict.fromkeys(names):
                yield self._row(name, name in answers.routing_selected, reasons, skip_when)
        yield Input(id="routing-add", compact=True, placeholder="another specialist; enter adds it")

    def _row(
        self, name: str, selected: bool, reasons: dict[str, str], skip_when: dict[str, str]
    ) -> Vertical:
        index = len(self.names)
        self.names.append(name)
        hint = f" (skip when: {skip_when[name]})" if skip_when.get(name) else ""
        reason = Input(
            reasons.get(name, ""),
            id=f"routing-{index}-reason",
            compact=True,
            placeholder=printable(f"not loaded because…{hint}", lines=False),
            classes="reason",
        )
        reason.display = not selected
        return Vertical(
            Tick(Text(printable(name, lines=False)), selected, id=f"routing-{index}", compact=True),
            reason,
            classes="check-row",
        )

    def _store(self) -> None:
        selected: list[str] = []
        skipped: list[RoutingSkip] = []
        for index, name in enumerate(self.names):
            if self.query_one(f"#routing-{index}", Checkbox).value:
                selected.append(name)
                continue
            reason = self.query_one(f"#routing-{index}-reason", Input).value
            if reason.strip():
                skipped.append(RoutingSkip(name, reason))
        answers = self.trajectory
        if (selected, skipped) != (answers.routing_selected, answers.routing_skipped):
            answers.routing_selected, answers.routing_skipped = selected, skipped
            self.edited()

    @on(Checkbox.Changed)
    def _ticked(self, event: Checkbox.Changed) -> None:
        event.stop()
        self.query_one(f"#{event.checkbox.id}-reason", Input).display = not event.value
        self._store()

    @on(Input.Changed, ".reason")
    def _reason(self, event: Input.Changed) -> None:
        event.stop()
        self._store()

    @on(Input.Submitted, "#routing-add")
    async def _add(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        if not name or name in self.names:
            return
        event.input.value = ""
        await self.query_one("#checklist", Checklist).mount(self._row(name, True, {}, {}))
        self._store()


JOURNEY_FORMS: dict[str, type[StepForm]] = {
    "phases": PhasesForm,
    "gates": GatesForm,
    "final_head_sha": HeadForm,
    "routing": RoutingForm,
}
