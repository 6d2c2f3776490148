"""The JSON-lines stream (engine/loading/line_stream.py) gives a file's lines as the in-memory
reader gives its bytes' (the editor's buffer): the same numbers, bytes, lengths, last newline,
and the same line bound, whatever the read blocks cut through; and it stops on a file that
grows past its bound while it is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from voyage_tui.engine.loading import line_stream
from voyage_tui.engine.loading.line_stream import BufferLines, LineStream, open_lines

pieces = st.lists(
    st.sampled_from([b"\n", b"\r\n", b"{", b"}", b"abc", b"\xef\xbb\xbf", b"\x00" * 9, b"x" * 13]),
    max_size=30,
).map(b"".join)


def _lines(source: BufferLines | LineStream) -> list[tuple[int, bytes | None, int]]:
    return [(line.number, line.data, line.length) for line in source]


def _stream(path: Path, max_line: int) -> LineStream:
    opened = open_lines(
        str(path), "f.jsonl", root_real=str(path.parent), max_bytes=1 << 20, max_line=max_line
    )
    assert isinstance(opened, LineStream)
    return opened


@settings(max_examples=examples(200), deadline=None)
@given(data=pieces, max_line=st.integers(0, 20), block=st.integers(1, 9))
def test_the_stream_gives_what_the_buffer_gives(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, max_line: int, block: int
) -> None:
    path = tmp_path_factory.mktemp("lines") / "f.jsonl"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_stream, "_CHUNK", block)
        stream = _stream(path, max_line)
        got = _lines(stream)
    buffer = BufferLines(data, max_line)
    assert got == _lines(buffer)
    assert (stream.line_count, stream.ends_with_newline) == (
        buffer.line_count,
        buffer.ends_with_newline,
    )
    assert stream.head == buffer.head and stream.problem is None


def test_a_line_over_the_bound_is_not_kept_and_its_length_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"ok\n" + b"y" * 100 + b"\nlast")
    lines = _lines(_stream(path, 10))
    assert lines == [(1, b"ok", 2), (2, None, 100), (3, b"last", 4)]


def test_a_file_that_grows_past_its_bound_while_read_stops_with_a_diagnostic(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"a\n" * 10)
    opened = open_lines(str(path), "f.jsonl", root_real=str(tmp_path), max_bytes=30)
    assert isinstance(opened, LineStream)
    with open(path, "ab") as handle:  # grown after the size was looked at
        handle.write(b"b\n" * 100)
    lines = list(opened)
    assert opened.problem is not None and opened.problem.code == "file-too-large"
    assert len(lines) < 110
