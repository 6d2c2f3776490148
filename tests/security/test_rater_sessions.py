"""A rater session writes only to a file of ratings, and only one session per rater writes.

Each test here was written against an attack of issue 18: a branch that puts a shell script or a
git config where a rater's ratings file belongs (her records were appended to it), and two
sessions of one rater withdrawing each other's ratings.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, MakeWorkspace
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.session import RaterSession, SessionError
from voyage_tui.engine.validation.suite import Suite

CAROL = "ratings/carol.jsonl"
LOCKS = ".voyage/locks"
LOCK = f"{LOCKS}/carol.lock"
GOOD = {"correctness": 4, "scope": 3}

ACTIVATE = b"""\
# This file must be used with "source bin/activate" *from bash*
# you cannot run it directly
deactivate () {
    unset -f pydoc >/dev/null 2>&1 || true
}
VIRTUAL_ENV="/home/carol/eval/.venv"
export VIRTUAL_ENV
"""

GIT_CONFIG = b"""\
[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
[remote "origin"]
\turl = git@example.com:evals/suite.git
"""


def open_session(root: Path, rater: str = "carol") -> RaterSession:
    suite = Suite.open(root, use_git=False)
    return RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        rater,
        read=WorkTree(suite.ws).rater_store,
        blind=True,
        use_git=False,
    )


# --- a file whose lines are not ratings --------------------------------------------------------

FOREIGN = {
    "a shell script": (ACTIVATE, "line 1 is not JSON"),
    "a git config": (GIT_CONFIG, "line 1 is not JSON"),
    "binary bytes": (b"\x7fELF\x02\x01\x01\x00\xff\xfe\n\x00\x01", "line 1 is not text"),
    "JSON that is no object": (b'[1, 2, 3]\n"text"\n', "line 1 holds an array, not a rating"),
    "objects of something else": (
        b'{"name": "suite", "version": "1.0"}\n',
        "line 1 is a JSON object with none of the fields of a rating",
    ),
    "ratings with one line of something else": (
        (jsonl(record(rater="carol")) + "export PATH=/tmp/x:$PATH\n").encode(),
        "line 2 is not JSON",
    ),
}


@pytest.mark.parametrize(("content", "why"), FOREIGN.values(), ids=FOREIGN.keys())
def test_a_session_refuses_a_ratings_file_whose_lines_are_not_ratings(
    make_workspace: MakeWorkspace, content: bytes, why: str
) -> None:
    root = make_workspace({**workspace_files(), CAROL: content})
    with pytest.raises(SessionError) as refused:
        open_session(root)
    message = str(refused.value)
    assert CAROL in message and "not a ratings file" in message and why in message
    assert "nothing was written" in message.lower()
    assert (root / CAROL).read_bytes() == content


@pytest.mark.parametrize(
    "content",
    [
        jsonl(record(rater="carol")) + '{"fixture_id": "t1", "run_id": "ru',  # torn last line
        jsonl(record(rater="carol")) + '{"fixture_id": "t1", "ru\n' + jsonl(record(rater="carol")),
        jsonl(record(rater="carol")) + "\x00\x00\x00\x00\n",  # a crash that left NUL bytes
        jsonl(record(rater="carol"), "", "   "),  # blank lines
        jsonl(record(rater="carol", scores={"correctness": 9, "scope": 3})),  # off the scale
        jsonl(record(rater="carol", extra_field=1)),  # an unknown field
        jsonl({"fixture_id": "t1", "run_id": "run-a"}),  # a record missing fields
        "",
    ],
    ids=[
        "torn-last-line",
        "torn-line-then-more",
        "nul-bytes",
        "blank-lines",
        "score-off-the-scale",
        "unknown-field",
        "missing-fields",
        "empty",
    ],
)
def test_a_file_of_ratings_with_errors_or_a_torn_line_is_still_rated_into(
    make_workspace: MakeWorkspace, content: str
) -> None:
    root = make_workspace({**workspace_files(), CAROL: content})
    session = open_session(root)
    stored = session.submit(GOOD)
    last = (root / CAROL).read_text().split("\n")[stored.line - 1]
    assert json.loads(last)["scores"] == GOOD


def test_a_file_replaced_by_something_else_while_the_session_runs_is_not_written(
    make_workspace: MakeWorkspace,
) -> None:
    """A checkout of another branch under a running session: the next append sees the file
    changed, looks at it again, and refuses."""
    root = make_workspace({**workspace_files(), CAROL: jsonl(record(rater="carol"))})
    session = open_session(root)
    session.submit(GOOD)
    (root / CAROL).unlink()
    (root / CAROL).write_bytes(GIT_CONFIG)
    with pytest.raises(WriteRefused, match="not a ratings file"):
        session.submit(GOOD)
    assert (root / CAROL).read_bytes() == GIT_CONFIG


# --- symlinks, even inside the workspace --------------------------------------------------------


def test_a_session_refuses_a_ratings_file_that_is_a_symlink_inside_the_workspace(
    make_workspace: MakeWorkspace,
) -> None:
    root = make_workspace({**workspace_files(), ".venv/bin/activate": ACTIVATE})
    (root / "ratings").mkdir()
    (root / CAROL).symlink_to("../.venv/bin/activate")
    with pytest.raises(SessionError, match=r"ratings/carol\.jsonl is a symlink"):
        open_session(root)
    assert (root / ".venv/bin/activate").read_bytes() == ACTIVATE


def test_a_session_refuses_a_ratings_folder_that_is_a_symlink_inside_the_workspace(
    make_workspace: MakeWorkspace,
) -> None:
    root = make_workspace({**workspace_files(), "elsewhere/carol.jsonl": ""})
    (root / "ratings").symlink_to("elsewhere", target_is_directory=True)
    with pytest.raises(SessionError, match=r"ratings is a symlink"):
        open_session(root)
    assert (root / "elsewhere/carol.jsonl").read_bytes() == b""
    assert os.listdir(root / "elsewhere") == ["carol.jsonl"]


# --- one live session per rater -----------------------------------------------------------------

HOLD = """\
import sys, time
from voyage_tui.engine.ratings.lock import RaterLock
from voyage_tui.engine.workspace.model import Workspace
held = RaterLock.take(Workspace.load(sys.argv[1]), sys.argv[2])
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def holder(make_workspace: MakeWorkspace):
    """Start another process that holds a rater's lock, as a second session would."""
    started: list[subprocess.Popen[str]] = []

    def start(root: Path, rater: str = "carol") -> subprocess.Popen[str]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(root), rater],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        return proc

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def test_a_second_session_of_the_same_rater_is_refused_and_says_who_holds_it(
    make_workspace: MakeWorkspace,
) -> None:
    root = make_workspace(workspace_files())
    first = open_session(root)
    with pytest.raises(SessionError) as refused:
        open_session(root)
    assert "already open in this app (pid " in str(refused.value)
    assert f"pid {os.getpid()} on this machine" in str(refused.value)
    open_session(root, "dave").close()  # another rater is not held up
    first.close()
    second = open_session(root)
    second.submit(GOOD)
    second.close()


def test_a_session_in_another_process_is_named_by_pid_host_and_start(
    make_workspace: MakeWorkspace, holder
) -> None:
    root = make_workspace(workspace_files())
    proc = holder(root)
    with pytest.raises(SessionError) as refused:
        open_session(root)
    message = str(refused.value)
    assert "carol is already rating in another session" in message
    assert f"pid {proc.pid} on this machine {socket.gethostname()} since 20" in message
    assert not (root / CAROL).exists(), "nothing was written"


def test_a_lock_left_by_a_killed_session_holds_nobody_up(
    make_workspace: MakeWorkspace, holder
) -> None:
    root = make_workspace(workspace_files())
    proc = holder(root)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (root / LOCK).read_text(), "the dead holder's line is still in the file"
    with open_session(root) as session:
        session.submit(GOOD)
    assert len((root / CAROL).read_text().splitlines()) == 1


def test_a_planted_lock_file_naming_a_live_pid_holds_nobody_up(
    make_workspace: MakeWorkspace,
) -> None:
    """The file's words are not the lock: only a live flock is."""
    root = make_workspace(
        {
            **workspace_files(),
            LOCK: json.dumps(
                {"pid": 1, "host": socket.gethostname(), "since": "2999-01-01T00:00:00Z"}
            ),
        }
    )
    with open_session(root) as session:
        session.submit(GOOD)


def test_what_a_lock_file_says_reaches_no_message_unchecked(
    make_workspace: MakeWorkspace,
) -> None:
    root = make_workspace(workspace_files())
    first = open_session(root)
    hostile = {"pid": "1; rm -rf", "host": "\x1b]52;c;aGk=\x07evil", "since": "\x1b[2J"}
    (root / LOCK).write_text(json.dumps(hostile))
    with pytest.raises(SessionError) as refused:
        open_session(root)
    message = str(refused.value)
    assert "\x1b" not in message and "rm -rf" not in message
    first.close()


@pytest.mark.parametrize("planted", ["file-symlink", "folder-symlink", "locks-symlink"])
def test_the_lock_is_never_written_through_a_symlink(
    make_workspace: MakeWorkspace, planted: str
) -> None:
    root = make_workspace({**workspace_files(), "notes/keep.txt": "keep\n"})
    keep = root / "notes/keep.txt"
    if planted == "file-symlink":
        (root / LOCKS).mkdir(parents=True)
        (root / LOCK).symlink_to("../../notes/keep.txt")
    elif planted == "folder-symlink":
        (root / ".voyage").symlink_to("notes", target_is_directory=True)
    else:
        (root / ".voyage").mkdir()
        (root / LOCKS).symlink_to("../notes", target_is_directory=True)
    with pytest.raises(SessionError, match="symlink"):
        open_session(root)
    assert keep.read_text() == "keep\n"
    assert sorted(os.listdir(root / "notes")) == ["keep.txt"]
    assert not (root / CAROL).exists()


def test_the_lock_is_never_written_through_a_hard_link(make_workspace: MakeWorkspace) -> None:
    root = make_workspace({**workspace_files(), "notes/keep.txt": "keep\n"})
    (root / LOCKS).mkdir(parents=True)
    os.link(root / "notes/keep.txt", root / LOCK)
    with pytest.raises(SessionError, match="hard links"):
        open_session(root)
    assert (root / "notes/keep.txt").read_text() == "keep\n"


def test_a_fifo_in_place_of_the_lock_is_refused_without_hanging(
    make_workspace: MakeWorkspace,
) -> None:
    root = make_workspace(workspace_files())
    (root / LOCKS).mkdir(parents=True)
    os.mkfifo(root / LOCK)
    with pytest.raises(SessionError, match="not a regular file"):
        open_session(root)
