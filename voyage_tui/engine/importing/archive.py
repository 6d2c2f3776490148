"""Bounded reads of a zip archive whose members may be zstd-compressed (Inspect AI's `.eval`).

Python 3.11's zipfile lists such an archive (its central directory) but cannot open a member
compressed with zstd (method 93), so the member's bytes are read here from its local header and
decompressed with `zstandard`'s streaming decompressor, never asked for more than the cap. An
archive comes from anyone (docs/trust.md): its member count, each member's declared and actual
size and the total are capped, and a name with `..`, an absolute name or a symlink member is
refused; each refusal is an ArchiveRefused naming the member.
"""

from __future__ import annotations

import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import BinaryIO

from voyage_tui.engine.wording import plural

STORED = 0
DEFLATED = 8
ZSTD = 93
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_MAGIC = b"PK\x03\x04"

_CHUNK = 1 << 16


@dataclass(frozen=True)
class Limits:
    """What one archive may hold. The defaults fit a log of 100,000 samples of 64 MiB each, but
    not more than 4 GiB unpacked in all."""

    max_members: int = 200_000
    max_member_bytes: int = 64 << 20
    max_total_bytes: int = 4 << 30
    max_source_bytes: int = 4 << 30


class ArchiveRefused(Exception):
    """The archive breaks a limit or is malformed; nothing from it is used."""


@dataclass(frozen=True)
class Member:
    name: str
    size: int
    compressed: int
    method: int
    offset: int


class Archive:
    """An open archive: its checked member list, and bounded reads of each member."""

    def __init__(self, handle: BinaryIO, label: str, limits: Limits) -> None:
        self._handle = handle
        self._label = label
        self._limits = limits
        self._total = 0
        self.members: dict[str, Member] = _members(handle, label, limits)

    def read(self, name: str) -> bytes:
        """The member's bytes, at most its declared size (itself capped)."""
        member = self.members[name]
        data = _read_member(self._handle, member, self._label, self._limits)
        self._total += len(data)
        if self._total > self._limits.max_total_bytes:
            raise ArchiveRefused(
                f"{self._label}: more than {self._limits.max_total_bytes} bytes unpacked in all"
            )
        return data


def _members(handle: BinaryIO, label: str, limits: Limits) -> dict[str, Member]:
    try:
        zf = zipfile.ZipFile(handle)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveRefused(f"{label}: not a readable zip archive ({exc})") from None
    infos = zf.infolist()
    if len(infos) > limits.max_members:
        raise ArchiveRefused(
            f"{label}: {plural(len(infos), 'member')}, more than the {limits.max_members:,} allowed"
        )
    out: dict[str, Member] = {}
    declared = 0
    for info in infos:
        name = info.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise ArchiveRefused(f"{label}: member {name!r} has an unsafe path")
        if stat.S_ISLNK(info.external_attr >> 16):
            raise ArchiveRefused(f"{label}: member {name!r} is a symlink")
        if info.file_size > limits.max_member_bytes:
            raise ArchiveRefused(
                f"{label}: member {name!r} declares {info.file_size} bytes, more than the "
                f"{limits.max_member_bytes} allowed"
            )
        declared += info.file_size
        if declared > limits.max_total_bytes:
            raise ArchiveRefused(
                f"{label}: members declare more than {limits.max_total_bytes} bytes in all"
            )
        if info.compress_type not in (STORED, DEFLATED, ZSTD):
            raise ArchiveRefused(
                f"{label}: member {name!r} uses compression method {info.compress_type}, "
                "not stored, deflate or zstd"
            )
        out[name] = Member(
            name, info.file_size, info.compress_size, info.compress_type, info.header_offset
        )
    return out


def _read_member(handle: BinaryIO, member: Member, label: str, limits: Limits) -> bytes:
    where = f"{label}: member {member.name!r}"
    handle.seek(member.offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) < _LOCAL_HEADER.size:
        raise ArchiveRefused(f"{where}: the archive is truncated")
    fields = _LOCAL_HEADER.unpack(header)
    if fields[0] != _LOCAL_MAGIC:
        raise ArchiveRefused(f"{where}: no local header where the directory says")
    handle.seek(fields[9] + fields[10], 1)
    raw = handle.read(member.compressed)
    if len(raw) < member.compressed:
        raise ArchiveRefused(f"{where}: the archive is truncated")
    cap = min(member.size, limits.max_member_bytes)
    if member.method == STORED:
        data = raw
    elif member.method == DEFLATED:
        inflater = zlib.decompressobj(-15)
        try:
            data = inflater.decompress(raw, cap + 1)
        except zlib.error as exc:
            raise ArchiveRefused(f"{where}: corrupt deflate data ({exc})") from None
    else:
        data = _unzstd(raw, cap, where)
    if len(data) != member.size:
        raise ArchiveRefused(
            f"{where}: unpacks to more than the {member.size} bytes it declares"
            if len(data) > member.size
            else f"{where}: unpacks to fewer than the {member.size} bytes it declares"
        )
    return data


def _unzstd(raw: bytes, cap: int, where: str) -> bytes:
    import zstandard

    # A streaming decompressor: a frame that claims (or hides) a huge content size is never
    # given more than cap + 1 bytes of output.
    reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    chunks: list[bytes] = []
    got = 0
    try:
        while got <= cap:
            chunk = reader.read(min(_CHUNK, cap + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except zstandard.ZstdError as exc:
        raise ArchiveRefused(f"{where}: corrupt zstd data ({exc})") from None
    return b"".join(chunks)
