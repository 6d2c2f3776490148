"""A real `voyage-tui rate` in a pseudo-terminal, killed with SIGKILL in the middle of an item:
the ratings file holds exactly the ratings submitted before, each a whole line, and the next
start resumes at the first run not rated (SPEC 7: a killed rater session loses at most the
rating in progress)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.session import RaterSession
from voyage_tui.engine.validation.suite import Suite

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

MINE = "fixtures/ratings/me.jsonl"
ARGS = ["--rater", "me", "--no-git", "--no-watch", "--no-cache"]
ROWS, COLUMNS = 40, 120
TIMEOUT = 60.0
"""Generous: the app starts in a fresh interpreter on a machine that may be busy."""

_ESCAPES = re.compile(
    r"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: title, clipboard
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS and friends
    r"|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMNOZc]"
)


class Terminal:
    """`voyage-tui rate` on the slave side of a pty; everything it draws is collected here."""

    def __init__(self, root: Path, home: Path) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "HOME": str(home),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_CONFIG_HOME": str(home / "config"),
        }
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voyage_tui", "rate", str(root), *ARGS],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,  # its own process group: the kill reaches its children too
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self._output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the process is gone (EIO on Linux)
                return
            if not chunk:
                return
            with self._lock:
                self._output += chunk

    def text(self) -> str:
        """What was drawn so far, escape sequences removed."""
        with self._lock:
            raw = bytes(self._output)
        return _ESCAPES.sub("", raw.decode("utf-8", "replace"))

    def mark(self) -> int:
        return len(self.text())

    def wait_for(self, needle: str, since: int = 0) -> None:
        wait(lambda: needle in self.text()[since:], f"{needle!r} on the screen", self)

    def send(self, keys: str) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            time.sleep(0.05)  # one key per read, as a person types

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(TIMEOUT)
        self._reader.join(5)
        os.close(self.master)


def wait(condition: Callable[[], bool], what: str, terminal: Terminal | None = None) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if terminal is not None and terminal.process.poll() is not None:
            raise AssertionError(f"the app ended before {what}: {terminal.text()[-2000:]}")
        if time.monotonic() > deadline:
            tail = terminal.text()[-2000:] if terminal is not None else ""
            raise AssertionError(f"no {what} within {TIMEOUT}s; last output: {tail}")
        time.sleep(0.05)


def lines_of(root: Path) -> list[bytes]:
    path = root / MINE
    return path.read_bytes().splitlines(keepends=True) if path.exists() else []


def session_for(root: Path) -> RaterSession:
    suite = Suite.open(root, use_git=False)
    # Only looked at, while the app's own session holds the rater's lock.
    return RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        "me",
        read=WorkTree(suite.ws).rater_store,
        use_git=False,
        lock=False,
    )


def test_a_killed_session_keeps_every_submitted_rating_and_resumes_at_the_next(
    tmp_path: Path,
) -> None:
    root = copy_sample(tmp_path)
    engine = session_for(root)
    order = [run.run_key for run in engine.queue]
    third_label = engine.label(engine.queue[2])

    first = Terminal(root, tmp_path)
    try:
        first.wait_for("0/12 rated")
        first.send("43554")
        wait(lambda: len(lines_of(root)) == 1, "the first rating on disk", first)
        first.wait_for("1/12 rated")
        first.send("22132")
        wait(lambda: len(lines_of(root)) == 2, "the second rating on disk", first)
        first.wait_for("2/12 rated")
        since = first.mark()
        first.send("33")  # two of five dimensions of the third run: in progress, not submitted
        first.wait_for("Is the change the right size", since)  # scope is next: both keys landed
    finally:
        first.kill()
    assert first.process.returncode == -signal.SIGKILL

    written = lines_of(root)
    assert len(written) == 2
    assert all(line.endswith(b"\n") for line in written)  # each a complete line
    records = [json.loads(line) for line in written]
    assert [(r["fixture_id"], r["run_id"]) for r in records] == order[:2]
    assert [list(r["scores"].values()) for r in records] == [[4, 3, 5, 5, 4], [2, 2, 1, 3, 2]]
    assert {r["rater"] for r in records} == {"me"} and {r["blind"] for r in records} == {True}

    second = Terminal(root, tmp_path)
    try:
        second.wait_for("2/12 rated")
        second.wait_for(third_label)
        second.send("11111")
        wait(lambda: len(lines_of(root)) == 3, "the third rating on disk", second)
        second.wait_for("3/12 rated")
    finally:
        second.kill()
    third = json.loads(lines_of(root)[2])
    assert (third["fixture_id"], third["run_id"]) == order[2]
    assert third["scores"] == dict.fromkeys(third["scores"], 1)
