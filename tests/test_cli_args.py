"""The command line's arguments: options before or after a positional, on the top-level
command (which opens the app) and on every subcommand; an unknown option is named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import task_yaml
from tests.fake_app import record_openings
from voyage_tui.cli import main

T = "fixtures/bug-diagnosis/t1/task.yaml"

GOLD = {
    "schema": "voyage-eval-gold/1",
    "source": "reviews/pr-7.md",
    "description": "One blocker.",
    "expected_verdict": "BLOCK",
    "findings": [
        {
            "file": "src/auth.py",
            "line": 12,
            "rule_key": "hardcoded-secret",
            "severity": "BLOCKER",
            "owner_reviewer": "correctness",
        }
    ],
}
RUN = [
    {
        "reviewer": "correctness",
        "findings": [
            {
                "file": "src/auth.py",
                "line": 12,
                "rule_key": "hardcoded-secret",
                "severity": "BLOCKER",
            }
        ],
    }
]


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The app's openings, recorded instead of run (tests/fake_app.py)."""
    return record_openings(monkeypatch)


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace({T: task_yaml("t1")})


@pytest.fixture
def gold_and_run(root: Path) -> tuple[str, str]:
    folder = root / "gold/pr-7"
    folder.mkdir(parents=True)
    (folder / "gold.json").write_text(json.dumps(GOLD), encoding="utf-8")
    (folder / "run-1.json").write_text(json.dumps(RUN), encoding="utf-8")
    return str(folder / "gold.json"), str(folder / "run-1.json")


# --- the top-level command opens the app ----------------------------------------------------------


@pytest.mark.parametrize(
    "order",
    [
        ["--no-git", "{path}"],
        ["{path}", "--no-git"],
        ["--no-git", "{path}", "--no-watch"],
        ["--no-watch", "--no-cache", "--no-git", "{path}"],
    ],
)
def test_the_app_takes_its_options_before_or_after_the_path(root, opened, capsys, order):
    argv = [a.format(path=root) for a in order]
    code, _, err = cli(argv, capsys)
    assert (code, err) == (0, "")
    assert len(opened) == 1
    assert opened[0]["root"] == root
    assert opened[0]["use_git"] is False
    assert opened[0]["watch"] is ("--no-watch" not in argv)


def test_the_app_without_options_still_opens_on_the_path(root, opened, capsys):
    assert cli([str(root)], capsys)[0] == 0
    assert opened[0]["use_git"] is True and opened[0]["watch"] is True


def test_a_folder_named_like_no_command_opens_the_app_with_options_before_it(
    root, opened, capsys, monkeypatch
):
    monkeypatch.chdir(root.parent)
    assert cli(["--no-git", "ws"], capsys)[0] == 0
    assert opened[0]["root"].name == "ws"


def test_options_before_a_command_go_to_that_command(root, capsys):
    code, out, err = cli(["--no-git", "validate", str(root), "--format", "json"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["summary"]["errors"] == 0


@pytest.mark.parametrize(
    "argv", [["--bogus"], ["--bogus", "{path}"], ["{path}", "--bogus"]], ids=str
)
def test_an_unknown_option_of_the_app_is_named(root, opened, capsys, argv):
    code, out, err = cli([a.format(path=root) for a in argv], capsys)
    assert code == 2
    assert "unknown option --bogus" in err
    assert out == "" and opened == []


def test_an_unknown_option_gets_a_did_you_mean(root, opened, capsys):
    code, _, err = cli([str(root), "--no-gti"], capsys)
    assert code == 2
    assert "unknown option --no-gti; did you mean `--no-git`?" in err


def test_help_and_version_still_answer(capsys):
    code, out, _ = cli(["--help"], capsys)
    assert code == 0 and "voyage-tui COMMAND" in out
    code, out, _ = cli(["--version"], capsys)
    assert code == 0 and out.startswith("voyage-tui ")


# --- every subcommand: options before and after its positional ------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "--format", "json", "{path}"],
        ["validate", "{path}", "--format", "json", "--strict"],
        ["validate", "--strict", "{path}", "--format=json", "--no-git"],
        ["validate", "--no-git", "--format", "json", "--strict", "{path}"],
    ],
    ids=str,
)
def test_validate_takes_options_before_or_after_the_path(root, capsys, argv):
    code, out, err = cli([a.format(path=root) for a in argv], capsys)
    assert (code, err) == (0, "")
    payload = json.loads(out)
    assert payload["workspace"] == str(root)
    assert payload["summary"]["errors"] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["exposure", "--format", "json", "{path}"],
        ["exposure", "{path}", "--format", "json"],
    ],
    ids=str,
)
def test_exposure_takes_options_before_or_after_the_path(root, capsys, argv):
    code, out, err = cli([a.format(path=root) for a in argv], capsys)
    assert code in (0, 2), err  # not a git repository: nothing is exposed, nothing tracked
    assert "holdouts" in json.loads(out)


@pytest.mark.parametrize(
    "order",
    [
        ["--retire", "t1", "{path}"],
        ["{path}", "--retire", "t1"],
    ],
    ids=str,
)
def test_exposure_retire_takes_the_path_anywhere(make_workspace, capsys, order):
    root = make_workspace({T: task_yaml("t1").replace("visibility: public", "visibility: holdout")})
    code, out, err = cli(["exposure", *(a.format(path=root) for a in order)], capsys)
    assert (code, err) == (0, "")
    assert "retired t1" in out
    assert "visibility: public" in (root / T).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--format", "json", "--gold", "{gold}", "--run", "{run}"],
        ["score", "--gold", "{gold}", "--run", "{run}", "--format", "json", "--min-f1", "0.5"],
        ["score", "--run", "{run}", "--min-f1=0.5", "--gold", "{gold}", "--format=json"],
    ],
    ids=str,
)
def test_score_takes_its_options_in_any_order(gold_and_run, capsys, argv):
    gold, run = gold_and_run
    code, out, err = cli([a.format(gold=gold, run=run) for a in argv], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["f1"] == 1.0


@pytest.mark.parametrize("argv", [["schema", "task"], ["schema", "--", "task"]], ids=str)
def test_schema_takes_its_kind(capsys, argv):
    code, out, _ = cli(argv, capsys)
    assert code == 0
    assert json.loads(out)["title"].startswith("voyage-tui single-task fixture")


@pytest.mark.parametrize(
    "order",
    [
        ["--no-git", "{gold}", "{run}"],
        ["{gold}", "--no-git", "{run}"],
        ["{gold}", "{run}", "--no-git", "--no-watch"],
    ],
    ids=str,
)
def test_diff_takes_options_around_its_two_files(gold_and_run, opened, capsys, order):
    gold, run = gold_and_run
    code, _, err = cli(["diff", *(a.format(gold=gold, run=run) for a in order)], capsys)
    assert (code, err) == (0, "")
    assert opened[0]["use_git"] is False
    assert opened[0]["initial_diff"] == ("gold/pr-7/gold.json", "gold/pr-7/run-1.json")


# --- an unknown option is named, before or after the positional, on every command -----------------


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "--bogus"],
        ["validate", "--bogus", "{path}"],
        ["validate", "{path}", "--bogus"],
        ["validate", "{path}", "--format", "json", "--bogus=1"],
        ["exposure", "--bogus", "{path}"],
        ["exposure", "{path}", "--bogus"],
        ["score", "--bogus", "--gold", "g", "--run", "r"],
        ["score", "--gold", "g", "--run", "r", "--bogus"],
        ["schema", "--bogus", "task"],
        ["schema", "task", "--bogus"],
        ["diff", "--bogus", "g", "r"],
        ["diff", "g", "r", "--bogus"],
    ],
    ids=str,
)
def test_an_unknown_option_is_named_on_every_command(root, opened, capsys, argv):
    code, out, err = cli([a.format(path=root) for a in argv], capsys)
    assert code == 2
    assert out == ""
    assert f"voyage-tui {argv[0]}: error: unknown option --bogus" in err
    assert "usage:" in err
    assert opened == []


def test_an_extra_positional_is_named(root, capsys):
    code, _, err = cli(["validate", str(root), "other"], capsys)
    assert code == 2
    assert "unexpected argument 'other'" in err
