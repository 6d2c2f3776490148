"""A rater session writes only to a file of ratings, and only one session per rater writes.

Each test here was written against an attack of issue 18: a branch that puts a shell script or a
git config where a rater's ratings file belongs (her records were appended to it), and two
sessions of one rater withdrawing each other's ratings.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.ratings.session import RaterSession, SessionError
from voyage_tui.engine.validation.suite import Suite

CAROL = "ratings/carol.jsonl"
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
        suite.ws, suite.refs.rubric.value, suite.items, rater, blind=True, use_git=False
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
