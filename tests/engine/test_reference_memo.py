"""A reference file whose text was parsed before is not parsed again (the app's re-checks, a
`serve` session per rater, a test suite's many copies of the sample all re-open the same
rubric.md and journey.md: their Markdown parse was a tenth of the engine tests' CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from voyage_tui.engine.references import loaded, markdown
from voyage_tui.engine.references.loaded import load_references
from voyage_tui.engine.workspace.model import Workspace

RUBRIC = """\
# Rubric

## Correctness
Does the change do what was asked?

1. wrong
2. partly
3. right
"""
JOURNEY = "# Journey\n\n## Phases\n\n1. Intake\n2. Build\n"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = markdown.parse

    def counting(text: str):  # type: ignore[no-untyped-def]
        seen.append(text)
        return real(text)

    for module in ("journey", "rubric"):
        monkeypatch.setattr(f"voyage_tui.engine.references.{module}.parse", counting)
    loaded.forget_parsed()
    return seen


def test_the_same_text_at_the_same_place_is_parsed_once(parses: list[str]) -> None:
    first, first_notes = loaded.parse_rubric(RUBRIC, "rubric.md")
    again, again_notes = loaded.parse_rubric(RUBRIC, "rubric.md")
    assert again is first and again_notes == first_notes
    assert parses == [RUBRIC]
    assert [d.key for d in first.dimensions] == ["correctness"]


def test_a_changed_text_or_another_path_is_parsed_anew(parses: list[str]) -> None:
    loaded.parse_rubric(RUBRIC, "rubric.md")
    changed, _ = loaded.parse_rubric(RUBRIC.replace("Correctness", "Clarity"), "rubric.md")
    assert [d.key for d in changed.dimensions] == ["clarity"]
    broken = RUBRIC + "\n## Correctness\n\n1. again\n"  # a dimension defined twice
    _, here = loaded.parse_rubric(broken, "rubric.md")
    _, there = loaded.parse_rubric(broken, "docs/rubric.md")
    assert here and {d.path for d in here} == {"rubric.md"}
    assert {d.path for d in there} == {"docs/rubric.md"}  # diagnostics name their own file
    assert len(parses) == 4  # the first, the changed, the broken here and there


def test_a_callers_change_to_the_diagnostics_list_stays_its_own(parses: list[str]) -> None:
    broken = RUBRIC + "\n## Correctness\n\n1. again\n"  # a dimension defined twice
    _, notes = loaded.parse_rubric(broken, "rubric.md")
    count = len(notes)
    notes.clear()
    _, again = loaded.parse_rubric(broken, "rubric.md")
    assert len(again) == count > 0


def test_two_copies_of_a_workspace_share_one_parse(parses: list[str], tmp_path: Path) -> None:
    for name in ("one", "two"):
        root = tmp_path / name
        (root / "fixtures").mkdir(parents=True)
        (root / "rubric.md").write_text(RUBRIC, encoding="utf-8")
        (root / "references").mkdir()
        (root / "references/journey.md").write_text(JOURNEY, encoding="utf-8")
        refs = load_references(Workspace.load(str(root)))
        assert [d.key for d in refs.rubric.value.dimensions] == ["correctness"]
        assert sorted(refs.journey.value.phases) == [1, 2]
    assert sorted(parses) == sorted([RUBRIC, JOURNEY])


README = """\
# Gold

| file | rule_key | note |
| --- | --- | --- |
| src/auth.py | SEC-001 | the blocker |
"""


def test_a_readmes_findings_table_is_parsed_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every gold file beside a README.md read its table again (a quarter of a check of the
    sample, and again at each re-check of a run in the app)."""
    from voyage_tui.engine.references import findings_table

    seen: list[str] = []
    real = findings_table.parse

    def counting(text: str):  # type: ignore[no-untyped-def]
        seen.append(text)
        return real(text)

    monkeypatch.setattr(findings_table, "parse", counting)
    findings_table.forget_tables()
    first = findings_table.findings_table_rows(README)
    first_copy = list(first or [])
    assert first is not None
    first.clear()  # the caller's own list
    again = findings_table.findings_table_rows(README)
    assert again == first_copy and [row.rule_key for row in again] == ["SEC-001"]
    assert findings_table.findings_table_rows("# no table\n") is None
    assert seen == [README, "# no table\n"]
