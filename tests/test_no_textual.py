"""One engine, two faces: the headless commands never import Textual (docs/development.md, "The layers").

Each command runs in a fresh interpreter (so nothing this test process imported can leak in) and
then reports every `textual` module left in sys.modules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_FIXTURES, task_yaml

PROBE = textwrap.dedent(
    """\
    import contextlib, io, json, sys
    from voyage_tui.cli import main
    answers = []
    for argv in json.loads(sys.argv[1]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code
        loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
        answers.append({"code": code, "textual": loaded, "printed": len(out.getvalue())})
    print(json.dumps(answers))
    """
)
"""Runs each command line given, in turn, and reports the Textual modules loaded after each: a
command that loads Textual is caught at its own step (the commands before it are headless
too, or their own step failed), so the commands of one test share one interpreter's start."""

GOLD = {
    "schema": "voyage-eval-gold/1",
    "source": "reviews/pr-7.md",
    "description": "One blocker.",
    "expected_verdict": "BLOCK",
    "findings": [
        {
            "file": "src/auth.py",
            "line": 12,
            "rule_key": "SEC-001",
            "severity": "BLOCKER",
            "owner_reviewer": "correctness",
        }
    ],
}
RUN = [
    {
        "reviewer": "correctness",
        "findings": [
            {"file": "src/auth.py", "line": 12, "rule_key": "SEC-001", "severity": "BLOCKER"}
        ],
    }
]


@pytest.fixture
def workspace(make_workspace) -> Path:
    root = make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            "gold/auth/gold.json": json.dumps(GOLD, indent=2),
            "gold/auth/runs/run-1.json": json.dumps(RUN, indent=2),
            "references/rule-catalogue.yaml": "- SEC-001\n- STYLE-002\n",
        }
    )
    return root


def probe(argv: list[str]) -> dict[str, object]:
    return probe_each([argv])[0]


def probe_each(argvs: list[list[str]]) -> list[dict[str, object]]:
    """What each command line did, run in turn in one fresh interpreter."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argvs)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert isinstance(results, list) and len(results) == len(argvs)
    return results


def test_validate_loads_no_textual_module_in_any_format(workspace: Path) -> None:
    formats = ["text", "json", "github"]
    results = probe_each(
        [["validate", str(workspace), "--no-git", "--format", fmt] for fmt in formats]
    )
    for fmt, result in zip(formats, results, strict=True):
        assert result["code"] in (0, 1), fmt
        assert result["printed"], f"validate printed its report ({fmt})"
        assert result["textual"] == [], fmt


@pytest.mark.skipif(
    not SAMPLE_FIXTURES.is_dir(), reason="the sample workspace fixtures/ is not there"
)
def test_validate_on_the_sample_workspace_loads_no_textual_module() -> None:
    result = probe(["validate", str(SAMPLE_FIXTURES), "--no-git"])
    assert result["code"] in (0, 1)
    assert result["textual"] == []


def test_score_loads_no_textual_module(workspace: Path) -> None:
    result = probe(
        [
            "score",
            "--gold",
            str(workspace / "gold/auth/gold.json"),
            "--run",
            str(workspace / "gold/auth/runs/run-1.json"),
            "--format",
            "json",
        ]
    )
    assert result["code"] == 0
    assert result["printed"]
    assert result["textual"] == []


def test_schema_loads_no_textual_module_for_any_kind() -> None:
    kinds = ["task", "trajectory", "gold", "run"]
    for kind, result in zip(kinds, probe_each([["schema", kind] for kind in kinds]), strict=True):
        assert result["code"] == 0, kind
        assert result["printed"], kind
        assert result["textual"] == [], kind


def test_the_probe_would_see_textual_if_it_were_loaded() -> None:
    """The check is not vacuous: importing Textual in the same way is noticed."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, textual; print(any(m == 'textual' for m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip() == "True"


def test_results_loads_no_textual_module_in_any_format(workspace: Path) -> None:
    formats = ["text", "json", "md", "html", "csv"]
    results = probe_each([["results", str(workspace), "--format", fmt] for fmt in formats])
    for fmt, result in zip(formats, results, strict=True):
        assert result["code"] == 0, fmt
        assert result["printed"], fmt
        assert result["textual"] == [], fmt


def test_validate_loads_no_numpy(workspace: Path) -> None:
    """results imports numpy only where it computes: `validate` stays numpy-free."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from voyage_tui.cli import main; main(sys.argv[1:]); "
            "import voyage_tui.engine.results.compute, voyage_tui.engine.results.inputs; "
            "print('numpy' in sys.modules, file=sys.stderr)",
            "validate",
            str(workspace),
            "--no-git",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stderr.strip().splitlines()[-1] == "False"
