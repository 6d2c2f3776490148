"""Hostile ids on the adjudication screen: a ratings file may name any fixture and run; the
item's title and its list label draw them escaped, never as terminal control sequences."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.test_adjudicate_flows import app_for, screen_of

EVIL_FIXTURE = "evil\x1b]0;pwned\x07-fixture"
EVIL_RUN = "run\x1b[2J\x9b31m"


def _hostile_dispute(root: Path) -> None:
    records = [
        {
            "fixture_id": EVIL_FIXTURE,
            "run_id": EVIL_RUN,
            "rater": rater,
            "scores": {d: score for d in ("correctness", "verification", "scope", "evidence")}
            | {"communication": score},
            "note": "",
            "rated_at": "2026-11-21T10:00:00Z",
            "blind": True,
            "duration_s": 60.0,
        }
        for rater, score in (("xavier", 1), ("yolanda", 5))
    ]
    for record in records:
        path = root / f"fixtures/ratings/{record['rater']}.jsonl"
        path.write_text(json.dumps(record) + "\n")


def _controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0]


async def test_a_hostile_item_is_drawn_escaped(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    _hostile_dispute(root)
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        assert screen.report is not None
        pairs = [d.run_key for d in screen.report.items]
        assert (EVIL_FIXTURE, EVIL_RUN) in pairs
        listing = screen.query_one("#adjudicate-items")
        listing.highlighted = pairs.index((EVIL_FIXTURE, EVIL_RUN))  # type: ignore[attr-defined]
        await pilot.pause()
        title = str(screen.query_one("#adjudicate-item", Static).render())
        assert "pwned" in title and not _controls(title)
        for option in listing.options:  # type: ignore[attr-defined]
            assert not _controls(option.prompt.plain)
        assert "\x1b" not in app.export_screenshot()
