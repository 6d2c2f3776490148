"""`voyage-tui rate [PATH] [--rater NAME] [--no-blind]`: the rater's name is settled before the
app starts (a name that cannot be a file name is a usage error), and the app opens on the
session with that name, blind unless told otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import task_yaml
from tests.fake_app import record_openings
from voyage_tui.cli import main

T = "fixtures/bug-diagnosis/t1/task.yaml"


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The app's openings, recorded instead of run (tests/fake_app.py)."""
    return record_openings(monkeypatch)


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace({T: task_yaml("t1")})


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--rater", "me"], ("me", True)),
        (["--rater", "me", "--no-blind"], ("me", False)),
        (["--no-blind", "--rater=me"], ("me", False)),
    ],
    ids=str,
)
def test_rate_opens_the_app_on_the_session(root, opened, capsys, args, expected) -> None:
    code, _, err = cli(["rate", str(root), *args], capsys)
    assert (code, err) == (0, "")
    [call] = opened
    assert call["root"] == root and call["initial_rate"] == expected


def test_options_go_before_or_after_the_path(root, opened, capsys) -> None:
    code, _, _ = cli(["rate", "--rater", "me", "--no-git", str(root), "--no-watch"], capsys)
    assert code == 0
    assert opened[0]["use_git"] is False and opened[0]["watch"] is False


def test_without_rater_and_git_the_os_user_rates(
    root, opened, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "Pat/Smith")
    code, _, _ = cli(["rate", str(root), "--no-git"], capsys)
    assert code == 0
    assert opened[0]["initial_rate"] == ("Pat-Smith", True)  # cleaned into a file name


@pytest.mark.parametrize(
    "name",
    ["a/b", "", ".hidden", "x" * 65, "\U0001f600" * 64],
    ids=["slash", "empty", "hidden", "65-characters", "256-bytes"],
)
def test_a_rater_name_that_cannot_be_a_file_name_is_a_usage_error(
    root, opened, capsys, name
) -> None:
    code, _, err = cli(["rate", str(root), "--rater", name], capsys)
    assert code == 2
    assert "cannot be used" in err
    assert opened == []  # the app never started


def test_no_workspace_exits_2(tmp_path: Path, opened, capsys) -> None:
    code, _, err = cli(["rate", str(tmp_path), "--rater", "me"], capsys)
    assert code == 2 and err
    assert opened == []


def test_rate_is_listed_in_the_usage(capsys) -> None:
    code, out, _ = cli(["--help"], capsys)
    assert code == 0
    assert "\n  rate " in out


def test_an_unknown_option_is_named(root, opened, capsys) -> None:
    code, _, err = cli(["rate", str(root), "--blind-ish"], capsys)
    assert code == 2 and "unknown option --blind-ish" in err


# --- what stops a session before the app opens ---------------------------------------------------

HOLD = """\
import sys, time
from voyage_tui.engine.ratings.lock import RaterLock
from voyage_tui.engine.workspace.model import Workspace
held = RaterLock.take(Workspace.load(sys.argv[1]), "me")
print("held", flush=True)
time.sleep(120)
"""


def test_a_rater_already_rating_elsewhere_exits_2_naming_the_session(root, opened, capsys) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import REPO

    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        code, _, err = cli(["rate", str(root), "--rater", "me"], capsys)
        assert code == 2 and opened == []
        assert err.startswith("voyage-tui rate: me is already rating in another session")
        assert f"pid {proc.pid}" in err
        # Under `serve --rate` the tab's app opens and its screen says the same.
        code, _, err = cli(["rate", str(root), "--rater", "me", "--in-browser"], capsys)
        assert (code, err) == (0, "") and len(opened) == 1
    finally:
        proc.kill()
        proc.wait()
    code, _, _ = cli(["rate", str(root), "--rater", "me"], capsys)
    assert code == 0 and len(opened) == 2, "the lock went with the process"


def test_a_ratings_file_that_is_no_ratings_exits_2_and_stays_as_it_was(
    root, opened, capsys
) -> None:
    script = b"#!/bin/sh\necho $(id)\n"
    (root / "ratings").mkdir()
    (root / "ratings/me.jsonl").write_bytes(script)
    code, _, err = cli(["rate", str(root), "--rater", "me"], capsys)
    assert code == 2 and opened == []
    assert "ratings/me.jsonl is not a ratings file: line 1 is not JSON" in err
    assert (root / "ratings/me.jsonl").read_bytes() == script


def test_a_ratings_file_that_is_a_symlink_exits_2(root, opened, capsys) -> None:
    (root / "ratings").mkdir()
    (root / "activate").write_text("export X=1\n")
    (root / "ratings/me.jsonl").symlink_to("../activate")
    code, _, err = cli(["rate", str(root), "--rater", "me"], capsys)
    assert code == 2 and opened == []
    assert "ratings/me.jsonl is a symlink" in err
    assert (root / "activate").read_text() == "export X=1\n"


def test_a_rater_outside_the_team_is_told_once_and_rates_all_the_same(
    make_workspace, opened, capsys
) -> None:
    root = make_workspace(
        {T: task_yaml("t1"), "voyage.toml": '[rating]\nraters = ["ann", "ben"]\n'}
    )
    code, _, err = cli(["rate", str(root), "--rater", "zed"], capsys)
    assert code == 0
    assert err.splitlines() == [
        "voyage-tui rate: note: zed is not one of [rating] raters (ann, ben), so no run is assigned "
        "to zed; every run can still be rated"
    ]
    assert opened[0]["initial_rate"] == ("zed", True)
    code, _, err = cli(["rate", str(root), "--rater", "ann"], capsys)
    assert (code, err) == (0, "")
