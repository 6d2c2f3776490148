"""The app's item cache as an attacker sees it: a file at a predictable name in the user's cache
dir. Nothing found there may run code, be read through a symlink or from someone else, or be
written through a symlink; a cache that cannot be trusted is ignored and the load goes on.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine.validation import cache as cache_module
from voyage_tui.engine.validation import cache_store
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

T1 = "fixtures/bug-diagnosis/t1/task.yaml"
ALL = 3  # t1 and the two coverage fixtures
OTHER_UID = 4242


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture
def root(make_workspace, cache_home: Path) -> Path:
    return make_workspace({T1: task_yaml("t1")})


def _load(root: Path) -> tuple[Suite, set[str]]:
    """A cached load, like the app's; returns the suite and the files it had to check."""
    suite = Suite(Workspace.load(root), use_git=False)
    prepared = suite.prepare(fork=False, cache=True)
    checked = {rel for _, rel in prepared.tasks.work}
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    return suite, checked


def _cache_of(root: Path) -> ItemCache:
    ws = Workspace.load(root)
    return ItemCache(ws)


def _codes(suite: Suite, rel: str) -> set[str]:
    return {d.code for d in suite.diagnostics() if d.path == rel}


def _as_someone_else(path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root (CI runs as root)")
    os.chown(path, OTHER_UID, OTHER_UID, follow_symlinks=False)


class Planted:
    """Unpickling this writes `marker`: proof that a planted pickle ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.write_text, (self.marker, "pwned"))


# --- a planted file never runs --------------------------------------------------------------


@pytest.mark.parametrize("name", ["cache", "legacy-pickle"])
def test_a_planted_pickle_never_runs_and_the_load_proceeds(
    root: Path, tmp_path: Path, name: str
) -> None:
    cache = _cache_of(root)
    target = cache.path if name == "cache" else cache.path.with_suffix(".pickle")
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(target.parent, 0o700)
    marker = tmp_path / "pwned"
    payload = pickle.dumps((cache.key, Planted(marker)))
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, payload)
    os.close(fd)
    suite, checked = _load(root)
    assert not marker.exists(), "the planted pickle ran"
    assert len(checked) == ALL
    assert len(suite.items) == ALL


# --- modes ------------------------------------------------------------------------------------


def test_the_cache_dir_is_0700_and_the_file_0600(root: Path) -> None:
    old = os.umask(0o022)
    try:
        _load(root)
    finally:
        os.umask(old)
    cache = _cache_of(root)
    assert stat.S_IMODE(os.lstat(cache.path.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.lstat(cache.path).st_mode) == 0o600
    _, checked = _load(root)
    assert checked == set()


def test_a_cache_dir_readable_by_others_is_tightened_and_used(root: Path) -> None:
    _load(root)
    folder = _cache_of(root).path.parent
    os.chmod(folder, 0o755)  # as an older voyage-tui left it
    _, checked = _load(root)
    assert checked == set()
    assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_a_cache_dir_others_may_write_to_is_not_used(root: Path, mode: int) -> None:
    _load(root)
    cache = _cache_of(root)
    os.chmod(cache.path.parent, mode)
    before = cache.path.read_bytes()
    _, checked = _load(root)
    assert len(checked) == ALL
    assert stat.S_IMODE(os.lstat(cache.path.parent).st_mode) == mode  # left as the user set it
    assert cache.path.read_bytes() == before  # and nothing written into it


def test_a_cache_dir_owned_by_someone_else_is_not_used(root: Path) -> None:
    _load(root)
    cache = _cache_of(root)
    _as_someone_else(cache.path.parent)
    before = cache.path.read_bytes()
    _, checked = _load(root)
    assert len(checked) == ALL
    assert cache.path.read_bytes() == before


def test_a_cache_dir_that_is_a_symlink_is_not_used(
    root: Path, cache_home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_home.mkdir()
    os.symlink(elsewhere, cache_home / "voyage-tui")
    _load(root)
    assert list(elsewhere.iterdir()) == [], "the cache was written through the symlinked dir"
    _, checked = _load(root)
    assert len(checked) == ALL


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")  # relative: it would land in the cwd
    assert cache_store.cache_root() == Path(os.path.expanduser("~")) / ".cache" / "voyage-tui"


# --- the cache file ---------------------------------------------------------------------------


def test_a_cache_file_owned_by_someone_else_is_refused(root: Path) -> None:
    _load(root)
    cache = _cache_of(root)
    _as_someone_else(cache.path)
    _, checked = _load(root)
    assert len(checked) == ALL
    assert os.lstat(cache.path).st_uid == os.geteuid()  # replaced by our own on save


def test_a_cache_file_reached_through_a_symlink_is_refused(root: Path, tmp_path: Path) -> None:
    _load(root)
    cache = _cache_of(root)
    real = tmp_path / "real-cache"
    os.replace(cache.path, real)  # a valid cache of this very workspace, one link away
    os.symlink(real, cache.path)
    _, checked = _load(root)
    assert len(checked) == ALL


def test_a_symlink_at_the_cache_name_is_never_written_through(root: Path, tmp_path: Path) -> None:
    cache = _cache_of(root)
    cache.path.parent.mkdir(parents=True, mode=0o700)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, cache.path)
    _load(root)
    assert victim.read_text() == "keep me\n"
    assert stat.S_ISREG(os.lstat(cache.path).st_mode)  # the link itself was replaced
    _, checked = _load(root)
    assert checked == set()


def test_the_temp_file_is_never_opened_through_a_planted_symlink(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = _cache_of(root)
    cache.path.parent.mkdir(parents=True, mode=0o700)
    monkeypatch.setattr(cache_store, "_temp_name", lambda final: f".{final}.guessed.tmp")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, cache.path.parent / f".{cache.path.name}.guessed.tmp")
    _load(root)  # the save fails quietly: a cache that cannot be written is only slower
    assert victim.read_text() == "keep me\n"
    assert not cache.path.exists()


def test_a_fifo_at_the_cache_name_does_not_block(root: Path, cache_home: Path) -> None:
    cache = _cache_of(root)
    cache.path.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(cache.path)
    script = textwrap.dedent(
        """\
        import sys
        from voyage_tui.engine.validation.suite import Suite
        from voyage_tui.engine.workspace.model import Workspace
        suite = Suite(Workspace.load(sys.argv[1]), use_git=False)
        prepared = suite.prepare(fork=False, cache=True)
        print(len(prepared.tasks.work))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(root)],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "XDG_CACHE_HOME": str(cache_home)},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(ALL)


def test_an_oversized_cache_file_is_refused(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _load(root)
    monkeypatch.setattr(cache_module, "MAX_CACHE_BYTES", 16)
    _, checked = _load(root)
    assert len(checked) == ALL


def _valid_cache_bytes(root: Path) -> bytes:
    _load(root)
    return _cache_of(root).path.read_bytes()


@pytest.mark.parametrize(
    "damage",
    ["truncated", "garbage", "empty", "wrong-version", "wrong-shape", "bad-entries", "deep"],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt(root: Path, damage: str) -> None:
    import msgpack

    from voyage_tui.engine.validation.cache import seal, unseal

    good = _valid_cache_bytes(root)
    parts = unseal(good)
    assert parts is not None
    header = msgpack.unpackb(parts[0], raw=False, strict_map_key=False)
    details = bytes(parts[1])
    # Sealed (CRCs that match): what the format checks must refuse on their own.
    data = {
        "truncated": good[: len(good) // 2],
        "garbage": os.urandom(4096),
        "empty": b"",
        "wrong-version": seal(msgpack.packb([header[0], header[1] + 1, *header[2:]]), details),
        "wrong-shape": seal(msgpack.packb({"entries": 1}), details),
        "bad-entries": seal(
            msgpack.packb([*header[:3], {rel: [1, "x", None, 2.5] for rel in header[3]}]),
            details,
        ),
        "deep": seal(b"\x91" * 100_000, details),
    }[damage]
    path = _cache_of(root).path
    path.write_bytes(data)
    suite, checked = _load(root)
    assert len(checked) == ALL
    assert len(suite.items) == ALL
    _, checked = _load(root)
    assert checked == set(), "the cache was not rebuilt"


# --- what the cache notices -----------------------------------------------------------------


def test_an_edit_through_a_symlinked_task_yaml_is_noticed(make_workspace, cache_home) -> None:
    real = "fixtures/bug-diagnosis/t1/real.yaml"
    root = make_workspace({real: task_yaml("t1")})
    os.symlink("real.yaml", root / T1)
    _load(root)
    time.sleep(0.02)  # past the file system's timestamp granularity
    target = root / real
    target.write_text(target.read_text().replace("visibility: public", "visibility: pub"))
    suite, checked = _load(root)
    assert T1 in checked
    assert "invalid-visibility" in _codes(suite, T1)


def test_a_symlink_pointed_elsewhere_is_noticed(make_workspace, cache_home) -> None:
    folder = "fixtures/bug-diagnosis/t1"
    root = make_workspace(
        {
            f"{folder}/a.yaml": task_yaml("t1"),
            f"{folder}/b.yaml": task_yaml("t1").replace("visibility: public", "visibility: pub"),
        }
    )
    os.symlink("a.yaml", root / T1)
    _load(root)
    os.unlink(root / T1)
    os.symlink("b.yaml", root / T1)
    suite, checked = _load(root)
    assert T1 in checked
    assert "invalid-visibility" in _codes(suite, T1)


def test_an_edit_that_keeps_size_and_mtime_is_noticed(root: Path) -> None:
    _load(root)
    path = root / T1
    before = os.stat(path)
    time.sleep(0.02)  # past the file system's timestamp granularity
    text = path.read_text()
    edited = text.replace("visibility: public", "visibility: publix")
    assert len(edited) == len(text)
    with open(path, "r+", encoding="utf-8") as handle:  # in place: same inode
        handle.write(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    )
    suite, checked = _load(root)
    assert checked == {T1}
    assert "invalid-visibility" in _codes(suite, T1)


# --- names that are not UTF-8 -----------------------------------------------------------------


def test_a_workspace_under_a_non_utf8_name_is_cached(
    make_workspace, tmp_path: Path, cache_home
) -> None:
    base = make_workspace({T1: task_yaml("t1")})
    root = Path(os.fsdecode(os.fsencode(tmp_path) + b"/ws-\xff"))
    os.rename(base, root)
    first, checked = _load(root)
    assert len(checked) == ALL
    second, checked = _load(root)
    assert checked == set()
    assert sorted(second.items) == sorted(first.items)


def test_a_file_with_a_non_utf8_name_survives_the_cache(make_workspace, cache_home) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    odd = os.fsdecode(b"fixtures/bug-diagnosis/t\xff/task.yaml")
    (root / odd).parent.mkdir(parents=True)
    (root / odd).write_text(task_yaml("t2"))
    first, checked = _load(root)
    assert odd in checked
    second, checked = _load(root)
    assert checked == set()
    assert second.items[odd] == first.items[odd]


# --- global files that must not be opened -------------------------------------------------------

GLOBAL_SCRIPT = textwrap.dedent(
    """\
    import sys
    from voyage_tui.engine.validation.suite import Suite
    from voyage_tui.engine.workspace.model import Workspace
    suite = Suite(Workspace.load(sys.argv[1]), use_git=False)
    prepared = suite.prepare(fork=False, cache=True)
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    print(len(suite.items))
    """
)


@pytest.mark.parametrize("rel", ["voyage.toml", "references/journey.md"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_the_cache_key_never_blocks_on_a_hostile_global_file(
    root: Path, cache_home: Path, rel: str, kind: str
) -> None:
    """The cache's key covers voyage.toml and the references; a FIFO or a link to an endless
    device there must not hang the app's start (run in a child with a timeout)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    proc = subprocess.run(
        [sys.executable, "-c", GLOBAL_SCRIPT, str(root)],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "XDG_CACHE_HOME": str(cache_home)},
    )
    assert proc.returncode == 0, proc.stderr
