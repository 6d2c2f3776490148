"""`voyage-tui judge align` (SPEC 3.11): its figures against scikit-learn's quadratic kappa
and the krippendorff package, its intervals, its undefined figures, and --min-kappa."""

from __future__ import annotations

import json
import math
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import krippendorff
import numpy as np
import pytest

from tests.conftest import MakeWorkspace
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import main
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.judging.align import align
from voyage_tui.engine.workspace.model import Workspace

FIXTURES = [f"t{i}" for i in range(12)]
RUNS = {f: ["run-a", "run-b"] for f in FIXTURES}
ITEMS = [(f, r) for f in FIXTURES for r in RUNS[f]]
SCALE = [1, 2, 3, 4, 5]
SHA = "cd" * 32


def _scores() -> dict[str, dict[tuple[str, str], int]]:
    rnd = random.Random(7)
    truth = {item: rnd.randint(1, 5) for item in ITEMS}
    out: dict[str, dict[tuple[str, str], int]] = {}
    for person, noise in (("alice", 1), ("bob", 1), ("carol", 2)):
        out[person] = {
            item: min(5, max(1, truth[item] + rnd.randint(-noise, noise)))
            for i, item in enumerate(ITEMS)
            if (i + len(person)) % 4 != 0  # each person leaves some items out
        }
    for repeat in (1, 2):
        out[f"judge{repeat}"] = {
            item: min(5, max(1, truth[item] + rnd.choice([-1, 0, 0, 1]))) for item in ITEMS[:-3]
        }
    return out


SCORES = _scores()


def files(people: tuple[str, ...] = ("alice", "bob", "carol")) -> dict[str, str]:
    out = workspace_files(RUNS)
    for person in people:
        out[f"ratings/{person}.jsonl"] = jsonl(
            *(
                record(f, r, person, {"correctness": s, "scope": 3})
                for (f, r), s in SCORES[person].items()
            )
        )
    judged = []
    for repeat in (1, 2):
        for (f, r), s in SCORES[f"judge{repeat}"].items():
            judged.append(
                record(
                    f,
                    r,
                    "robo",
                    {"correctness": s, "scope": 3},
                    rater_kind="program",
                    judge={"command_sha256": SHA, "repeat": repeat},
                )
            )
    out["ratings/robo.jsonl"] = jsonl(*judged)
    return out


def report(root: Path) -> Any:
    return align(load_campaign(WorkTree(Workspace.load(root))), "robo")


def judge_score(item: tuple[str, str]) -> int | None:
    runs = [SCORES[f"judge{k}"][item] for k in (1, 2) if item in SCORES[f"judge{k}"]]
    return math.floor(sum(runs) / len(runs) + 0.5) if runs else None


def test_the_figures_are_the_references(make_workspace: MakeWorkspace) -> None:
    from sklearn.metrics import cohen_kappa_score  # a reference, imported by its test only

    got = report(make_workspace(files())).dimensions["correctness"]
    people = ["alice", "bob", "carol"]
    shared = [
        i for i in ITEMS if judge_score(i) is not None and any(i in SCORES[p] for p in people)
    ]
    assert got.items == len(shared)

    def kappa(a: dict[Any, int], b: dict[Any, int]) -> float:
        both = [i for i in shared if i in a and i in b]
        return float(
            cohen_kappa_score(
                [a[i] for i in both], [b[i] for i in both], weights="quadratic", labels=SCALE
            )
        )

    judged = {i: judge_score(i) for i in shared}
    assert got.judge_kappa == pytest.approx(
        np.mean([kappa(judged, SCORES[p]) for p in people]),
        abs=1e-12,  # type: ignore[arg-type]
    )
    assert got.human_kappa == pytest.approx(
        np.mean([kappa(SCORES[p], SCORES[q]) for p, q in combinations(people, 2)]), abs=1e-12
    )
    data = np.array(
        [[SCORES[f"judge{k}"].get(i, np.nan) for i in shared] for k in (1, 2)], dtype=float
    )
    assert got.self_kappa == pytest.approx(
        krippendorff.alpha(
            reliability_data=data, level_of_measurement="ordinal", value_domain=SCALE
        ),
        abs=1e-12,
    )
    means = {i: np.mean([SCORES[p][i] for p in people if i in SCORES[p]]) for i in shared}
    assert got.bias == pytest.approx(np.mean([judged[i] - means[i] for i in shared]))  # type: ignore[operator]
    rounded = {i: math.floor(means[i] + 0.5) for i in shared}
    assert got.exact == pytest.approx(np.mean([judged[i] == rounded[i] for i in shared]))
    assert sum(map(sum, got.confusion)) == len(shared)
    for i in shared:
        assert got.confusion[SCALE.index(judged[i])][SCALE.index(rounded[i])] > 0  # type: ignore[arg-type]
    for ci, point in ((got.judge_kappa_ci, got.judge_kappa), (got.human_kappa_ci, got.human_kappa)):
        assert ci is not None and ci[0] <= point <= ci[1] and ci[0] < ci[1]
    assert got.reasons == {}


def test_the_intervals_are_seeded(make_workspace: MakeWorkspace) -> None:
    root = make_workspace(files())
    assert report(root).to_json() == report(root).to_json()


def test_undefined_figures_are_null_with_a_reason_never_nan(
    make_workspace: MakeWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace(files(people=("alice",)))
    assert main(["judge", "align", str(root), "--format", "json"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text
    payload = json.loads(text)
    assert payload["judge"] == "robo"
    scope = payload["dimensions"]["scope"]  # everyone scores 3 throughout
    assert scope["judge_kappa"] is None and scope["judge_kappa_ci"] is None
    assert "judge_kappa" in scope["reasons"]
    correctness = payload["dimensions"]["correctness"]
    assert correctness["human_kappa"] is None
    assert "fewer than two people" in correctness["reasons"]["human_kappa"]
    assert correctness["judge_kappa"] is not None
    assert set(correctness) >= {
        "items", "judge_kappa", "judge_kappa_ci", "human_kappa", "human_kappa_ci",
        "bias", "exact", "confusion", "self_kappa",
    }  # fmt: skip


def test_min_kappa_exit_codes(
    make_workspace: MakeWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace(files())
    low = report(root).dimensions["correctness"].judge_kappa_ci[0]
    assert main(["judge", "align", str(root), "--min-kappa", f"{low - 0.01}"]) == 0
    capsys.readouterr()
    assert main(["judge", "align", str(root), "--min-kappa", f"{low + 0.01}"]) == 1
    assert "below" in capsys.readouterr().err
    for fmt in ("text", "md"):
        assert main(["judge", "align", str(root), "--format", fmt]) == 0
        assert "correctness" in capsys.readouterr().out


def test_only_the_latest_command_counts(make_workspace: MakeWorkspace, tmp_path: Path) -> None:
    without = report(make_workspace(files())).to_json()
    base = files()
    # an earlier command's answers (all 1s), on every item, the three the current one left out
    # too: none of them may count
    old = jsonl(
        *(
            record(f, r, "robo", {"correctness": 1, "scope": 1}, rater_kind="program",
                   judge={"command_sha256": "00" * 32, "repeat": 3})
            for f, r in ITEMS
        )
    )  # fmt: skip
    base["ratings/robo.jsonl"] = old + base["ratings/robo.jsonl"]
    (tmp_path / "ws").rename(tmp_path / "first")
    with_old = report(make_workspace(base)).to_json()
    assert with_old["command_sha256"] == SHA
    assert with_old == without


def test_no_judge_or_an_unknown_one_is_exit_2(
    make_workspace: MakeWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace(workspace_files(RUNS))
    assert main(["judge", "align", str(root)]) == 2
    assert "there is none" in capsys.readouterr().err
    root2 = make_workspace(files())
    assert main(["judge", "align", str(root2), "--judge", "nobody"]) == 2
