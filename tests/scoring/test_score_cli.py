"""`voyage-tui score`: output shapes, exit codes, bad inputs, catalogue resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.sample import SAMPLE_ROOT
from tests.scoring.common import (
    SAMPLE_GOLD,
    SAMPLE_RUNS,
    dump,
    finding,
    gold_finding,
    gold_record,
    payload,
)
from voyage_tui.cli import main

DEFAULT_CATALOGUE = REPO / "voyage_tui" / "defaults" / "rule-catalogue.yaml"

SPEC_KEYS = [
    "tp",
    "fp",
    "fn",
    "precision",
    "recall",
    "f1",
    "matched",
    "missed",
    "spurious",
    "run_verdict",
    "expected_verdict",
    "verdict_match",
    "invalid_findings",
]


def score(*args: str) -> list[str]:
    return ["score", *args]


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    """A gold file outside any workspace (the default catalogue applies) and a few runs."""
    gold = gold_record(
        [
            gold_finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
            gold_finding("a.py", 9, "jwt-no-expiry", "MAJOR"),
            gold_finding(
                "b.py", 0, "error-swallowed", "MINOR", dual_flaggable="missing-auth-check"
            ),
        ]
    )
    runs = {
        "perfect": [
            payload(
                "correctness",
                finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
                finding("a.py", 9, "jwt-no-expiry", "MAJOR"),
            ),
            payload("conformance", finding("b.py", 0, "error-swallowed", "MINOR")),
        ],
        "mixed": [
            payload(
                "correctness",
                finding("a.py", 4, "jwt-alg-none", "MAJOR"),
                finding("b.py", 1, "missing-auth-check", "MINOR"),
                finding("c.py", 1, "ssrf", "MINOR"),
                {"file": "a.py", "rule_key": "jwt-no-expiry"},
            )
        ],
        "warn": [
            payload(
                "correctness",
                finding("a.py", 3, "jwt-alg-none", "MAJOR"),
                finding("a.py", 9, "jwt-no-expiry", "MAJOR"),
                finding("b.py", 0, "error-swallowed", "MINOR"),
            )
        ],
    }
    out = {"gold": write(tmp_path, "corpus/gold.json", dump(gold))}
    for name, data in runs.items():
        out[name] = write(tmp_path, f"corpus/runs/{name}.json", dump(data))
    return out


def run_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(score(*args, "--format", "json"))
    return code, json.loads(capsys.readouterr().out)


def test_json_has_exactly_the_spec_keys(corpus, capsys):
    code, data = run_json(capsys, "--gold", str(corpus["gold"]), "--run", str(corpus["mixed"]))
    assert code == 0
    assert list(data) == [*SPEC_KEYS, "match"]
    assert data["match"] == "dual"
    assert (data["tp"], data["fp"], data["fn"]) == (2, 1, 1)
    assert [m["via"] for m in data["matched"]] == ["rule_key", "dual_flaggable"]
    assert data["missed"] == [{"file": "a.py", "rule_key": "jwt-no-expiry"}]
    assert data["spurious"] == [{"file": "c.py", "rule_key": "ssrf"}]
    (invalid,) = data["invalid_findings"]
    assert (invalid["reviewer"], invalid["payload_index"], invalid["index"]) == (
        "correctness",
        0,
        3,
    )
    assert invalid["line"] > 1  # located in the run file
    assert (data["run_verdict"], data["expected_verdict"], data["verdict_match"]) == (
        "WARN",
        "BLOCK",
        False,
    )


def test_json_with_baseline_adds_one_baseline_object(corpus, capsys):
    code, data = run_json(
        capsys,
        "--gold",
        str(corpus["gold"]),
        "--run",
        str(corpus["mixed"]),
        "--baseline",
        str(corpus["perfect"]),
    )
    assert code == 1
    assert list(data) == [*SPEC_KEYS, "baseline", "match"]
    assert data["baseline"]["lost"] == [{"file": "a.py", "rule_key": "jwt-no-expiry"}]
    assert data["baseline"]["verdict_flip"] == {"from": "BLOCK", "to": "WARN"}
    assert data["baseline"]["regression"] is True


def test_text_report_reads_without_colour(corpus, capsys):
    code = main(score("--gold", str(corpus["gold"]), "--run", str(corpus["mixed"])))
    out = capsys.readouterr().out
    assert code == 0
    assert "\033[" not in out
    assert "figures    tp 2  fp 1  fn 1   precision 0.667  recall 0.667  f1 0.667" in out
    assert "verdict    run WARN, expected BLOCK: MISMATCH" in out
    rows = [line for line in out.splitlines() if line[:2] in ("= ", "~ ", "- ", "+ ", "! ")]
    assert [r[0] for r in rows] == ["=", "~", "-", "+", "!"]
    assert "via missing-auth-check" in rows[1]
    assert "severity gold BLOCKER, run MAJOR; line 3 vs 4" in rows[0]
    assert f"{corpus['mixed']}:" in rows[4] and "findings[3] of reviewer 'correctness'" in rows[4]
    assert out.rstrip().endswith("result: pass")


@pytest.mark.parametrize("min_f1, code", [("0.5", 0), ("0.6666", 0), ("0.7", 1), ("1", 1)])
def test_min_f1(corpus, capsys, min_f1, code):
    assert (
        main(
            score("--gold", str(corpus["gold"]), "--run", str(corpus["mixed"]), "--min-f1", min_f1)
        )
        == code
    )
    out = capsys.readouterr().out
    assert ("result: FAIL: f1 0.667 is below --min-f1" in out) == (code == 1)


def test_perfect_run_passes_min_f1_1(corpus, capsys):
    assert (
        main(score("--gold", str(corpus["gold"]), "--run", str(corpus["perfect"]), "--min-f1", "1"))
        == 0
    )


@pytest.mark.parametrize(
    "run, baseline, code, expect",
    [
        ("mixed", "perfect", 1, "REGRESSION: lost (a.py, jwt-no-expiry)"),
        ("perfect", "mixed", 0, "gained           a.py  jwt-no-expiry"),
        ("warn", "perfect", 0, "verdict  BLOCK -> WARN"),  # BLOCK -> WARN is not a regression
        ("perfect", "perfect", 0, "no regression"),
    ],
)
def test_baseline_exit_codes(corpus, capsys, run, baseline, code, expect):
    assert (
        main(
            score(
                "--gold",
                str(corpus["gold"]),
                "--run",
                str(corpus[run]),
                "--baseline",
                str(corpus[baseline]),
            )
        )
        == code
    )
    assert expect in capsys.readouterr().out


def test_block_to_allow_flip_exits_1_on_the_sample(capsys):
    code = main(
        score(
            "--gold",
            str(SAMPLE_GOLD),
            "--run",
            str(SAMPLE_RUNS / "run-downgraded.json"),
            "--baseline",
            str(SAMPLE_RUNS / "run-perfect.json"),
        )
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "REGRESSION: verdict flipped BLOCK -> ALLOW" in out


# --- bad inputs: exit 2, with the file and the line -------------------------------------------------


def bad(capsys, *args: str) -> str:
    assert main(score(*args)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_missing_file(corpus, capsys, tmp_path):
    err = bad(capsys, "--gold", str(tmp_path / "nope.json"), "--run", str(corpus["perfect"]))
    assert f"{tmp_path / 'nope.json'}: error file-missing: no such file" in err


def test_run_not_json_names_file_line_and_column(corpus, capsys, tmp_path):
    broken = write(tmp_path, "broken.json", '[\n  {"reviewer": "r",\n   "findings": [}\n]\n')
    err = bad(capsys, "--gold", str(corpus["gold"]), "--run", str(broken))
    assert f"{broken}:3:" in err and "json-syntax" in err


def test_run_not_a_list(corpus, capsys, tmp_path):
    obj = write(tmp_path, "obj.json", '{"reviewer": "r", "findings": []}\n')
    err = bad(capsys, "--gold", str(corpus["gold"]), "--run", str(obj))
    assert f"{obj}:1:1: error run-not-list" in err


def test_baseline_not_a_list(corpus, capsys, tmp_path):
    obj = write(tmp_path, "obj.json", '"nothing"\n')
    err = bad(
        capsys,
        "--gold",
        str(corpus["gold"]),
        "--run",
        str(corpus["perfect"]),
        "--baseline",
        str(obj),
    )
    assert f"{obj}:1:1: error run-not-list" in err


def test_run_invalid_utf8(corpus, capsys, tmp_path):
    raw = write(tmp_path, "raw.json", b'[{"reviewer": "\xff"}]')
    err = bad(capsys, "--gold", str(corpus["gold"]), "--run", str(raw))
    assert f"{raw}:1:" in err and "invalid-utf8" in err


def test_duplicate_keys_in_a_run_are_bad_input(corpus, capsys, tmp_path):
    dup = write(tmp_path, "dup.json", '[{"reviewer": "a", "reviewer": "b", "findings": []}]\n')
    err = bad(capsys, "--gold", str(corpus["gold"]), "--run", str(dup))
    assert "duplicate-key" in err


def test_a_folder_is_bad_input(corpus, capsys, tmp_path):
    err = bad(capsys, "--gold", str(corpus["gold"]), "--run", str(tmp_path))
    assert "not-a-regular-file" in err


def test_gold_that_is_not_a_gold_record(corpus, capsys, tmp_path):
    other = write(
        tmp_path, "other.json", '{\n  "schema": "something-else/1",\n  "findings": []\n}\n'
    )
    err = bad(capsys, "--gold", str(other), "--run", str(corpus["perfect"]))
    assert f"{other}:2:13: error not-gold" in err and "'something-else/1'" in err
    listed = write(tmp_path, "list.json", "[]\n")
    err = bad(capsys, "--gold", str(listed), "--run", str(corpus["perfect"]))
    assert f"{listed}:1:1: error not-gold" in err and "not a JSON object" in err


def test_gold_run_swapped_is_caught(corpus, capsys):
    err = bad(capsys, "--gold", str(corpus["perfect"]), "--run", str(corpus["gold"]))
    assert "not-gold" in err


def test_gold_with_errors_is_refused_with_every_diagnostic(corpus, capsys, tmp_path):
    record = gold_record([gold_finding("a.py", -1, "jwt-alg-nope", "BLOCKER")], expected="ALLOW")
    path = write(tmp_path, "gold.json", dump(record))
    err = bad(
        capsys,
        "--gold",
        str(path),
        "--run",
        str(corpus["perfect"]),
        "--catalogue",
        str(DEFAULT_CATALOGUE),
    )
    for code in ("verdict-mismatch", "unknown-rule-key", "value-out-of-range"):
        assert code in err
    assert "did you mean `jwt-alg-none`" in err
    assert "is not a valid gold record (3 errors)" in err


def test_gold_warnings_go_to_stderr_and_scoring_goes_on(corpus, capsys, tmp_path):
    record = gold_record(
        [
            gold_finding("a.py", 1, "jwt-alg-none", "BLOCKER"),
            gold_finding("a.py", 2, "jwt-alg-none", "MAJOR"),
        ]
    )
    path = write(tmp_path, "gold.json", dump(record))
    code = main(score("--gold", str(path), "--run", str(corpus["perfect"]), "--format", "json"))
    captured = capsys.readouterr()
    assert code == 0
    assert "duplicate-finding-key" in captured.err
    assert json.loads(captured.out)["tp"] == 1


@pytest.mark.parametrize("value", ["1.5", "-0.1", "abc"])
def test_min_f1_must_be_a_number_between_0_and_1(corpus, capsys, value):
    with pytest.raises(SystemExit) as exc:
        main(
            score("--gold", str(corpus["gold"]), "--run", str(corpus["perfect"]), "--min-f1", value)
        )
    assert exc.value.code == 2
    assert "--min-f1" in capsys.readouterr().err


def test_gold_and_run_are_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "--run", "x.json"])
    assert exc.value.code == 2


# --- the catalogue: --catalogue, else the gold's workspace's, else none (not checked) ---------


def test_workspace_catalogue_is_used_for_a_gold_inside_it(tmp_path, capsys):
    ws = tmp_path / "ws"
    write(ws, "voyage.toml", "")
    write(ws, "references/rule-catalogue.yaml", "RULE_CATALOGUE:\n  - house-rule\n")
    record = gold_record([gold_finding("a.py", 1, "house-rule", "MAJOR")])
    gold = write(ws, "corpus/gold.json", dump(record))
    run = write(
        ws, "corpus/runs/r.json", dump([payload("r", finding("a.py", 1, "house-rule", "MAJOR"))])
    )
    assert main(score("--gold", str(gold), "--run", str(run))) == 0
    out = capsys.readouterr().out
    assert "catalogue  " in out and "references/rule-catalogue.yaml" in out

    # The same gold outside any workspace: no catalogue, so its rule keys are not checked; the
    # default catalogue (which lacks the key) applies only when named.
    outside = write(tmp_path, "loose/gold.json", dump(record))
    assert main(score("--gold", str(outside), "--run", str(run))) == 0
    assert "rule keys were not checked" in capsys.readouterr().out
    err = bad(
        capsys, "--gold", str(outside), "--run", str(run), "--catalogue", str(DEFAULT_CATALOGUE)
    )
    assert "unknown-rule-key" in err


def test_no_catalogue_outside_a_workspace(corpus, capsys):
    assert main(score("--gold", str(corpus["gold"]), "--run", str(corpus["perfect"]))) == 0
    assert "catalogue  none: rule keys were not checked" in capsys.readouterr().out


def test_score_loads_no_textual(corpus):
    import subprocess
    import sys

    code = (
        "import sys; from voyage_tui.cli import main; "
        f"rc = main(['score', '--gold', {str(corpus['gold'])!r}, '--run', {str(corpus['perfect'])!r}, '--format', 'json']); "
        "assert not any(m == 'textual' or m.startswith('textual.') for m in sys.modules), 'textual loaded'; "
        "sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- helpers of the command: the JSON writer --------------------------------


def test_invalid_finding_positions_agree_with_validate(capsys):
    from voyage_tui.engine.validation.suite import Suite

    run = SAMPLE_RUNS / "run-invalid-finding.json"
    main(score("--gold", str(SAMPLE_GOLD), "--run", str(run), "--format", "json"))
    located = [
        (i["line"], i["column"]) for i in json.loads(capsys.readouterr().out)["invalid_findings"]
    ]
    rel = "fixtures/gold/jwt-auth/runs/run-invalid-finding.json"
    reported = [
        (d.line, d.column)
        for d in Suite.open(SAMPLE_ROOT, use_git=False).diagnostics_for(rel)
        if d.code == "invalid-finding"
    ]
    assert located == reported == [(7, 43), (9, 92)]


def test_dump_report_is_the_same_json():
    from voyage_tui.cli.score_cmd import dump_report

    payload_ = {
        "a": 1,
        "b": [],
        "c": [{"x": "é"}, {"y": [1, 2]}],
        "d": {"e": [1], "f": None, "g": {}},
        "h": {},
    }
    text = dump_report(payload_)
    assert json.loads(text) == payload_
    assert '\n    {"x": "é"},\n' in text and text.endswith("}\n")
