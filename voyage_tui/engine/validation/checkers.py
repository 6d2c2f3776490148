"""The check concern of each file kind (see engine/kinds.py): which checker makes its Item.

A full validation hands each listed file to the checker of its kind (in this process or in the
forked child, parallel.py); live re-validation decides some cases first (a run attached to its
gold file, a FIFO named like a JSON file) and then asks the same table.
"""

from __future__ import annotations

from collections.abc import Callable

from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.workspace.model import Workspace

Checker = Callable[[Workspace, References, str], Item | None]
"""(workspace, references, path) -> the file's Item, or None when it is not one (most JSON
files are not gold files)."""


# Each checker imports file_check (and through it the loaders and models) when first asked: a
# start that checks no file, or a warm run answered from the cache, never pays for them.


def _agent_run(ws: Workspace, refs: References, rel: str) -> Item | None:
    from voyage_tui.engine.validation.file_check import check_agent_run_file

    return check_agent_run_file(ws, rel)


def _unattached_run(ws: Workspace, refs: References, rel: str) -> Item | None:
    # Which gold file a run belongs to is known only once every JSON file is checked: the
    # full validation attaches it afterwards (Suite._as_run).
    from voyage_tui.engine.validation.file_check import check_gold_run

    return check_gold_run(ws, refs, rel, "")


def _gold_candidate(ws: Workspace, refs: References, rel: str) -> Item | None:
    from voyage_tui.engine.validation.file_check import check_json_candidate

    return check_json_candidate(ws, refs, rel)


def _fixture(ws: Workspace, refs: References, rel: str) -> Item | None:
    from voyage_tui.engine.validation.file_check import check_fixture

    return check_fixture(ws, refs, rel)


CHECKERS: dict[FileKind, Checker | None] = {
    FileKind.TASK: _fixture,
    FileKind.TRAJECTORY: _fixture,  # the checker tells a trajectory by its folder and `kind`
    FileKind.AGENT_RUN: _agent_run,
    FileKind.GOLD: _gold_candidate,
    FileKind.GOLD_RUN: _unattached_run,
    FileKind.RATING: None,  # checked together, after the runs they name (Suite._check_ratings)
    FileKind.ADJUDICATION: None,  # after the ratings too (Suite._check_adjudications)
    FileKind.REFERENCE: None,  # read into References, never an item
    FileKind.CONFIG: None,
    FileKind.MISPLACED_TASK: None,  # a layout problem (layout.scan), never opened
    FileKind.OTHER: None,
}


def check_job(ws: Workspace, refs: References, job: tuple[FileKind, str]) -> Item | None:
    """The Item of one file of a full validation's work list."""
    kind, rel = job
    checker = CHECKERS[kind]
    return checker(ws, refs, rel) if checker is not None else None
