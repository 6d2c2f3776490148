"""The documentation stays true without building it: every diagnostic code the code base gives has
a row in docs/rules.md and every row there names a code still given, every page of mkdocs.yml
exists, links between the pages land, and the README's minimal fixture validates.

`mkdocs build --strict` checks links and anchors too, but needs mkdocs (the `docs` extra); these
tests need nothing beyond the `test` extra.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.helpers import string_constants
from voyage_tui.cli import main
from voyage_tui.engine.formats import vocabulary
from voyage_tui.engine.git import exposure, sha_check

DOCS = REPO / "docs"
SCREENSHOTS = REPO / "screenshots"
RULES_PAGE = DOCS / "rules.md"
CODE_SOURCES = (REPO / "voyage_tui" / "engine", REPO / "voyage_tui" / "cli")
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")

# Kebab-case strings in the sources that are not diagnostic codes. The vocabularies, the exposure
# signal kinds and the outcomes of the SHA check are taken from the engine itself; these are the
# rest, each with what it is.
NOT_CODES = frozenset(
    {
        "utf-8",  # an encoding
        "voyage-tui",  # the program's name (the cache folder's)
        "conda-meta",  # the folder that marks a conda environment
        "cat-file",  # git subcommands
        "check-ignore",
        "for-each-ref",
        "check-attr",
        "ls-files",
        "rev-list",
        "rev-parse",
        "rule-key",  # a column name of a gold file's README table
        "packed-refs",  # git's file of packed references (the report's suite commit)
        "too-few-fixtures",  # why a result's comparison is unclear (docs/cli.md, results)
        "no-data",
        "not-significant",
        "agent-run",  # item kinds and `schema` arguments
        "gold-run",
        "file-scoped",  # words of the score report
        "no-referrer",  # HTTP header values of `serve`
        "no-store",
        "low-score",  # a kind of triage item
    }
)


def _vocabulary_words() -> set[str]:
    words: set[str] = set()
    for value in vars(vocabulary).values():
        if isinstance(value, tuple):
            words.update(v for v in value if isinstance(v, str))
    return words


def _exposure_signals() -> set[str]:
    return set(exposure.KIND_ORDER)


def _sha_outcomes() -> set[str]:
    return {v for k, v in vars(sha_check).items() if k.isupper() and isinstance(v, str)}


def given_codes() -> dict[str, set[str]]:
    """Every kebab-case string constant of the engine and the CLI that is a diagnostic code ->
    the files using it."""
    not_codes = NOT_CODES | _vocabulary_words() | _exposure_signals() | _sha_outcomes()
    found: dict[str, set[str]] = {}
    for root in CODE_SOURCES:
        for path in sorted(root.rglob("*.py")):
            for value in string_constants(path):
                if _KEBAB.match(value) and value not in not_codes:
                    found.setdefault(value, set()).add(path.relative_to(REPO).as_posix())
    return found


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row; `\\|` inside a cell is not a separator."""
    inner = row.strip()[1:-1] if row.strip().endswith("|") else row.strip()[1:]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def rule_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of the page whose first column is `code`: (header, rows)."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and _cells(lines[i])[0] == "code":
            header = _cells(lines[i])
            rows: list[list[str]] = []
            i += 2  # the header and its |---| line
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            tables.append((header, rows))
        else:
            i += 1
    return tables


def documented_codes() -> set[str]:
    codes: set[str] = set()
    for _, rows in rule_tables(RULES_PAGE.read_text(encoding="utf-8")):
        for row in rows:
            codes.update(re.findall(r"`([^`]+)`", row[0]))
    return codes


# --- the rules page -------------------------------------------------------------------------


def test_the_scan_finds_the_codes() -> None:
    codes = given_codes()
    assert len(codes) > 100, sorted(codes)
    # one code from each place codes come from: a loader, a rule, a suite rule, git, the CLI
    for code in ("yaml-alias-bomb", "missing-field", "duplicate-id", "sha-not-found", "not-gold"):
        assert code in codes


def test_every_code_given_has_a_row_in_docs_rules() -> None:
    missing = {
        code: sorted(files)
        for code, files in given_codes().items()
        if code not in documented_codes()
    }
    assert missing == {}, (
        f"codes without a row in docs/rules.md: {missing}. Document each there (code, severity, "
        "when, what to do); a kebab-case string that is not a diagnostic code goes in NOT_CODES "
        "of tests/test_docs.py"
    )


def test_every_code_in_docs_rules_is_still_given() -> None:
    stale = documented_codes() - set(given_codes())
    assert stale == set(), f"docs/rules.md documents codes nothing gives any more: {sorted(stale)}"


def test_every_rule_table_says_severity_when_and_what_to_do() -> None:
    tables = rule_tables(RULES_PAGE.read_text(encoding="utf-8"))
    assert len(tables) >= 8
    for header, rows in tables:
        assert header == ["code", "severity", "when", "what to do"], header
        for row in rows:
            assert len(row) == 4, row
            code, severity, when, what_to_do = row
            assert re.fullmatch(r"(`[a-z0-9-]+`(, )?)+", code), row
            assert severity in {"error", "warning", "info", "as above", "not a diagnostic"}, row
            assert when and what_to_do, row


def test_the_exposure_signals_are_documented_in_git_checks() -> None:
    text = (DOCS / "git-checks.md").read_text(encoding="utf-8")
    rows = {
        _cells(line)[0].strip("`")
        for line in text.splitlines()
        if line.startswith("| `") and len(_cells(line)) == 2
    }
    assert rows == _exposure_signals()


# --- the site -------------------------------------------------------------------------------


def _nav_files(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [f for item in node for f in _nav_files(item)]
    if isinstance(node, dict):
        return [f for value in node.values() for f in _nav_files(value)]
    return []


def test_every_page_in_the_nav_exists_and_every_page_is_in_the_nav() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"
    nav = _nav_files(config["nav"])
    assert len(nav) == len(set(nav)), "a page twice in the nav"
    for page in nav:
        assert (DOCS / page).is_file(), f"mkdocs.yml names docs/{page}, which does not exist"
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages == set(nav), f"pages not in the nav: {sorted(pages - set(nav))}"


def _slug(heading: str) -> str:
    """The anchor of a heading, as mkdocs' toc makes it (GitHub's agrees for these headings)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {_slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)}


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [m for m in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in m]


@pytest.mark.parametrize(
    "page", ["README.md", *sorted(p.relative_to(REPO).as_posix() for p in DOCS.rglob("*.md"))]
)
def test_links_land_on_a_file_and_a_heading(page: str) -> None:
    source = REPO / page
    for link in _links(source):
        target, _, anchor = link.partition("#")
        path = (source.parent / target).resolve() if target else source
        assert path.exists(), f"{page} links to {link}, which does not exist"
        if page.startswith("docs/"):
            # The site serves docs/ and, through screenshots/mkdocs_hook.py, screenshots/.
            served = path.is_relative_to(DOCS) or path.is_relative_to(SCREENSHOTS)
            assert served, f"{page} links outside docs/ and screenshots/: {link}"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"{page} links to {link}: no such heading"


# --- the README's minimal fixture -----------------------------------------------------------

_FIXTURE_BLOCK = re.compile(r"^`(fixtures/[^`\s]+/task\.yaml)`:\n\n```yaml\n(.*?)^```", re.M | re.S)


def readme_fixtures() -> dict[str, str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## A minimal fixture\n", 1)[1].split("\n## ", 1)[0]
    return dict(_FIXTURE_BLOCK.findall(section))


def test_the_readme_minimal_fixture_and_trajectory_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures = readme_fixtures()
    assert len(fixtures) == 2, fixtures.keys()
    assert sum(path.startswith("fixtures/trajectories/") for path in fixtures) == 1
    for rel, text in fixtures.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")

    code = main(["validate", str(tmp_path), "--no-git", "--format", "json"])
    report = json.loads(capsys.readouterr().out)

    assert report["summary"]["files"] == 2
    assert report["coverage"]["classes"]["bug-diagnosis"] == 1
    assert report["coverage"]["trajectory_paths"]["lightweight"] == 1
    found = [(d["path"], d["severity"], d["code"]) for d in report["diagnostics"]]
    # Nothing about either file; what the README says besides: the four references are the
    # defaults (infos), and a suite needs adversarial coverage (the one error).
    assert [d for d in found if d[0] in fixtures] == []
    assert sorted(d for d in found if d[2] != "reference-default") == [
        ("fixtures", "error", "adversarial-coverage")
    ]
    assert sorted(d[0] for d in found if d[2] == "reference-default") == [
        "references/journey.md",
        "references/routing-table.md",
        "references/rule-catalogue.yaml",
        "rubric.md",
    ]
    assert all(d[1] == "info" for d in found if d[2] == "reference-default")
    assert code == 1


# --- the pages that show the app and tell a newcomer how to start ---------------------------------


def test_the_screens_page_shows_every_scenario_of_the_snapshot_tests() -> None:
    from tests.app.scenarios import SCENARIOS

    page = (DOCS / "screens.md").read_text(encoding="utf-8")
    for scenario in SCENARIOS:
        assert f"](../screenshots/{scenario.name}.svg)" in page, scenario.name
        assert (SCREENSHOTS / f"{scenario.name}.svg").is_file(), scenario.name


def test_the_screenshots_are_at_the_top_level_as_the_design_card_lays_out() -> None:
    assert SCREENSHOTS.is_dir()
    assert not (DOCS / "screenshots").exists()
    assert (SCREENSHOTS / "make_screenshots.py").is_file()
    # The mkdocs hook that serves them in the site is the one mkdocs.yml names.
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["hooks"] == ["screenshots/mkdocs_hook.py"]


@pytest.mark.parametrize(
    "page", ["README.md", *sorted(p.relative_to(REPO).as_posix() for p in DOCS.rglob("*.md"))]
)
def test_every_picture_a_page_shows_exists(page: str) -> None:
    source = REPO / page
    text = re.sub(r"```.*?```", "", source.read_text(encoding="utf-8"), flags=re.DOTALL)
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)
    for picture in pictures:
        assert (source.parent / picture).resolve().is_file(), f"{page} shows {picture}: missing"
    if page == "README.md":
        # The tour shows pictures of the top-level screenshots/.
        assert len(pictures) >= 10
        assert all(p.startswith("screenshots/") for p in pictures), pictures


def test_every_command_is_in_the_development_page() -> None:
    page = (DOCS / "development.md").read_text(encoding="utf-8")
    for module in sorted((REPO / "voyage_tui" / "cli").glob("*_cmd.py")):
        assert f"`{module.name}`" in page, module.name


def test_the_quick_start_installs_as_the_readme_does() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    page = (DOCS / "quick-start.md").read_text(encoding="utf-8")
    install = next(line for line in readme.splitlines() if "voyage-tui fixtures" in line)
    assert install in page
