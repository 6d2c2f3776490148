"""`voyage-tui validate`'s cache as an attacker (or a crash) leaves it: whatever is found at the
cache's name (a pickle, random or truncated bytes, msgpack of the wrong shape, a file or folder of
someone else, a symlink) is never trusted and never a crash: the run checks the files, prints
what a run without the cache prints, exits the same way, and writes a good cache again."""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from tests.sample import copy_sample_into
from voyage_tui.cli import main
from voyage_tui.engine.validation import cache_store, result_cache
from voyage_tui.engine.validation.cache import cache_file_name, read_cache_file, seal, unseal
from voyage_tui.engine.validation.cache_store import cache_root

TASK = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"


def _with_an_error(root: Path) -> Path:
    root.mkdir()
    copy_sample_into(root)
    task = root / TASK
    task.write_text(task.read_text().replace("visibility: public", "visibility: pub"))
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The sample with an error, so the exit code (1) says something."""
    return _with_an_error(tmp_path / "ws")


def _stamps(root: Path) -> dict[str, tuple[int, int, int, int]]:
    found = {}
    for folder, _, files in os.walk(root):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            found[os.path.join(folder, name)] = (
                st.st_mtime_ns,
                st.st_ctime_ns,
                st.st_size,
                st.st_ino,
            )
    return found


@pytest.fixture(scope="module")
def _pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """`root`'s workspace and the cache a first run writes for it (in a cache home of its own),
    made once for the tests below that only plant a cache: a cache is only good for the files
    it was written for (their inodes and ctimes too), so a copy of the workspace would not do.
    Copying the sample and the first run were a third of each such test's CPU."""
    root = _with_an_error(tmp_path_factory.mktemp("pristine") / "ws")
    with pytest.MonkeyPatch.context() as patched, contextlib.redirect_stdout(io.StringIO()):
        patched.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("pristine-cache-home")))
        assert main(["validate", str(root), "--no-git", "--format", "json"]) == 1
        good = _cache_path(root).read_bytes()
    return root, good


@pytest.fixture
def shared_root(_pristine: tuple[Path, bytes]) -> Iterator[Path]:
    """The module's one workspace, for a test that plants a cache in its own (empty) cache home
    and never changes a file; checked after each test, so one that did fails there."""
    root = _pristine[0]
    before = _stamps(root)
    yield root
    assert _stamps(root) == before, "a test changed the shared workspace"


@pytest.fixture
def good(_pristine: tuple[Path, bytes]) -> bytes:
    """The cache a first run writes for `shared_root`."""
    return _pristine[1]


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    seen: list[bool] = []
    real = result_cache.replay

    def recording(root: Path, *rest: Any) -> result_cache.ValidationResult | None:
        answer = real(root, *rest)
        seen.append(answer is not None)
        return answer

    monkeypatch.setattr(result_cache, "replay", recording)
    return seen


def _run(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["validate", str(root), "--no-git", "--format", "json", *extra])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


def _cache_path(root: Path) -> Path:
    return cache_root() / cache_file_name(os.path.realpath(root))


def _plant(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    if path.is_symlink() or path.exists():
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, data)
    os.close(fd)


def _good_cache(root: Path, capsys: pytest.CaptureFixture[str]) -> bytes:
    _run(root, capsys)
    return _cache_path(root).read_bytes()


def _assert_checked_and_rebuilt(
    root: Path, capsys: pytest.CaptureFixture[str], replays: list[bool]
) -> None:
    """The planted cache was not used, the answer is the cold one, and a good cache is back."""
    before = len(replays)
    first = _run(root, capsys)
    assert replays[before:] == [False], "the planted cache was replayed"
    cold = _run(root, capsys, "--no-cache")  # (which writes the cache again too)
    assert cold[0] == 1
    assert first == cold
    assert _run(root, capsys) == cold
    assert replays[-1], "the cache was not rebuilt"
    st = os.lstat(_cache_path(root))
    assert stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()
    assert stat.S_IMODE(st.st_mode) == 0o600


class Planted:
    """Unpickling this writes `marker`: proof that a planted pickle ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.write_text, (self.marker, "pwned"))


def test_a_planted_pickle_never_runs(shared_root: Path, tmp_path: Path, capsys, replays) -> None:
    root = shared_root
    marker = tmp_path / "pwned"
    _plant(_cache_path(root), pickle.dumps(Planted(marker)))
    _assert_checked_and_rebuilt(root, capsys, replays)
    assert not marker.exists(), "the planted pickle ran"


@pytest.mark.parametrize("size", [0, 1, 17, 4096, 1 << 20])
def test_random_bytes_are_ignored(shared_root: Path, capsys, replays, size: int) -> None:
    root = shared_root
    _plant(_cache_path(root), os.urandom(size))
    _assert_checked_and_rebuilt(root, capsys, replays)


@pytest.mark.parametrize("keep", [0.0, 0.1, 0.5, 0.9, 0.999])
def test_a_truncated_cache_is_ignored(
    shared_root: Path, good: bytes, capsys, replays, keep: float
) -> None:
    root = shared_root
    _plant(_cache_path(root), good[: int(len(good) * keep)])
    _assert_checked_and_rebuilt(root, capsys, replays)


@pytest.mark.parametrize("where", [0.3, 0.6, 0.95])
def test_a_cache_torn_by_a_crash_is_ignored(
    shared_root: Path, good: bytes, capsys, replays, where: float
) -> None:
    """The cache is written without fsync: a crash may leave a block of zeros where a string's
    bytes were, and msgpack alone would read that as a different, well-formed string."""
    root = shared_root
    torn = bytearray(good)
    at = int(len(torn) * where)
    torn[at : at + 16] = bytes(16)
    _plant(_cache_path(root), bytes(torn))
    _assert_checked_and_rebuilt(root, capsys, replays)


# --- valid msgpack, wrong shape: every part of a good cache damaged in turn ---------------------


def _top(good: bytes) -> list[Any]:
    """The file's parts in one list: the head's, with the packed details at index 4."""
    parts = unseal(good)
    assert parts is not None
    head = msgpack.unpackb(parts[0], raw=False, strict_map_key=False)
    return [*head[:4], bytes(parts[1]), *head[4:]]


def _repacked(top: list[Any]) -> bytes:
    """A damaged cache that passes the seals: what the type checks must refuse on their own."""
    return seal(msgpack.packb([*top[:4], *top[5:]]), top[4] if len(top) > 4 else b"")


# The file: a head [MAGIC, FORMAT, key, summaries, [references, max_bytes], listing] and the
# packed details, each sealed; _top gives [MAGIC, FORMAT, key, summaries, packed details,
# [references, max_bytes], listing].


def _listing(damage: Callable[[dict[str, Any]], None]) -> Callable[[list[Any]], None]:
    def apply(top: list[Any]) -> None:
        damage(top[6])

    return apply


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def damage(listing: dict[str, Any]) -> None:
        listing[key] = value

    return damage


def _summary(field: int, value: Any) -> Callable[[list[Any]], None]:
    """Field `field` of the summary of a fixture that has a diagnostic."""

    def apply(top: list[Any]) -> None:
        top[3][TASK][field] = value

    return apply


def _diagnostic(field: int, value: Any) -> Callable[[list[Any]], None]:
    def apply(top: list[Any]) -> None:
        top[3][TASK][9][0][field] = value

    return apply


def _renamed(new: str) -> Callable[[list[Any]], None]:
    """A file renamed in the summaries and the listing alike: consistent, and hostile."""

    def apply(top: list[Any]) -> None:
        top[3][new] = top[3].pop(TASK)
        files = top[6]["files"]
        files[files.index(TASK)] = new

    return apply


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


DAMAGES: dict[str, Callable[[list[Any]], None]] = {
    "top-is-a-map": lambda top: top.__setitem__(slice(None), [{"a": 1}]),
    "top-too-short": lambda top: top.pop(),
    "format-is-a-string": lambda top: top.__setitem__(1, "3"),
    "key-is-a-list": lambda top: top.__setitem__(2, [top[2]]),
    "summaries-a-list": lambda top: top.__setitem__(3, [1, 2]),
    "references-not-strings": lambda top: top.__setitem__(5, [[1, 2], 0]),
    "max-bytes-a-string": lambda top: top.__setitem__(5, [top[5][0], "big"]),
    "listing-a-list": lambda top: top.__setitem__(6, [1, 2, 3]),
    "listing-format": _listing(_set("format", 99)),
    "listing-no-files": _listing(lambda listing: listing.pop("files")),
    "files-a-number": _listing(_set("files", 7)),
    "files-a-map": _listing(_set("files", {"a": 1})),
    "files-hold-a-number": _listing(lambda listing: listing["files"].append(12)),
    "others-not-pairs": _listing(_set("others", [[1, 2, 3]])),
    "folders-not-pairs": _listing(_set("folders", [[1, 2, 3]])),
    "folder-path-a-number": _listing(lambda listing: listing["folders"][0].__setitem__(0, 5)),
    "ratings-a-string": _listing(_set("ratings", "none")),
    "workspace-diagnostics-no-path": _listing(
        _set("workspace", [[None, None, None, "error", "x", "y"]])
    ),
    "suite-diagnostics-a-map": _listing(_set("suite", {"a": 1})),
    "coverage-a-list": _listing(_set("coverage", [1])),
    "coverage-counts-strings": _listing(_set("coverage", {"classes": {"a": "1"}})),
    "deep-nesting": _listing(_set("layout", _nested(500))),
    "summary-short": lambda top: top[3].__setitem__(TASK, ["x"]),
    "summary-a-string": lambda top: top[3].__setitem__(TASK, "x"),
    "summary-path-a-number": _summary(2, 12),
    "summary-stamp-a-string": _summary(0, "stamp"),
    "summary-deps-a-string": _summary(1, "deps"),
    "diagnostics-a-map": _summary(9, {"a": 1}),
    "diagnostic-severity": _diagnostic(3, "fatal"),
    "diagnostic-line-a-string": _diagnostic(1, "12"),
    "diagnostic-short": _summary(9, [[None, 1]]),
    "path-with-nul": _renamed("fixtures/a\0b/task.yaml"),
    "path-absolute": _renamed("/etc/passwd"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_cache_of_the_wrong_shape_is_ignored(
    shared_root: Path, good: bytes, capsys, replays, damage: str
) -> None:
    root = shared_root
    top = _top(good)
    DAMAGES[damage](top)
    _plant(_cache_path(root), _repacked(top))
    _assert_checked_and_rebuilt(root, capsys, replays)


ITEM_DAMAGES: dict[str, Callable[[list[Any]], None]] = {
    "id-a-number": _summary(4, 5),
    "kind-a-list": _summary(3, ["task"]),
    "position-of-strings": _summary(8, ["a", "b"]),
    "position-too-long": _summary(8, [1, 2, 3]),
    "deps-not-pairs": _summary(1, [["a"]]),
    "details-short": lambda top: top.__setitem__(
        4, msgpack.packb({**msgpack.unpackb(top[4]), TASK: ["prompt"]})
    ),
}
"""Damage to what only a reader of whole items reads (a replay does not): seen when another
file changed and the items are taken from the cache."""


@pytest.mark.parametrize("damage", sorted(ITEM_DAMAGES))
def test_a_damaged_item_is_checked_again(root: Path, capsys, replays, damage: str) -> None:
    top = _top(_good_cache(root, capsys))
    ITEM_DAMAGES[damage](top)
    _plant(_cache_path(root), _repacked(top))
    other = root / "fixtures/bug-diagnosis/webhook-signature-mismatch/task.yaml"
    other.write_text(other.read_text() + "# edited\n")
    _assert_checked_and_rebuilt(root, capsys, replays)


@pytest.mark.parametrize(
    "details",
    [b"", b"\xc1\xc1\xc1", msgpack.packb([1, 2]), msgpack.packb({"x": 1}), b"\x91" * 100_000],
)
def test_damaged_details_are_never_used(root: Path, capsys, replays, details: bytes) -> None:
    """The items' details are packed apart and read only when a file changed: then the damage
    shows, and every file is checked again."""
    top = _top(_good_cache(root, capsys))
    top[4] = details
    _plant(_cache_path(root), _repacked(top))
    (root / TASK).write_text((root / TASK).read_text() + "# edited\n")
    _assert_checked_and_rebuilt(root, capsys, replays)


def test_a_cache_of_another_workspace_is_ignored(root: Path, tmp_path: Path, capsys, replays):
    other = tmp_path / "other"
    shutil.copytree(root, other)
    (other / TASK).write_text((other / TASK).read_text().replace("visibility: pub", "public"))
    _plant(_cache_path(root), _good_cache(other, capsys))
    _assert_checked_and_rebuilt(root, capsys, replays)


def test_a_cache_of_an_older_voyage_tui_is_ignored(
    shared_root: Path, good: bytes, capsys, replays
) -> None:
    root = shared_root
    top = _top(good)
    top[1] -= 1
    _plant(_cache_path(root), _repacked(top))
    _assert_checked_and_rebuilt(root, capsys, replays)


# --- whose file, reached how ----------------------------------------------------------------------


def test_a_cache_file_of_another_user_is_ignored(
    root: Path, capsys, replays, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner check, made deterministic (CI runs as root, who could read it anyway): every
    regular file the cache code opens reports another user's uid, the folder stays ours."""
    _good_cache(root, capsys)
    real_fstat = os.fstat

    def someone_elses(fd: int) -> os.stat_result:
        st = real_fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return st
        fields = list(st[:10])
        fields[4] = st.st_uid + 4242  # st_uid
        return os.stat_result(fields)

    cold = _run(root, capsys, "--no-cache")
    before = len(replays)
    with monkeypatch.context() as patched:
        patched.setattr(cache_store.os, "fstat", someone_elses)
        assert _run(root, capsys) == cold
    assert replays[before:] == [False], "a file of another user was trusted"
    assert _run(root, capsys) == cold
    assert replays[-1], "the cache was not rebuilt"


def test_a_cache_folder_of_another_user_is_not_used(
    root: Path, capsys, replays, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = _good_cache(root, capsys)
    monkeypatch.setattr(cache_store.os, "geteuid", lambda: os.getuid() + 4242)
    cold = _run(root, capsys, "--no-cache")
    before = len(replays)
    assert _run(root, capsys) == cold
    assert replays[before:] == [False]
    assert _cache_path(root).read_bytes() == good, "written into a folder of another user"


def test_a_symlink_at_the_cache_name_is_ignored_and_replaced(
    root: Path, tmp_path: Path, capsys, replays
) -> None:
    good = _good_cache(root, capsys)
    elsewhere = tmp_path / "elsewhere.msgpack"
    elsewhere.write_bytes(good)  # a valid cache of this very workspace, one link away
    path = _cache_path(root)
    path.unlink()
    os.symlink(elsewhere, path)
    _assert_checked_and_rebuilt(root, capsys, replays)
    assert elsewhere.read_bytes() == good, "written through the symlink"


def test_a_symlink_in_place_of_the_cache_folder_is_not_used(
    root: Path, tmp_path: Path, capsys, replays
) -> None:
    _good_cache(root, capsys)
    folder = cache_root()
    real = tmp_path / "real-folder"
    os.rename(folder, real)
    os.symlink(real, folder, target_is_directory=True)
    kept = {p.name: p.read_bytes() for p in real.iterdir()}
    cold = _run(root, capsys, "--no-cache")
    before = len(replays)
    assert _run(root, capsys) == cold
    assert _run(root, capsys) == cold
    assert replays[before:] == [False, False], "a cache reached through a symlink was used"
    assert {p.name: p.read_bytes() for p in real.iterdir()} == kept, "written through it"


HOSTILE_REFERENCES = textwrap.dedent(
    """\
    import sys
    from voyage_tui.cli import main
    sys.exit(main(["validate", sys.argv[1], "--no-git", "--format", "json"]))
    """
)


def test_hostile_reference_paths_in_the_cache_never_block(root: Path, capsys) -> None:
    """The key is recomputed from the paths the cache file names before it is compared: a FIFO
    or an endless device named there is never opened (run in a child with a timeout)."""
    top = _top(_good_cache(root, capsys))
    os.mkfifo(root / "fifo.md")
    top[5] = [["fifo.md", "/dev/zero", "../../../../../../dev/zero", "fixtures"], 1 << 40]
    _plant(_cache_path(root), _repacked(top))
    cold = _run(root, capsys, "--no-cache")
    proc = subprocess.run(
        [sys.executable, "-c", HOSTILE_REFERENCES, str(root)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == cold, proc.stderr
    assert read_cache_file(_cache_path(root).read_bytes()) is not None
