"""Numbers of any length (issue 18, item 6): a 5,000-digit number in a rubric anchor, journey.md,
a trajectory's phases or gates, a YAML or JSON value or voyage.toml is a diagnostic on its line,
never a traceback. Python's int() refuses strings over 4,300 digits (ValueError "Exceeds the
limit"), so every number read from a file's text is bounded before it is converted.

Each surface is driven in-process on a private copy of the sample workspace: an exception
escaping a command fails the test with its traceback.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.app.support import header_text, make_app, wait_loaded
from voyage_tui.cli import main

BIG = "9" * 5000
TRAJECTORY = "fixtures/trajectories/consolidate-client-retries/task.yaml"
RUBRIC = "fixtures/rubric.md"
JOURNEY = "fixtures/references/journey.md"
ALICE = "fixtures/ratings/alice.jsonl"


def _replace(root: Path, rel: str, pattern: str, new: str) -> int:
    """Replace the first match of `pattern` in `rel`; the 1-based line it is on."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    match = re.search(pattern, text, re.MULTILINE)
    assert match, (rel, pattern)
    path.write_text(text[: match.start()] + new + text[match.end() :], encoding="utf-8")
    return text.count("\n", 0, match.start()) + 1


def _append(root: Path, rel: str, text: str) -> int:
    path = root / rel
    before = path.read_text(encoding="utf-8")
    if not before.endswith("\n"):
        before += "\n"
    path.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1 + text[: len(text) - len(text.lstrip("\n"))].count("\n")


def _rating_with_a_long_score(root: Path) -> int:
    path = root / ALICE
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    dimension = next(iter(record["scores"]))
    text = json.dumps(record).replace(
        f'"{dimension}": {record["scores"][dimension]}', f'"{dimension}": {BIG}', 1
    )
    path.write_text("\n".join([*lines, text]) + "\n", encoding="utf-8")
    return len(lines) + 1


def _rating_with_a_long_duration(root: Path) -> int:
    """4,000 digits: int() reads it, but a float cannot hold it (OverflowError)."""
    path = root / ALICE
    lines = path.read_text(encoding="utf-8").splitlines()
    text = json.dumps(json.loads(lines[0]))[:-1] + f', "duration_s": {"9" * 4000}}}'
    path.write_text("\n".join([*lines, text]) + "\n", encoding="utf-8")
    return len(lines) + 1


# attack name -> (how to plant it: returns the line, the file, the code expected there)
ATTACKS = {
    "rubric-anchor": (
        lambda root: _replace(root, RUBRIC, r"^- 5: Fully correct", f"- {BIG}: Fully correct"),
        RUBRIC,
        "number-too-long",
    ),
    "journey-phase-heading": (
        lambda root: _append(root, JOURNEY, f"\n## Phase {BIG}: Extra\n"),
        JOURNEY,
        "number-too-long",
    ),
    "journey-gate": (
        lambda root: _replace(root, JOURNEY, r"^- gate-5:", f"- gate-{BIG}:"),
        JOURNEY,
        "number-too-long",
    ),
    "phases": (
        lambda root: _replace(root, TRAJECTORY, r'^phases: "1:', f'phases: "{BIG}:'),
        TRAJECTORY,
        "number-too-long",
    ),
    "skipped-phases": (
        lambda root: _replace(
            root, TRAJECTORY, r'^skipped_phases: "7:', f'skipped_phases: "{BIG}:'
        ),
        TRAJECTORY,
        "number-too-long",
    ),
    "gates": (
        lambda root: _replace(root, TRAJECTORY, r'^gates: "gate-1:', f'gates: "gate-{BIG}:'),
        TRAJECTORY,
        "number-too-long",
    ),
    "skipped-gates": (
        lambda root: _replace(
            root, TRAJECTORY, r'^skipped_gates: "gate-5:', f'skipped_gates: "gate-{BIG}:'
        ),
        TRAJECTORY,
        "number-too-long",
    ),
    "yaml-scalar": (
        lambda root: _append(root, TRAJECTORY, f"routing_notes: {BIG}\n"),
        TRAJECTORY,
        "yaml-invalid-value",
    ),
    # YAML 1.1 reads `1:00:00:…` as a number in base 60, multiplied out without int()'s limit
    "yaml-sexagesimal": (
        lambda root: _append(root, TRAJECTORY, "routing_notes: 1" + ":00" * 3000 + "\n"),
        TRAJECTORY,
        "yaml-invalid-value",
    ),
    "yaml-hex": (
        lambda root: _append(root, TRAJECTORY, "routing_notes: 0x" + "f" * 4000 + "\n"),
        TRAJECTORY,
        "yaml-invalid-value",
    ),
    "rating-score": (_rating_with_a_long_score, ALICE, "rating-invalid-json"),
    "rating-duration": (_rating_with_a_long_duration, ALICE, "rating-wrong-type"),
    "run-json": (
        lambda root: _replace(
            root, "fixtures/gold/jwt-auth/runs/run-perfect.json", r'"line": \d+', f'"line": {BIG}'
        ),
        "fixtures/gold/jwt-auth/runs/run-perfect.json",
        "json-syntax",
    ),
    # 4,000 digits: tomllib reads it, and it was the file size limit as it stood
    "voyage-toml-under-the-limit": (
        lambda root: _replace(
            root, "voyage.toml", r"^max_file_bytes = \d+", f"max_file_bytes = {'9' * 4000}"
        ),
        "voyage.toml",
        "config-invalid",
    ),
    "voyage-toml": (
        lambda root: _replace(
            root, "voyage.toml", r"^max_file_bytes = \d+", f"max_file_bytes = {BIG}"
        ),
        "voyage.toml",
        "config-syntax",
    ),
}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_validate_reports_a_long_number_on_its_line(
    attack: str, sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plant, rel, code_expected = ATTACKS[attack]
    line = plant(sample_copy)
    code, out, _ = cli(capsys, "validate", str(sample_copy), "--no-git", "--format", "json")
    assert code == 1
    found = [
        d for d in json.loads(out)["diagnostics"] if d["path"] == rel and d["code"] == code_expected
    ]
    assert found, [d for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]
    assert found[0]["line"] == line
    assert all(len(d["message"]) < 500 for d in found)  # the digits are counted, not repeated


@pytest.mark.parametrize(
    "attack", ["rubric-anchor", "voyage-toml", "rating-score", "rating-duration"]
)
def test_agreement_with_a_long_number(
    attack: str, sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ATTACKS[attack][0](sample_copy)
    code, out, err = cli(capsys, "agreement", str(sample_copy), "--format", "json")
    assert code == 0, err
    assert set(json.loads(out)) >= {"dimensions", "pairs"}
    if attack == "rubric-anchor":
        assert "number-too-long" in err  # the rubric's problems are told on stderr
    elif attack.startswith("rating-"):
        assert "left records out" in err
    # voyage.toml: its defaults are used, as by every command (validate reports it)


@pytest.mark.parametrize("attack", ["rubric-anchor", "journey-gate", "phases", "skipped-gates"])
def test_triage_json_with_a_long_number(
    attack: str, sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ATTACKS[attack][0](sample_copy)
    code, out, _ = cli(capsys, "triage", str(sample_copy), "--no-git", "--format", "json")
    assert code == 1
    assert any(ATTACKS[attack][1] == item["path"] for item in json.loads(out)["items"])


@pytest.mark.parametrize("attack", ["rubric-anchor", "journey-phase-heading", "gates"])
def test_exposure_with_a_long_number(
    attack: str, sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ATTACKS[attack][0](sample_copy)
    code, _, err = cli(capsys, "exposure", str(sample_copy), "--format", "json")
    assert code in (0, 1, 2), err
    assert "Traceback" not in err


@pytest.mark.parametrize("attack", ["phases", "skipped-phases", "gates", "skipped-gates"])
def test_new_from_a_trajectory_with_a_long_number(
    attack: str, sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ATTACKS[attack][0](sample_copy)
    argv = ["new", "trajectory", str(sample_copy), "--from", "consolidate-client-retries"]
    code, _, err = cli(capsys, *argv, "--id", "copy-of-retries", "--no-input", "--dry-run")
    # the entry whose number cannot be read is left out of the copy, like a value of the wrong
    # type: the wizard asks about that phase or gate again (here: refused, it has no answer)
    assert code == 2, err


def test_new_from_a_skipped_phase_numbered_with_a_superscript(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`²` is a digit to str.isdigit() but not to int(): no ValueError either."""
    _replace(
        sample_copy, TRAJECTORY, r'^skipped_phases: "7: [^|"]*', 'skipped_phases: "\u00b2: Review'
    )
    argv = ["new", "trajectory", str(sample_copy), "--from", "consolidate-client-retries"]
    code, _, err = cli(capsys, *argv, "--id", "copy-of-retries", "--no-input", "--dry-run")
    assert code == 2, err


@pytest.mark.parametrize("attack", ["rubric-anchor", "journey-gate", "phases", "voyage-toml"])
async def test_the_app_loads_a_workspace_with_a_long_number(attack: str, sample_copy: Path) -> None:
    ATTACKS[attack][0](sample_copy)
    app = make_app(sample_copy)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        assert "error" in header_text(app)


@pytest.mark.parametrize(
    "stamp", ["4611686018427387904", "99999999999999", "9" * 5000, "-99999999999999"]
)
def test_a_commit_dated_beyond_any_calendar_is_blamed_without_a_date(stamp: str) -> None:
    """git accepts `GIT_AUTHOR_DATE=@4611686018427387904`; `git blame --porcelain` gives it back
    as `author-time`, and datetime raised OSError (or ValueError past year 9999) in exposure."""
    from voyage_tui.engine.git.exposure import _parse_blame

    sha = "a" * 40
    out = (
        f"{sha} 1 1 1\nauthor mallory\nauthor-mail <m@x>\nauthor-time {stamp}\n"
        "author-tz +0000\nfilename f\n\tthe leaked line\n"
    ).encode()
    assert _parse_blame(out) == {1: (sha, "mallory <m@x>", None)}
