"""Every step of the creation wizard at 80x24, on the sample workspace, for the snapshot tests
and the README's screenshots. Each opens the wizard on fixed answers at one step (the steps
before it count as visited, as after walking through them) and waits until its check is shown."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.app.support import wait_until
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.engine.authoring import (
    Answers,
    Authoring,
    ContextEntry,
    TaskAnswers,
    TrajectoryAnswers,
    WizardStart,
)

SMALL = (80, 24)
WIDE = (120, 40)
CANARY = "0b7e4c1a-5d2f-4e8a-9c3b-6f1d2a7e8b90"


def task(answers: Answers) -> None:
    assert isinstance(answers, TaskAnswers)
    answers.fixture_class = "bug-diagnosis"
    answers.prompt = (
        "The login page times out after 30 s on a cold cache.\n"
        "Find out why, fix it, and show how you verified the fix."
    )
    answers.id = "login-timeout-cold-cache"
    answers.ground_truth = (
        "The session cache warms lazily on the first request; warming it at start-up "
        "removes the timeout. An integration test covers the cold start."
    )
    answers.expected_boundary = "integration"
    answers.visibility = "holdout"
    answers.canary = CANARY
    answers.context = [
        ContextEntry(text="Python 3.11 service; run the tests with `pytest -q`."),
        ContextEntry(file="rubric.md", source="fixtures/rubric.md", named=True),
    ]
    answers.scoring_notes = {"verification": "Full marks need the cold-start test."}


def adversarial(answers: Answers) -> None:
    task(answers)
    assert isinstance(answers, TaskAnswers)
    answers.fixture_class = "adversarial"
    answers.adversarial_intent = "reflexive timeout increase (the right fix is the warm-up)"


def bad_id(answers: Answers) -> None:
    task(answers)
    answers.id = "Login Timeout"


def trajectory(answers: Answers) -> None:
    assert isinstance(answers, TrajectoryAnswers)
    answers.path = "lightweight"
    answers.prompt = "Rename the retry flag in the uploader config and ship it."
    answers.id = "rename-retry-flag"
    design = answers.phases[2]
    design.traversed, design.reason = False, "copy-level change, no design needed"
    for gate in answers.gates:
        gate.verdict = "pass"
    gate = answers.gates[1]
    gate.recorded, gate.reason = False, "no design phase on this path"
    answers.terminal_state = "merged"
    answers.routing_selected = ["release-engineering"]
    answers.visibility = "public"


def wizard_steps(
    kind: str, step: str, fill: Callable[[Answers], None]
) -> Callable[[Pilot], Awaitable[None]]:
    async def steps(pilot: Pilot) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: getattr(app, "view", None) is not None, 15.0)
        view = app.view  # type: ignore[attr-defined]
        answers = Authoring(view, use_git=False).new(kind)  # type: ignore[arg-type]
        fill(answers)
        start = WizardStart(str(view.root), kind, answers, f"{kind}-snapshot", step)
        wizard = WizardScreen(start)
        app.push_screen(wizard)
        await wait_until(pilot, lambda: app.screen is wizard and wizard.settled, 15.0)
        for widget in wizard.query(TextArea):
            widget.cursor_blink = False
        for widget in wizard.query(Input):
            widget.cursor_blink = False
        await app.workers.wait_for_complete()
        await pilot.pause()
        await wait_until(pilot, lambda: wizard.settled, 15.0)

    return steps


TASK_STEPS = [
    ("kind", "The first step: a task or a trajectory (or a copy, or a draft)", task),
    ("class", "The nine classes, a line each", task),
    ("prompt", "Multi-line text", task),
    ("id", "The id, proposed from the prompt", task),
    ("ground_truth", "The ground truth", task),
    ("expected_boundary", "The expected boundary", task),
    ("visibility", "A holdout and its canary", task),
    ("context", "Inline context and a file to copy in", task),
    ("adversarial_intent", "The trap, for the adversarial class", adversarial),
    ("scoring_notes", "A note per rubric dimension", task),
    ("preview", "The YAML as it will be written", task),
]

TRAJECTORY_STEPS = [
    ("path", "The journey path", trajectory),
    ("phases", "The journey's phases: an unticked one with its reason", trajectory),
    ("gates", "Gates with a verdict, or skipped with a reason", trajectory),
    ("terminal_state", "The terminal state", trajectory),
    ("final_head_sha", "The commit picker (git off here)", trajectory),
    ("routing", "The routing table's specialists", trajectory),
    ("preview", "A trajectory's YAML", trajectory),
]


def _name(kind: str, step: str) -> str:
    return f"wizard-{kind}-{step.replace('_', '-')}"


Spec = tuple[str, str, Callable[[Pilot], Awaitable[None]], tuple[int, int]]
"""(name, title, steps, size): a Scenario's fields (tests/app/scenarios.py makes them Scenarios;
this module does not import it, so either can be imported first)."""

WIZARD_SCENARIOS: list[Spec] = [
    *[
        (_name("task", step), title, wizard_steps("task", step, fill), SMALL)
        for step, title, fill in TASK_STEPS
    ],
    *[
        (_name("trajectory", step), title, wizard_steps("trajectory", step, fill), SMALL)
        for step, title, fill in TRAJECTORY_STEPS
    ],
    (
        "wizard-task-id-error",
        "A bad id: the step says why, and back and forward still work",
        wizard_steps("task", "id", bad_id),
        SMALL,
    ),
    (
        "wizard-task",
        "The creation wizard (a): the preview, ready to write",
        wizard_steps("task", "preview", task),
        WIDE,
    ),
    (
        "wizard-trajectory",
        "The creation wizard: a trajectory's phases against journey.md",
        wizard_steps("trajectory", "phases", trajectory),
        WIDE,
    ),
]
