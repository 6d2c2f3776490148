"""Reading a gold file and its runs for review, through the one loader of gold and run files
(engine/rules/gold_run_files.py) that `score` and `validate` use too: a gold file `score` refuses is
refused here, with the same diagnostics, and the diff screen shows them instead of figures."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.rules.gold_run_files import (
    MAX_NAMED_FILE_BYTES,
    CatalogueChoice,
    GoldFile,
    RunFile,
    gold_from_text,
    read_named,
    run_from_text,
    unread_gold,
    unread_run,
)
from voyage_tui.engine.scoring.report import RunScore, score_run
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace


class ReviewError(Exception):
    """A gold or run file that cannot be reviewed: its diagnostics, and a one-line summary."""

    def __init__(self, diagnostics: list[Diagnostic], note: str = "") -> None:
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.note = note
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(note or (f"{first.location()}: {first.message}" if first else "unusable"))


def _count(errors: list[Diagnostic]) -> str:
    return plural(len(errors), "error")


def refuse_gold(gold: GoldFile) -> None:
    """Raise ReviewError unless the gold file may be scored against: the one decision `score`,
    the review screens and (by its errors) `validate` share."""
    if gold.usable:
        return
    note = ""
    if gold.data is not None:
        note = (
            f"{gold.path} is not a valid gold record ({_count(gold.errors)}); fix it first "
            "(`voyage-tui validate` reports the same)"
        )
    raise ReviewError(gold.errors or gold.diagnostics, note)


def refuse_run(run: RunFile) -> None:
    if run.usable:
        return
    note = ""
    if run.data is None and any(d.code == "run-not-list" for d in run.refusals):
        note = f"{run.path} is not a run: a run is a JSON array of reviewer payloads"
    raise ReviewError(run.refusals, note)


@dataclass(frozen=True, slots=True)
class Scored:
    gold_path: str
    run_path: str
    gold: dict[str, Any]
    payloads: list[Any]
    score: RunScore

    @property
    def run_name(self) -> str:
        return os.path.splitext(self.run_path.rsplit("/", 1)[-1])[0]

    @property
    def gold_name(self) -> str:
        folder = self.gold_path.rsplit("/", 1)[0] if "/" in self.gold_path else ""
        return folder.rsplit("/", 1)[-1] or self.gold_path


@dataclass(frozen=True, slots=True)
class ReviewInputs:
    """Where review reads gold and run files, and the catalogue it checks rule keys against."""

    ws: Workspace | None
    """Paths are relative to this workspace and read through its safety checks. None: paths as
    the user gave them (files named on the command line, inside a workspace or not)."""
    catalogue: Catalogue | None
    """None: rule keys are not checked (see `catalogue_note`)."""
    catalogue_note: str = ""
    limit: int = MAX_NAMED_FILE_BYTES
    match: MatchMode = DEFAULT_MATCH
    """How `score_pair` matches gold keys (`--match`; scoring/scorer.py)."""
    kept: Mapping[str, bytes] | None = None
    """Workspace files read already in this run, by path (the gold files and runs a validation
    checked: Suite.review_inputs): taken instead of opening them again (issue 34)."""

    @classmethod
    def of_workspace(cls, ws: Workspace, match: MatchMode = DEFAULT_MATCH) -> ReviewInputs:
        """The workspace's files, checked against its catalogue as `validate` checks them."""
        from voyage_tui.engine.references.loaded import load_catalogue

        loaded = load_catalogue(ws)
        return cls(ws, loaded.value, loaded.path, ws.max_file_bytes, match)

    @classmethod
    def named(cls, choice: CatalogueChoice, match: MatchMode = DEFAULT_MATCH) -> ReviewInputs:
        """Files named by the user, checked against the catalogue chosen for them."""
        return cls(None, choice.catalogue, choice.description, choice.limit, match)

    def read(self, path: str) -> str | Diagnostic:
        if self.ws is not None:
            kept = self.kept.get(path) if self.kept else None
            # The bytes were read by the workspace's own rules; the folder check of read_text
            # (no symlink out of the workspace on the way) is a realpath, not an open.
            if kept is not None and is_within(
                self.ws.root_real, os.path.realpath(self.ws.abs(path))
            ):
                return decode(kept, path)
            return self.ws.read_text(path)
        return read_named(path, self.limit)

    def gold(self, path: str) -> GoldFile:
        text = self.read(path)
        if isinstance(text, Diagnostic):
            return unread_gold(path, text)
        return gold_from_text(path, text, self.catalogue)

    def run(self, path: str) -> RunFile:
        text = self.read(path)
        if isinstance(text, Diagnostic):
            return unread_run(path, text)
        return run_from_text(path, text, self.catalogue, check_findings=False)

    def load_gold(self, path: str) -> GoldFile:
        """A gold file that may be scored against. Raises ReviewError."""
        gold = self.gold(path)
        refuse_gold(gold)
        return gold

    def load_run(self, path: str) -> RunFile:
        """A run that may be scored. Raises ReviewError."""
        run = self.run(path)
        refuse_run(run)
        return run

    def score_pair(
        self,
        gold_path: str,
        run_path: str,
        gold: dict[str, Any] | None = None,
        match: MatchMode | None = None,
    ) -> Scored:
        """Load and score one run against its gold (matching as `match`, else as `self.match`).
        Raises ReviewError."""
        record = gold if gold is not None else self.load_gold(gold_path).data
        assert record is not None
        run = self.load_run(run_path)
        assert run.data is not None
        mode = match if match is not None else self.match
        return Scored(gold_path, run_path, record, run.data, score_run(run.data, record, mode))


# --- the workspace's files (the app's review screens) ---------------------------------------------


def load_gold(ws: Workspace, rel: str) -> dict[str, Any]:
    gold = ReviewInputs.of_workspace(ws).load_gold(rel).data
    assert gold is not None
    return gold


def load_run(ws: Workspace, rel: str) -> list[Any]:
    run = ReviewInputs(ws, None, limit=ws.max_file_bytes).load_run(rel).data
    assert run is not None
    return run


def score_pair(
    ws: Workspace,
    gold_rel: str,
    run_rel: str,
    gold: dict[str, Any] | None = None,
    match: MatchMode = DEFAULT_MATCH,
) -> Scored:
    """Load and score one run against its gold. Raises ReviewError."""
    if gold is not None:  # checked already: the catalogue only ever checks the gold file
        inputs = ReviewInputs(ws, None, limit=ws.max_file_bytes)
        return inputs.score_pair(gold_rel, run_rel, gold, match)
    return ReviewInputs.of_workspace(ws).score_pair(gold_rel, run_rel, match=match)


@dataclass(frozen=True, slots=True)
class RankedRun:
    rank: int
    path: str
    scored: Scored | None
    problem: str | None = None
    """Why the run could not be scored (not JSON, not a list); it ranks last."""

    @property
    def name(self) -> str:
        return os.path.splitext(self.path.rsplit("/", 1)[-1])[0]


def rank_runs(ws: Workspace, gold_rel: str, run_paths: list[str]) -> list[RankedRun]:
    """Every run of a gold: runs whose verdict matches the gold's first, each group best F1 first
    (ties: higher recall, then name); unscorable runs last.

    The verdict comes first because a run that lets a BLOCK through as ALLOW fails the review
    whatever its findings score: it must not sit above (or tie with) a run that got it right."""
    gold = load_gold(ws, gold_rel)
    scored: list[Scored] = []
    broken: list[tuple[str, str]] = []
    for path in run_paths:
        try:
            scored.append(score_pair(ws, gold_rel, path, gold))
        except ReviewError as exc:
            broken.append((path, str(exc)))
    scored.sort(key=lambda s: (not s.score.verdict_match, -s.score.f1, -s.score.recall, s.run_name))
    ranked = [RankedRun(i + 1, s.run_path, s) for i, s in enumerate(scored)]
    ranked += [
        RankedRun(len(ranked) + i + 1, p, None, why) for i, (p, why) in enumerate(sorted(broken))
    ]
    return ranked
