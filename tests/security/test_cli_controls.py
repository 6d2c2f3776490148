"""Text from a hostile workspace reaches no terminal as a control sequence, in any command's
output, in any format (issue 18, item 9; SPEC 7).

A workspace names things: fixture folders, YAML keys, ids, gold findings' files and rule keys,
reviewers, raters, git authors. Printed raw, a name holding `ESC ] 52 ; c ; ... BEL` writes the
clipboard, `ESC [ 2 J` clears the screen, a lone CR overwrites the line before it, a C1 `\\x9b`
is a CSI on many terminals, and a bidi override reorders what is read. Every command shows them
as visible escapes (`\\x1b`), JSON keeps the exact values (as `\\u001b`, `\\u009b` escapes), and
`--format github` escapes its own syntax too, so a name cannot start another workflow command.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from tests.git.conftest import (
    CUSTODIAN,
    Repo,
    base_files,
    build_once,
    copy_repo,
    holdout_yaml,
    isolated_git,  # noqa: F401  (autouse: no machine git configuration)
)
from tests.scoring.common import dump, finding, gold_finding, gold_record, payload
from voyage_tui.cli import main

OSC52 = "\x1b]52;c;aGFja2Vk\x07"  # write "hacked" to the clipboard
CSI = "\x1b[2J"  # clear the screen
BIDI = "\u202e"  # right-to-left override
CR = "\r"  # back to the start of the line
C1 = "\x9b"  # a one-byte CSI
HOSTILE = f"{OSC52}{CSI}{BIDI}{CR}{C1}"

# What may not reach a terminal raw: every control character but the newline that ends a line
# (and tab), DEL, C1, the line separators, the bidi overrides and isolates, lone surrogates.
RAW = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)

CONFIG = '[paths]\ngold = ["gold"]\n\n[holdout]\ncustodians = ["cora@evals.example"]\n'
EVE = (f"Eve{OSC52}{BIDI}", "eve@agents.example")

T_FOLDER = f"fixtures/bug-diagnosis/t{OSC52}x"
K_FOLDER = f"fixtures/bug-diagnosis/k{BIDI}{CR}y"
H_FOLDER = f"fixtures/bug-diagnosis/h{C1}{CSI}"
GOLD = "gold/g.json"
RUN = f"gold/runs/r{CSI}.json"
FILE = f"src/a{OSC52}.py"
RULE = f"jwt{CSI}-alg"
KNOWN = "jwt-alg-none"  # a key of the default catalogue: a gold file may only hold known keys
REVIEWER = f"correctness{C1}{BIDI}"


def hostile_workspace(repo: Repo) -> None:
    gold = gold_record([gold_finding(FILE, 3, KNOWN, "BLOCKER")], expected="BLOCK")
    run = [
        payload(REVIEWER, finding(FILE, 3, KNOWN, "BLOCKER")),
        payload("conformance", finding(f"b{CR}.py", 1, RULE, "MINOR")),
    ]
    repo.commit(
        base_files(CONFIG)
        # a folder that does not match its id: the error names the folder
        | {f"{T_FOLDER}/task.yaml": task_yaml("t1")}
        # a YAML key and an id holding escapes (YAML's double-quoted \e, \a, \x9b, \u202e)
        | {
            f"{K_FOLDER}/task.yaml": task_yaml("k1")
            + '"gr\\e]0;pwned\\aound": x\n'
            + '"\\x9b31m": y\n'
        }
        | {GOLD: dump(gold), RUN: dump(run)}
        | {"ratings/eve.jsonl": json.dumps({"fixture_id": f"k{OSC52}", "rater": CSI}) + "\n"}
    )
    # a holdout a contributor with a hostile name touched: exposed (foreign-author)
    repo.commit({f"{H_FOLDER}/task.yaml": holdout_yaml("h1")}, who=EVE)
    repo.commit({"notes.md": "x\n"}, who=CUSTODIAN)
    # a prompt a new fixture is started from (`new --from p1`)
    repo.write(
        {
            "fixtures/bug-diagnosis/p1/task.yaml": task_yaml("p1").replace(
                "prompt: Fix the off-by-one in the pagination helper.",
                'prompt: "\\e]52;c;aGk=\\a\\u202eFix\\rthe \\x9b pagination helper."',
            )
        }
    )
    # a folder name that is not UTF-8
    folder = os.path.join(os.fsencode(repo.root / "fixtures/bug-diagnosis"), b"u\xff\x1b[1m")
    os.mkdir(folder)
    with open(os.path.join(folder, b"task.yaml"), "w", encoding="utf-8") as handle:
        handle.write(task_yaml("u1"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def assert_no_raw_control(out: str, err: str) -> None:
    for name, text in (("stdout", out), ("stderr", err)):
        found = RAW.search(text)
        assert found is None, f"{name} holds {found.group()!r} raw: {text!r}"


@pytest.fixture(scope="module")
def ws_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, hostile_workspace)[0]


@pytest.fixture
def ws(ws_template: Path, tmp_path: Path) -> Path:
    """The hostile workspace (built once, copied for each test)."""
    return copy_repo(ws_template, tmp_path / "ws")


COMMANDS = {
    "validate": ["validate", "{ws}", "--no-cache"],
    "validate-json": ["validate", "{ws}", "--no-cache", "--format", "json"],
    "validate-github": ["validate", "{ws}", "--no-cache", "--format", "github"],
    "validate-cached": ["validate", "{ws}", "--no-git"],
    "triage": ["triage", "{ws}", "--format", "text", "--all"],
    "triage-json": ["triage", "{ws}", "--format", "json", "--all"],
    "ratings-status": ["ratings", "status", "{ws}"],
    "ratings-status-json": ["ratings", "status", "{ws}", "--format", "json"],
    "exposure": ["exposure", "{ws}"],
    "exposure-json": ["exposure", "{ws}", "--format", "json"],
    "score": ["score", "--gold", "{ws}/" + GOLD, "--run", "{ws}/" + RUN],
    "score-json": ["score", "--gold", "{ws}/" + GOLD, "--run", "{ws}/" + RUN, "--format", "json"],
    "score-baseline": [
        "score",
        "--gold",
        "{ws}/" + GOLD,
        "--run",
        "{ws}/" + RUN,
        "--baseline",
        "{ws}/" + GOLD,
    ],
    "diff-missing": ["diff", "{ws}/" + GOLD, f"{{ws}}/missing{OSC52}.json"],
    "rate-bad-name": ["rate", "{ws}", "--rater", f"eve{OSC52}"],
    "retire-unknown": ["exposure", "{ws}", "--retire", f"h{CSI}"],
    "snooze-unknown": ["triage", "{ws}", "--snooze", f"error:{OSC52}"],
    "no-workspace": ["validate", f"/nonexistent/{OSC52}"],
    "new-from-refused": ["new", "task", "{ws}", "--from", "t1", "--no-input", "--dry-run"],
    "new-from": ["new", "task", "{ws}", "--from", "p1", "--id", "p2", "--no-input", "--dry-run"],
    "new-from-json": [
        "new",
        "task",
        "{ws}",
        "--from",
        "p1",
        "--id",
        "p2",
        "--no-input",
        "--dry-run",
        "--format",
        "json",
    ],
    "results": ["results", "{ws}", "--by", "class"],
    "results-md": ["results", "{ws}", "--format", "md"],
    "results-csv": ["results", "{ws}", "--format", "csv"],
    "results-json": ["results", "{ws}", "--format", "json"],
    "results-unknown-baseline": ["results", "{ws}", "--baseline", f"b{OSC52}"],
}


@pytest.mark.parametrize("argv", COMMANDS.values(), ids=COMMANDS.keys())
def test_no_command_prints_a_raw_control_character(
    ws: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    args = [a.replace("{ws}", str(ws)) for a in argv]
    if argv[0] == "validate" and "--no-git" in argv:
        run(capsys, *args)  # the second run answers from the validation cache
    _, out, err = run(capsys, *args)
    assert "Traceback" not in err
    assert out or err
    assert_no_raw_control(out, err)


def test_validate_text_shows_the_escapes(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "validate", str(ws), "--no-cache")
    assert "t\\x1b]52;c;aGFja2Vk\\x07x" in out
    assert "k\\u202e\\x0dy" in out
    assert "\\x9b31m" in out
    assert "u\\udcff\\x1b[1m" in out


def test_validate_json_keeps_the_exact_values(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "validate", str(ws), "--no-cache", "--format", "json")
    report = json.loads(out)
    paths = {d["path"] for d in report["diagnostics"]}
    assert f"{T_FOLDER}/task.yaml" in paths
    assert f"{K_FOLDER}/task.yaml" in paths
    assert "fixtures/bug-diagnosis/u\udcff\x1b[1m/task.yaml" in paths
    messages = " ".join(d["message"] for d in report["diagnostics"])
    assert "gr\x1b]0;pwned\x07ound" in messages
    assert "\x9b31m" in messages
    assert "\\u009b" in out and "\\u202e" in out  # written as escapes, read back as the values


def test_github_annotations_cannot_start_another_command(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, listing, _ = run(capsys, "validate", str(ws), "--no-cache", "--format", "json")
    count = len(json.loads(listing)["diagnostics"])
    _, out, _ = run(capsys, "validate", str(ws), "--no-cache", "--format", "github")
    lines = out.splitlines()
    assert sum(1 for line in lines if line.startswith("::")) == count
    assert all(line.startswith("::") for line in lines[:-1]), lines  # then the summary
    for line in lines[:-1]:
        properties, message = line.split("::")[1], "::".join(line.split("::")[2:])
        assert "::" not in message.replace("%3A", ""), line
        # each property's value holds no `,` or `:` of its own
        for prop in properties.split(" ", 1)[1].split(","):
            assert re.fullmatch(r"(file|line|col|title)=[^,:]*", prop), line


def test_github_escapes_its_own_syntax_in_names(
    make_workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder named to end the `file=` property and to start a line with another command:
    `,title=`, `::`, a newline, a `%0A` GitHub would decode into one."""
    folder = "fixtures/bug-diagnosis/x,title=y::error file=z::owned%0A\n::warning::w"
    root = make_workspace({f"{folder}/task.yaml": task_yaml("t1")})
    _, out, _ = run(capsys, "validate", str(root), "--no-git", "--format", "github")
    lines = out.splitlines()
    assert not [line for line in lines if line.startswith("::warning::w")], out
    [line] = [line for line in lines if "id-mismatch" in line]
    assert line.startswith(
        "::error file=fixtures/bug-diagnosis/"
        "x%2Ctitle=y%3A%3Aerror file=z%3A%3Aowned%250A\\x0a%3A%3Awarning%3A%3Aw/task.yaml,"
    ), line
    # the message is everything after the second `::`: GitHub reads no command inside it
    assert "::id is 't1' but the fixture's folder is 'x,title=y::error file=z::owned%250A" in line


def test_triage_json_keeps_the_exact_values(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "triage", str(ws), "--format", "json", "--all")
    items = json.loads(out)["items"]
    assert any(i["path"] == f"{T_FOLDER}/task.yaml" for i in items)
    exposed = [i for i in items if i["kind"] == "exposed"]
    assert exposed and EVE[0] in exposed[0]["detail"]


def test_exposure_json_keeps_the_exact_values(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "exposure", str(ws), "--format", "json")
    report = json.loads(out)
    [holdout] = report["exposed"]
    assert holdout["path"] == f"{H_FOLDER}/task.yaml"
    assert any(s["author"] and EVE[0] in s["author"] for s in holdout["signals"])
    assert code == 1
    _, text, _ = run(capsys, "exposure", str(ws))
    assert "Eve\\x1b]52;c;aGFja2Vk\\x07\\u202e" in text


def test_score_json_keeps_the_exact_values(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "score", "--gold", str(ws / GOLD), "--run", str(ws / RUN), "--format", "json"
    )
    report = json.loads(out)
    assert report["matched"][0]["file"] == FILE
    assert REVIEWER in report["matched"][0]["reviewers"]
    assert report["spurious"][0]["file"] == f"b{CR}.py"
    assert report["spurious"][0]["rule_key"] == RULE
    _, text, _ = run(capsys, "score", "--gold", str(ws / GOLD), "--run", str(ws / RUN))
    assert "src/a\\x1b]52;c;aGFja2Vk\\x07.py" in text
    assert "correctness\\x9b\\u202e" in text
    assert "b\\x0d.py" in text and "jwt\\x1b[2J-alg" in text


OUR_COLORS = re.compile(r"\x1b\[(?:0|1|2|31|32|33|35|36)m")


@pytest.mark.parametrize(
    "argv", ["validate", "triage", "exposure", "score"], ids=lambda a: f"{a}-color"
)
def test_on_a_terminal_the_only_escapes_are_our_colours(
    ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: str
) -> None:
    """With colours on (a terminal), names are escaped before a colour is put around them."""
    from voyage_tui.cli import exposure_cmd, score_cmd, triage_cmd, validate_cmd

    for module in (exposure_cmd, score_cmd, triage_cmd, validate_cmd):
        monkeypatch.setattr(module, "use_color", lambda stream: True)
    args = {
        "validate": ["validate", str(ws), "--no-cache"],
        "triage": ["triage", str(ws), "--format", "text", "--all"],
        "exposure": ["exposure", str(ws)],
        "score": ["score", "--gold", str(ws / GOLD), "--run", str(ws / RUN)],
    }[argv]
    _, out, err = run(capsys, *args)
    assert OUR_COLORS.search(out), out  # coloured indeed
    assert_no_raw_control(OUR_COLORS.sub("", out), OUR_COLORS.sub("", err))


def test_new_dry_run_previews_a_hostile_prompt_quoted(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`new --from` copies a prompt from the workspace: the preview shows it as YAML escapes
    (the bidi override too, which in a double-quoted YAML string is the same value)."""
    new = ["new", "task", str(ws), "--from", "p1", "--id", "p2", "--no-input", "--dry-run"]
    code, out, _ = run(capsys, *new)
    assert code == 0
    assert 'prompt: "\\e]52;c;aGk=\\a\\u202eFix\\nthe \\x9B pagination helper.' in out, out
    _, out, _ = run(capsys, *new, "--format", "json")
    yaml_text = json.loads(out)["yaml"]
    assert 'prompt: "\\e]52;c;aGk=\\a\u202eFix\\nthe \\x9B pagination helper.' in yaml_text


def test_serve_prints_the_workspace_and_the_address_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.cli import serve_web

    announced: list[str] = []

    def record(self: serve_web.AppServer, debug: bool = False) -> None:
        announced.append(self.serving)
        self._announce()

    monkeypatch.setattr(serve_web.AppServer, "serve", record)
    root = tmp_path / f"ws{OSC52}{BIDI}"
    (root / "fixtures/bug-diagnosis/t1").mkdir(parents=True)
    (root / "fixtures/bug-diagnosis/t1/task.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    code, out, err = run(
        capsys, "serve", str(root), "--no-git", "--public-url", "https://example.org/a%1b"
    )
    assert code == 0, err
    assert announced and "ws\\x1b]52;c;aGFja2Vk\\x07\\u202e" in out
    assert_no_raw_control(out, err)
