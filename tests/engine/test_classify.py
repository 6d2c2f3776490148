"""One decision per path: what a workspace path is (task, trajectory, agent run, gold, run,
rating, reference, ...) is decided by one function, which the full walk and live re-validation
both follow (tests/engine/test_live_agrees_with_full.py checks that they agree)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.engine.test_live_agrees_with_full import PROPERTY, _write, file_sets
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.workspace.config import VoyageConfig
from voyage_tui.engine.workspace.layout import scan
from voyage_tui.engine.workspace.model import Workspace

T = "fixtures/bug-diagnosis/t1/task.yaml"

# --- the classifier ------------------------------------------------------------------------------


def _ws(tmp_path: Path, **paths: object) -> Workspace:
    config = VoyageConfig.model_validate({"paths": paths}) if paths else VoyageConfig()
    return Workspace(tmp_path, config)


KINDS = {
    "fixtures/bug-diagnosis/t1/task.yaml": FileKind.TASK,
    "fixtures/trajectories/tr1/task.yaml": FileKind.TRAJECTORY,
    "fixtures/bug-diagnosis/t1/runs/run-1.yaml": FileKind.AGENT_RUN,
    "fixtures/bug-diagnosis/t1/runs/run-1.yml": FileKind.AGENT_RUN,
    "fixtures/trajectories/tr1/runs/run-1.yaml": FileKind.AGENT_RUN,
    "fixtures/gold/jwt-auth/gold.json": FileKind.GOLD,
    "gold.json": FileKind.GOLD,
    "corpus/deep/er/gold.json": FileKind.GOLD,
    "fixtures/bug-diagnosis/t1/runs/sub/a.json": FileKind.GOLD,
    "fixtures/gold/jwt-auth/runs/run-perfect.json": FileKind.GOLD_RUN,
    "runs/r.json": FileKind.GOLD_RUN,
    "corpus/runs/runs/r.json": FileKind.GOLD_RUN,
    "ratings/alice.jsonl": FileKind.RATING,
    "references/journey.md": FileKind.REFERENCE,
    "references/routing-table.md": FileKind.REFERENCE,
    "references/rule-catalogue.yaml": FileKind.REFERENCE,
    "references/rule-catalogue.json": FileKind.REFERENCE,
    "rubric.md": FileKind.REFERENCE,
    "voyage.toml": FileKind.CONFIG,
    "fixtures/task.yaml": FileKind.MISPLACED_TASK,
    "fixtures/bug-diagnosis/task.yaml": FileKind.MISPLACED_TASK,
    # other: not a file the engine validates
    "fixtures/bug-diagnosis/t1/runs/sub/a.yaml": FileKind.OTHER,
    "fixtures/bug-diagnosis/t1/notes.md": FileKind.OTHER,
    "fixtures/bug-diagnosis/t1/repo/task.yaml": FileKind.OTHER,
    "fixtures/bug-diagnosis/t1/runs/notes.txt": FileKind.OTHER,
    "fixtures/bug-diagnosis/t1/task.yml": FileKind.OTHER,
    "corpus/runs/r.yaml": FileKind.OTHER,
    "ratings/sub/alice.jsonl": FileKind.OTHER,
    "ratings/alice.json": FileKind.GOLD,  # any *.json where gold files are searched
    "README.md": FileKind.OTHER,
    "node_modules/pkg/gold.json": FileKind.OTHER,
    ".git/gold.json": FileKind.OTHER,
    "corpus/.venv/runs/r.json": FileKind.OTHER,
    "fixtures/.voyage/t1/task.yaml": FileKind.OTHER,
    "fixtures/bug-diagnosis/__pycache__/task.yaml": FileKind.OTHER,
    "": FileKind.OTHER,
    "../elsewhere/gold.json": FileKind.OTHER,
}


@pytest.mark.parametrize("rel", KINDS)
def test_each_kind_for_representative_paths(tmp_path: Path, rel: str) -> None:
    assert _ws(tmp_path).classifier.kind(rel) is KINDS[rel]


def test_the_configured_folders_decide(tmp_path: Path) -> None:
    ws = _ws(
        tmp_path,
        fixtures="suite",
        gold=["corpus"],
        ratings="people/ratings",
        journey="docs/journey.md",
        rule_catalogue="docs/rules.json",
    )
    assert ws.classifier.kind("suite/refactor/r1/task.yaml") is FileKind.TASK
    assert ws.classifier.kind("suite/trajectories/x/task.yaml") is FileKind.TRAJECTORY
    assert ws.classifier.kind("fixtures/refactor/r1/task.yaml") is FileKind.OTHER
    assert ws.classifier.kind("corpus/g.json") is FileKind.GOLD
    assert ws.classifier.kind("corpus/runs/r.json") is FileKind.GOLD_RUN
    assert ws.classifier.kind("elsewhere/g.json") is FileKind.OTHER  # outside the gold folders
    assert ws.classifier.kind("suite/refactor/r1/runs/r.json") is FileKind.OTHER
    assert ws.classifier.kind("people/ratings/bo.jsonl") is FileKind.RATING
    assert ws.classifier.kind("ratings/bo.jsonl") is FileKind.OTHER
    assert ws.classifier.kind("docs/journey.md") is FileKind.REFERENCE
    assert ws.classifier.kind("docs/rules.json") is FileKind.REFERENCE
    # a catalogue named in voyage.toml is the only one: the usual names are ordinary files
    assert ws.classifier.kind("references/rule-catalogue.yaml") is FileKind.OTHER


# --- the walk lists what the classifier names ---


def _kinds_found(root: Path) -> dict[str, str]:
    layout = scan(Workspace.from_root(root), use_git=False)
    return {
        **{rel: "task" for rel in layout.tasks},
        **{rel: "agent-run" for rel in layout.agent_runs},
        **{rel: "json" for rel in layout.json_candidates},
    }


WALKED = {
    FileKind.TASK: "task",
    FileKind.TRAJECTORY: "task",
    FileKind.AGENT_RUN: "agent-run",
    FileKind.GOLD: "json",
    FileKind.GOLD_RUN: "json",
}


@PROPERTY
@given(file_sets)
def test_the_walk_lists_exactly_what_the_classifier_names(rels: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel in rels:
            _write(root, rel)
        ws = Workspace.from_root(root)
        expected = {rel: WALKED[k] for rel in rels if (k := ws.classifier.kind(rel)) in WALKED}
        assert _kinds_found(root) == expected


_SEGMENT = st.sampled_from(
    ["fixtures", "fixtures2", "data", "suite", "bug-diagnosis", "t1", "runs", "a.yaml"]
)


@settings(max_examples=examples(300), deadline=None)
@given(
    fixtures=st.lists(st.sampled_from(["fixtures", "data", "suite"]), max_size=2),
    parts=st.lists(_SEGMENT, min_size=1, max_size=6),
)
def test_fixture_parts_is_the_class_and_id_folder_below_the_fixtures_folder(
    fixtures: list[str], parts: list[str]
) -> None:
    ws = Workspace(
        Path(tempfile.gettempdir()),
        VoyageConfig.model_validate({"paths": {"fixtures": "/".join(fixtures) or "."}}),
    )
    rel = "/".join(parts)
    n = len(fixtures)
    expected = (parts[n], parts[n + 1]) if len(parts) >= n + 3 and parts[:n] == fixtures else None
    assert ws.classifier.fixture_parts(rel) == expected
