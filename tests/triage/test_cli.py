"""`voyage-tui triage`: the queue as text or JSON, snooze from the command line, the CI gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from tests.test_no_textual import probe
from tests.triage.seed import BROKEN
from tests.triage.support import keys, queue_of
from voyage_tui.cli import main
from voyage_tui.engine.triage.keys import KINDS


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["triage", *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code, out, _ = run(capsys, *args, "--format", "json")
    return code, json.loads(out)


def test_json_lists_the_queue_in_the_engines_order(seeded: Path, capsys) -> None:
    code, data = as_json(capsys, str(seeded))
    assert code == 1  # an error and an exposed holdout are in the queue
    assert list(data) == ["counts", "items"]
    assert list(data["counts"]) == list(KINDS)
    assert all(n >= 1 for n in data["counts"].values())
    assert [i["key"] for i in data["items"]] == keys(queue_of(seeded))
    first = data["items"][0]
    assert list(first) == ["key", "kind", "path", "line", "title", "detail", "snoozed_until"]
    assert (first["kind"], first["path"], first["line"]) == ("error", BROKEN, 2)
    assert first["snoozed_until"] is None


def test_exit_0_when_only_warnings_and_the_like_are_left(make_workspace, capsys) -> None:
    root = make_workspace(
        {"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1", extra="grond_truth: x\n")}
    )
    code, data = as_json(capsys, str(root), "--no-git")
    assert code == 0
    assert [i["kind"] for i in data["items"]] == ["warning"]
    code, out, _ = run(capsys, str(root), "--no-git", "--format", "text")
    assert code == 0
    assert out.splitlines()[0].startswith("1 warning   (1 in the queue, 0 snoozed)")


def test_kind_filters_the_listing_not_the_gate(seeded: Path, capsys) -> None:
    code, data = as_json(capsys, str(seeded), "--kind", "unrated", "--kind", "drift")
    assert code == 1
    assert {i["kind"] for i in data["items"]} == {"unrated", "drift"}
    assert data["counts"]["error"] == 0 and data["counts"]["unrated"] == 2


def test_snooze_from_the_command_line_and_all_lists_it(seeded: Path, capsys) -> None:
    _, data = as_json(capsys, str(seeded))
    error = next(i for i in data["items"] if i["kind"] == "error")
    exposed = next(i for i in data["items"] if i["kind"] == "exposed")
    code, out, err = run(capsys, str(seeded), "--snooze", error["key"], "--format", "json")
    assert f"snoozed {error['key']} until its file changes" in err
    assert code == 1  # the exposed holdout still gates
    assert error["key"] not in [i["key"] for i in json.loads(out)["items"]]
    code, _, _ = run(
        capsys, str(seeded), "--snooze", exposed["key"], "--until", "2999-01-01", "--format", "json"
    )
    assert code == 1  # a snooze hides an item from the list; it still gates (issue 18, item 14)
    code, data = as_json(capsys, str(seeded), "--all")
    until = {i["key"]: i["snoozed_until"] for i in data["items"]}
    assert until[error["key"]] == "change"
    assert until[exposed["key"]] == "2999-01-01"
    assert data["items"][0]["key"] == error["key"], "snoozed items keep their place in --all"
    code, _, err = run(capsys, str(seeded), "--unsnooze", error["key"], "--format", "json")
    assert code == 1 and f"woke {error['key']}" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--snooze", "error:nope"], "no item in the queue has the key"),
        (["--unsnooze", "error:nope"], "is not snoozed"),
        (["--until", "2999-01-01"], "--until goes with --snooze"),
        (["--snooze", "k", "--until", "tomorrow"], "is not a date"),
        (["--snooze", "k", "--until", "2000-01-01"], "is not after today"),
        (["--kind", "bogus"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2(seeded: Path, capsys, args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(["triage", str(seeded), "--no-git", *args])
        raise SystemExit(code)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err
    assert not (seeded / ".voyage").exists()


def test_no_workspace_exits_2(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, str(tmp_path), "--format", "json")
    assert code == 2 and "voyage-tui" in err


def test_a_corrupt_state_file_is_said_on_stderr_and_listed(seeded: Path, capsys) -> None:
    (seeded / ".voyage").mkdir()
    (seeded / ".voyage/triage.json").write_text("{oops")
    code, out, err = run(capsys, str(seeded), "--no-git", "--format", "json")
    assert "triage state cannot be used" in err
    assert any(i["path"] == ".voyage/triage.json" for i in json.loads(out)["items"])
    assert code == 1


def test_triage_loads_no_textual_module(seeded: Path) -> None:
    result = probe(["triage", str(seeded), "--format", "json"])
    assert result["code"] == 1
    assert result["printed"]
    assert result["textual"] == []


# --- snoozes hide, they do not pass the gate (issue 18, item 14) -------------------------------


def _gating(capsys: pytest.CaptureFixture[str], root: Path) -> list[dict]:
    _, data = as_json(capsys, str(root))
    return [i for i in data["items"] if i["kind"] in ("error", "exposed")]


def test_every_error_and_exposed_item_snoozed_still_exits_1(seeded: Path, capsys) -> None:
    gating = _gating(capsys, seeded)
    assert {i["kind"] for i in gating} == {"error", "exposed"}
    for item in gating:
        run(capsys, str(seeded), "--snooze", item["key"], "--until", "2999-01-01")
    code, data = as_json(capsys, str(seeded))
    assert not [i for i in data["items"] if i["kind"] in ("error", "exposed")]  # hidden...
    assert code == 1  # ...and still counted
    code, out, _ = run(capsys, str(seeded), "--format", "text")
    assert code == 1
    errors = sum(1 for i in gating if i["kind"] == "error")
    said = [line for line in out.splitlines() if line.startswith("exit 1: ")]
    assert said == [
        f"exit 1: {errors} snoozed error{'s' if errors != 1 else ''} and 1 snoozed exposed "
        "still count (a snooze hides an item, it does not pass the gate)"
    ], out


def test_a_planted_state_file_cannot_silence_the_gate(seeded: Path, capsys) -> None:
    """A branch commits `.voyage/triage.json` snoozing every item for ever: CI still fails."""
    gating = _gating(capsys, seeded)
    snoozes = {i["key"]: {"until": "2999-01-01", "at": ""} for i in gating}
    (seeded / ".voyage").mkdir()
    (seeded / ".voyage/triage.json").write_text(
        json.dumps({"version": 1, "snoozes": snoozes, "journal": []}), encoding="utf-8"
    )
    code, data = as_json(capsys, str(seeded))
    assert [i["kind"] for i in data["items"] if i["kind"] in ("error", "exposed")] == []
    assert code == 1
    code, out, _ = run(capsys, str(seeded), "--format", "text", "--kind", "warning")
    assert code == 1 and "still count" in out


def test_no_exit_line_when_nothing_gating_is_snoozed(seeded: Path, capsys) -> None:
    code, out, _ = run(capsys, str(seeded), "--format", "text")
    assert code == 1
    assert "still count" not in out
