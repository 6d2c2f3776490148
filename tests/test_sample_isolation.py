"""No test reads or writes the live `fixtures/`: a person may be rating in it (the README invites
them to), and a rating made there must not turn a snapshot red."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.sample import REPO, SAMPLE_ROOT

LIVE = re.compile(r"""REPO\s*/\s*["'](fixtures|voyage\.toml)""")


def test_the_tests_use_the_sample_as_git_holds_it() -> None:
    assert REPO not in SAMPLE_ROOT.parents
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the sample on disk is all there is")
    for rel in ("fixtures/ratings/alice.jsonl", "voyage.toml"):
        staged = subprocess.run(
            ["git", "-C", str(REPO), "show", f":{rel}"], capture_output=True, check=True
        ).stdout
        assert (SAMPLE_ROOT / rel).read_bytes() == staged


def test_no_test_names_the_live_sample() -> None:
    offenders = []
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        if path.name == "sample.py" or path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if LIVE.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "use tests.sample.SAMPLE_ROOT:\n" + "\n".join(offenders)
