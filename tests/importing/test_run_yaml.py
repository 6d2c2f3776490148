"""The run file's YAML (engine/importing/runfile.py) reads back as the document it was made
from, whatever text a log holds: literal blocks, JSON-style flow, or pyyaml's dump."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from voyage_tui.engine.importing.runfile import run_yaml, safe_id

TEXTS = [
    "",
    " leading space\nsecond",
    "two lines\nend\n",
    "ends in two\n\n",
    "key: value\n- item\n# not a comment\n---\n...",
    "tab\there\nnext",
    "crlf\r\nline",
    "nel\x85line\nx",
    "bom\ufeff\nx",
    "bell\x07 and del\x7f and c1\x9b\nx",
    "lone \ud800 surrogate\nx",
    "emoji 😀\n漢字",
    "\"quotes\" and \\ backslash\n'single'",
    "   \n  indented\n",
]


def _doc(text: str, number: Any = 0.5) -> dict[str, Any]:
    return {
        "run_id": "r",
        "agent": text or "a",
        "output": text,
        "patch": text,
        "transcript": [{"role": "user", "content": text, "tool_calls": [{"arguments": text}]}],
        "metadata": {"source": "inspect", "scores": {"x": number, text: [text]}, "n": None},
    }


def _back(doc: dict[str, Any]) -> Any:
    return yaml.load(run_yaml(doc).decode("utf-8", "surrogatepass"), Loader=yaml.SafeLoader)


@pytest.mark.parametrize("text", TEXTS)
def test_tricky_text_reads_back(text: str) -> None:
    doc = _doc(text)
    assert _back(doc) == doc


@pytest.mark.parametrize("number", [1e-05, 1e20, 0.1, -3.0, 12, True, float("inf")])
def test_numbers_read_back(number: Any) -> None:
    doc = _doc("x", number)
    assert _back(doc) == doc


@given(st.text(), st.text())
def test_any_text_reads_back(output: str, message: str) -> None:
    doc = _doc(output)
    doc["transcript"].append({"role": "assistant", "content": message})
    assert _back(doc) == doc


def test_a_multi_line_output_is_a_literal_block() -> None:
    text = run_yaml(_doc("first line\nsecond line\n")).decode()
    assert "output: |\n  first line\n  second line\n" in text


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("inspect-a/b c-1-e1", "inspect-a-b-c-1-e1"),
        ("..hidden", "hidden"),
        ("-x", "x"),
        ("", "run"),
    ],
)
def test_safe_ids(raw: str, safe: str) -> None:
    assert safe_id(raw) == safe


def test_a_long_id_is_cut_with_its_digest() -> None:
    one, two = safe_id("a" * 300), safe_id("a" * 299 + "b")
    assert len(one) == 120 and one != two
