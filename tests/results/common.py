"""A workspace for results, built in tmp_path: two labelled agents and an unlabelled run on eight
fixtures, a rubric of three dimensions on which the new agent is clearly better (correctness),
equal (scope) and clearly worse (evidence) than the old one; a retraction, a superseded rating and
a rating with an error; two gold corpora, each with the runs of two review agents (v1, v2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import task_yaml
from tests.scoring.common import dump, finding, gold_finding, gold_record, payload

RUBRIC = """\
# Rubric

## correctness

- 1: wrong
- 2: poor
- 3: partial
- 4: good
- 5: right

## scope

- 1: wrong size
- 2: too big
- 3: about right
- 4: close
- 5: exact

## evidence

- 1: none
- 2: thin
- 3: some
- 4: good
- 5: complete
"""

FIXTURES = [f"f{i}" for i in range(1, 9)]
BOUNDARY = {"f1": "integration", "f2": "integration", "f3": "integration"}
CLASS = {"f7": "adversarial", "f8": "adversarial"}
# Per dimension, the effective score of each fixture's run, old and new (both raters agree,
# except where a test says otherwise).
OLD = {
    "correctness": [2, 2, 3, 1, 2, 3, 2, 2],
    "scope": [3, 4, 2, 3, 4, 3, 2, 3],
    "evidence": [4, 5, 4, 4, 5, 4, 3, 4],
}
NEW = {
    "correctness": [4, 5, 4, 4, 3, 5, 4, 4],
    "scope": [4, 3, 2, 3, 3, 4, 2, 3],
    "evidence": [2, 2, 1, 2, 3, 2, 2, 1],
}
NEW_SECOND_RUN_F1 = {"correctness": 5, "scope": 4, "evidence": 2}
"""f1 has a second run of the new agent: it is averaged with the first before pairing."""


def record(fixture: str, run: str, rater: str, scores: Any, when: str = "10") -> str:
    return json.dumps(
        {
            "fixture_id": fixture,
            "run_id": run,
            "rater": rater,
            "scores": scores,
            "note": "",
            "rated_at": f"2026-11-20T14:{when}:00Z",
            "blind": True,
        }
    )


def scores_of(table: dict[str, list[int]], index: int) -> dict[str, int]:
    return {d: values[index] for d, values in table.items()}


def build(root: Path, baseline: str = "") -> Path:
    files: dict[str, str] = {"rubric.md": RUBRIC}
    if baseline:
        files["voyage.toml"] = f'[results]\nbaseline = "{baseline}"\n'
    files["fixtures/no-change-needed/ncn-1/task.yaml"] = task_yaml("ncn-1", "no-change-needed")
    for fixture in FIXTURES:
        cls = CLASS.get(fixture, "bug-diagnosis")
        text = task_yaml(fixture, cls)
        text = text.replace(
            "expected_boundary: unit", f"expected_boundary: {BOUNDARY.get(fixture, 'unit')}"
        )
        files[f"fixtures/{cls}/{fixture}/task.yaml"] = text
        for run, agent in (("old-1", "old"), ("new-1", "new")):
            files[f"fixtures/{cls}/{fixture}/runs/{run}.yaml"] = (
                f"run_id: {run}\nagent: {agent}\noutput: |\n  Did it.\n"
            )
    files["fixtures/bug-diagnosis/f1/runs/new-2.yaml"] = "run_id: new-2\nagent: new\noutput: x\n"
    files["fixtures/bug-diagnosis/f2/runs/anon.yaml"] = "run_id: anon\noutput: |\n  Who?\n"
    alice, bob = [], []
    for i, fixture in enumerate(FIXTURES):
        for rater, lines in (("alice", alice), ("bob", bob)):
            lines.append(record(fixture, "old-1", rater, scores_of(OLD, i)))
            lines.append(record(fixture, "new-1", rater, scores_of(NEW, i)))
    # superseded: bob's first rating of f2/new-1 said 1 everywhere; his later one counts
    bob.insert(0, record("f2", "new-1", "bob", {"correctness": 1, "scope": 1, "evidence": 5}))
    alice.append(record("f1", "new-2", "alice", NEW_SECOND_RUN_F1))
    # retracted: alice rated the unlabelled run, then took it back
    alice.append(record("f2", "anon", "alice", {"correctness": 1, "scope": 1, "evidence": 1}))
    alice.append(record("f2", "anon", "alice", None, "20"))
    # an error: a score off the scale is left out (and counted)
    bob.append(record("f3", "new-1", "bob", {"correctness": 9, "scope": 3, "evidence": 3}))
    files["ratings/alice.jsonl"] = "\n".join(alice) + "\n"
    files["ratings/bob.jsonl"] = "\n".join(bob) + "\n"
    files.update(gold_files())
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def gold_files() -> dict[str, str]:
    c1 = gold_record(
        [
            gold_finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
            gold_finding("a.py", 9, "jwt-no-expiry", "MAJOR"),
        ]
    )
    c2 = gold_record(
        [
            gold_finding(
                "b.py", 0, "error-swallowed", "MINOR", dual_flaggable="missing-auth-check"
            ),
            gold_finding("c.py", 5, "hardcoded-secret", "MAJOR"),
        ]
    )
    return {
        "gold/c1/gold.json": dump(c1),
        "gold/c2/gold.json": dump(c2),
        # v1: perfect on c1; on c2 it names b.py's dual_flaggable key
        "gold/c1/runs/v1.json": dump(
            [
                payload(
                    "correctness",
                    finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
                    finding("a.py", 9, "jwt-no-expiry", "MAJOR"),
                )
            ]
        ),
        "gold/c2/runs/v1.json": dump(
            [
                payload(
                    "correctness",
                    finding("b.py", 0, "missing-auth-check", "MINOR"),
                    finding("c.py", 5, "hardcoded-secret", "MAJOR"),
                )
            ]
        ),
        # v2: lets c1's BLOCK through as ALLOW, finds nothing on c2
        "gold/c1/runs/v2.json": dump(
            [payload("correctness", finding("a.py", 9, "jwt-no-expiry", "MINOR"))]
        ),
        "gold/c2/runs/v2.json": dump([payload("correctness")]),
    }


def scipy_stats() -> Any:
    """scipy.stats, the reference, imported when a test computes one: imported at collection
    it cost every test worker a CPU second (tests/test_test_session.py checks)."""
    from scipy import stats

    return stats
