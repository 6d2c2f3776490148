"""A judge runs only what the user names (SPEC 3.11, docs/trust.md): its command comes from the
command line or the user's own judges.toml, never from voyage.toml or any file of the
workspace; and it gets a minimal environment, not the user's secrets."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.judging.common import records, write_judge
from tests.ratings.common import workspace_files
from voyage_tui.cli import main


def planted(marker: Path) -> str:
    return f"{sys.executable} -c \"open({str(marker)!r}, 'w').write('ran')\""


def test_a_judge_named_by_the_workspace_is_never_run(
    make_workspace: MakeWorkspace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    marker = tmp_path / "marker"
    command = planted(marker)
    table = f"[judges.robo]\ncommand = {json.dumps(command)}\n"
    files = workspace_files()
    files["voyage.toml"] = table
    files["judges.toml"] = table
    files[".voyage-tui/judges.toml"] = table
    files[".config/voyage-tui/judges.toml"] = table
    files["ratings/judges.toml"] = table
    ws = make_workspace(files)
    config = tmp_path / "config"
    config.mkdir()
    # the user's config dir is empty; HOME and the current folder are the workspace itself
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("VOYAGE_TUI_JUDGES", raising=False)
    monkeypatch.setenv("HOME", str(ws))
    monkeypatch.chdir(ws)
    assert main(["judge", "run", str(ws), "--name", "robo"]) == 2
    assert "no --command given" in capsys.readouterr().err
    assert not marker.exists()
    assert not (ws / "ratings/robo.jsonl").exists()
    # validate, align, results and triage read the same files: none of them runs it either
    for argv in (["validate"], ["judge", "align"], ["results"], ["agreement"], ["triage"]):
        main([*argv, str(ws)])
    assert not marker.exists()


def test_the_users_own_judges_toml_is_used(
    make_workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = make_workspace(workspace_files())
    config = tmp_path / "config" / "voyage-tui"
    config.mkdir(parents=True)
    command = write_judge(tmp_path, "ok")
    (config / "judges.toml").write_text(
        f"[judges.robo]\ncommand = {json.dumps(command.split())}\n", encoding="utf-8"
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("VOYAGE_TUI_JUDGES", raising=False)
    assert main(["judge", "run", str(ws), "--name", "robo"]) == 0
    assert len(records(ws / "ratings/robo.jsonl")) == 3


def test_the_judge_gets_no_secret_it_was_not_given(
    make_workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = make_workspace(workspace_files({"t1": ["run-a"]}))
    seen = tmp_path / "env.json"
    command = write_judge(
        tmp_path, "ok", f"open({str(seen)!r}, 'w').write(json.dumps(dict(os.environ)))\n"
    )
    monkeypatch.setenv("MY_SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("JUDGE_MODEL", "small")
    assert main(["judge", "run", str(ws), "--name", "robo", "--command", command]) == 0
    env = json.loads(seen.read_text())
    assert "MY_SECRET_TOKEN" not in env and "JUDGE_MODEL" not in env
    assert "PATH" in env
    assert (
        main(
            [
                "judge",
                "run",
                str(ws),
                "--name",
                "robo2",
                "--command",
                command,
                "--pass-env",
                "JUDGE_MODEL",
            ]
        )
        == 0
    )
    env = json.loads(seen.read_text())
    assert env["JUDGE_MODEL"] == "small" and "MY_SECRET_TOKEN" not in env


def test_the_command_is_not_run_through_a_shell(
    make_workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = make_workspace(workspace_files({"t1": ["run-a"]}))
    marker = tmp_path / "shell-ran"
    command = write_judge(tmp_path, "ok") + f" ; touch {marker}"
    main(["judge", "run", str(ws), "--name", "robo", "--command", command])
    assert not marker.exists()
