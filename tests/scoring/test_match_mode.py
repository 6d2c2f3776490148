"""`--match seed` (SPEC 3.10): matching on (file, rule_key) only, as the seed's scoreFindings does,
so figures can be reproduced by the node test the gold corpus came with; `dual` stays default."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.scoring.common import finding, gold_finding
from tests.scoring.test_score_cli import corpus, score  # noqa: F401  (the fixture)
from voyage_tui.cli import main
from voyage_tui.engine.scoring.scorer import score_findings


def seed_score(run: list[dict], gold: list[dict]) -> tuple[int, int, int]:
    """The seed's scoreFindings (lib/review/gold-scorer.mjs), literally: sets of (file, rule_key),
    intersection and differences, nothing else."""
    run_keys = {(f["file"], f["rule_key"]) for f in run}
    gold_keys = {(f["file"], f["rule_key"]) for f in gold}
    return len(gold_keys & run_keys), len(run_keys - gold_keys), len(gold_keys - run_keys)


GOLD = [
    gold_finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
    gold_finding("b.py", 0, "error-swallowed", "MINOR", dual_flaggable="missing-auth-check"),
]
RUN = [
    finding("a.py", 3, "jwt-alg-none", "BLOCKER"),
    finding("b.py", 0, "missing-auth-check", "MINOR"),
]


def test_dual_flaggable_changes_the_figures_between_the_modes() -> None:
    dual = score_findings(RUN, GOLD)
    seed = score_findings(RUN, GOLD, "seed")
    assert (dual.tp, dual.fp, dual.fn) == (2, 0, 0)
    assert (seed.tp, seed.fp, seed.fn) == (1, 1, 1) == seed_score(RUN, GOLD)
    assert seed.precision == seed.recall == seed.f1 == 0.5
    assert [m.via for m in seed.matched] == ["rule_key"]
    assert [k.key for k in seed.missed] == [("b.py", "error-swallowed")]
    assert [k.key for k in seed.spurious] == [("b.py", "missing-auth-check")]


KEYS = st.tuples(st.sampled_from(["a.py", "b.py"]), st.sampled_from(["x", "y", "z"]))


@given(
    st.lists(st.tuples(KEYS, st.none() | st.sampled_from(["x", "y", "z"])), max_size=6),
    st.lists(KEYS, max_size=6),
)
def test_seed_mode_is_the_seed_s_set_arithmetic(gold_keys, run_keys) -> None:
    gold = [
        gold_finding(f, 1, r, "MAJOR", **({"dual_flaggable": alt} if alt else {}))
        for (f, r), alt in gold_keys
    ]
    run = [finding(f, 1, r, "MAJOR") for f, r in run_keys]
    s = score_findings(run, gold, "seed")
    assert (s.tp, s.fp, s.fn) == seed_score(run, gold)


def test_score_match_seed_on_the_command_line(corpus, capsys) -> None:  # noqa: F811
    args = ["--gold", str(corpus["gold"]), "--run", str(corpus["mixed"]), "--format", "json"]
    assert main(score(*args, "--match", "seed")) == 0
    seed = json.loads(capsys.readouterr().out)
    assert main(score(*args)) == 0
    dual = json.loads(capsys.readouterr().out)
    assert (dual["match"], seed["match"]) == ("dual", "seed")
    assert (dual["tp"], dual["fp"], dual["fn"]) == (2, 1, 1)
    assert (seed["tp"], seed["fp"], seed["fn"]) == (1, 2, 2)
    assert {"file": "b.py", "rule_key": "error-swallowed"} in seed["missed"]


def test_text_report_names_the_mode(corpus, capsys) -> None:  # noqa: F811
    main(score("--gold", str(corpus["gold"]), "--run", str(corpus["mixed"]), "--match", "seed"))
    out = capsys.readouterr().out
    assert "match      seed: (file, rule_key) only" in out
    main(score("--gold", str(corpus["gold"]), "--run", str(corpus["mixed"])))
    assert "match      dual:" in capsys.readouterr().out
