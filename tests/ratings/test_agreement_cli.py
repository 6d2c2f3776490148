"""`voyage-tui agreement`: its JSON shape, its exit codes, the sample workspace, no Textual."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLE_FIXTURES
from tests.ratings.common import jsonl, record, workspace_files
from tests.sample import copy_sample_into
from tests.test_no_textual import probe
from voyage_tui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["agreement", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def two_raters(make_workspace, **extra_files: str):
    return make_workspace(
        {
            **workspace_files(),
            "ratings/alice.jsonl": jsonl(
                record("t1", "run-a", "alice", {"correctness": 5, "scope": 5}),
                record("t1", "run-b", "alice", {"correctness": 2, "scope": 1}, note="too big"),
                record("t2", "run-a", "alice", {"correctness": 4, "scope": 3}),
            ),
            "ratings/bob.jsonl": jsonl(
                record("t1", "run-a", "bob", {"correctness": 4, "scope": 5}),
                record("t1", "run-b", "bob", {"correctness": 1, "scope": 5}, note="fine size"),
                record("t2", "run-a", "bob", {"correctness": 4, "scope": 3}),
            ),
            **extra_files,
        }
    )


def test_json_has_the_spec_shape(make_workspace, capsys):
    root = two_raters(make_workspace)
    code, out, _ = run(capsys, str(root), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert set(payload) == {
        "raters",
        "dimensions",
        "pairs",
        "pairs_omitted",
        "disputed",
        "calibration",
    }
    assert payload["raters"] == ["alice", "bob"]
    assert list(payload["dimensions"]) == ["correctness", "scope"]
    for figures in payload["dimensions"].values():
        assert set(figures) == {"alpha", "items", "ratings", "reason"}
        assert (figures["items"], figures["ratings"]) == (3, 6)
    assert [(p["raters"], p["dimension"], p["items"]) for p in payload["pairs"]] == [
        (["alice", "bob"], "correctness", 3),
        (["alice", "bob"], "scope", 3),
    ]
    top = payload["disputed"][0]
    assert (top["fixture_id"], top["run_id"], top["spread"]) == ("t1", "run-b", 4)
    assert [r["note"] for r in top["ratings"]] == ["too big", "fine size"]


def test_text_names_the_figures_and_the_disputed_items(make_workspace, capsys):
    root = two_raters(make_workspace)
    code, out, _ = run(capsys, str(root))
    assert code == 0
    assert "Krippendorff's alpha" in out and "Cohen's kappa" in out
    assert "t1 / run-b: spread 4 (scope)" in out
    assert "“fine size”" in out


def test_min_alpha_fails_ci_when_a_dimension_is_below_it(make_workspace, capsys):
    root = two_raters(make_workspace)
    payload = json.loads(run(capsys, str(root), "--format", "json")[1])
    scope = payload["dimensions"]["scope"]["alpha"]
    correctness = payload["dimensions"]["correctness"]["alpha"]
    assert scope < correctness
    code, _, err = run(capsys, str(root), "--min-alpha", str(scope + 0.01))
    assert code == 1
    assert "scope" in err and "correctness" not in err
    assert run(capsys, str(root), "--min-alpha", str(scope - 0.01))[0] == 0


def test_an_undefined_alpha_is_null_not_nan_and_does_not_fail_min_alpha(make_workspace, capsys):
    root = make_workspace(
        {**workspace_files(), "ratings/alice.jsonl": jsonl(record(), record(run_id="run-b"))}
    )
    code, out, _ = run(capsys, str(root), "--format", "json", "--min-alpha", "0.9")
    assert code == 0
    assert "NaN" not in out
    payload = json.loads(out)
    assert payload["dimensions"]["correctness"]["alpha"] is None
    assert payload["dimensions"]["correctness"]["reason"] == "only one rater scored this dimension"
    assert payload["pairs"] == []


def test_no_ratings_yet(make_workspace, capsys):
    root = make_workspace(workspace_files())
    code, out, _ = run(capsys, str(root))
    assert code == 0
    assert "No ratings yet" in out
    code, out, _ = run(capsys, str(root), "--format", "json")
    assert json.loads(out)["raters"] == []


def test_records_with_errors_are_left_out_and_said_so(make_workspace, capsys):
    root = two_raters(
        make_workspace,
        **{"ratings/carol.jsonl": jsonl(record(rater="carol", scores={"correctness": 9}))},
    )
    code, out, err = run(capsys, str(root), "--format", "json")
    assert code == 0
    assert json.loads(out)["raters"] == ["alice", "bob"]
    assert "1 problem in the ratings files" in err and "validate" in err


def test_an_unreadable_ratings_file_exits_2(make_workspace, capsys):
    root = two_raters(make_workspace, **{"voyage.toml": "[limits]\nmax_file_bytes = 300\n"})
    code, out, err = run(capsys, str(root), "--format", "json")
    assert code == 2
    assert json.loads(out)["raters"] == []
    assert "file-too-large" in err


@pytest.mark.parametrize(
    "argv",
    [["--min-alpha", "nan"], ["--min-alpha", "x"], ["--format", "xml"], ["--disputed", "-1"]],
)
def test_usage_errors_exit_2(make_workspace, capsys, argv):
    root = two_raters(make_workspace)
    with pytest.raises(SystemExit) as info:
        main(["agreement", str(root), *argv])
    assert info.value.code == 2


def test_no_workspace_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, str(tmp_path))
    assert code == 2 and "voyage-tui:" in err


def test_a_note_cannot_steer_the_terminal(make_workspace, capsys):
    evil = "\x1b]0;pwned\x07\x1b[2J"
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/alice.jsonl": jsonl(record(scores={"correctness": 1, "scope": 1}, note=evil)),
            "ratings/bob.jsonl": jsonl(record(rater="bob", scores={"correctness": 5, "scope": 5})),
        }
    )
    code, out, _ = run(capsys, str(root))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;pwned" in out


@pytest.mark.skipif(not SAMPLE_FIXTURES.is_dir(), reason="the sample workspace is not there")
def test_the_sample_workspace_shows_real_agreement(capsys, tmp_path):
    root = tmp_path / "sample"
    root.mkdir()
    copy_sample_into(root)
    code, out, err = run(capsys, str(root), "--format", "json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["raters"] == ["alice", "bob", "carol"]
    for name, figures in payload["dimensions"].items():
        assert figures["alpha"] is not None and 0 < figures["alpha"] < 1, name
        assert figures["items"] >= 8
    assert all(p["kappa"] is not None for p in payload["pairs"])
    assert len({tuple(p["raters"]) for p in payload["pairs"]}) == 3
    assert payload["disputed"][0]["spread"] >= 2
    assert err == ""


def test_agreement_loads_no_textual_module(make_workspace):
    root = two_raters(make_workspace)
    result = probe(["agreement", str(root), "--format", "json"])
    assert result["code"] == 0
    assert result["printed"]
    assert result["textual"] == []


# --- many raters (issue 18, item 8) -------------------------------------------------------------


def crowd_workspace(make_workspace, raters: int, items: int = 12):
    """`raters` raters, each scoring every one of `items` runs; each rater with a bias."""
    import random

    rng = random.Random(18)
    runs = [f"run-{i:02d}" for i in range(items)]
    files = workspace_files({"t1": runs})
    for r in range(raters):
        name = f"rater-{r:04d}"
        bias = rng.choice((-1, 0, 0, 1))
        files[f"ratings/{name}.jsonl"] = jsonl(
            *(
                record(
                    "t1",
                    run,
                    name,
                    {
                        "correctness": min(5, max(1, 1 + i % 5 + bias)),
                        "scope": rng.choice((1, 3, 5)),
                    },
                )
                for i, run in enumerate(runs)
            )
        )
    return make_workspace(files)


def test_many_raters_are_summarised_not_listed(make_workspace, capsys):
    """The issue's 1,000 raters printed 458 MB of JSON: every pair of raters, listed. Past ten
    raters the pairs are the 50 lowest kappas per dimension, and the rest is counted."""
    root = crowd_workspace(make_workspace, 120)
    code, out, _ = run(capsys, str(root), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert len(out) < 200_000  # every pair listed would be ~1.7 MB
    assert len(payload["pairs"]) <= 100
    pairs = 120 * 119 // 2
    assert payload["pairs_omitted"]["count"] == pairs * 2 - len(payload["pairs"])
    assert "50 lowest kappas" in payload["pairs_omitted"]["reason"]
    assert set(payload["dimensions"]) == {"correctness", "scope"}
    code, text, _ = run(capsys, str(root))
    assert code == 0
    assert f"{pairs * 2 - len(payload['pairs']):,} (pair, dimension) figures not listed" in text
    assert len(text) < 200_000


LONG_NAMES = ["Firstname Lastname", "Firstname Lastname-Other", "Firstname Other"]


def long_named_raters(make_workspace):
    """Three raters with long names who all give scope the same 3 (every scope figure is
    undefined, for the same reason) and differ on correctness."""
    files = workspace_files()
    for index, name in enumerate(LONG_NAMES):
        files[f"ratings/{name}.jsonl"] = jsonl(
            *(
                record(fixture, run, name, {"correctness": 1 + (index + n) % 5, "scope": 3})
                for n, (fixture, run) in enumerate(
                    [("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a")]
                )
            )
        )
    return make_workspace(files)


def test_long_names_get_labels_a_legend_and_each_reason_once(make_workspace, capsys):
    from voyage_tui.engine.ratings.agreement import ALL_SAME

    root = long_named_raters(make_workspace)
    code, out, _ = run(capsys, str(root))
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)
    assert out.count(ALL_SAME) == 1  # said once, not on every row it explains
    for label, name in [("FL", LONG_NAMES[0]), ("FLO", LONG_NAMES[1]), ("FO", LONG_NAMES[2])]:
        assert any(line.split()[:1] == [label] and name in line for line in lines), name
    pair_rows = [line.split()[:3] for line in lines if " · " in line and "kappa" not in line]
    assert [row for row in pair_rows if row[1:2] == ["·"]] == [
        ["FL", "·", "FLO"],
        ["FL", "·", "FO"],
        ["FLO", "·", "FO"],
    ]
    # the JSON keeps the names (SPEC 6): the labels are the text's and the screen's
    payload = json.loads(run(capsys, str(root), "--format", "json")[1])
    assert payload["raters"] == LONG_NAMES
    assert payload["pairs"][0]["raters"] == LONG_NAMES[:2]
    assert "labels" not in payload
