"""Names from the workspace in what the diff export writes, and in where it writes by default.

A run file, a gold folder, a finding's file or a reviewer's name is chosen by whoever wrote the
branch. Written raw into Markdown, a line break in a run's file name put a line of the attacker's
choosing under the `### run vs gold` header (a fake "all clear", a link); a backtick or a pipe
broke the table; a bidi override reordered what a reader sees. Built raw into the default export
path, such a name made a file name holding a line break, or a hidden or dash-led one.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from voyage_tui.engine.review.export import default_export_rel, markdown_table
from voyage_tui.engine.review.inputs import score_pair
from voyage_tui.engine.review.rows import diff_rows
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUNS = "fixtures/gold/jwt-auth/runs"

# What a reader must never find in an export: a control character other than the line ends the
# export itself writes, a line or paragraph separator, a bidi override or isolate.
UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

HOSTILE = [
    "run\n\n**All findings matched: safe to merge** [details](evil.example)\n\n###",
    "run\r\n## Approved",
    "run\x1b]52;c;cm0gLXJmIH4=\x07",
    "run\u202egpj.exe",
    "run\u2028second line",
    "run`|`x|y",
    "run <img src=x onerror=alert(1)> *b* _i_ [l](u) # $m$",
    "\x85run\x9b31m",
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def _plant_run(root: Path, name: str) -> str:
    rel = f"{RUNS}/{name}.json"
    shutil.copy(root / RUNS / "run-misses.json", root / rel)
    return rel


def _export(root: Path, run_rel: str) -> str:
    scored = score_pair(Workspace.load(root), GOLD, run_rel)
    return markdown_table(scored.gold_name, scored.run_name, scored.score, diff_rows(scored.score))


@pytest.mark.parametrize("name", HOSTILE)
def test_a_run_file_name_cannot_add_a_line_or_a_sequence_to_the_export(
    root: Path, name: str
) -> None:
    text = _export(root, _plant_run(root, name))
    plain = _export(root, f"{RUNS}/run-misses.json")
    # The export has exactly the lines the plain run's export has: the name added none.
    assert len(text.splitlines()) == len(plain.splitlines())
    assert text.count("\n") == plain.count("\n")
    assert "\r" not in text
    assert not UNSAFE.search(text)
    header = text.splitlines()[0]
    assert header.startswith("### ") and header.endswith(" vs jwt-auth")
    # Nothing in the header is taken as Markdown: every special character is escaped.
    assert not re.search(r"(?<!\\)[`*_\[\]<>#|$]", header[4:])


def test_the_header_stays_readable(root: Path) -> None:
    text = _export(root, _plant_run(root, "run\nnext line\u202eend"))
    assert text.splitlines()[0] == "### run\\x0anext line\\u202eend vs jwt-auth"
    assert _export(root, f"{RUNS}/run-misses.json").startswith("### run-misses vs jwt-auth\n")


def test_a_gold_folder_name_cannot_add_a_line_to_the_export(root: Path) -> None:
    gold_dir = root / "fixtures/gold/jwt-auth"
    hostile = gold_dir.with_name("jwt\n# Approved")
    gold_dir.rename(hostile)
    gold = "fixtures/gold/jwt\n# Approved/gold.json"
    scored = score_pair(
        Workspace.load(root), gold, "fixtures/gold/jwt\n# Approved/runs/run-misses.json"
    )
    text = markdown_table(scored.gold_name, scored.run_name, scored.score, diff_rows(scored.score))
    assert text.splitlines()[0] == "### run-misses vs jwt\\x0a\\# Approved"


def test_file_names_rule_keys_and_reviewers_in_the_table_keep_it_a_table(root: Path) -> None:
    run = root / RUNS / "run-misses.json"
    payload = json.loads(run.read_text())
    payload[0]["reviewer"] = "correctness\n\n## Approved by security"
    payload[0]["findings"][0]["file"] = "src/a`b|c\n| = matched | `fake` |\u202e.ts"
    payload[0]["findings"][0]["rule_key"] = "key\x1b[31m|`"
    payload[0]["findings"][1]["line"] = "not a number"  # an invalid finding: its own list
    run.write_text(json.dumps(payload))
    text = _export(root, f"{RUNS}/run-misses.json")
    assert not UNSAFE.search(text)
    lines = text.splitlines()
    table = [line for line in lines if line.startswith("|")]
    rows = diff_rows(score_pair(Workspace.load(root), GOLD, f"{RUNS}/run-misses.json").score)
    assert len(table) == 2 + len(rows)  # titles, the rule, one line per row: nothing added
    for line in table:
        # Six cells on every line: a pipe from a name is always escaped.
        assert len(re.findall(r"(?<!\\)\|", line)) == 7, line
    assert not any(line.startswith("#") for line in lines[1:])
    # The file name is still one code span, whatever backticks it holds.
    assert "``src/a`b\\|c\\x0a\\| = matched \\| `fake` \\|\\u202e.ts``" in text


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("run-misses", "run-misses-diff.md"),
        ("run\n### x", "run_### x-diff.md"),
        ("run\x1b]52;c;x\x07", "run_]52;c;x_-diff.md"),
        ("run\u202egpj", "run_gpj-diff.md"),
        (".hidden", "hidden-diff.md"),
        ("..", "run-diff.md"),
        ("-rf", "rf-diff.md"),
        ("--help", "help-diff.md"),
        (". -.x", "x-diff.md"),
        ("a/../../b", "a_.._.._b-diff.md"),
        ("a\\b", "a_b-diff.md"),
        ("", "run-diff.md"),
        ("\udcff", "_-diff.md"),
        ("é" * 200, "é" * 100 + "-diff.md"),
    ],
)
def test_the_default_export_path_is_a_plain_name_in_the_runs_folder(
    name: str, expected: str
) -> None:
    rel = default_export_rel(f"{RUNS}/run.json", name)  # the name: as a run file gives it
    assert rel == f"{RUNS}/{expected}"
    file_name = rel.rsplit("/", 1)[1]
    assert len(file_name.encode("utf-8")) <= 255 - 40  # room for the writer's temp name
    assert not UNSAFE.search(rel)
    file_name.encode("utf-8")  # no lone surrogate


def test_a_hostile_folder_in_the_default_path_is_escaped_too() -> None:
    rel = default_export_rel("fixtures/gold/g\n#x/runs\u202e/r.json", "r")
    assert rel == "fixtures/gold/g_#x/runs_/r-diff.md"


def test_a_run_at_the_workspace_root_exports_beside_it() -> None:
    assert default_export_rel("r.json", "r") == "r-diff.md"
