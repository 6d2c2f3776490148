"""What a workspace file is: the one vocabulary of file kinds.

The classifier (workspace/classify.py) gives every path a FileKind; the validation checks the
files of some kinds into Items (engine/items.py) whose `kind` is one of them too. What each kind
means to each part of the program is a table keyed by FileKind, one per concern, beside the code
that uses it:

- classify: `WALK` in workspace/classify.py (how the walk and live re-validation treat the path);
- check: `CHECKERS` in validation/checkers.py (which checker makes its Item);
- group: `GROUPING` in validation/view.py (where the browser's tree lists its Item);
- detail: `DETAIL_FORMAT` in details.py (how its file is read for the detail pane), and the
  app's `KIND_WIDGETS` in app/widgets/detail_pane.py (what the pane shows);
- open: `OPENING` in editing.py (whether the editor opens it, and as what);
- facts: `FACTS` in items.py (the typed facts its Item carries).

A new kind is a member here and a row in each table: tests/engine/test_file_kinds.py fails for
a table that leaves a kind out. The values are the strings `validate --format json` and the app
have always shown, so a StrEnum member prints, compares and serialises as before.
"""

from __future__ import annotations

from enum import StrEnum


class FileKind(StrEnum):
    TASK = "task"
    """`<fixtures>/<class>/<id>/task.yaml` (a single-task fixture)."""
    TRAJECTORY = "trajectory"
    """`<fixtures>/trajectories/<id>/task.yaml` (or a task.yaml saying `kind: trajectory`)."""
    AGENT_RUN = "agent-run"
    """`<fixtures>/<class>/<id>/runs/<run>.yaml` (or .yml), directly in the runs folder."""
    GOLD = "gold"
    """A `*.json` file under the gold folders: a gold file when its `schema` says so."""
    GOLD_RUN = "gold-run"
    """A `runs/<name>.json` file under the gold folders: a run of the gold file in the folder
    holding `runs/`; where that folder holds none, it may itself be a gold file."""
    RATING = "rating"
    """`<ratings>/<rater>.jsonl`"""
    ADJUDICATION = "adjudication"
    """The adjudications file (`[paths] adjudications`, else `adjudications.jsonl` beside the
    ratings folder): one file, not a folder of them."""
    REFERENCE = "reference"
    """journey.md, the routing table, the rule catalogue, the rubric."""
    CONFIG = "config"
    """voyage.toml"""
    MISPLACED_TASK = "misplaced"
    """A task.yaml directly in the fixtures folder or in a class folder (error
    `misplaced-task-file`)."""
    OTHER = "other"
    """Anything else: a context file, a README beside a gold file, a repository's sources."""


ITEM_KINDS = frozenset(
    {
        FileKind.TASK,
        FileKind.TRAJECTORY,
        FileKind.AGENT_RUN,
        FileKind.GOLD,
        FileKind.GOLD_RUN,
        FileKind.RATING,
        FileKind.ADJUDICATION,
    }
)
"""The kinds an Item of the suite can have; the others are paths that are never an item."""

AFTER_RUNS_KINDS = frozenset({FileKind.RATING, FileKind.ADJUDICATION})
"""Checked after the agent runs they name, afresh each time (never from the item cache): their
diagnostics depend on every agent run, and an adjudication's on the ratings too."""

FIXTURE_KINDS = frozenset({FileKind.TASK, FileKind.TRAJECTORY})
"""A task.yaml: one checker tells the two apart, by its folder and its `kind`."""
