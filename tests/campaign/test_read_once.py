"""The campaign's files are read once: `voyage-tui results` reads each ratings file and the
adjudications file a single time (the suite's check is the campaign's read), and a change to
one ratings file re-reads that file alone. Opens are counted in-process on a copy of the
sample."""

from __future__ import annotations

import builtins
import collections
import contextlib
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voyage_tui.cli import main
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.workspace.model import Workspace

RATINGS = "fixtures/ratings"


@contextlib.contextmanager
def counted_opens(root: Path) -> Iterator[collections.Counter[str]]:
    """Every open of a file under `root` (by workspace-relative path) while the block runs."""
    counts: collections.Counter[str] = collections.Counter()
    real = os.path.realpath(root) + os.sep
    os_open, b_open = os.open, builtins.open

    def note(path: Any) -> None:
        if isinstance(path, (str, bytes, os.PathLike)):
            full = os.path.realpath(os.fsdecode(path))
            if full.startswith(real) and not os.path.isdir(full):
                counts[full[len(real) :]] += 1

    def counting_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        note(path)
        return os_open(path, *args, **kwargs)

    def counting_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        note(path)
        return b_open(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", counting_os_open)
        patch.setattr(builtins, "open", counting_open)
        patch.setattr(io, "open", counting_open)
        yield counts


def with_adjudication(root: Path) -> str:
    """An adjudication of the first item alice rated; returns the adjudications file's path."""
    first = json.loads((root / RATINGS / "alice.jsonl").read_text().splitlines()[0])
    rel = Workspace.load(root).adjudications_rel
    record = {
        "fixture_id": first["fixture_id"],
        "run_id": first["run_id"],
        "adjudicator": "dana",
        "scores": {"correctness": 4},
        "based_on": [],
        "note": "",
        "rated_at": "2026-11-21T10:00:00Z",
    }
    (root / rel).write_text(json.dumps(record) + "\n")
    return rel


def test_results_reads_each_ratings_file_and_the_adjudications_once(sample_copy: Path):
    adjudications = with_adjudication(sample_copy)
    campaign_files = sorted(
        f"{RATINGS}/{name}" for name in os.listdir(sample_copy / RATINGS) if name.endswith(".jsonl")
    )
    assert len(campaign_files) >= 3
    with contextlib.redirect_stdout(io.StringIO()) as out, counted_opens(sample_copy) as counts:
        code = main(["results", str(sample_copy), "--format", "json"])
    assert code == 0 and json.loads(out.getvalue())
    assert {rel: counts[rel] for rel in [*campaign_files, adjudications]} == {
        rel: 1 for rel in [*campaign_files, adjudications]
    }


def test_a_changed_ratings_file_is_read_again_alone(sample_copy: Path):
    suite = Suite.open(sample_copy, use_git=False)
    before = view_of(suite).campaign()
    alice = f"{RATINGS}/alice.jsonl"
    lines = (sample_copy / alice).read_text().splitlines()
    first = json.loads(lines[0])
    retraction = {**first, "scores": None, "rated_at": "2026-11-22T09:00:00Z"}
    (sample_copy / alice).write_text("\n".join([*lines, json.dumps(retraction)]) + "\n")
    key = (first["fixture_id"], first["run_id"], "alice")
    assert key in before.in_force()

    with counted_opens(sample_copy) as counts:
        suite.revalidate({alice})
        after = view_of(suite).campaign()
        assert key not in after.in_force()
    ratings_read = {rel: n for rel, n in counts.items() if rel.startswith(RATINGS)}
    assert ratings_read == {alice: 1}
    assert "fixtures/rubric.md" not in counts
    assert key in before.in_force(), "a snapshot never changes"


def test_the_live_suite_owns_the_campaign_and_a_change_reads_one_file(sample_copy: Path):
    from tests.engine.test_live_suite import Front, live_suite
    from voyage_tui.engine.validation.live import Changed, Loaded

    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    [loaded] = front.of(Loaded)
    first = loaded.view.campaign()
    assert first is loaded.view.campaign(), "made once per view"
    bob = f"{RATINGS}/bob.jsonl"
    lines = (sample_copy / bob).read_text().splitlines()
    record = json.loads(lines[0])
    (sample_copy / bob).write_text(
        "\n".join([*lines, json.dumps({**record, "scores": None})]) + "\n"
    )
    key = (record["fixture_id"], record["run_id"], "bob")
    with counted_opens(sample_copy) as counts:
        live.revalidate({bob})
        [changed] = front.of(Changed)
        assert key not in changed.view.campaign().in_force()
    assert {rel: n for rel, n in counts.items() if rel.startswith(RATINGS)} == {bob: 1}
    assert key in first.in_force() and live.view is changed.view
