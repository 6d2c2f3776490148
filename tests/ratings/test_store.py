"""The ratings store: records with line numbers, the rating in force per key (supersede,
retraction), torn lines from a crash, and the durable append."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.ratings.common import jsonl, load_ws, rating, record, rubric, workspace_files
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.ratings.records import Rating, parse_ratings
from voyage_tui.engine.ratings.runs import RunIndex
from voyage_tui.engine.ratings.store import RatingStore, append_rating
from voyage_tui.engine.validation.suite import Suite

ALICE = "ratings/alice.jsonl"


def store_of(root: Path, *, runs: bool = True) -> RatingStore:
    suite = Suite.open(root, use_git=False)
    index = RunIndex.from_items(suite.items) if runs else None
    return RatingStore.load(suite.ws, rubric(), index)


def codes(store: RatingStore) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in store.diagnostics()]


# --- the rating in force ------------------------------------------------------------------------


def test_a_later_record_supersedes_an_earlier_one(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            ALICE: jsonl(
                record(scores={"correctness": 2, "scope": 1}),
                record(run_id="run-b"),
                record(scores={"correctness": 5, "scope": 5}, note="second look"),
            ),
        }
    )
    store = store_of(root)
    assert codes(store) == []
    in_force = store.of_rater("alice")
    assert in_force[("t1", "run-a")].scores == {"correctness": 5, "scope": 5}
    assert in_force[("t1", "run-a")].line == 3
    assert in_force[("t1", "run-a")].note == "second look"
    assert [r.line for r in store.history(("t1", "run-a", "alice"))] == [1, 3]


def test_a_retraction_unrates_and_a_later_rating_counts_again(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            ALICE: jsonl(
                record(),
                record(run_id="run-b"),
                record(scores=None),
            ),
        }
    )
    store = store_of(root)
    assert codes(store) == []
    assert set(store.of_rater("alice")) == {("t1", "run-b")}
    assert store.latest()[("t1", "run-a", "alice")].retracted
    assert ("t1", "run-a", "alice") not in store.effective()
    (root / ALICE).write_text(
        (root / ALICE).read_text() + jsonl(record(scores={"correctness": 1, "scope": 1}))
    )
    again = store_of(root).of_rater("alice")
    assert again[("t1", "run-a")].scores == {"correctness": 1, "scope": 1}


def test_a_record_with_an_error_leaves_the_earlier_rating_in_force(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            ALICE: jsonl(
                record(scores={"correctness": 2, "scope": 3}),
                record(scores={"correctness": 9, "scope": 3}),  # off the scale
                record(scores={"corectness": 5, "scope": 5}),  # not a dimension
            ),
        }
    )
    store = store_of(root)
    assert codes(store) == [("rating-score-out-of-scale", 2), ("rating-unknown-dimension", 3)]
    assert store.of_rater("alice")[("t1", "run-a")].scores == {"correctness": 2, "scope": 3}


def test_dimensions_are_stored_under_the_rubric_names(make_workspace):
    root = make_workspace(
        {**workspace_files(), ALICE: jsonl(record(scores={"Correctness": 4, "SCOPE": 5}))}
    )
    store = store_of(root)
    assert codes(store) == []
    assert store.of_rater("alice")[("t1", "run-a")].scores == {"correctness": 4, "scope": 5}


def test_a_record_in_another_raters_file_does_not_count(make_workspace):
    root = make_workspace({**workspace_files(), ALICE: jsonl(record(rater="bob"))})
    store = store_of(root)
    assert codes(store) == [("rating-rater-mismatch", 1)]
    assert store.effective() == {}


# --- what a crash leaves ----------------------------------------------------------------------


def test_a_torn_last_line_is_a_warning_and_the_records_before_it_count(make_workspace):
    whole = json.dumps(record(run_id="run-b"))
    root = make_workspace({**workspace_files(), ALICE: jsonl(record()) + whole[: len(whole) // 2]})
    store = store_of(root)
    [torn] = store.diagnostics()
    assert (torn.code, torn.severity.value, torn.line, torn.column) == (
        "rating-torn-line",
        "warning",
        2,
        1,
    )
    assert set(store.of_rater("alice")) == {("t1", "run-a")}


@pytest.mark.parametrize("cut", [1, 17, 60, -1])
def test_a_record_cut_anywhere_is_a_torn_line_not_invalid_json(cut):
    whole = json.dumps(record(note='says "hi"'))
    parsed = parse_ratings((whole[:cut] + "\n").encode(), ALICE)
    assert [d.code for d in parsed.diagnostics] == ["rating-torn-line"]


def test_nul_bytes_a_crash_leaves_at_the_end_are_a_torn_line():
    data = jsonl(record()).encode() + b"\x00" * 300
    parsed = parse_ratings(data, ALICE)
    assert [(d.code, d.line) for d in parsed.diagnostics] == [("rating-torn-line", 2)]
    assert len(parsed.lines) == 1


def test_appending_after_a_torn_line_starts_the_record_on_its_own_line(make_workspace):
    whole = json.dumps(record(run_id="run-b"))
    root = make_workspace({**workspace_files(), ALICE: jsonl(record()) + whole[: len(whole) - 5]})
    ws = load_ws(root)
    append_rating(ws, rating(run_id="run-b", scores={"correctness": 1, "scope": 5}))
    text = (root / ALICE).read_text()
    lines = text.split("\n")
    assert text.endswith("\n")
    assert lines[1] == whole[: len(whole) - 5], "the torn fragment stays as it was"
    assert json.loads(lines[2])["run_id"] == "run-b"
    store = store_of(root)
    assert codes(store) == [("rating-torn-line", 2)]
    assert store.of_rater("alice")[("t1", "run-b")].scores == {"correctness": 1, "scope": 5}
    assert store.of_rater("alice")[("t1", "run-b")].line == 3


def test_the_store_counts_an_appended_record_at_its_line(make_workspace):
    root = make_workspace({**workspace_files(), ALICE: jsonl(record(), record(run_id="run-b"))})
    store = store_of(root)
    stored = store.append(load_ws(root), rating(fixture_id="t2"))
    assert (stored.path, stored.line) == (ALICE, 3)
    assert store_of(root).of_rater("alice")[("t2", "run-a")].line == 3
    assert set(store.of_rater("alice")) == {("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a")}


# --- reading what people write ----------------------------------------------------------------


def test_crlf_a_bom_and_blank_lines_are_read():
    data = (
        b"\xef\xbb\xbf" + jsonl(record(), "", record(run_id="run-b")).replace("\n", "\r\n").encode()
    )
    parsed = parse_ratings(data, ALICE)
    assert parsed.diagnostics == []
    assert [p.rating.line for p in parsed.lines] == [1, 3]


def test_a_line_separator_inside_a_note_does_not_split_the_record():
    note = "first\u2028second\u0085third\rfourth"
    parsed = parse_ratings(rating(note=note).to_line().encode() + b"\n", ALICE)
    assert parsed.diagnostics == []
    [line] = parsed.lines
    assert line.rating.note == note


def test_a_line_that_is_not_utf8_hides_no_other_line():
    data = (
        jsonl(record()).encode() + b'{"note": "caf\xe9"}\n' + jsonl(record(run_id="run-b")).encode()
    )
    parsed = parse_ratings(data, ALICE)
    assert [(d.code, d.line, d.column) for d in parsed.diagnostics] == [("invalid-utf8", 2, 14)]
    assert [p.rating.run_id for p in parsed.lines] == ["run-a", "run-b"]


def test_a_utf16_file_is_refused_whole():
    parsed = parse_ratings(
        "\ufeff".encode("utf-16-le") + jsonl(record()).encode("utf-16-le"), ALICE
    )
    assert [d.code for d in parsed.diagnostics] == ["not-utf8"]
    assert not parsed.readable


def test_a_file_over_the_size_limit_is_not_readable(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            "voyage.toml": "[limits]\nmax_file_bytes = 200\n",
            ALICE: jsonl(record(), record(run_id="run-b")),
        }
    )
    store = store_of(root)
    [checked] = store.files.values()
    assert not checked.readable
    assert [d.code for d in checked.diagnostics] == ["file-too-large"]


# --- writing ------------------------------------------------------------------------------------


def test_append_writes_one_line_and_fsyncs_it(make_workspace, monkeypatch):
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    append_rating(load_ws(root), rating(run_id="run-b"))
    # the file's data; its name is on disk already (a new file's folder is flushed when made:
    # tests/ratings/test_append_batch.py)
    assert len(synced) == 1, "the file is flushed to disk"
    lines = (root / ALICE).read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["run_id"] == "run-b"


def test_append_makes_the_ratings_folder(make_workspace):
    root = make_workspace(workspace_files())
    append_rating(load_ws(root), rating())
    assert json.loads((root / ALICE).read_text())["rater"] == "alice"


def test_append_refuses_a_ratings_folder_symlinked_out_of_the_workspace(make_workspace, tmp_path):
    root = make_workspace(workspace_files())
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "ratings").symlink_to(outside, target_is_directory=True)
    with pytest.raises(WriteRefused):
        append_rating(load_ws(root), rating())
    assert list(outside.iterdir()) == []


def test_append_refuses_a_ratings_file_symlinked_out_of_the_workspace(make_workspace, tmp_path):
    root = make_workspace(workspace_files())
    target = tmp_path / "elsewhere.jsonl"
    target.write_text("")
    (root / "ratings").mkdir()
    (root / ALICE).symlink_to(target)
    with pytest.raises(WriteRefused):
        append_rating(load_ws(root), rating())
    assert target.read_text() == ""


def test_a_ratings_folder_symlinked_out_is_not_read(make_workspace, tmp_path):
    root = make_workspace(workspace_files())
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "alice.jsonl").write_text(jsonl(record()))
    (root / "ratings").symlink_to(outside, target_is_directory=True)
    store = store_of(root)
    assert [d.code for d in store.diagnostics()] == ["symlink-outside-workspace"]
    assert store.effective() == {}


_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)


@settings(max_examples=examples(200), deadline=None)
@given(
    note=_text,
    fixture_id=_text.filter(lambda s: s.strip() != ""),
    duration=st.none() | st.floats(min_value=0, max_value=1e9, allow_nan=False),
    retracted=st.booleans(),
)
def test_a_record_reads_back_as_it_was_written(note, fixture_id, duration, retracted):
    written = Rating(
        fixture_id=fixture_id,
        run_id="run-a",
        rater="alice",
        scores=None if retracted else {"correctness": 3},
        rated_at="2026-11-20T14:03:11Z",
        blind=False,
        note=note,
        duration_s=duration,
        path=ALICE,
        line=1,
    )
    parsed = parse_ratings(written.to_line().encode("utf-8") + b"\n", ALICE)
    assert parsed.diagnostics == []
    [line] = parsed.lines
    assert line.rating == written


_VARIANTS = [
    {},
    {"scores": None},
    {"note": "x", "duration_s": 3},
    *({"drop": name} for name in ("fixture_id", "run_id", "rater", "scores", "rated_at", "blind")),
    {"fixture_id": 3},
    {"fixture_id": ""},
    {"scores": {"correctness": "4"}},
    {"scores": {"correctness": 4.0}},
    {"scores": {"correctness": True}},
    {"scores": [4]},
    {"note": None},
    {"blind": "yes"},
    {"rated_at": 20261120},
    {"duration_s": -1},
    {"duration_s": "3"},
]


@pytest.mark.parametrize("change", _VARIANTS)
def test_what_the_schema_model_refuses_the_checks_refuse(change):
    from pydantic import ValidationError

    from voyage_tui.engine.formats.rating import RatingRecord

    data = record()
    for name, value in change.items():
        if name == "drop":
            del data[value]
        else:
            data[name] = value
    try:
        RatingRecord.model_validate(data)
        model_ok = True
    except ValidationError:
        model_ok = False
    parsed = parse_ratings((json.dumps(data) + "\n").encode(), ALICE)
    checks_ok = not any(d.severity.value == "error" for d in parsed.diagnostics)
    assert model_ok or not checks_ok, (change, parsed.diagnostics)
    if change in ({}, {"scores": None}, {"note": "x", "duration_s": 3}):
        assert model_ok and checks_ok


# --- after a failed append ----------------------------------------------------------------------


def _fail_after_writing(part: int | None, monkeypatch) -> None:
    """The next append writes the first `part` bytes of its line (all of them with None, then
    the fsync fails), then fails as a full disk does."""
    from voyage_tui.engine.ratings import store as store_module

    def failing(ws, rel, lines, *, shown=None):
        data = "".join(line.rstrip("\n") + "\n" for line in lines).encode()
        with open(ws.abs(rel), "ab") as handle:
            handle.write(data if part is None else data[:part])
        monkeypatch.setattr(store_module, "append_lines", real)
        raise OSError(28, "No space left on device")

    real = store_module.append_lines
    monkeypatch.setattr(store_module, "append_lines", failing)


@pytest.mark.parametrize("part", [0, 1, 30, None], ids=["nothing", "newline", "part", "all"])
def test_after_a_failed_append_the_next_record_is_counted_at_its_real_line(
    make_workspace, monkeypatch, part
):
    """A full disk may take part of a line, or all of it before the fsync fails: the next
    record's line number is the one it has in the file, however much of the failed one landed."""
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    store = store_of(root)
    ws = load_ws(root)
    _fail_after_writing(part, monkeypatch)
    with pytest.raises(OSError, match="No space"):
        store.append(ws, rating(run_id="run-b"))
    stored = store.append(ws, rating(fixture_id="t2"))
    lines = (root / ALICE).read_text().split("\n")
    assert json.loads(lines[stored.line - 1])["fixture_id"] == "t2"
    assert store.of_rater("alice")[("t2", "run-a")].line == stored.line
    assert store_of(root).of_rater("alice")[("t2", "run-a")].line == stored.line
