"""The editor's live check agrees with a full validate: for every file of a workspace, checking
its text as an unsaved buffer gives the diagnostics the file has on disk (the suite-level rules
aside, which need every other file). Ratings files included: a `.jsonl` used to show "no
problems" in the editor whatever it held."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sample import copy_sample_into
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.validation.buffer import check_buffer
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

SUITE_CODES = {"duplicate-id", "adversarial-coverage", "class-coverage"}


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    root = tmp_path / "sample"
    copy_sample_into(root)
    return root


def _validated(root: Path) -> Suite:
    suite = Suite(Workspace.load(root), use_git=False)
    suite.validate_all()
    return suite


def _own(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> list[Diagnostic]:
    return sorted((d for d in diagnostics if d.code not in SUITE_CODES), key=Diagnostic.sort_key)


def test_every_file_of_the_sample_checks_the_same_as_a_buffer(sample: Path) -> None:
    suite = _validated(sample)
    assert any(item.kind is FileKind.RATING for item in suite.items.values())
    for rel, item in sorted(suite.items.items()):
        text = (sample / rel).read_text(encoding="utf-8")
        live = check_buffer(suite.ws, suite.refs, suite.items, rel, text)
        assert _own(live) == _own(item.diagnostics), rel


def test_a_ratings_buffer_with_a_score_out_of_range_shows_the_error(sample: Path) -> None:
    suite = _validated(sample)
    rel = "fixtures/ratings/alice.jsonl"
    text = (
        (sample / rel)
        .read_text(encoding="utf-8")
        .replace('"correctness": 5', '"correctness": 9', 1)
    )
    live = check_buffer(suite.ws, suite.refs, suite.items, rel, text)
    assert [d.line for d in live if d.severity.value == "error"] == [1]
    (sample / rel).write_text(text, encoding="utf-8")
    on_disk = _validated(sample).items[rel].diagnostics
    assert _own(live) == _own(on_disk)
