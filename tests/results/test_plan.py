"""`voyage-tui results --plan --detect D` (issue 35 item 5): per comparison, the shared fixtures
that would detect a true difference of D with 80% power at the two-sided alpha, from the sd of
today's paired differences: mde's normal formula solved for n, rounded up."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tests.results.common import build, scipy_stats
from tests.results.test_results_cli import paired
from voyage_tui.cli import main
from voyage_tui.engine.results.stats import fixtures_needed, minimum_detectable


def reference(diffs: list[float], detect: float, alpha: float) -> int:
    norm = scipy_stats().norm
    z = norm.ppf(1 - alpha / 2) + norm.ppf(0.8)
    return math.ceil((z * float(np.std(diffs, ddof=1)) / detect) ** 2)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return build(tmp_path / "ws", baseline="old")


@pytest.mark.parametrize(("detect", "alpha"), [(0.5, 0.05), (0.25, 0.05), (1.0, 0.01)])
def test_the_plan_against_a_reference(ws, capsys, detect, alpha) -> None:
    code = main(
        ["results", str(ws), "--format", "json", "--plan", "--detect", str(detect), "--alpha", str(alpha)]
    )  # fmt: skip
    assert code == 0
    plan = json.loads(capsys.readouterr().out)["plan"]
    assert (plan["detect"], plan["alpha"], plan["power"]) == (detect, alpha, 0.8)
    rows = {r["dimension"]: r for r in plan["comparisons"] if r["agent"] == "new"}
    for dimension in ("correctness", "scope", "evidence"):
        diffs = paired(dimension)
        assert rows[dimension]["fixtures_needed"] == max(2, reference(diffs, detect, alpha))
        assert rows[dimension]["sd"] == pytest.approx(float(np.std(diffs, ddof=1)), abs=1e-12)
    anon = next(r for r in plan["comparisons"] if r["agent"] == "(unlabelled)")
    assert anon["fixtures_needed"] is None and "fewer than 2" in anon["reason"]


def test_the_plan_is_the_mde_solved_for_n() -> None:
    """At the planned n the mde (with the same sd) is at most D; at one fewer, above it."""
    diffs = [1.0, -0.5, 2.0, 0.0, 1.5, 0.5]
    for detect in (0.3, 0.7, 1.1):
        n = fixtures_needed(float(np.std(diffs, ddof=1)), detect, 0.05)
        assert n is not None
        scaled = lambda k: minimum_detectable(diffs, 0.05)[0] * math.sqrt(len(diffs) / k)  # noqa: E731
        assert scaled(n) <= detect + 1e-12
        if n > 2:
            assert scaled(n - 1) > detect
    assert fixtures_needed(None, 0.5, 0.05) is None and fixtures_needed(0.0, 0.5, 0.05) is None


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_every_format_shows_the_plan(ws, capsys, fmt) -> None:
    assert main(["results", str(ws), "--format", fmt, "--plan", "--detect", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "80% power" in out and "19 (11 more)" in out  # correctness: sd 0.78


def test_plan_and_detect_go_together(ws, capsys) -> None:
    for argv in (["--plan"], ["--detect", "0.5"], ["--plan", "--detect", "0"], ["--plan", "--detect", "x"]):  # fmt: skip
        with pytest.raises(SystemExit) as info:
            main(["results", str(ws), *argv])
        assert info.value.code == 2
