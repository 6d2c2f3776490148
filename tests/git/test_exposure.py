"""Holdout exposure on real repositories: every signal, and the negatives next to each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import task_yaml
from tests.git.conftest import (
    CANARY,
    CONTRIBUTOR,
    CUSTODIAN,
    LEAKY_PROMPT,
    LEAKY_TRUTH,
    Repo,
    base_files,
    build_once,
    copy_repo,
    holdout_yaml,
)
from voyage_tui.engine.git import repo as git_repo
from voyage_tui.engine.git.exposure import ExposureReport, compute_exposure
from voyage_tui.engine.git.passages import candidate_passages
from voyage_tui.engine.validation.suite import Suite

H1 = "fixtures/bug-diagnosis/h1/task.yaml"
P1 = "fixtures/bug-diagnosis/p1/task.yaml"
CONFIG = """\
[holdout]
custodians = ["Cora Custodian <cora@evals.example>"]
bundle_paths = ["agent/"]
ignore_paths = ["*.md"]
"""


def exposure(root: Path) -> ExposureReport:
    suite = Suite.open(root, use_git=False)
    return compute_exposure(suite.ws, suite.items.values())


def signals(report: ExposureReport, path: str = H1) -> list[tuple[str, str | None, str | None]]:
    found = report.by_path()[path]
    return [(s.kind, s.commit, s.author) for s in found.signals]


def kinds(report: ExposureReport, path: str = H1) -> list[str]:
    return [s[0] for s in signals(report, path)]


def _ws(repo: Repo) -> None:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    repo.commit({"agent/prompt.txt": "You are an agent.\n"})


@pytest.fixture(scope="module")
def ws_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, _ws)[0]


@pytest.fixture
def ws(repo: Repo, ws_template: Path) -> Repo:
    """h1 committed with the config, then the bundle (built once, copied for each test)."""
    copy_repo(ws_template, repo.root)
    return repo


# --- foreign-author -------------------------------------------------------------------------------


def test_a_commit_by_a_non_custodian_is_foreign(ws: Repo) -> None:
    sha = ws.commit({H1: holdout_yaml("h1") + "# touched\n"}, who=CONTRIBUTOR)
    report = exposure(ws.root)
    assert signals(report) == [("foreign-author", sha, "Bob Builder <bob@agents.example>")]
    assert "is not a custodian" in report.by_path()[H1].signals[0].detail


def test_a_holdout_committed_only_by_custodians_is_not_foreign(ws: Repo) -> None:
    ws.commit({H1: holdout_yaml("h1") + "# again\n"}, who=CUSTODIAN)
    ws.commit({H1: holdout_yaml("h1") + "# by name\n"}, who=("Cora Custodian", "cora@home.example"))
    ws.commit({H1: holdout_yaml("h1") + "# by email\n"}, who=("C. Custodian", "CORA@evals.example"))
    assert exposure(ws.root).exposed == []


def test_without_custodians_nobody_is_foreign(repo: Repo) -> None:
    repo.commit(base_files() | {H1: holdout_yaml("h1")}, who=CONTRIBUTOR)
    assert kinds(exposure(repo.root)) == []


def test_commits_on_other_branches_count(ws: Repo) -> None:
    ws.git("checkout", "-q", "-b", "experiment")
    sha = ws.commit({H1: holdout_yaml("h1") + "# on a branch\n"}, who=CONTRIBUTOR)
    ws.git("checkout", "-q", "main")
    assert signals(exposure(ws.root)) == [
        ("foreign-author", sha, "Bob Builder <bob@agents.example>")
    ]


# --- co-change ----------------------------------------------------------------------------------


def test_a_commit_touching_the_holdout_and_the_bundle_is_a_co_change(ws: Repo) -> None:
    sha = ws.commit(
        {H1: holdout_yaml("h1") + "# tweak\n", "agent/prompt.txt": "You are a careful agent.\n"}
    )
    report = exposure(ws.root)
    assert signals(report) == [("co-change", sha, "Cora Custodian <cora@evals.example>")]
    assert "agent/prompt.txt" in report.by_path()[H1].signals[0].detail


def test_a_public_fixture_co_changed_with_the_bundle_is_not_reported(ws: Repo) -> None:
    ws.commit({P1: task_yaml("p1"), "agent/prompt.txt": "v2\n"}, who=CONTRIBUTOR)
    report = exposure(ws.root)
    assert report.exposed == []
    assert P1 not in report.by_path()


def test_separate_commits_are_not_a_co_change(ws: Repo) -> None:
    ws.commit({H1: holdout_yaml("h1") + "# one\n"})
    ws.commit({"agent/prompt.txt": "v2\n"})
    assert exposure(ws.root).exposed == []


def test_a_file_outside_bundle_paths_is_not_a_co_change(ws: Repo) -> None:
    ws.commit(
        {H1: holdout_yaml("h1") + "# one\n", "agentic/notes.txt": "x\n", "src/agent.py": "x = 1\n"}
    )
    assert exposure(ws.root).exposed == []


def test_a_workspace_in_a_subfolder_maps_paths(tmp_path: Path) -> None:
    top = Repo(tmp_path / "mono").init()
    files = {
        f"evals/{k}": v
        for k, v in base_files('[holdout]\nbundle_paths = ["../agent/**"]\n').items()
    }
    top.commit(files | {f"evals/{H1}": holdout_yaml("h1"), "agent/x.txt": "x\n"})
    report = exposure(top.root / "evals")
    assert kinds(report) == ["co-change"]
    assert "../agent/x.txt" in report.by_path()[H1].signals[0].detail


# --- content-leak -------------------------------------------------------------------------------


def test_a_distinctive_passage_in_a_tracked_file_is_a_content_leak(ws: Repo) -> None:
    sha = ws.commit({"src/examples.py": f'EXAMPLE = "{LEAKY_TRUTH}"\n'}, who=CONTRIBUTOR)
    report = exposure(ws.root)
    assert signals(report) == [("content-leak", sha, "Bob Builder <bob@agents.example>")]
    detail = report.by_path()[H1].signals[0].detail
    assert "src/examples.py:1" in detail


def test_a_passage_wrapped_as_in_the_file_is_found_too(ws: Repo) -> None:
    half = LEAKY_PROMPT.split(", and ")[0]  # one line of a wrapped copy, long enough on its own
    ws.commit({"notes/copy.txt": f"intro\n{half},\nand so on\n"})
    assert "content-leak" not in kinds(
        exposure(ws.root)
    )  # a fragment of a sentence is not searched
    ws.commit({"notes/copy.txt": f"intro\n    {LEAKY_PROMPT}\n"})
    report = exposure(ws.root)
    assert kinds(report) == ["content-leak"]
    assert "notes/copy.txt:2" in report.by_path()[H1].signals[0].detail


def test_a_short_everyday_phrase_shared_with_the_bundle_is_not_a_leak(ws: Repo) -> None:
    phrase = "Make sure all the tests pass."
    ws.commit({H1: holdout_yaml("h1", prompt=f"{phrase} Then stop.", truth="The tests pass.")})
    ws.commit({"agent/prompt.txt": f"{phrase}\nThe tests pass.\n"})
    assert candidate_passages(phrase) == set()
    assert exposure(ws.root).exposed == []


def test_a_passage_shared_by_two_fixtures_is_boilerplate(ws: Repo) -> None:
    boiler = (
        "Run the full test suite before you finish and summarise every file you changed "
        "in the final message."
    )
    ws.commit(
        {
            H1: holdout_yaml("h1", prompt=f"Fix it. {boiler}", truth="Short.", canary=None),
            P1: task_yaml("p1").replace(
                "prompt: Fix the off-by-one in the pagination helper.",
                f"prompt: Something else. {boiler}",
            ),
        }
    )
    ws.commit({"agent/prompt.txt": boiler + "\n"})
    assert exposure(ws.root).exposed == []


def test_ignore_paths_and_the_fixtures_folder_are_not_searched(ws: Repo) -> None:
    ws.commit(
        {
            "docs/holdouts.md": LEAKY_PROMPT + "\n",
            "fixtures/notes.txt": LEAKY_PROMPT + "\n",
            P1: task_yaml("p1") + f"# {LEAKY_PROMPT}\n",
        }
    )
    assert exposure(ws.root).exposed == []


def test_a_prompt_copied_into_agent_markdown_is_a_content_leak_by_default(repo: Repo) -> None:
    # The commonest leak: a holdout's prompt pasted into the agent's own Markdown instructions.
    # With no `ignore_paths` in voyage.toml, Markdown is searched like any other tracked file.
    repo.commit(base_files() | {H1: holdout_yaml("h1")})
    leaked = repo.commit(
        {"agent/AGENTS.md": f"# Instructions\n\nWhen asked: {LEAKY_PROMPT}\n"}, who=CONTRIBUTOR
    )
    report = exposure(repo.root)
    assert signals(report) == [("content-leak", leaked, "Bob Builder <bob@agents.example>")]
    assert "agent/AGENTS.md:3" in report.by_path()[H1].signals[0].detail


def test_the_default_ignores_no_path() -> None:
    from voyage_tui.engine.workspace.config import parse_config

    assert parse_config("")[0].holdout.ignore_paths == []


def test_a_leak_in_a_file_edited_later_is_traced_to_the_commit_that_wrote_it(ws: Repo) -> None:
    ws.commit({"src/notes.txt": "first line\n"})
    leaked = ws.commit({"src/notes.txt": f"first line\n{LEAKY_TRUTH}\n"}, who=CONTRIBUTOR)
    ws.commit({"src/notes.txt": f"first line\n{LEAKY_TRUTH}\nlast line\n"})
    report = exposure(ws.root)
    assert signals(report) == [("content-leak", leaked, "Bob Builder <bob@agents.example>")]
    assert "src/notes.txt:2" in report.by_path()[H1].signals[0].detail


def test_an_uncommitted_leak_in_a_tracked_file_has_no_commit(ws: Repo) -> None:
    ws.commit({"src/copy.txt": "nothing yet\n"})
    ws.write({"src/copy.txt": f"nothing yet\n{LEAKY_PROMPT}\n"})
    report = exposure(ws.root)
    assert signals(report) == [("content-leak", None, None)]
    assert "not committed yet" in report.by_path()[H1].signals[0].detail


def test_an_untracked_file_is_not_searched(ws: Repo) -> None:
    ws.write({"scratch.txt": LEAKY_PROMPT + "\n" + CANARY + "\n"})
    assert exposure(ws.root).exposed == []


# --- canary-leak --------------------------------------------------------------------------------


def test_the_canary_in_another_tracked_file_is_a_canary_leak(ws: Repo) -> None:
    sha = ws.commit({"docs/list.md": f"- {CANARY}\n"}, who=CONTRIBUTOR)
    report = exposure(ws.root)
    assert signals(report) == [("canary-leak", sha, "Bob Builder <bob@agents.example>")]
    assert "docs/list.md:1" in report.by_path()[H1].signals[0].detail  # ignore_paths do not hide it


def test_a_canary_is_found_as_a_whole_word_in_any_punctuation(ws: Repo) -> None:
    ws.commit(
        {
            "data/cases.json": f'{{"canary":"{CANARY}",\n"x": 1}}\n',
            "src/glued.py": f"NAME = 'x{CANARY}'\n",
        }
    )
    report = exposure(ws.root)
    details = [s.detail for s in report.by_path()[H1].signals]
    assert kinds(report) == ["canary-leak"]
    assert len(details) == 1 and "data/cases.json:1" in details[0]


def test_the_canary_in_another_fixture_is_a_leak_but_not_in_its_own_folder(ws: Repo) -> None:
    ws.commit({"fixtures/bug-diagnosis/h1/runs/r1.yaml": f"run_id: r1\noutput: saw {CANARY}\n"})
    assert exposure(ws.root).exposed == []
    ws.commit({P1: task_yaml("p1") + f"# canary: {CANARY}\n"})
    assert kinds(exposure(ws.root)) == ["canary-leak"]


def test_two_holdouts_with_one_canary_leak_each_other(ws: Repo) -> None:
    h2 = "fixtures/bug-diagnosis/h2/task.yaml"
    ws.commit({h2: holdout_yaml("h2", prompt="Another prompt.", truth="Another truth.")})
    report = exposure(ws.root)
    assert kinds(report) == ["canary-leak"] and kinds(report, h2) == ["canary-leak"]
    assert f"{h2}:1" in report.by_path()[H1].signals[0].detail


def test_leaks_beyond_the_blame_budget_name_the_files_latest_commit(
    ws: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.engine.git import exposure as exposure_module

    ws.commit({"src/a.txt": "a\n", "src/b.txt": "b\n"})
    leaked = ws.commit(
        {"src/a.txt": f"a\n{CANARY}\n", "src/b.txt": f"b\n{CANARY}\n"}, who=CONTRIBUTOR
    )
    later = ws.commit({"src/a.txt": f"a\n{CANARY}\nmore\n", "src/b.txt": f"b\n{CANARY}\nmore\n"})
    monkeypatch.setattr(exposure_module, "MAX_BLAMED_FILES", 1)
    report = exposure(ws.root)
    found = {
        s.detail.split(" appears in ")[1].split(":")[0]: s for s in report.by_path()[H1].signals
    }
    assert (found["src/a.txt"].commit, found["src/a.txt"].author) == (
        leaked,
        "Bob Builder <bob@agents.example>",
    )
    assert found["src/b.txt"].commit == later
    assert "not traced to the line" in found["src/b.txt"].detail


def test_canary_share(ws: Repo) -> None:
    ws.commit(
        {
            "fixtures/bug-diagnosis/h2/task.yaml": holdout_yaml("h2", canary=None),
            "fixtures/bug-diagnosis/h3/task.yaml": holdout_yaml(
                "h3", canary="a3c9e1f2-0b7d-4e55-8f10-2c4d6e8fa0b1"
            ),
        }
    )
    report = exposure(ws.root)
    assert len(report.holdouts) == 3
    assert report.with_canary == 2
    assert report.canary_share == pytest.approx(2 / 3)
    # two holdouts with the same text share every passage: neither is a content leak of the other
    assert report.exposed == []


# --- not-tracked --------------------------------------------------------------------------------


def test_an_untracked_holdout_is_not_tracked_not_exposed(ws: Repo) -> None:
    ws.write({"fixtures/bug-diagnosis/h9/task.yaml": holdout_yaml("h9", canary=None)})
    report = exposure(ws.root)
    path = "fixtures/bug-diagnosis/h9/task.yaml"
    assert kinds(report, path) == ["not-tracked"]
    assert report.exposed == []
    assert [h.path for h in report.not_tracked] == [path]
    ws.git("add", path)  # staged is tracked
    assert exposure(ws.root).not_tracked == []


def test_outside_a_repository_every_holdout_is_not_tracked(tmp_path: Path) -> None:
    plain = Repo(tmp_path / "plain")
    plain.write(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    report = exposure(plain.root)
    assert kinds(report) == ["not-tracked"]
    assert [c for c, _ in report.warnings] == ["git-no-repository"]


# --- one pass -----------------------------------------------------------------------------------


def test_history_is_read_once_whatever_the_number_of_holdouts(
    ws: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"fixtures/bug-diagnosis/h{n}/task.yaml": holdout_yaml(
            f"h{n}", canary=f"{n:08d}-canary-{n}"
        )
        for n in range(2, 40)
    }
    ws.commit(files | {"agent/prompt.txt": "v2\n"}, who=CONTRIBUTOR)
    ws.commit({"docs/x.txt": "00000007-canary-7 and 00000011-canary-11\n"})
    calls: list[str] = []
    original = git_repo.GitRepo.start

    def counting(self, args, stdin=None):
        n = 0
        while args[n] == "-c":  # skip `-c key=value` settings
            n += 2
        calls.append(args[n])
        return original(self, args, stdin)

    monkeypatch.setattr(git_repo.GitRepo, "start", counting)
    report = exposure(ws.root)
    assert sorted(calls) == ["log", "ls-files", "rev-parse"]  # docs/x.txt: one commit, no blame
    assert len(report.exposed) == 38  # h2..h39; h1 was committed by a custodian alone
    assert kinds(report, "fixtures/bug-diagnosis/h7/task.yaml") == [
        "foreign-author",
        "co-change",
        "canary-leak",
    ]


def test_validate_reports_exposed_holdouts_as_errors(ws: Repo) -> None:
    ws.commit({H1: holdout_yaml("h1") + "# x\n", "agent/prompt.txt": "v2\n"}, who=CONTRIBUTOR)
    ws.write({"fixtures/bug-diagnosis/h9/task.yaml": holdout_yaml("h9", canary=None)})
    suite = Suite.open(ws.root)
    exposed = [d for d in suite.diagnostics() if d.code == "holdout-exposed"]
    assert len(exposed) == 1
    d = exposed[0]
    assert (d.path, d.line, d.column, d.severity.value) == (H1, 7, 13, "error")
    assert "foreign-author" in d.message and "co-change" in d.message and "--retire h1" in d.message
    untracked = [d for d in suite.diagnostics() if d.code == "holdout-not-tracked"]
    assert [(d.path, d.severity.value) for d in untracked] == [
        ("fixtures/bug-diagnosis/h9/task.yaml", "info")
    ]
    assert suite.git.exposure is not None and len(suite.git.exposure.exposed) == 1
    # retiring (visibility public) and re-validating that file drops the error without git
    (ws.root / H1).write_text(holdout_yaml("h1", visibility="public") + "# x\n")
    suite.revalidate([H1])
    assert [d for d in suite.diagnostics() if d.code == "holdout-exposed"] == []


def test_a_shallow_clone_warns_that_history_is_cut(tmp_path: Path, ws: Repo) -> None:
    ws.commit({"src/a.txt": "a\n"})
    clone = Repo(tmp_path / "clone")
    ws.git("clone", "-q", "--depth", "1", f"file://{ws.root}", str(clone.root), cwd=tmp_path)
    report = exposure(clone.root)
    assert "exposure-shallow" in [c for c, _ in report.warnings]
    suite = Suite.open(clone.root)
    assert "exposure-shallow" in [d.code for d in suite.workspace_diagnostics()]


def test_a_repository_without_commits(repo: Repo) -> None:
    repo.write(base_files() | {H1: holdout_yaml("h1")})
    report = exposure(repo.root)
    assert kinds(report) == ["not-tracked"]
    assert report.warnings == []
