"""`voyage-tui new --from` an exposed holdout warns that the copy's prompt has already leaked
(a copy keeps the prompt, and the prompt is what leaked)."""

from __future__ import annotations

import json

import pytest

from tests.git.conftest import CANARY, Repo, base_files, holdout_yaml
from voyage_tui.cli import main

H1 = "fixtures/bug-diagnosis/h1/task.yaml"


def new(capsys: pytest.CaptureFixture[str], repo: Repo, *extra: str) -> tuple[int, str, str]:
    code = main(["new", "task", str(repo.root), "--from", "h1", "--id", "h2", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_copy_of_an_exposed_holdout_is_warned(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.commit(base_files() | {H1: holdout_yaml("h1")})
    code, out, err = new(capsys, repo, "--dry-run")
    assert code == 0 and "from-exposed" not in err
    repo.commit({"docs/leak.txt": f"notes\n{CANARY}\n"})
    code, out, err = new(capsys, repo, "--dry-run")
    assert code == 0, err
    assert "from-exposed" in err and "already leaked" in err and "docs/leak.txt" in err
    code, out, err = new(capsys, repo, "--dry-run", "--format", "json")
    warned = [d for d in json.loads(out)["diagnostics"] if d["code"] == "from-exposed"]
    assert [d["severity"] for d in warned] == ["warning"] and warned[0]["path"] == H1
