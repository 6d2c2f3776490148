"""Live re-validation agrees with a full validate: a suite kept up to date by
`Suite.revalidate` lists the same files, with the same kinds and diagnostics, as a `validate` of
the workspace as it now is, whatever the paths (hypothesis builds odd ones)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.conftest import task_yaml
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

T = "fixtures/bug-diagnosis/t1/task.yaml"

AGENT_RUN_TEXT = "run_id: a\nagent: model-x\noutput: Fixed it.\n"
GOLD_TEXT = (
    json.dumps(
        {
            "schema": "voyage-eval-gold/1",
            "source": "tests",
            "description": "one finding",
            "expected_verdict": "WARN",
            "findings": [
                {
                    "file": "a.py",
                    "line": 3,
                    "rule_key": "off-by-one",
                    "severity": "MAJOR",
                    "owner_reviewer": "correctness",
                }
            ],
        },
        indent=2,
    )
    + "\n"
)
RUN_TEXT = (
    json.dumps(
        [
            {
                "reviewer": "correctness",
                "findings": [{"file": "a.py", "line": 3, "rule_key": "off-by-one", "severity": 1}],
            }
        ],
        indent=2,
    )
    + "\n"
)


def _snapshot(suite: Suite) -> tuple[object, ...]:
    return (
        {path: (item.kind, item.parent, item.id) for path, item in sorted(suite.items.items())},
        suite.diagnostics(),
        suite.summary(),
        suite.coverage(),
    )


def _fresh(root: Path, use_git: bool = False) -> Suite:
    suite = Suite(Workspace.from_root(root), use_git=use_git)
    suite.validate_all()
    return suite


# --- the defect: runs/sub/a.yaml ---------------------------------------------------------------


def test_a_yaml_file_below_a_runs_subfolder_is_the_same_thing_live_and_in_full(make_workspace):
    """Live re-validation made `runs/sub/a.yaml` an agent run (with its diagnostics) that a full
    `validate` never lists: agent runs are `runs/*.yaml` directly in a fixture's folder."""
    rel = "fixtures/bug-diagnosis/t1/runs/sub/a.yaml"
    root = make_workspace({T: task_yaml("t1")})
    suite = _fresh(root)
    (root / rel).parent.mkdir(parents=True)
    (root / rel).write_text("output: 3\n", encoding="utf-8")
    suite.revalidate([rel])
    fresh = _fresh(root)
    assert rel not in fresh.items
    assert rel not in suite.items
    assert [d for d in suite.diagnostics() if d.path == rel] == []
    assert _snapshot(suite) == _snapshot(fresh)


# --- the walk and live re-validation agree on odd paths -------------------------------------------

FOLDERS = ["fixtures", "c", "trajectories", "runs", "sub", "node_modules", ".git", "ratings"]
FILES = {
    "task.yaml": task_yaml("t1"),
    "a.yaml": AGENT_RUN_TEXT,
    "b.yml": "run_id: b\n",
    "g.json": GOLD_TEXT,
    "h.json": GOLD_TEXT,
    "r.json": RUN_TEXT,
    "n.json": "{}\n",
    "x.jsonl": '{"rater": "x"}\n',
    "README.md": "| file | rule_key |\n|---|---|\n| a.py | off-by-one |\n",
    "notes.md": "notes\n",
}

relative_paths = st.builds(
    lambda folders, name: "/".join([*folders, name]),
    st.lists(st.sampled_from(FOLDERS), max_size=4),
    st.sampled_from(sorted(FILES)),
)
file_sets = st.lists(relative_paths, min_size=1, max_size=8, unique=True)

PROPERTY = settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _write(root: Path, rel: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FILES[rel.rsplit("/", 1)[-1]], encoding="utf-8")


@PROPERTY
@given(file_sets)
def test_files_created_at_once_revalidate_like_a_full_validate(rels: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        suite = _fresh(root)
        for rel in rels:
            _write(root, rel)
        suite.revalidate(rels)
        assert _snapshot(suite) == _snapshot(_fresh(root))


@PROPERTY
@given(file_sets, st.randoms(use_true_random=False))
def test_files_created_and_deleted_one_by_one_agree_at_every_step(rels, rnd) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        suite = _fresh(root)
        for rel in rels:
            _write(root, rel)
            suite.revalidate([rel])
            assert _snapshot(suite) == _snapshot(_fresh(root)), f"after creating {rel}"
        doomed = list(rels)
        rnd.shuffle(doomed)
        for rel in doomed[: len(doomed) // 2 + 1]:
            os.unlink(root / rel)
            suite.revalidate([rel])
            assert _snapshot(suite) == _snapshot(_fresh(root)), f"after deleting {rel}"


# --- git-ignored JSON files: not gold files, live or in full ---------------------------------------


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def test_a_git_ignored_gold_file_is_not_one_when_it_appears_live(make_workspace):
    root = make_workspace({T: task_yaml("t1")})
    _git(root, "init", "-q")
    (root / ".gitignore").write_text("scratch/\n", encoding="utf-8")
    suite = _fresh(root, use_git=True)
    rel = "scratch/gold.json"
    (root / "scratch").mkdir()
    (root / rel).write_text(GOLD_TEXT, encoding="utf-8")
    suite.revalidate([rel])
    fresh = _fresh(root, use_git=True)
    assert rel not in fresh.items
    assert rel not in suite.items
    # and a change to .gitignore decides again
    (root / ".gitignore").write_text("", encoding="utf-8")
    suite.revalidate([".gitignore"])
    assert rel in suite.items
    assert _snapshot(suite) == _snapshot(_fresh(root, use_git=True))


# --- symlinked folders: followed where the walk follows them, and nowhere else ----------------------


def test_a_symlinked_folder_is_followed_live_exactly_where_the_walk_follows_it(make_workspace):
    root = make_workspace(
        {"corpus/real/g.json": GOLD_TEXT, "library/t9/task.yaml": task_yaml("t9")}
    )
    os.symlink("real", root / "corpus/link")  # a gold folder's subfolder: not followed
    (root / "fixtures/bug-diagnosis").mkdir()
    os.symlink("../../library/t9", root / "fixtures/bug-diagnosis/t9")  # a fixture: followed
    suite = _fresh(root)
    assert "fixtures/bug-diagnosis/t9/task.yaml" in suite.items
    assert "corpus/link/g.json" not in suite.items
    suite.revalidate(["corpus/link/g.json", "fixtures/bug-diagnosis/t9/task.yaml"])
    assert _snapshot(suite) == _snapshot(_fresh(root))
