"""A data file for every rule of a ratings file (the pattern of tests/engine/test_rule_files.py).

Each `tests/data/rules/rating-*/<case>/` is a small workspace with a `ratings/alice.jsonl`; the
table below gives the severity, line and column `validate` must report, and the case's errors
and warnings must be exactly those. Every code the ratings engine gives has a case folder, or a
test of its own where no file can show it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.engine.workspaces import RULES, Expect, assert_case, e, materialize, w
from tests.helpers import string_constants
from voyage_tui.engine.validation.suite import Suite

A = "ratings/alice.jsonl"
ENGINE = Path(__file__).resolve().parents[2] / "voyage_tui" / "engine"


def deleted_since(root: Path) -> None:
    """Commit a run, then delete it: git history holds it, the suite no longer does."""

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-C", str(root), "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
            check=True,
            capture_output=True,
        )

    old = root / "fixtures/bug-diagnosis/t1/runs/run-old.yaml"
    old.write_text("run_id: run-old\nagent: agent-z\noutput: x\n", encoding="utf-8")
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "runs")
    git("rm", "-q", str(old.relative_to(root)))
    git("commit", "-q", "-m", "drop a run")


SETUPS = {("rating-deleted-run", "run-deleted-since"): deleted_since}
WITH_GIT = set(SETUPS)

# (code, case) -> what the case must produce
CASES: dict[tuple[str, str], list[Expect]] = {
    ("rating-invalid-json", "not-json"): [e("rating-invalid-json", A, 2, 1, "not valid JSON")],
    ("rating-invalid-json", "trailing-comma"): [
        e("rating-invalid-json", A, 2, 40, "property name")
    ],
    ("rating-invalid-json", "list"): [e("rating-invalid-json", A, 2, 1, "a list")],
    ("rating-torn-line", "cut-off-last-line"): [w("rating-torn-line", A, 2, 1, "not saved")],
    ("rating-missing-field", "no-scores"): [e("rating-missing-field", A, 2, 1, "`scores`")],
    ("rating-wrong-type", "score-as-text"): [
        e("rating-wrong-type", A, 2, 85, "`correctness`", "whole number", "'4'")
    ],
    ("rating-wrong-type", "blind-as-text"): [
        e("rating-wrong-type", A, 1, 165, "`blind`", "true or false")
    ],
    ("rating-invalid-time", "no-time-zone"): [
        e("rating-invalid-time", A, 1, 132, "'2026-11-20T14:03:11'", "UTC")
    ],
    ("rating-rater-mismatch", "bob-in-alices-file"): [
        e("rating-rater-mismatch", A, 2, 50, "'bob'", "bob.jsonl")
    ],
    ("rating-unknown-dimension", "typo"): [
        e("rating-unknown-dimension", A, 1, 70, "`corectness`", "did you mean `correctness`?")
    ],
    # scope's anchors are 1 and 5, correctness's 1, 3 and 5: a 2 or a 4 is on the scale
    ("rating-score-out-of-scale", "above-the-highest-anchor"): [
        e("rating-score-out-of-scale", A, 2, 97, "`scope` is scored 6", "1 to 5")
    ],
    ("rating-unknown-run", "run-id-typo"): [
        e("rating-unknown-run", A, 2, 32, "`run-aa`", "did you mean `run-a`?", "run-a")
    ],
    ("rating-unknown-run", "unknown-fixture"): [
        e("rating-unknown-run", A, 1, 16, "`t11`", "did you mean `t1`?")
    ],
    ("rating-deleted-run", "run-deleted-since"): [
        w("rating-deleted-run", A, 1, 32, "`run-old`", "deleted")
    ],
}


def _ids() -> list[tuple[str, str]]:
    return sorted(CASES)


@pytest.mark.parametrize(("code", "case"), _ids(), ids=[f"{c}/{k}" for c, k in _ids()])
def test_rating_rule_case(code: str, case: str, tmp_path: Path) -> None:
    root = materialize(code, case, tmp_path)
    setup = SETUPS.get((code, case))
    if setup is not None:
        setup(root)
    suite = Suite.open(root, use_git=(code, case) in WITH_GIT)
    diagnostics = suite.diagnostics()
    assert_case(diagnostics, CASES[(code, case)])
    assert A in suite.items and suite.items[A].kind == "rating", "the file is an item of its own"


def test_without_git_history_a_deleted_run_is_an_unknown_run(tmp_path: Path) -> None:
    root = materialize("rating-deleted-run", "run-deleted-since", tmp_path)
    deleted_since(root)
    codes = [(d.code, d.line) for d in Suite.open(root, use_git=False).diagnostics()]
    assert ("rating-unknown-run", 1) in codes
    assert "rating-deleted-run" not in [c for c, _ in codes]


_KEBAB = re.compile(r"^rating-[a-z0-9]+(?:-[a-z0-9]+)*$")


def rating_codes() -> set[str]:
    found: set[str] = set()
    for path in sorted((ENGINE / "ratings").glob("*.py")):
        found.update(value for value in string_constants(path) if _KEBAB.match(value))
    return found


def test_every_ratings_code_has_a_case_and_every_case_folder_a_row() -> None:
    codes = rating_codes()
    assert len(codes) >= 10, codes
    folders = {(p.parent.name, p.name) for p in RULES.glob("rating-*/*") if p.is_dir()}
    assert folders == set(CASES)
    assert {code for code, _ in CASES} == codes


# --- the adjudications file ----------------------------------------------------------------------

ADJ = "adjudications.jsonl"

ADJUDICATION_CASES: dict[tuple[str, str], list[Expect]] = {
    ("adjudication-invalid-json", "not-json"): [
        e("adjudication-invalid-json", ADJ, 2, 1, "not valid JSON")
    ],
    ("adjudication-torn-line", "cut-off-last-line"): [
        w("adjudication-torn-line", ADJ, 2, 1, "not saved", "adjudicate the item again")
    ],
    ("adjudication-missing-field", "no-adjudicator"): [
        e("adjudication-missing-field", ADJ, 2, 1, "`adjudicator`")
    ],
    ("adjudication-wrong-type", "score-as-text"): [
        e("adjudication-wrong-type", ADJ, 1, 90, "`correctness`", "whole number", "'3'")
    ],
    ("adjudication-invalid-time", "no-time-zone"): [
        e("adjudication-invalid-time", ADJ, 1, 188, "'2026-11-22T10:00:00'", "UTC")
    ],
    ("adjudication-bad-based-on", "no-rated-at"): [
        e("adjudication-bad-based-on", ADJ, 1, 107, "entry 1", "`rated_at`")
    ],
    ("adjudication-unknown-dimension", "typo"): [
        e("adjudication-unknown-dimension", ADJ, 1, 75, "`corectness`", "`correctness`?")
    ],
    ("adjudication-score-out-of-scale", "above-the-highest-anchor"): [
        e("adjudication-score-out-of-scale", ADJ, 1, 84, "`scope` is scored 6", "1 to 5")
    ],
    ("adjudication-unknown-run", "run-id-typo"): [
        e("adjudication-unknown-run", ADJ, 1, 32, "`run-aa`", "did you mean `run-a`?")
    ],
    # alice rated the run again after the adjudication was made: it still counts, stale
    ("adjudication-stale", "rated-again-since"): [
        w("adjudication-stale", ADJ, 1, 107, "alice", "2026-11-21T09:00:00Z", "still count")
    ],
}


def _adjudication_ids() -> list[tuple[str, str]]:
    return sorted(ADJUDICATION_CASES)


@pytest.mark.parametrize(
    ("code", "case"), _adjudication_ids(), ids=[f"{c}/{k}" for c, k in _adjudication_ids()]
)
def test_adjudication_rule_case(code: str, case: str, tmp_path: Path) -> None:
    root = materialize(code, case, tmp_path)
    suite = Suite.open(root, use_git=False)
    assert_case(suite.diagnostics(), ADJUDICATION_CASES[(code, case)])
    assert suite.items[ADJ].kind == "adjudication", "the file is an item of its own"


_ADJ_KEBAB = re.compile(r"^adjudication-[a-z0-9]+(?:-[a-z0-9]+)*$")


def test_every_adjudication_code_has_a_case_and_every_case_folder_a_row() -> None:
    codes = {
        value
        for value in string_constants(ENGINE / "ratings" / "adjudications.py")
        if _ADJ_KEBAB.match(value)
    }
    assert len(codes) == 10, codes
    folders = {(p.parent.name, p.name) for p in RULES.glob("adjudication-*/*") if p.is_dir()}
    assert folders == set(ADJUDICATION_CASES)
    assert {code for code, _ in ADJUDICATION_CASES} == codes
