"""`[rating]`, `[results]` and `[paths] adjudications` in voyage.toml (SPEC 3.9, 3.10)."""

from __future__ import annotations

from pathlib import Path

from voyage_tui.engine.workspace.config import parse_config
from voyage_tui.engine.workspace.model import Workspace


def test_defaults() -> None:
    config, problems = parse_config("")
    assert problems == []
    assert config.rating.raters == []
    assert config.rating.overlap == 2
    assert config.rating.dispute_spread == 2
    assert config.rating.min_seconds == 5.0
    assert config.results.baseline == ""


def test_values_are_read() -> None:
    config, problems = parse_config(
        '[rating]\nraters = ["ann", "ben"]\noverlap = 3\ndispute_spread = 1\n'
        '[results]\nbaseline = "agent-a"\n'
    )
    assert problems == []
    assert config.rating.raters == ["ann", "ben"]
    assert (config.rating.overlap, config.rating.dispute_spread) == (3, 1)
    assert config.results.baseline == "agent-a"


def test_out_of_range_overlap_is_an_error_and_the_default_is_used() -> None:
    config, problems = parse_config("[rating]\noverlap = 0\n")
    assert [p.code for p in problems] == ["config-invalid"]
    assert problems[0].line == 2
    assert config.rating.overlap == 2


def test_adjudications_sit_beside_the_ratings_folder(tmp_path: Path) -> None:
    (tmp_path / "voyage.toml").write_text('[paths]\nratings = "fixtures/ratings"\n')
    assert Workspace.from_root(tmp_path).adjudications_rel == "fixtures/adjudications.jsonl"
    (tmp_path / "voyage.toml").write_text("")
    assert Workspace.from_root(tmp_path).adjudications_rel == "adjudications.jsonl"
    (tmp_path / "voyage.toml").write_text('[paths]\nadjudications = "./a/b.jsonl"\n')
    assert Workspace.from_root(tmp_path).adjudications_rel == "a/b.jsonl"


def test_min_seconds_is_read_and_bounded() -> None:
    config, problems = parse_config("[rating]\nmin_seconds = 2.5\n")
    assert (problems, config.rating.min_seconds) == ([], 2.5)
    config, problems = parse_config("[rating]\nmin_seconds = 3\n")
    assert (problems, config.rating.min_seconds) == ([], 3.0)
    config, problems = parse_config("[rating]\nmin_seconds = -1\n")
    assert [p.code for p in problems] == ["config-invalid"]
    assert config.rating.min_seconds == 5.0
