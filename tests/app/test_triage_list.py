"""The triage list draws only the rows on screen, so a queue of 10,000 items stays quick."""

from __future__ import annotations

from textual.app import App, ComposeResult

from voyage_tui.app.widgets import triage_list
from voyage_tui.app.widgets.triage_list import TriageList, row_text
from voyage_tui.engine.triage.queue import TriageItem


def items(n: int) -> list[TriageItem]:
    return [
        TriageItem(
            key=f"warning:fixtures/c/f{i}/task.yaml:unknown-field:x",
            kind="warning",
            path=f"fixtures/c/f{i}/task.yaml",
            line=3,
            title=f"unknown field `x{i}`",
            detail="",
        )
        for i in range(n)
    ]


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TriageList(id="list")


async def test_ten_thousand_items_draw_only_the_visible_rows(monkeypatch) -> None:
    drawn: list[str] = []

    def counting(item: TriageItem, marked: bool, width: int):  # type: ignore[no-untyped-def]
        drawn.append(item.key)
        return row_text(item, marked, width)

    monkeypatch.setattr(triage_list, "row_text", counting)
    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        listing = app.query_one(TriageList)
        listing.set_rows(items(10_000), set(), 0)
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert listing.highlighted == 9_999
        assert listing.scroll_offset.y > 9_900
        assert len(set(drawn)) < 200


def test_a_row_is_exactly_as_wide_as_the_list() -> None:
    item = items(1)[0]
    for width in (40, 80, 160):
        assert row_text(item, True, width).cell_len == width
    long = TriageItem("k", "error", "a/" * 40 + "task.yaml", 12, "t" * 300, "")
    assert row_text(long, False, 80).cell_len == 80


def test_a_long_location_keeps_its_end_and_line() -> None:
    """The file and line are what a row's location is for: a long folder name is cut from the
    left (`…/task.yaml:12`), never the line number."""
    item = TriageItem(
        "k",
        "error",
        "fixtures/bug-diagnosis/" + "very-long-fixture-name-" * 3 + "/task.yaml",
        12,
        "t",
        "",
    )
    for width in (80, 120):
        row = row_text(item, False, width).plain.rstrip()
        assert row.endswith("/task.yaml:12"), row
        assert "…" in row
    short = items(1)[0]
    assert row_text(short, False, 80).plain.rstrip().endswith("f0/task.yaml:3")
