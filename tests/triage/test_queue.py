"""The queue: its kinds, their order, and keys that survive unrelated edits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from tests.triage.seed import BROKEN, GOLD, HOLDOUT, README
from tests.triage.support import keys, queue_of
from voyage_tui.engine.triage.keys import KINDS, named, unique

RUNS = "fixtures/gold/jwt-auth/runs"


def test_every_kind_in_the_seeded_sample_in_order_of_urgency(seeded: Path) -> None:
    queue = queue_of(seeded)
    kinds = [item.kind for item in queue.items]
    assert set(kinds) == set(KINDS)
    assert kinds == sorted(kinds, key=KINDS.index), "grouped by kind, worst kind first"
    by_kind = {kind: [i for i in queue.items if i.kind == kind] for kind in KINDS}
    assert by_kind["error"][0].path == BROKEN and by_kind["error"][0].line == 2
    assert by_kind["exposed"][0].path == HOLDOUT
    assert "canary-leak" in by_kind["exposed"][0].title
    assert [s.kind for s in by_kind["exposed"][0].signals] == ["canary-leak"]
    assert [i.path for i in by_kind["low-score"]] == [
        f"{RUNS}/run-empty.json",  # F1 0: worst first
        f"{RUNS}/run-downgraded.json",  # F1 1, but the verdict flips BLOCK -> ALLOW
    ]
    assert by_kind["low-score"][0].gold == GOLD
    assert by_kind["drift"][0].path == GOLD
    assert by_kind["warning"][0].path == BROKEN
    assert "grond_truth" in by_kind["warning"][0].key
    assert {i.run_id for i in by_kind["unrated"]} == {"run-base1", "run-b1"}
    assert queue.gates
    assert queue.counts() == {
        "error": 1,
        "exposed": 1,
        "low-score": 2,
        "drift": 1,
        "warning": 1,
        "unrated": 2,
    }


def test_within_a_kind_by_path_then_line(make_workspace) -> None:
    bad = task_yaml("b").replace("expected_boundary: unit", "expected_boundary: unitt")
    worse = bad.replace("visibility: public", "visibility: secret")
    root = make_workspace(
        {
            "fixtures/refactor/b/task.yaml": bad.replace("bug-diagnosis", "refactor"),
            "fixtures/bug-diagnosis/b/task.yaml": worse,
        }
    )
    queue = queue_of(root, git=False)
    located = [(i.kind, i.path, i.line) for i in queue.items if i.kind == "error"]
    assert located == sorted(located, key=lambda x: (x[1], x[2] or 0))
    assert [p for _, p, _ in located][:2] == ["fixtures/bug-diagnosis/b/task.yaml"] * 2


def test_an_errors_key_stays_when_lines_are_inserted_above_it(seeded: Path) -> None:
    before = queue_of(seeded, git=False)
    error = next(i for i in before.items if i.kind == "error")
    path = seeded / BROKEN
    path.write_text("# a comment\n# and another\n" + path.read_text())
    after = queue_of(seeded, git=False)
    moved = next(i for i in after.items if i.kind == "error")
    assert moved.line == error.line + 2
    assert moved.key == error.key
    assert "2" not in moved.key.rsplit(":", 1)[-1]
    assert keys(after) == keys(before)


def test_keys_name_no_line_and_are_unique(seeded: Path) -> None:
    queue = queue_of(seeded)
    all_keys = keys(queue)
    assert len(all_keys) == len(set(all_keys))
    for item in queue.items:
        assert item.key.startswith(f"{item.kind}:{item.path}")
        if item.line is not None:
            assert f":{item.line}" not in item.key.removeprefix(f"{item.kind}:{item.path}")


def test_a_new_exposure_signal_makes_a_new_key(seeded: Path) -> None:
    from tests.triage.seed import git, prompt_line_of

    first = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    (seeded / "notes/pasted.md").write_text(prompt_line_of(seeded / HOLDOUT) + "\n")
    git(seeded, "add", "-A")
    git(seeded, "commit", "-q", "-m", "paste")
    second = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    assert second.code == "canary-leak+content-leak"
    assert second.key == f"exposed:{HOLDOUT}:canary-leak+content-leak"
    assert second.key != first.key


def test_named_takes_the_quoted_thing_and_blanks_numbers_otherwise() -> None:
    assert named("unknown field `grond_truth`; did you mean `ground_truth`?") == "grond_truth"
    assert named("(a.ts, rule-x) is missing from the table") == "a.ts, rule-x"
    assert named("the file has 1,234 bytes") == named("the file has 99 bytes")
    assert named("the file has 1,234 bytes") != named("the folder has 1,234 bytes")
    assert unique(["a", "b", "a", "a"]) == ["a", "b", "a#2", "a#3"]


def test_min_f1_and_ratings_per_run_come_from_voyage_toml(seeded: Path) -> None:
    config = seeded / "voyage.toml"
    config.write_text(config.read_text() + "\n[triage]\nmin_f1 = 0.9\nratings_per_run = 0\n")
    queue = queue_of(seeded, git=False)
    low = {i.path.rsplit("/", 1)[-1] for i in queue.items if i.kind == "low-score"}
    # run-misses (0.833) and run-invents (0.824) fall below 0.9 now; run-invalid-finding (0.923)
    # does not.
    assert low == {"run-empty.json", "run-downgraded.json", "run-misses.json", "run-invents.json"}
    assert not [i for i in queue.items if i.kind == "unrated"]
    # ratings_per_run still counts while it is written, and validate says it is deprecated in
    # favour of [rating] overlap: that warning is the file's only item.
    assert [i.code for i in queue.items if i.path == "voyage.toml"] == ["config-deprecated"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("min_f1 = 1.5", "config-invalid"),
        ("min_f1 = 'high'", "config-invalid"),
        ("min_f1 = nan", "config-invalid"),
        ("ratings_per_run = -1", "config-invalid"),
        ("ratings_per_run = 2.5", "config-invalid"),
        ("ratings_per_rum = 2", "config-unknown-key"),
    ],
)
def test_a_bad_triage_setting_is_a_diagnostic_and_the_default_is_used(
    make_workspace, line: str, code: str
) -> None:
    from voyage_tui.engine.workspace.model import Workspace

    root = make_workspace({"voyage.toml": f"[triage]\n{line}\n"})
    ws = Workspace.load(root)
    assert [d.code for d in ws.config_diagnostics] == [code]
    assert ws.config_diagnostics[0].line == 2
    assert ws.config.triage.min_f1 == 0.5
    assert ws.config.triage.ratings_per_run == 2
    queued = [i for i in queue_of(root, git=False).items if i.path == "voyage.toml"]
    assert [i.kind for i in queued] == ["error" if code == "config-invalid" else "warning"]


def test_an_unrated_run_leaves_when_its_second_rating_lands(seeded: Path) -> None:
    queue = queue_of(seeded, git=False)
    item = next(i for i in queue.items if i.kind == "unrated" and i.run_id == "run-base1")
    assert item.title.endswith("1 of 2 ratings")
    record = {
        "fixture_id": item.fixture_id,
        "run_id": "run-base1",
        "rater": "dana",
        "scores": {"correctness": 4, "verification": 4, "scope": 4, "evidence": 4},
        "note": "",
        "rated_at": "2026-03-01T10:00:00Z",
        "blind": True,
    }
    rubric = (seeded / "fixtures/rubric.md").read_text()
    dims = [line[3:].strip().lower() for line in rubric.splitlines() if line.startswith("## ")]
    record["scores"] = dict.fromkeys(dims, 4)
    (seeded / "fixtures/ratings/dana.jsonl").write_text(json.dumps(record) + "\n")
    after = queue_of(seeded, git=False)
    assert item.key not in keys(after)


def test_drift_leaves_when_the_row_is_back(seeded: Path) -> None:
    from tests.triage.seed import DROPPED_ROW

    queue = queue_of(seeded, git=False)
    drift = next(i for i in queue.items if i.kind == "drift")
    assert set(drift.files) == {GOLD, README}
    readme = seeded / README
    text = readme.read_text()
    anchor = "| 2 | `src/auth/jwt.ts`"
    readme.write_text(text.replace(anchor, DROPPED_ROW + anchor, 1))
    assert drift.key not in keys(queue_of(seeded, git=False))


def test_exposed_comes_from_the_views_typed_field_not_a_diagnostic_code(make_workspace) -> None:
    import dataclasses

    from voyage_tui.engine.diagnostics import Diagnostic, Severity
    from voyage_tui.engine.triage.queue import collect
    from voyage_tui.engine.validation.suite import Suite
    from voyage_tui.engine.validation.view import view_of

    lookalike = "fixtures/bug-diagnosis/a/task.yaml"
    holdout = "fixtures/bug-diagnosis/h/task.yaml"
    root = make_workspace(
        {
            lookalike: task_yaml("a"),
            holdout: task_yaml("h").replace("visibility: public", "visibility: holdout"),
        }
    )
    suite = Suite.open(root, use_git=False)
    # A diagnostic that only carries the code (from anywhere but the git checks) does not make
    # an exposed holdout; the view's `exposed` does, with or without a diagnostic.
    message = "holdout `a` is exposed: canary-leak (notes.md:1); retire it"
    fake = Diagnostic(lookalike, 3, 1, Severity.ERROR, "holdout-exposed", message)
    suite.items[lookalike] = dataclasses.replace(suite.items[lookalike], diagnostics=(fake,))
    view = dataclasses.replace(view_of(suite), exposed=frozenset({holdout}))
    found = collect(view)
    exposed = [i for i in found if i.kind == "exposed"]
    assert [(i.path, i.fixture_id) for i in exposed] == [(holdout, "h")]
    assert [i.kind for i in found if i.path == lookalike] == ["error"]
