"""Hostile Inspect AI archives (`.eval`): each limit of engine/importing/archive.py refuses the
log with a clear message, exit 2 and nothing written (docs/trust.md, "Imported logs")."""

from __future__ import annotations

import json
import stat
import struct
import zlib
from pathlib import Path

import pytest
import zstandard

from tests.conftest import MakeWorkspace
from tests.importing.common import DATA, runs, workspace
from voyage_tui.cli import main
from voyage_tui.engine.importing import inspect as inspect_log
from voyage_tui.engine.importing.archive import Limits

HEADER = json.dumps({"version": 2, "status": "success", "eval": {"task": "x", "model": "m"}})
SAMPLE = json.dumps({"id": "t1", "epoch": 1, "output": {"completion": "hi"}, "messages": []})


def _entry(
    name: str, data: bytes, *, method: int = 93, declared: int | None = None, mode: int = 0o100644
) -> tuple[str, bytes, int, int, int, int]:
    if method == 93:
        packed = zstandard.ZstdCompressor().compress(data)
    elif method == 8:
        deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = deflater.compress(data) + deflater.flush()
    else:
        packed = data
    return (
        name,
        packed,
        method,
        len(data) if declared is None else declared,
        zlib.crc32(data),
        mode,
    )


def write_zip(path: Path, entries: list[tuple[str, bytes, int, int, int, int]]) -> Path:
    """A zip written by hand, so a test can declare any size, method, name or mode."""
    body = b""
    central = b""
    for name, packed, method, size, crc, mode in entries:
        raw = name.encode()
        offset = len(body)
        body += struct.pack(
            "<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, method, 0, 0, crc, len(packed), size, len(raw), 0
        )
        body += raw + packed
        central += struct.pack(
            "<4sHHHHHHIIIHHHHHII",
            b"PK\x01\x02",
            0x0314,
            20,
            0,
            method,
            0,
            0,
            crc,
            len(packed),
            size,
            len(raw),
            0,
            0,
            0,
            0,
            mode << 16,
            offset,
        )
        central += raw
    end = struct.pack(
        "<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(central), len(body), 0
    )
    path.write_bytes(body + central + end)
    return path


def _refused(root: Path, log: Path, capsys: pytest.CaptureFixture[str], words: str) -> None:
    assert main(["import", "inspect", str(log), str(root)]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "nothing written" in err
    assert runs(root) == {}


@pytest.fixture
def root(make_workspace: MakeWorkspace) -> Path:
    return workspace(make_workspace)


def _good(name: str = "samples/t1_epoch_1.json") -> list[tuple[str, bytes, int, int, int, int]]:
    return [_entry("header.json", HEADER.encode()), _entry(name, SAMPLE.encode())]


def test_a_hand_made_archive_imports(root: Path, tmp_path: Path) -> None:
    # the helper's archives are readable when nothing is wrong with them, so the refusals
    # below are the limits' doing
    log = write_zip(tmp_path / "ok.eval", _good())
    assert main(["import", "inspect", str(log), str(root)]) == 0
    assert list(runs(root)) == ["inspect-ok-t1-e1"]


def test_a_zip_bomb_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # declares 100 bytes, unpacks to more than the 64 MiB cap: the stream stops at the cap
    bomb = b"\0" * (Limits().max_member_bytes + 1)
    log = write_zip(
        tmp_path / "bomb.eval", [*_good(), _entry("samples/t2_epoch_1.json", bomb, declared=100)]
    )
    _refused(root, log, capsys, "unpacks to more than the 100 bytes it declares")


def test_a_member_declaring_more_than_the_cap_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = Limits().max_member_bytes + 1
    log = write_zip(
        tmp_path / "big.eval",
        [*_good(), _entry("samples/t2_epoch_1.json", SAMPLE.encode(), declared=big)],
    )
    _refused(root, log, capsys, f"declares {big} bytes")


def test_a_member_that_unpacks_short_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_zip(
        tmp_path / "short.eval",
        [*_good(), _entry("samples/t2_epoch_1.json", SAMPLE.encode(), declared=5000)],
    )
    _refused(root, log, capsys, "unpacks to fewer than the 5000 bytes")


def test_too_many_members_are_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inspect_log, "Limits", lambda: Limits(max_members=3))
    entries = [*_good(), *(_entry(f"samples/s{i}_epoch_1.json", SAMPLE.encode()) for i in range(3))]
    log = write_zip(tmp_path / "many.eval", entries)
    _refused(root, log, capsys, "5 members, more than the 3 allowed")


def test_too_much_in_all_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inspect_log, "Limits", lambda: Limits(max_total_bytes=len(HEADER) + 10))
    log = write_zip(tmp_path / "total.eval", _good())
    _refused(root, log, capsys, "in all")


@pytest.mark.parametrize("name", ["../escape.json", "/etc/passwd", "samples/../../x.json"])
def test_an_unsafe_member_path_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    log = write_zip(tmp_path / "path.eval", [*_good(), _entry(name, b"{}")])
    _refused(root, log, capsys, "has an unsafe path")


def test_a_symlink_member_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = _entry("samples/t2_epoch_1.json", b"/etc/passwd", method=0, mode=stat.S_IFLNK | 0o777)
    log = write_zip(tmp_path / "link.eval", [*_good(), link])
    _refused(root, log, capsys, "is a symlink")


def test_a_truncated_archive_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = (DATA / "demo.eval").read_bytes()
    log = tmp_path / "cut.eval"
    log.write_bytes(whole[: len(whole) // 2])
    _refused(root, log, capsys, "not a readable zip archive")


def test_a_member_cut_short_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packed = _good()[1][1]
    log = write_zip(tmp_path / "cut.eval", _good())
    data = bytearray(log.read_bytes())
    # the sample's compressed size in its central entry says 100,000 more bytes than there are
    at = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 4)
    struct.pack_into("<I", data, at + 20, len(packed) + 100_000)
    log.write_bytes(bytes(data))
    _refused(root, log, capsys, "truncated")


def test_corrupt_zstd_data_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, _packed, method, size, crc, mode = _entry("samples/t2_epoch_1.json", SAMPLE.encode())
    broken = (name, b"\x28\xb5\x2f\xfd" + b"\xff" * 40, method, size, crc, mode)
    log = write_zip(tmp_path / "zstd.eval", [*_good(), broken])
    _refused(root, log, capsys, "corrupt zstd data")


def test_an_unknown_compression_method_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_zip(tmp_path / "bz.eval", [*_good(), _entry("samples/x.json", b"{}", method=12)])
    _refused(root, log, capsys, "compression method 12")


def test_a_deflated_member_is_read(root: Path, tmp_path: Path) -> None:
    entries = [
        _entry("header.json", HEADER.encode(), method=8),
        _entry("samples/t1_epoch_1.json", SAMPLE.encode(), method=8),
    ]
    log = write_zip(tmp_path / "deflate.eval", entries)
    assert main(["import", "inspect", str(log), str(root)]) == 0
    assert runs(root)["inspect-deflate-t1-e1"]["output"] == "hi"


def test_a_fifo_is_refused_without_blocking(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    fifo = tmp_path / "pipe.eval"
    os.mkfifo(fifo)
    _refused(root, fifo, capsys, "not a regular file")


def test_a_planted_link_at_a_run_is_refused_and_its_target_kept(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    log = write_zip(tmp_path / "ok.eval", _good())
    runs_dir = root / "fixtures" / "bug-diagnosis" / "t1" / "runs"
    runs_dir.mkdir()
    target = root / "voyage.toml"
    before = target.read_bytes()
    os.symlink("../../../../voyage.toml", runs_dir / "inspect-ok-t1-e1.yaml")
    assert main(["import", "inspect", str(log), str(root)]) == 2
    assert "symlink" in capsys.readouterr().err
    assert target.read_bytes() == before
    assert (runs_dir / "inspect-ok-t1-e1.yaml").is_symlink()
