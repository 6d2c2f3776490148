"""Counts read as written by hand: one helper, and no hard-coded plural beside a count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from voyage_tui.engine.wording import plural

PACKAGE = Path(__file__).resolve().parents[2] / "voyage_tui"


@pytest.mark.parametrize(
    ("n", "word", "many", "expected"),
    [
        (0, "run", None, "0 runs"),
        (1, "run", None, "1 run"),
        (2, "run", None, "2 runs"),
        (1, "invalid finding", None, "1 invalid finding"),
        (1204, "file", None, "1,204 files"),
        (1, "summary", "summaries", "1 summary"),
        (3, "summary", "summaries", "3 summaries"),
    ],
)
def test_plural(n, word, many, expected):
    assert plural(n, word, many) == expected


# `{len(runs)} runs`, `{n} errors`: a count written before a word that is always plural; and
# `finding(s)`, which reads as a form, not as a sentence.
_HARD_PLURAL = re.compile(
    r"\{(?:len\([^{}]*\)|n|[a-z_.]*(?:count|total))(?::,)?\}[ ][a-z ]*?[a-z]+s\b"
)
_BRACKETED = re.compile(r"[a-zA-Z]\(s\)(?= [a-z])")
# `{n} holdout{'s' if n != 1 else ''}`: the helper's job, done by hand
_BY_HAND = re.compile(r"""['"]s['"] if .+ != 1|== 1 else ['"]s['"]""")


def test_no_count_is_followed_by_a_hard_coded_plural():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("#"):
                continue
            if any(p.search(line) for p in (_HARD_PLURAL, _BRACKETED, _BY_HAND)):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert found == [], "use voyage_tui.engine.wording.plural:\n" + "\n".join(found)


def test_the_score_report_counts_one_of_each_in_the_singular(tmp_path, capsys):
    import json

    from voyage_tui.cli import main

    finding = {"file": "a.py", "line": 3, "rule_key": "hardcoded-secret", "severity": "BLOCKER"}
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "reviews/pr-1.md",
        "description": "One blocker.",
        "expected_verdict": "BLOCK",
        "findings": [finding | {"owner_reviewer": "correctness"}],
    }
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "run.json").write_text(
        json.dumps([{"reviewer": "correctness", "findings": [finding]}]), encoding="utf-8"
    )
    code = main(
        ["score", "--gold", str(tmp_path / "gold.json"), "--run", str(tmp_path / "run.json")]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "gold.json  (1 finding, 1 key)" in out
    assert "run.json  (1 reviewer, 1 merged finding, 0 invalid)" in out
