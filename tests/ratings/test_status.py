"""`voyage-tui ratings status` (SPEC 6) and the engine behind it (engine/ratings/status.py): on
workspaces built here, every figure checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ratings.common import jsonl, rating, record, workspace_files
from voyage_tui.cli import main
from voyage_tui.engine.ratings.assignment import Assignment
from voyage_tui.engine.ratings.status import campaign_status, pace

RUNS = {"t1": ["run-a", "run-b"], "t2": ["run-a", "run-b"]}
# Assigned by hand in tests/ratings/test_assignment.py (team ann, ben, cat; overlap 2):
# t1/run-a ben+ann, t1/run-b ben+ann, t2/run-a cat+ben, t2/run-b ben+cat. Once the ratings
# below are in (SPEC 3.9, amended), ann holds a place on t2/run-a (she rated it; ben's is
# retracted), so t2/run-a is cat+ann; zed is outside the team and holds none.
RATINGS = {
    "ann": [
        record("t1", "run-a", "ann", duration_s=100.0),  # superseded by the next line
        record("t1", "run-a", "ann", duration_s=30.0),
        record("t2", "run-a", "ann", duration_s=90.0),  # not assigned to ann: pace only
    ],
    "ben": [
        record("t1", "run-a", "ben", duration_s=20.0),
        record("t1", "run-b", "ben", duration_s=40.0),
        record("t2", "run-b", "ben"),  # no duration_s: done, but no pace
        record("t2", "run-a", "ben", duration_s=5.0),
        record("t2", "run-a", "ben", scores=None),  # retracted: neither done nor pace
    ],
    "zed": [record("t1", "run-b", "zed", duration_s=10.0)],  # outside the team
}
TEAM = '[rating]\nraters = ["ann", "ben", "cat"]\noverlap = 2\n'


def build(make_workspace, config: str = TEAM, extra: dict[str, str] | None = None) -> Path:
    files = workspace_files(RUNS)
    files["voyage.toml"] = config
    for rater, records in RATINGS.items():
        files[f"ratings/{rater}.jsonl"] = jsonl(*records)
    files.update(extra or {})
    return make_workspace(files)


def status_cli(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["ratings", "status", str(root), *args])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def test_every_figure_with_a_team(make_workspace, capsys) -> None:
    code, out, err = status_cli(build(make_workspace), capsys, "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "overlap": 2,
        # t1/run-a: ann, ben; t1/run-b: ben, zed; t2/run-a: ann; t2/run-b: ben
        "items": {"total": 4, "complete": 2},
        "raters": {
            # done t1/run-a, t2/run-a (rated: hers); left t1/run-b; durations 30, 90
            "ann": {
                "assigned": 3,
                "done": 2,
                "left": 1,
                "median_s": 60.0,
                "per_hour": 60.0,
                "too_fast": 0,
            },
            # done t1/run-a, t1/run-b, t2/run-b (t2/run-a's places: cat, ann); durations 20, 40
            "ben": {
                "assigned": 3,
                "done": 3,
                "left": 0,
                "median_s": 30.0,
                "per_hour": 120.0,
                "too_fast": 0,
            },
            "cat": {
                "assigned": 2,
                "done": 0,
                "left": 2,
                "median_s": None,
                "per_hour": None,
                "too_fast": 0,
            },
            "zed": {
                "assigned": 0,
                "done": 0,
                "left": 0,
                "median_s": 10.0,
                "per_hour": 360.0,
                "too_fast": 0,
            },
        },
    }


def test_without_a_team_every_rater_with_a_file_is_assigned_every_item(
    make_workspace, capsys
) -> None:
    root = build(make_workspace, "[rating]\noverlap = 3\n", {"ratings/dan.jsonl": ""})
    code, out, _ = status_cli(root, capsys, "--format", "json")
    assert code == 0
    figures = json.loads(out)
    assert figures["overlap"] == 3
    assert figures["items"] == {"total": 4, "complete": 0}
    assert {
        name: (r["assigned"], r["done"], r["left"]) for name, r in figures["raters"].items()
    } == {
        "ann": (4, 2, 2),
        "ben": (4, 3, 1),
        "dan": (4, 0, 4),
        "zed": (4, 1, 3),
    }
    assert list(figures["raters"]) == ["ann", "ben", "dan", "zed"]


def test_the_text_form_is_a_table_and_names_the_outsider(make_workspace, capsys) -> None:
    code, out, _ = status_cli(build(make_workspace), capsys)
    assert code == 0
    assert out.splitlines() == [
        "Rating campaign: a team of 3 (ann, ben, cat), overlap 2",
        "Items: 4 agent runs, 2 complete (rated by at least 2 raters)",
        "",
        "  rater  assigned      done      left  median s  per hour  too fast",
        "  ann           3         2         1      60.0      60.0         0",
        "  ben           3         3         0      30.0     120.0         0",
        "  cat           2         0         2         —         —         0",
        "  zed           0         0         0      10.0     360.0         0  (not in the team)",
        "",
        "1 rater not in [rating] raters: their ratings count towards `complete`, and nothing is "
        "assigned to them.",
    ]


def test_an_empty_workspace_says_there_is_nobody(make_workspace, capsys) -> None:
    root = make_workspace(workspace_files({}))
    code, out, _ = status_cli(root, capsys)
    assert code == 0
    assert "No ratings yet (in ratings/) and no team" in out
    code, out, _ = status_cli(root, capsys, "--format", "json")
    assert json.loads(out) == {"overlap": 2, "items": {"total": 0, "complete": 0}, "raters": {}}


def test_an_unreadable_ratings_file_exits_2_and_says_which(make_workspace, capsys) -> None:
    too_big = " " * 1_100_000 + "\n"  # over [limits] max_file_bytes: never read
    root = build(make_workspace, extra={"ratings/eve.jsonl": too_big})
    code, out, err = status_cli(root, capsys, "--format", "json")
    assert code == 2
    assert "ratings/eve.jsonl" in err and "file-too-large" in err
    assert json.loads(out)["raters"]["ben"]["done"] == 3  # the rest still counts


def test_a_record_with_an_error_is_left_out_and_said(make_workspace, capsys) -> None:
    bad = jsonl(record("t1", "run-b", "cat", scores={"correctness": 9, "scope": 3}))
    root = build(make_workspace, extra={"ratings/cat.jsonl": bad})
    code, out, err = status_cli(root, capsys, "--format", "json")
    assert code == 0
    assert json.loads(out)["raters"]["cat"]["done"] == 0
    assert "1 problem in the ratings files left records out" in err


def test_no_workspace_and_a_bad_format_exit_2(tmp_path: Path, capsys) -> None:
    assert status_cli(tmp_path / "nowhere", capsys)[0] == 2
    code, _, err = status_cli(tmp_path, capsys, "--format", "csv")
    assert code == 2 and "invalid choice" in err


def test_pace_is_the_median_and_3600_over_the_median() -> None:
    # issue 36 row 4: per hour from the median, so one item left open does not skew the pace
    assert pace([]) == (None, None)
    assert pace([10.0, 20.0, 90.0]) == (20.0, 3600 / 20)
    assert pace([10.0, 20.0]) == (15.0, 240.0)
    assert pace([0.0]) == (0.0, None)  # no time at all: no pace
    assert pace([3.4, 3.7, 934.0]) == (3.7, 3600 / 3.7)  # not 24.8 (3600 over the mean)


def test_ratings_faster_than_min_seconds_are_counted_per_rater(make_workspace, capsys) -> None:
    # issue 36 row 4: five dimensions rated in 3.4 s is flagged; 5 s (the default) is not
    fast = {
        "ann": [
            record("t1", "run-a", "ann", duration_s=3.4),
            record("t1", "run-b", "ann", duration_s=3.7),
            record("t2", "run-a", "ann", duration_s=934.0),
            record("t2", "run-b", "ann", duration_s=5.0),  # at the threshold: not too fast
        ],
        "ben": [record("t1", "run-a", "ben")],  # no duration_s: nothing to say
    }
    files = workspace_files(RUNS)
    files["voyage.toml"] = TEAM
    for rater, records in fast.items():
        files[f"ratings/{rater}.jsonl"] = jsonl(*records)
    root = make_workspace(files)
    code, out, _ = status_cli(root, capsys, "--format", "json")
    assert code == 0
    ann = json.loads(out)["raters"]["ann"]
    assert (ann["median_s"], ann["per_hour"], ann["too_fast"]) == (4.35, 3600 / 4.35, 2)
    assert json.loads(out)["raters"]["ben"]["too_fast"] == 0
    _, text, _ = status_cli(root, capsys)
    assert "  too fast" in text and "2 ratings faster than [rating] min_seconds (5 s)" in text
    (root / "voyage.toml").write_text(TEAM + "min_seconds = 3.5\n")
    _, out, _ = status_cli(root, capsys, "--format", "json")
    assert json.loads(out)["raters"]["ann"]["too_fast"] == 1
    (root / "voyage.toml").write_text(TEAM + "min_seconds = 0\n")  # 0: never too fast
    _, out, _ = status_cli(root, capsys, "--format", "json")
    assert json.loads(out)["raters"]["ann"]["too_fast"] == 0


def test_the_engine_alone_on_pairs_and_ratings() -> None:
    from tests.ratings.common import rating

    pairs = [("t1", "run-a"), ("t1", "run-b")]
    status = campaign_status(
        pairs,
        [rating(fixture_id="t1", run_id="run-a", rater="ann")],
        Assignment.of([], 1),
        ["ann", "bob"],
    )
    assert (status.total, status.complete) == (2, 1)
    assert {n: (r.assigned, r.done, r.left) for n, r in status.raters.items()} == {
        "ann": (2, 1, 1),
        "bob": (2, 0, 2),
    }


def test_ratings_status_loads_no_textual_module(make_workspace) -> None:
    from tests.test_no_textual import probe

    result = probe(["ratings", "status", str(build(make_workspace)), "--format", "json"])
    assert result["code"] == 0 and result["printed"]
    assert result["textual"] == []


def test_ratings_help_lists_both_subcommands(capsys) -> None:
    assert main(["ratings", "--help"]) == 0
    out = capsys.readouterr().out
    assert "  status  " in out and "  export  " in out
    assert main(["ratings"]) == 2
    assert "status" in capsys.readouterr().err
    assert main(["ratings", "stauts"]) == 2
    err = capsys.readouterr().err
    assert "no subcommand 'stauts'; did you mean `status`?" in err
    assert main(["--help"]) == 0
    assert "  ratings  " in capsys.readouterr().out


def test_a_subcommand_missing_from_the_build_is_said(monkeypatch, capsys) -> None:
    from voyage_tui.cli import ratings_cmd

    monkeypatch.setitem(
        ratings_cmd.SUBCOMMANDS, "export", ("voyage_tui.cli.no_such_module_here", "gone")
    )
    assert main(["ratings", "export"]) == 2
    assert "`export` is not in this build" in capsys.readouterr().err


def test_a_rater_spelt_in_another_case_than_the_team_is_counted_once(
    make_workspace, capsys
) -> None:
    """The team says `Ann`, her file and records say `ann` (`--rater ann`): one row, `Ann`'s,
    with her ratings done against the items assigned to `Ann` (membership ignores case)."""
    root = build(make_workspace, TEAM.replace('"ann"', '"Ann"'))
    code, out, _ = status_cli(root, capsys, "--format", "json")
    assert code == 0
    raters = json.loads(out)["raters"]
    assert list(raters) == ["Ann", "ben", "cat", "zed"]
    rated = {("t1", "run-a"), ("t2", "run-a")}
    # her ratings hold her places (SPEC 3.9, amended), spelt `ann` as they are
    held = [rating(fixture_id=f, run_id=r, rater="ann") for f, r in sorted(rated)]
    team = Assignment.of(["Ann", "ben", "cat"], 2).with_ratings(held)
    pairs = [(f, r) for f, runs in RUNS.items() for r in runs]
    assigned = set(team.items_of("Ann", pairs))
    assert rated <= assigned
    done = len(assigned & rated)
    assert raters["Ann"] == {
        "assigned": len(assigned),
        "done": done,
        "left": len(assigned) - done,
        "median_s": 60.0,
        "per_hour": 60.0,
        "too_fast": 0,
    }
    code, out, _ = status_cli(root, capsys)
    assert [line.split()[0] for line in out.splitlines() if "(not in the team)" in line] == ["zed"]
    assert not [line for line in out.splitlines() if line.split()[:1] == ["ann"]]


def test_a_rater_whose_file_is_their_names_slug_is_one_row(make_workspace, capsys) -> None:
    """`firstname-lastname.jsonl` holds "Firstname Lastname"'s ratings: one rater, by name."""
    slugged = jsonl(record("t1", "run-a", "Firstname Lastname", duration_s=12.0))
    root = build(
        make_workspace,
        "[rating]\noverlap = 2\n",
        {"ratings/firstname-lastname.jsonl": slugged, "ratings/other-person.jsonl": ""},
    )
    code, out, _ = status_cli(root, capsys, "--format", "json")
    assert code == 0
    raters = json.loads(out)["raters"]
    assert list(raters) == ["Firstname Lastname", "ann", "ben", "other-person", "zed"]
    assert raters["Firstname Lastname"]["done"] == 1
