"""Every screen at a fixed size, pinned with pytest-textual-snapshot.

After a deliberate change to a screen: `pytest tests/app/test_snapshots.py --snapshot-update`,
look at the new SVGs, and re-run `python screenshots/make_screenshots.py` for the README.
"""

from __future__ import annotations

import pytest

from tests.app.scenarios import SCENARIOS, Scenario, copy_sample, scenario_app


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_screen(scenario: Scenario, snap_compare, tmp_path) -> None:
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root, git=scenario.git)
    assert snap_compare(app, terminal_size=scenario.size, run_before=scenario.steps)
