"""Creating fixtures: from a wizard's answers to a task.yaml that validates clean.

No Textual here: the command line (`voyage-tui new`) and the wizard screens both call this.
A screen drives it like this (every call is cheap enough for each keystroke, except
`Authoring.open`, `recent_commits` and `write`, which belong on a worker):

    authoring = Authoring.open(path)            # or Authoring(app_suite) in the app
    answers = authoring.new("task")             # or authoring.start_from("some-id")
    draft = authoring.drafts.new_name("task")   # or resume: authoring.drafts.latest("task")
    for step in authoring.steps(answers):       # the list changes with the class: re-ask it
        ...                                     # the screen edits `answers` (plain dataclasses)
        checked = authoring.check(answers)      # YAML preview + diagnostics of the finished file
        step_diagnostics(checked, step)         # this step's own problems
        authoring.drafts.save(draft, answers, step.name)
    written = authoring.write(answers, draft)   # raises NotWritten; deletes the draft when done

Choices to offer: CLASS_CHOICES (with a line each), BOUNDARY_CHOICES, VISIBILITY_CHOICES,
PATH_CHOICES, TERMINAL_STATE_CHOICES, VERDICT_CHOICES; `authoring.dimensions()` for scoring notes,
`authoring.specialists()` for routing, `authoring.recent_commits()` for final_head_sha,
`authoring.propose_id(prompt)` for the id.
"""

from __future__ import annotations

from voyage_tui.engine.authoring.answers import (
    KINDS,
    TASK_KIND,
    Answers,
    ContextEntry,
    GateMark,
    PhaseMark,
    RoutingSkip,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.check import Checked, Finding
from voyage_tui.engine.authoring.choices import (
    BOUNDARY_CHOICES,
    CLASS_CHOICES,
    PATH_CHOICES,
    TERMINAL_STATE_CHOICES,
    VERDICT_CHOICES,
    VISIBILITY_CHOICES,
    Choice,
    Specialist,
)
from voyage_tui.engine.authoring.commits import Commit, RevisionError
from voyage_tui.engine.authoring.drafts import Draft, DraftStore, DraftUnusable
from voyage_tui.engine.authoring.render import Rendered
from voyage_tui.engine.authoring.session import Authoring, StartError, WizardStart
from voyage_tui.engine.authoring.steps import (
    PREVIEW,
    Step,
    diagnostics_by_step,
    step_diagnostics,
    step_of_field,
    steps_for,
)
from voyage_tui.engine.authoring.write import NotWritten, Written

__all__ = [
    "BOUNDARY_CHOICES",
    "CLASS_CHOICES",
    "KINDS",
    "PATH_CHOICES",
    "PREVIEW",
    "TASK_KIND",
    "TERMINAL_STATE_CHOICES",
    "VERDICT_CHOICES",
    "VISIBILITY_CHOICES",
    "Answers",
    "Authoring",
    "Checked",
    "Choice",
    "Commit",
    "ContextEntry",
    "Draft",
    "DraftStore",
    "DraftUnusable",
    "Finding",
    "GateMark",
    "NotWritten",
    "PhaseMark",
    "Rendered",
    "RevisionError",
    "RoutingSkip",
    "Specialist",
    "StartError",
    "Step",
    "TaskAnswers",
    "TrajectoryAnswers",
    "WizardStart",
    "Written",
    "diagnostics_by_step",
    "step_diagnostics",
    "step_of_field",
    "steps_for",
]
