"""Scales of any size (issue 18, item 7): an anchor `100000:` made `agreement` allocate 74 GiB
(krippendorff's value domain, a square matrix over every value of the scale) and the rater
screen draw a line per value. A scale is at most 20 values with anchors 0..100 (SPEC 3.7): the
rubric parser reports the others on their line and leaves them out, so nothing downstream can
allocate by an anchor's value.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.app.support import wait_until
from tests.budget import examples
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.references.rubric import MAX_SCALE_VALUES, parse_rubric
from voyage_tui.engine.workspace.model import Workspace

RUBRIC = "fixtures/rubric.md"
HUGE = "- 100000: Beyond any scale.\n"
MAIN = "import sys; from voyage_tui.cli import main; sys.exit(main())"


def plant_huge_anchor(root: Path) -> int:
    """Add `100000:` as the last anchor of the first dimension; its line."""
    path = root / RUBRIC
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("- 5:")) + 1
    lines.insert(at, HUGE)
    path.write_text("".join(lines), encoding="utf-8")
    return at + 1


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    two_gib = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (two_gib, two_gib))


def test_agreement_with_a_huge_anchor_stays_small(sample_copy: Path) -> None:
    line = plant_huge_anchor(sample_copy)
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "agreement", str(sample_copy), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit_memory,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"{RUBRIC}:{line}:1: error rubric-anchor-out-of-range" in done.stderr
    payload = json.loads(done.stdout)
    assert payload["dimensions"]["correctness"]["alpha"] is not None


def test_validate_reports_the_anchor_on_its_line(sample_copy: Path, capsys) -> None:
    from voyage_tui.cli import main

    line = plant_huge_anchor(sample_copy)
    assert main(["validate", str(sample_copy), "--no-git", "--format", "json"]) == 1
    found = [
        d
        for d in json.loads(capsys.readouterr().out)["diagnostics"]
        if d["code"] == "rubric-anchor-out-of-range"
    ]
    assert [(d["path"], d["line"]) for d in found] == [(RUBRIC, line)]


async def test_the_rater_screen_with_a_huge_anchor(sample_copy: Path) -> None:
    plant_huge_anchor(sample_copy)
    app = VoyageApp(
        Workspace.load(sample_copy),
        AppSettings(use_git=False, watch=False, keymap={}, initial_rate=("me", True)),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, RateScreen)
                and (app.screen.state is not None or app.screen.problem is not None)
                and not app.screen.busy
            ),
            timeout=30,
        )
        screen = app.screen
        assert isinstance(screen, RateScreen) and screen.state is not None
        await pilot.press(*"43554")
        await wait_until(pilot, lambda: (sample_copy / "fixtures/ratings/me.jsonl").exists())
        await wait_until(pilot, lambda: not screen.busy)
    [record] = [
        json.loads(line)
        for line in (sample_copy / "fixtures/ratings/me.jsonl").read_text().splitlines()
    ]
    assert record["scores"]["correctness"] == 4


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(min_value=-5, max_value=10**12), min_size=1, max_size=40))
def test_no_scale_is_ever_larger_than_twenty_values(anchors: list[int]) -> None:
    text = "## Correctness\n\n" + "".join(f"- {n}: anchor {n}\n" for n in anchors)
    rubric, diagnostics = parse_rubric(text, "rubric.md")
    [dimension] = rubric.dimensions
    values = scale_values(dimension)
    assert len(values) <= MAX_SCALE_VALUES
    assert all(0 <= v <= 100 for v in dimension.anchors)
    # every anchor written and not kept is reported on its own line
    kept = set(dimension.anchors)
    dropped = [n for n in anchors if n not in kept and n >= 0]
    assert len([d for d in diagnostics if d.severity.value == "error"]) >= len(set(dropped))
