"""`score` on any gold and run files (docs/cli.md): outside a workspace it scores without checking rule
keys against a catalogue (and says so once); `--catalogue PATH` checks them; inside a workspace its
catalogue is used, as `validate` uses it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.scoring.common import dump, finding, gold_finding, gold_record, payload
from voyage_tui.cli import main

NOT_CHECKED = "rule keys were not checked"


@pytest.fixture
def loose(tmp_path: Path) -> dict[str, Path]:
    """A gold file and a run in a folder no workspace holds, with rule keys of their own."""
    folder = tmp_path / "loose"
    folder.mkdir()
    gold = gold_record(
        [
            gold_finding("a.py", 3, "house-auth-bypass", "BLOCKER"),
            gold_finding("b.py", 9, "house-naming", "MINOR"),
        ]
    )
    run = [
        payload(
            "correctness",
            finding("a.py", 3, "house-auth-bypass", "BLOCKER"),
            finding("c.py", 1, "house-typo", "MINOR"),
        )
    ]
    (folder / "gold.json").write_text(dump(gold), encoding="utf-8")
    (folder / "run.json").write_text(dump(run), encoding="utf-8")
    (tmp_path / "catalogue.yaml").write_text(
        "RULE_CATALOGUE:\n  - house-auth-bypass\n  - house-naming\n  - house-typo\n",
        encoding="utf-8",
    )
    (tmp_path / "other-catalogue.yaml").write_text(
        "RULE_CATALOGUE:\n  - house-auth-bypass\n", encoding="utf-8"
    )
    return {
        "gold": folder / "gold.json",
        "run": folder / "run.json",
        "catalogue": tmp_path / "catalogue.yaml",
        "other": tmp_path / "other-catalogue.yaml",
    }


def test_loose_files_get_figures_and_one_note_that_rule_keys_were_not_checked(loose, capsys):
    code = main(["score", "--gold", str(loose["gold"]), "--run", str(loose["run"])])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "figures    tp 1  fp 1  fn 1" in captured.out
    assert (captured.out + captured.err).count(NOT_CHECKED) == 1
    assert "catalogue  none:" in captured.out


def test_loose_files_as_json_keep_the_spec_keys_and_say_it_once_on_stderr(loose, capsys):
    code = main(
        ["score", "--gold", str(loose["gold"]), "--run", str(loose["run"]), "--format", "json"]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert (data["tp"], data["fp"], data["fn"]) == (1, 1, 1)
    assert NOT_CHECKED not in captured.out
    assert captured.err.count(NOT_CHECKED) == 1


def test_catalogue_option_checks_the_rule_keys(loose, capsys):
    ok = main(
        [
            "score",
            "--gold",
            str(loose["gold"]),
            "--run",
            str(loose["run"]),
            "--catalogue",
            str(loose["catalogue"]),
        ]
    )
    captured = capsys.readouterr()
    assert ok == 0, captured.err
    assert NOT_CHECKED not in captured.out + captured.err
    assert f"catalogue  {loose['catalogue']}" in captured.out

    refused = main(
        [
            "score",
            "--gold",
            str(loose["gold"]),
            "--run",
            str(loose["run"]),
            "--catalogue",
            str(loose["other"]),
        ]
    )
    captured = capsys.readouterr()
    assert refused == 2
    assert captured.out == ""
    assert f"{loose['gold']}:" in captured.err and "unknown-rule-key" in captured.err
    assert "house-naming" in captured.err


def test_a_catalogue_option_that_cannot_be_used_is_bad_input(loose, tmp_path, capsys):
    missing = tmp_path / "nope.yaml"
    args = ["score", "--gold", str(loose["gold"]), "--run", str(loose["run"])]
    assert main([*args, "--catalogue", str(missing)]) == 2
    assert "file-missing" in capsys.readouterr().err
    empty = tmp_path / "empty.yaml"
    empty.write_text("RULE_CATALOGUE: []\n", encoding="utf-8")
    assert main([*args, "--catalogue", str(empty)]) == 2
    assert "catalogue-empty" in capsys.readouterr().err


def test_catalogue_option_wins_over_the_workspace_catalogue(tmp_path, loose, capsys):
    ws = tmp_path / "ws"
    (ws / "fixtures").mkdir(parents=True)
    gold = ws / "corpus" / "gold.json"
    gold.parent.mkdir()
    gold.write_text(loose["gold"].read_text(encoding="utf-8"), encoding="utf-8")
    # the workspace has no catalogue of its own: the default one is its catalogue, as in validate
    assert main(["score", "--gold", str(gold), "--run", str(loose["run"])]) == 2
    assert "unknown-rule-key" in capsys.readouterr().err
    code = main(
        [
            "score",
            "--gold",
            str(gold),
            "--run",
            str(loose["run"]),
            "--catalogue",
            str(loose["catalogue"]),
        ]
    )
    assert code == 0, capsys.readouterr().err


# --- one loader: `score` refuses a gold file with exactly the errors `validate` lists -------------

BROKEN_GOLD = {
    "severity-lower-case": dump(gold_record([gold_finding("a.py", 3, "off-by-one", "blocker")])),
    "unknown-rule-key": dump(gold_record([gold_finding("a.py", 3, "off-by-on", "MAJOR")])),
    "verdict-mismatch": dump(
        gold_record([gold_finding("a.py", 3, "off-by-one", "MAJOR")], expected="ALLOW")
    ),
    "duplicate-key": dump(gold_record([])).replace(
        '"source": "tests",', '"source": "tests",\n  "source": "again",'
    ),
    "json-syntax": '{"schema": "voyage-eval-gold/1", "findings": [}\n',
}


@pytest.mark.parametrize("case", BROKEN_GOLD)
def test_score_refuses_a_gold_file_with_the_errors_validate_lists(case, make_workspace, capsys):
    from voyage_tui.engine.validation.suite import Suite

    rel = "corpus/gold.json"
    root = make_workspace({rel: BROKEN_GOLD[case], "corpus/runs/r.json": dump([])})
    listed = {
        (d.line, d.column, d.code)
        for d in Suite.open(root, use_git=False).diagnostics_for(rel)
        if d.severity.value == "error"
    }
    assert listed, "validate lists the gold file's errors"
    assert (
        main(["score", "--gold", str(root / rel), "--run", str(root / "corpus/runs/r.json")]) == 2
    )
    err = capsys.readouterr().err
    refused = {
        (int(line), int(column), code)
        for line, column, code in re.findall(r"gold\.json:(\d+):(\d+): error ([a-z-]+):", err)
    }
    assert refused == listed
