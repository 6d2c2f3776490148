"""`new trajectory --gate`: a recorded gate takes its verdict as the wizard's row does, one
letter (`p`, `c`, `b`) or the word, pass when none is given; every gate starts recorded as
pass. And `new --help` says what `--format` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.authoring.test_cli_new import run

BASE = [
    "--id",
    "fix-typo",
    "--path",
    "lightweight",
    "--prompt",
    "Fix the typo in the footer.",
    "--skip-phase",
    "3=nothing to design",
    "--skip-phase",
    "7=no security surface",
    "--skip-phase",
    "8=rides the next deploy",
    "--terminal-state",
    "merged",
    "--skip-gate",
    "5=no release preparation",
    "--dry-run",
    "--format",
    "json",
]


def gates_line(capsys: pytest.CaptureFixture[str], root: Path, *flags: str) -> str:
    code, out, err = run(capsys, "new", "trajectory", str(root), *BASE, *flags)
    assert code == 0, (out, err)
    text: str = json.loads(out)["yaml"]
    return next(line for line in text.splitlines() if line.startswith("gates:"))


def test_gate_verdicts_by_letter_by_word_and_by_default(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = gates_line(
        capsys,
        sample_copy,
        "--gate",
        "1=c",
        "--gate",
        "2",
        "--gate",
        "gate-3=B:blocked on the flaky suite",
        "--gate",
        "4=conditional:staging only",
    )
    assert line == (
        'gates: "gate-1: Scope approved: conditional | gate-2: Design approved: pass | '
        'gate-3: blocked on the flaky suite: blocked | gate-4: staging only: conditional"'
    )


def test_every_gate_starts_recorded_as_pass(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = gates_line(capsys, sample_copy)
    assert line.count(": pass") == 4 and "gate-5" not in line


def test_a_verdict_that_is_no_letter_or_word_is_reported_as_written(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = [f for f in BASE if f not in ("--dry-run",)][:-2]
    code, _, err = run(capsys, "new", "trajectory", str(sample_copy), *flags, "--gate", "1=x")
    assert code == 2
    assert "invalid-gate-verdict" in err and "verdict is 'x'" in err


def test_new_help_says_what_format_does(capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("task", "trajectory"):
        with pytest.raises(SystemExit):
            run(capsys, "new", kind, "--help")
        out = capsys.readouterr()[0]
        described = out.split("\n  --format {text,json}", 1)[1].split("\n  --", 1)[0]
        assert "json" in described and "--no-input" in described, described
    code, out, _ = run(capsys, "new", "--help")
    assert code == 0 and "--format text|json" in out
