"""Write an SVG of every screen, from the running app on a copy of the sample workspace.

    python screenshots/make_screenshots.py

The scenarios are the snapshot tests' (tests/app/scenarios.py), so the README shows what the
tests pin. Re-run after changing a screen.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from tests.app.scenarios import SCENARIOS, copy_sample, scenario_app  # noqa: E402


async def shoot(name: str | None = None) -> list[Path]:
    written = []
    for scenario in SCENARIOS:
        if name and scenario.name != name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = copy_sample(Path(tmp))
            if scenario.prepare is not None:
                scenario.prepare(root)
            app = scenario_app(root, git=scenario.git)
            async with app.run_test(size=scenario.size) as pilot:
                await scenario.steps(pilot)
                await pilot.pause(0.3)
                target = app.save_screenshot(filename=f"{scenario.name}.svg", path=str(HERE))
                written.append(Path(target))
    return written


def main() -> None:
    for path in asyncio.run(shoot(sys.argv[1] if len(sys.argv) > 1 else None)):
        print(path.relative_to(REPO))


if __name__ == "__main__":
    main()
