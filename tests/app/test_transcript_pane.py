"""An imported run in the detail pane: its source rows, and its transcript by role with tool
calls folded, bounded for a huge log (app/widgets/transcript.py)."""

from __future__ import annotations

from textual.widgets import Collapsible, Static

from voyage_tui.app.widgets.transcript import SHOWN_MESSAGES, source_rows, transcript_widgets


def test_messages_by_role_with_tool_calls_folded() -> None:
    transcript = [
        {"role": "user", "content": "What is [bold]this[/]?"},
        {
            "role": "assistant",
            "content": "Let me look.",
            "tool_calls": [{"function": "bash", "arguments": '{"cmd": "ls"}'}],
        },
        {"role": "tool", "content": "README.md", "function": "bash"},
        {"role": "tool", "name": "run_shell", "input": "pytest -q", "output": "4 passed"},
    ]
    widgets = transcript_widgets(transcript)
    folds = [w for w in widgets if isinstance(w, Collapsible)]
    assert len(folds) == 2
    assert all(f.collapsed for f in folds)
    assert [type(w) for w in widgets] == [Static, Static, Collapsible, Static, Collapsible]


def test_a_huge_transcript_is_bounded() -> None:
    transcript = [{"role": "user", "content": "x" * 100_000}] * (SHOWN_MESSAGES + 50)
    widgets = transcript_widgets(transcript)
    assert len(widgets) == SHOWN_MESSAGES + 1  # the last says how many more
    first = widgets[0]
    assert isinstance(first, Static)
    assert len(str(first.content)) < 10_000


def test_source_rows_only_for_imported_runs() -> None:
    assert source_rows({"note": "by hand"}) == []
    rows = dict(
        source_rows(
            {
                "source": "inspect",
                "log": "demo.eval",
                "sample": "t1",
                "epoch": 2,
                "model": "mockllm/model",
                "outcome": {"match": 1.0},
            }
        )
    )
    assert rows["log"] == "demo.eval" and rows["sample"] == "t1" and rows["epoch"] == 2
    assert rows["model"] == "mockllm/model" and rows["outcome"] == "match 1"
