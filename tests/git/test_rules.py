"""The pure parts of the git checks: path patterns, the passage rule, custodians."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.conftest import Repo, base_files, holdout_yaml
from voyage_tui.cli import main
from voyage_tui.engine.git.exposure import Custodians
from voyage_tui.engine.git.passages import candidate_passages, distinctive_passages
from voyage_tui.engine.git.paths import PathMatcher


@pytest.mark.parametrize(
    ("pattern", "yes", "no"),
    [
        ("*.md", ["README.md", "docs/a/b.md"], ["docs/a.mdx", "md"]),
        ("agent/", ["agent/x.py", "sub/agent/y"], ["agents/x.py"]),
        ("agent/**", ["agent/x.py", "agent/a/b/c.txt"], ["sub/agent/y", "agent"]),
        ("agent/*.py", ["agent/x.py"], ["agent/sub/x.py", "agent/x.pyc"]),
        ("agent/**/system.md", ["agent/system.md", "agent/a/b/system.md"], ["agent/a/system.mdx"]),
        ("./prompts/sys?.txt", ["prompts/sys1.txt"], ["prompts/sys10.txt", "x/prompts/sys1.txt"]),
        ("../bundle", ["../bundle/a.py"], ["bundle/a.py"]),
        ("src/[ab].py", ["src/a.py", "src/b.py"], ["src/c.py"]),
    ],
)
def test_path_patterns_match_like_gitignore(pattern: str, yes: list[str], no: list[str]) -> None:
    match = PathMatcher([pattern])
    assert [p for p in yes if not match(p)] == []
    assert [p for p in no if match(p)] == []


def test_no_patterns_match_nothing() -> None:
    assert not PathMatcher([])
    assert not PathMatcher([])("anything")


def test_passage_rule() -> None:
    long_one = (
        "The nightly reconciliation job double-counts refunds issued after the ledger "
        "snapshot is taken."
    )
    text = f"Fix it. {long_one} Keep the API.\nMake sure the tests pass."
    assert candidate_passages(text) == {long_one}
    wrapped = (
        "The nightly reconciliation job double-counts refunds\n"
        "issued after the ledger snapshot is taken, which the finance team reconciles by hand\n"
    )
    found = candidate_passages(wrapped)
    joined = " ".join(wrapped.split())
    assert joined in found  # the sentence, folded onto one line
    assert (
        "issued after the ledger snapshot is taken, which the finance team reconciles by hand"
        in found
    )


def test_boilerplate_sentences_are_not_distinctive() -> None:
    boiler = "Run the whole test suite before finishing and list every file you changed at the end."
    own = (
        "The cache key ignores the tenant id, so two tenants can read each other's cached invoices."
    )
    result = distinctive_passages(
        {"h1": (f"{boiler} {own}", ""), "h2": (f"{boiler}", "")},
        [(f"Something else. {boiler}", "")],
    )
    assert result == {"h1": {own}, "h2": set()}


def test_custodian_entries() -> None:
    custodians = Custodians(["Ana Lima <ana@x.org>", "bo@y.org", "Cy"])
    assert ("Ana Lima", "ana@home.org") in custodians
    assert ("A. Lima", "ANA@x.org") in custodians
    assert ("Bo", "bo@y.org") in custodians
    assert ("cy", "cy@z.org") in custodians
    assert ("Dee", "dee@y.org") not in custodians
    assert not Custodians([])


def test_validate_strict_passes_with_an_untracked_holdout_outside_git(
    capsys, tmp_path: Path
) -> None:
    plain = Repo(tmp_path / "plain")
    plain.write(base_files() | {"fixtures/bug-diagnosis/h1/task.yaml": holdout_yaml("h1")})
    code = main(["validate", str(plain.root), "--strict"])
    out = capsys.readouterr().out
    assert "info holdout-not-tracked" in out
    assert code == 0


def test_recompute_exposure_for_the_app(repo: Repo) -> None:
    from voyage_tui.engine.validation.suite import Suite

    repo.commit(
        base_files('[holdout]\nbundle_paths = ["agent/**"]\n')
        | {"fixtures/bug-diagnosis/h1/task.yaml": holdout_yaml("h1")}
    )
    suite = Suite.open(repo.root)
    assert suite.git.exposure is not None and suite.git.exposure.exposed == []
    repo.commit(
        {"fixtures/bug-diagnosis/h1/task.yaml": holdout_yaml("h1") + "# x\n", "agent/a.txt": "a\n"}
    )
    suite.recompute_exposure()
    assert [d.code for d in suite.diagnostics_for("fixtures/bug-diagnosis/h1/task.yaml")] == [
        "holdout-exposed"
    ]
