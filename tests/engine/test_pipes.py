"""Where each entry of a pipe-separated string sits in the source, whatever the YAML style."""

from __future__ import annotations

import pytest

from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.positions import NoPositions
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.rules.pipes import entry_position, split_pipes


def positions_of(source: str, field: str = "phases") -> list[tuple[str, tuple[int, int] | None]]:
    doc = load_yaml(source, "t.yaml")
    assert doc.ok, doc.diagnostics
    return [
        (e.text, entry_position(doc.positions, (field,), e)) for e in split_pipes(doc.data[field])
    ]


def test_split_keeps_empty_entries_and_counts_repeats():
    entries = split_pipes(" a |b|  | a ")
    assert [(e.text, e.occurrence, e.index) for e in entries] == [
        ("a", 0, 0),
        ("b", 0, 1),
        ("", 0, 2),
        ("a", 1, 3),
    ]
    assert {e.pipes for e in entries} == {3}


@pytest.mark.parametrize(
    "source",
    [
        "phases: 'x: a | y: b | z: c'\n",
        'phases: "x: a | y: b | z: c"\n',
    ],
    ids=["single-quoted", "double-quoted"],
)
def test_quoted_single_line(source):
    assert positions_of(source) == [("x: a", (1, 10)), ("y: b", (1, 17)), ("z: c", (1, 24))]


def test_plain_multi_line():
    source = "phases: a |\n  b\n  c | d\nnext: 1\n"
    assert positions_of(source) == [("a", (1, 9)), ("b c", (2, 3)), ("d", (3, 7))]


@pytest.mark.parametrize("style", [">", ">-", "|", "|-", "|2"])
def test_block_scalars_skip_their_header(style):
    source = f"phases: {style}\n  a |\n  b | c\n"
    assert positions_of(source) == [("a", (2, 3)), ("b", (3, 3)), ("c", (3, 7))]


def test_crlf_and_other_line_breaks_count_as_yaml_counts_them():
    source = "phases: >\r\n  a |\r\n  b | c\r\n"
    assert positions_of(source) == [("a", (2, 3)), ("b", (3, 3)), ("c", (3, 7))]


def test_an_entry_repeating_the_start_of_an_earlier_one_points_at_itself():
    source = 'gates: "gate-1: x: passed | gate-1: x: pass"\n'
    assert positions_of(source, "gates") == [
        ("gate-1: x: passed", (1, 9)),
        ("gate-1: x: pass", (1, 29)),
    ]


def test_repeated_entries_point_at_themselves():
    source = 'phases: "a | b | a | a"\n'
    assert [pos for _, pos in positions_of(source)] == [(1, 10), (1, 14), (1, 18), (1, 22)]


def test_empty_entries_point_at_the_pipe_that_makes_them():
    source = 'phases: "| a || b |"\n'
    assert positions_of(source) == [
        ("", (1, 10)),
        ("a", (1, 12)),
        ("", (1, 15)),
        ("b", (1, 17)),
        ("", (1, 19)),
    ]


def test_escapes_that_hide_a_pipe_fall_back_to_searching_the_text():
    source = 'phases: "a \\x7c b | z"\n'
    assert positions_of(source) == [("a", (1, 10)), ("b", (1, 17)), ("z", (1, 21))]


def test_json_values_are_mapped_too():
    doc = load_json('{\n  "phases": "a | b"\n}', "t.json")
    entries = split_pipes(doc.data["phases"])
    assert [entry_position(doc.positions, ("phases",), e) for e in entries] == [(2, 14), (2, 18)]


def test_without_positions_there_is_no_place():
    [entry] = split_pipes("a")
    assert entry_position(NoPositions(), ("phases",), entry) is None
