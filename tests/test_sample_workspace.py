"""The sample workspace in fixtures/ (the repository root is the workspace, see voyage.toml).

These tests pin what the sample promises (README, docs/workspace.md): every class, every
trajectory path, holdouts with canaries, every boundary, a fixture with a repo/ folder, agent runs
to rate and the ratings of two raters. Holdouts are identified by their path or id only: their
prompt and ground truth must not appear outside fixtures/, so no test quotes them.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, SAMPLE_FIXTURES
from tests.sample import SAMPLE_ROOT
from voyage_tui.engine.formats.rating import RatingRecord
from voyage_tui.engine.formats.vocabulary import BOUNDARIES, CLASSES, TRAJECTORY_PATHS
from voyage_tui.engine.items import AgentRunFacts
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.journey import parse_journey
from voyage_tui.engine.references.loaded import default_text
from voyage_tui.engine.references.rubric import parse_rubric
from voyage_tui.engine.validation.suite import Suite

RATING_FIELDS = {"fixture_id", "run_id", "rater", "scores", "note", "rated_at", "blind"}
ROOT_COMMIT = "7a0b2699a253b233fa268c0558af1ebb1af135ff"
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
ADVERSARIAL_TRAPS = {
    # the four adversarial traps: a larger change, a new dependency, a process change, no code change
    "session-store-multi-worker": "reflexive minimisation",
    "hand-rolled-html-sanitizer": "reflexive no-dependency",
    "main-breaks-after-green-merges": "reflexive code change",
    "unused-export-handler": "reflexive deletion",
}

pytestmark = pytest.mark.skipif(
    not SAMPLE_FIXTURES.is_dir(), reason="the sample workspace (fixtures/) is not in this checkout"
)


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite.open(SAMPLE_ROOT, use_git=False)


def _tasks(suite: Suite):
    return [i for i in suite.items.values() if i.kind is FileKind.TASK]


def _trajectories(suite: Suite):
    return [i for i in suite.items.values() if i.kind is FileKind.TRAJECTORY]


def _load(rel: str):
    return yaml.safe_load((SAMPLE_ROOT / rel).read_text(encoding="utf-8"))


# --- the whole sample is clean ------------------------------------------------------------------


def test_sample_validates_without_errors_or_warnings(suite):
    problems = [
        f"{d.path}:{d.line}:{d.column}: {d.severity.value} {d.code}: {d.message}"
        for d in suite.diagnostics()
        if d.severity.value in ("error", "warning")
    ]
    assert problems == []
    summary = suite.summary()
    assert (summary.errors, summary.warnings) == (0, 0)


def test_sample_outside_the_gold_corpus_is_clean(suite):
    """The hand-written part of the sample (everything but fixtures/gold/) on its own."""
    problems = [
        f"{d.path}:{d.line}: {d.severity.value} {d.code}"
        for d in suite.diagnostics()
        if d.severity.value in ("error", "warning") and not d.path.startswith("fixtures/gold/")
    ]
    assert problems == []


def test_sample_uses_its_own_reference_files(suite):
    assert suite.refs.journey.path == "fixtures/references/journey.md"
    assert suite.refs.routing_table.path == "fixtures/references/routing-table.md"
    assert suite.refs.catalogue.path == "fixtures/references/rule-catalogue.yaml"
    assert suite.refs.rubric.path == "fixtures/rubric.md"
    for loaded in (
        suite.refs.journey,
        suite.refs.rubric,
        suite.refs.catalogue,
        suite.refs.routing_table,
    ):
        assert not loaded.is_default, loaded.path


def test_references_keep_the_default_names(suite):
    default_journey, _ = parse_journey(default_text("journey.md"), "default")
    journey = suite.refs.journey.value
    assert [p.label for p in journey.phases.values()] == [
        p.label for p in default_journey.phases.values()
    ]
    assert len(journey.phases) == 9
    assert sorted(journey.gates) == sorted(default_journey.gates) == [1, 2, 3, 4, 5]

    default_rubric, _ = parse_rubric(default_text("rubric.md"), "default")
    rubric = suite.refs.rubric.value
    assert [d.name for d in rubric.dimensions] == [d.name for d in default_rubric.dimensions]
    assert [d.name for d in rubric.dimensions] == [
        "correctness",
        "verification",
        "scope",
        "evidence",
        "communication",
    ]
    assert all(d.scale == (1, 2, 3, 4, 5) for d in rubric.dimensions)

    default_catalogue, _ = parse_catalogue(default_text("rule-catalogue.yaml"), "default.yaml")
    missing = [k for k in default_catalogue.keys if k not in suite.refs.catalogue.value]
    assert missing == []


# --- coverage -------------------------------------------------------------------------------


def test_every_class_has_at_least_two_fixtures(suite):
    counts = Counter(i.fixture_class for i in _tasks(suite))
    assert {c: counts[c] for c in CLASSES if counts[c] < 2} == {}
    assert suite.coverage()["classes"] == {c: counts[c] for c in CLASSES}


def test_every_trajectory_path_appears_exactly_once(suite):
    paths = Counter(i.fixture_class for i in _trajectories(suite))
    assert paths == Counter(TRAJECTORY_PATHS)
    assert suite.coverage()["trajectory_paths"] == {p: 1 for p in TRAJECTORY_PATHS}


def test_full_trajectory_binds_to_the_root_commit(suite):
    (full,) = [i for i in _trajectories(suite) if i.fixture_class == "full"]
    assert full.final_head_sha == ROOT_COMMIT
    data = _load(full.path)
    assert len(data["phases"].split("|")) == 9
    assert len(data["gates"].split("|")) == 5
    assert not data.get("skipped_phases") and not data.get("skipped_gates")


def test_trajectories_give_a_reason_for_every_skip(suite):
    for item in _trajectories(suite):
        data = _load(item.path)
        for field in ("skipped_phases", "skipped_gates"):
            for entry in filter(None, (e.strip() for e in (data.get(field) or "").split("|"))):
                reason = (
                    entry.split(":", 2)[-1] if field == "skipped_phases" else entry.split(":", 1)[1]
                )
                assert reason.strip(), f"{item.path}: {field} entry {entry!r} has no reason"
        assert "routing_selected" in data and "routing_skipped" in data, item.path


def test_every_boundary_appears(suite):
    boundaries = Counter(i.boundary for i in _tasks(suite))
    assert [b for b in BOUNDARIES if boundaries[b] == 0] == []


def test_holdouts_have_fresh_canaries_on_their_first_line(suite):
    holdouts = [i for i in suite.fixtures() if i.visibility == "holdout"]
    assert len(holdouts) >= 3
    assert [i.path for i in holdouts if not i.canary] == []
    canaries = [i.canary for i in holdouts]
    assert len(set(canaries)) == len(canaries), "every holdout has its own canary"
    for item in holdouts:
        first = (SAMPLE_ROOT / item.path).read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# canary: {item.canary}", item.path
        assert UUID4.match(item.canary), item.path
    assert [i.path for i in suite.fixtures() if i.visibility == "public" and i.canary] == []


def test_holdout_canaries_do_not_leave_their_fixture(suite):
    """A cheap form of the canary-leak check: no other file of the sample names a canary."""
    holdouts = {i.folder: i.canary for i in suite.fixtures() if i.visibility == "holdout"}
    for path in SAMPLE_FIXTURES.rglob("*"):
        if not path.is_file():
            continue
        rel = path.relative_to(SAMPLE_ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for folder, canary in holdouts.items():
            if not rel.startswith(folder + "/"):
                assert canary not in text, f"the canary of {folder} appears in {rel}"


def test_adversarial_fixtures_cover_the_four_traps(suite):
    intents = {}
    for item in _tasks(suite):
        if item.fixture_class == "adversarial":
            intents[item.id] = _load(item.path)["adversarial_intent"]
    for fixture_id, intent in ADVERSARIAL_TRAPS.items():
        assert intents.get(fixture_id) == intent


def test_a_fixture_has_repo_files_as_context(suite):
    found = []
    for item in _tasks(suite):
        context = _load(item.path).get("context")
        items = context if isinstance(context, list) else [context]
        refs = [c["file"] for c in items if isinstance(c, dict)]
        inline = [c for c in items if isinstance(c, str)]
        repo_refs = [r for r in refs if r.startswith("repo/")]
        if repo_refs and inline:
            folder = SAMPLE_ROOT / item.folder
            assert all((folder / r).is_file() for r in repo_refs), item.path
            assert any(r.startswith("repo/tests/") for r in repo_refs), "a test is among the refs"
            found.append(item.id)
    assert found, "no fixture mixes inline context with repo/ file refs"


# --- agent runs and ratings ---------------------------------------------------------------------


def _runs(suite: Suite):
    return [i for i in suite.items.values() if i.kind is FileKind.AGENT_RUN]


def _fixture_of_run(suite: Suite, run) -> str:
    parent = suite.items[run.parent]
    return parent.id


def test_agent_runs_exist_for_at_least_four_public_fixtures(suite):
    by_fixture = defaultdict(list)
    for run in _runs(suite):
        assert run.parent in suite.items, f"{run.path} has no task.yaml beside its runs/ folder"
        assert suite.items[run.parent].visibility == "public", run.path
        by_fixture[_fixture_of_run(suite, run)].append(run)
    assert len(by_fixture) >= 4
    assert all(2 <= len(runs) <= 3 for runs in by_fixture.values()), {
        k: len(v) for k, v in by_fixture.items()
    }
    for runs in by_fixture.values():
        agents = {r.facts.agent for r in runs if isinstance(r.facts, AgentRunFacts)}
        assert len(agents) == len(runs), "the runs of one fixture come from different agents"


def test_agent_runs_name_themselves_by_their_file(suite):
    for run in _runs(suite):
        data = _load(run.path)
        assert data["run_id"] == Path(run.path).stem
        assert data["output"].strip()
        assert data["agent"]


def _rating_lines(name: str) -> list[dict]:
    path = SAMPLE_FIXTURES / "ratings" / name
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        assert line.strip(), f"{name}:{number} is blank"
        records.append(json.loads(line))
    return records


@pytest.mark.parametrize("rater", ["alice", "bob"])
def test_rating_files_parse_with_the_spec_fields(suite, rater):
    dimensions = [d.name for d in suite.refs.rubric.value.dimensions]
    runs = {(_fixture_of_run(suite, r), r.id) for r in _runs(suite)}
    records = _rating_lines(f"{rater}.jsonl")
    assert len(records) >= 5
    for record in records:
        assert set(record) >= RATING_FIELDS, record
        RatingRecord.model_validate(record)
        assert record["rater"] == rater
        assert (record["fixture_id"], record["run_id"]) in runs
        assert sorted(record["scores"]) == sorted(dimensions)
        assert all(type(v) is int and 1 <= v <= 5 for v in record["scores"].values())
        assert record["blind"] is True
        assert isinstance(record["duration_s"], (int, float)) and record["duration_s"] > 0
        assert record["rated_at"].endswith("Z")
        stamp = datetime.fromisoformat(record["rated_at"].replace("Z", "+00:00"))
        assert stamp.utcoffset() == UTC.utcoffset(None)
    stamps = [r["rated_at"] for r in records]
    assert stamps == sorted(stamps), "records are appended in time order"


def test_ratings_leave_work_and_show_a_superseding_record(suite):
    runs = {(_fixture_of_run(suite, r), r.id) for r in _runs(suite)}
    rated = {}
    superseded = []
    for rater in ("alice", "bob"):
        latest = {}
        for record in _rating_lines(f"{rater}.jsonl"):
            key = (record["fixture_id"], record["run_id"])
            if key in latest:
                superseded.append((rater, key, latest[key]["scores"], record["scores"]))
            latest[key] = record
        rated[rater] = latest
    both = set(rated["alice"]) & set(rated["bob"])
    unrated = runs - set(rated["alice"]) - set(rated["bob"])
    assert len(both) >= len(runs) // 2, "both raters rate most runs"
    assert 2 <= len(unrated) <= 3, "a rater session has work to do"
    assert superseded, "one record supersedes an earlier one of the same rater"
    assert any(old != new for _, _, old, new in superseded)


def test_runs_differ_visibly_in_quality():
    """The good run of each multi-run fixture outscores the others on correctness (both raters)."""
    for rater in ("alice", "bob"):
        latest = {}
        for record in _rating_lines(f"{rater}.jsonl"):
            latest[(record["fixture_id"], record["run_id"])] = record["scores"]
        by_fixture = defaultdict(dict)
        for (fixture_id, run_id), scores in latest.items():
            by_fixture[fixture_id][run_id] = scores["correctness"]
        spread = [f for f, runs in by_fixture.items() if len(runs) > 1]
        assert spread
        for fixture_id in spread:
            scores = by_fixture[fixture_id]
            assert max(scores.values()) - min(scores.values()) >= 2, (rater, fixture_id, scores)


def test_runs_folders_hold_only_run_files():
    for runs_dir in SAMPLE_FIXTURES.glob("*/*/runs"):
        if runs_dir.parts[-3] == "gold":
            continue  # gold corpora keep their reviewer payloads (*.json) here
        names = os.listdir(runs_dir)
        assert names and all(n.endswith(".yaml") for n in names), runs_dir


def test_no_holdout_of_the_sample_is_exposed_by_this_repository() -> None:
    """The repository's own files (tests included) must not leak a holdout's canary or prompt:
    `voyage-tui exposure` on the sample reads this repository's history and tracked files."""
    import subprocess
    import sys

    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: exposure cannot read this repository's history")
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", "exposure", str(REPO), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(proc.stdout)
    assert report["exposed"] == [], report["exposed"]
