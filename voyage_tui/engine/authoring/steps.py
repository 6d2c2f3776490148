"""The wizard's steps for a kind (and class), and which diagnostics belong to which step.

A step owns fields of the document; a diagnostic about one of them shows on that step. The last
step, `preview`, shows the YAML with every diagnostic, including those no step owns (a field no
step asks for, such as `harness_constraints` carried over from a copied fixture).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voyage_tui.engine.authoring.answers import (
    TASK_KIND,
    Answers,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.check import Checked
from voyage_tui.engine.authoring.choices import (
    BOUNDARY_CHOICES,
    CLASS_CHOICES,
    PATH_CHOICES,
    TERMINAL_STATE_CHOICES,
    VISIBILITY_CHOICES,
    Choice,
)
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import TRAJECTORY_KIND

PREVIEW = "preview"


@dataclass(frozen=True, slots=True)
class TextField:
    """A step's one text answer, read and written through typed functions: a form binds to
    `step.text.get(answers)` / `step.text.set(answers, value)`, never to an attribute's name, so
    mypy checks every binding (a renamed field fails the type check, not a wizard run)."""

    get: Callable[[Answers], str]
    set: Callable[[Answers, str], None]


def _task(answers: Answers) -> TaskAnswers:
    if not isinstance(answers, TaskAnswers):
        raise TypeError(f"a task's step asked of {answers.kind} answers")
    return answers


def _trajectory(answers: Answers) -> TrajectoryAnswers:
    if not isinstance(answers, TrajectoryAnswers):
        raise TypeError(f"a trajectory's step asked of {answers.kind} answers")
    return answers


def _set_prompt(answers: Answers, value: str) -> None:
    answers.prompt = value


def _set_id(answers: Answers, value: str) -> None:
    answers.id = value


def _set_visibility(answers: Answers, value: str) -> None:
    answers.visibility = value


def _set_class(answers: Answers, value: str) -> None:
    _task(answers).fixture_class = value


def _set_ground_truth(answers: Answers, value: str) -> None:
    _task(answers).ground_truth = value


def _set_boundary(answers: Answers, value: str) -> None:
    _task(answers).expected_boundary = value


def _set_intent(answers: Answers, value: str) -> None:
    _task(answers).adversarial_intent = value


def _set_path(answers: Answers, value: str) -> None:
    _trajectory(answers).path = value


def _set_terminal_state(answers: Answers, value: str) -> None:
    _trajectory(answers).terminal_state = value


def _set_head(answers: Answers, value: str) -> None:
    _trajectory(answers).final_head_sha = value


PROMPT_TEXT = TextField(lambda a: a.prompt, _set_prompt)
ID_TEXT = TextField(lambda a: a.id, _set_id)
VISIBILITY_TEXT = TextField(lambda a: a.visibility, _set_visibility)
CLASS_TEXT = TextField(lambda a: _task(a).fixture_class, _set_class)
GROUND_TRUTH_TEXT = TextField(lambda a: _task(a).ground_truth, _set_ground_truth)
BOUNDARY_TEXT = TextField(lambda a: _task(a).expected_boundary, _set_boundary)
INTENT_TEXT = TextField(lambda a: _task(a).adversarial_intent, _set_intent)
PATH_TEXT = TextField(lambda a: _trajectory(a).path, _set_path)
TERMINAL_STATE_TEXT = TextField(lambda a: _trajectory(a).terminal_state, _set_terminal_state)
HEAD_TEXT = TextField(lambda a: _trajectory(a).final_head_sha, _set_head)


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    """Stable: drafts record it, screens key on it."""
    title: str
    help: str
    fields: tuple[str, ...]
    """The document fields whose diagnostics show on this step."""
    required: bool = True
    multiline: bool = False
    choices: tuple[Choice, ...] = ()
    """A closed set to pick from (empty: free text, or a step with its own widget)."""
    text: TextField | None = None
    """The step's one text answer (a choice is one too); None for a step with its own widget
    (kind, context, scoring notes, phases, gates, routing, preview)."""


KIND_CHOICES = (
    Choice(TASK_KIND, "a single task, judged by its ground truth"),
    Choice(TRAJECTORY_KIND, "a multi-phase change-request journey: phases, gates, terminal state"),
)

KIND = Step("kind", "Kind", "What to create.", ("kind",), choices=KIND_CHOICES)
PROMPT = Step(
    "prompt",
    "Prompt",
    "The task as presented to the agent under test; self-contained.",
    ("prompt",),
    multiline=True,
    text=PROMPT_TEXT,
)
ID = Step(
    "id",
    "Id",
    "A plain slug (a-z, 0-9, hyphens), unique across the suite; it names the folder. "
    "Proposed from the prompt.",
    ("id",),
    text=ID_TEXT,
)
VISIBILITY = Step(
    "visibility",
    "Visibility",
    "public, or holdout (kept from contributors; gets a `# canary:` line).",
    ("visibility",),
    choices=VISIBILITY_CHOICES,
    text=VISIBILITY_TEXT,
)
PREVIEW_STEP = Step(PREVIEW, "Preview", "The file as it will be written, with its diagnostics.", ())

TASK_STEPS: tuple[Step, ...] = (
    KIND,
    Step(
        "class",
        "Class",
        "What kind of task this is.",
        ("class",),
        choices=CLASS_CHOICES,
        text=CLASS_TEXT,
    ),
    PROMPT,
    ID,
    Step(
        "ground_truth",
        "Ground truth",
        "What a correct outcome looks like (for no-change-needed: the evidence that no change "
        "is warranted).",
        ("ground_truth",),
        multiline=True,
        text=GROUND_TRUTH_TEXT,
    ),
    Step(
        "expected_boundary",
        "Expected boundary",
        "The verification boundary the task cares about.",
        ("expected_boundary",),
        choices=BOUNDARY_CHOICES,
        text=BOUNDARY_TEXT,
    ),
    VISIBILITY,
    Step(
        "context",
        "Context",
        "Repository context the agent is given: inline text, and files you name (copied into "
        "the fixture's folder).",
        ("context",),
        required=False,
    ),
    Step(
        "adversarial_intent",
        "Adversarial intent",
        'The trap being tested, e.g. "reflexive deletion", "reflexive no-dependency".',
        ("adversarial_intent",),
        multiline=True,
        text=INTENT_TEXT,
    ),
    Step(
        "scoring_notes",
        "Scoring notes",
        "Fixture-specific anchors for raters, per rubric dimension.",
        ("scoring_notes",),
        required=False,
        multiline=True,
    ),
    PREVIEW_STEP,
)

TRAJECTORY_STEPS: tuple[Step, ...] = (
    KIND,
    Step(
        "path",
        "Journey path",
        "Which journey path it takes.",
        ("path",),
        choices=PATH_CHOICES,
        text=PATH_TEXT,
    ),
    Step(
        "prompt",
        "Prompt",
        "The change request as presented to the agent under test; self-contained.",
        ("prompt",),
        multiline=True,
        text=PROMPT_TEXT,
    ),
    ID,
    Step(
        "phases",
        "Phases",
        "The journey's phases: tick each one traversed; each unticked phase needs its reason.",
        ("phases", "skipped_phases"),
    ),
    Step(
        "gates",
        "Gates",
        "Each gate: recorded with a verdict (pass, conditional, blocked), or skipped with a reason.",
        ("gates", "skipped_gates"),
    ),
    Step(
        "terminal_state",
        "Terminal state",
        "Where the journey ends.",
        ("terminal_state",),
        choices=TERMINAL_STATE_CHOICES,
        text=TERMINAL_STATE_TEXT,
    ),
    Step(
        "final_head_sha",
        "Final head SHA",
        "The commit the final verdict binds to (required on the full path); picked from the "
        "recent commits, stored as the full SHA.",
        ("final_head_sha",),
        required=False,
        text=HEAD_TEXT,
    ),
    Step(
        "routing",
        "Routing",
        "Specialists loaded, and those skipped with a reason (metadata: checked by raters "
        "against the routing table, never validated).",
        ("routing_selected", "routing_skipped"),
        required=False,
    ),
    VISIBILITY,
    PREVIEW_STEP,
)


def steps_for(answers: Answers) -> list[Step]:
    """The steps for these answers: `adversarial_intent` only for the adversarial class (or
    while an answer to it remains, so it can be cleared)."""
    if not isinstance(answers, TaskAnswers):
        return list(TRAJECTORY_STEPS)
    wants_intent = answers.fixture_class.strip() == "adversarial" or bool(
        answers.adversarial_intent.strip()
    )
    return [s for s in TASK_STEPS if s.name != "adversarial_intent" or wants_intent]


def step_diagnostics(checked: Checked, step: Step) -> list[Diagnostic]:
    """The diagnostics this step shows: its own fields', or all of them on the preview."""
    if step.name == PREVIEW:
        return checked.diagnostics
    return checked.for_fields(step.fields)


def diagnostics_by_step(answers: Answers, checked: Checked) -> dict[str, list[Diagnostic]]:
    """Step name -> its diagnostics (every step listed, most with none)."""
    return {step.name: step_diagnostics(checked, step) for step in steps_for(answers)}


def step_of_field(answers: Answers, field: str | None) -> str:
    """The step a field's diagnostics show on (`preview` for one no step owns)."""
    for step in steps_for(answers):
        if field is not None and field in step.fields:
            return step.name
    return PREVIEW
