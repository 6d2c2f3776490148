"""One run scored against one gold record: the contract, the findings score and the verdicts.

`RunScore.to_json()` is exactly the JSON of `voyage-tui score` (docs/cli.md, "JSON"), without the `baseline`
object that the command adds when given `--baseline` (see compare.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.scoring.contract import ContractOutput, InvalidFinding, run_contract
from voyage_tui.engine.scoring.scorer import (
    DEFAULT_MATCH,
    FindingsScore,
    KeyRef,
    Match,
    MatchMode,
    score_findings,
    score_verdict,
)

Locate = Callable[[tuple[int | str, ...]], "tuple[int, int] | None"]


@dataclass(frozen=True, slots=True)
class RunScore:
    score: FindingsScore
    contract: ContractOutput
    expected_verdict: str | None
    gold_keys: int
    """Distinct (file, rule_key) keys of the gold (= tp + fn)."""

    # --- the figures, flat, for callers that do not care about the layering -----------------

    @property
    def tp(self) -> int:
        return self.score.tp

    @property
    def fp(self) -> int:
        return self.score.fp

    @property
    def fn(self) -> int:
        return self.score.fn

    @property
    def precision(self) -> float:
        return self.score.precision

    @property
    def recall(self) -> float:
        return self.score.recall

    @property
    def f1(self) -> float:
        return self.score.f1

    @property
    def matched(self) -> tuple[Match, ...]:
        return self.score.matched

    @property
    def missed(self) -> tuple[KeyRef, ...]:
        return self.score.missed

    @property
    def spurious(self) -> tuple[KeyRef, ...]:
        return self.score.spurious

    @property
    def invalid_findings(self) -> tuple[InvalidFinding, ...]:
        return self.contract.invalid

    @property
    def run_verdict(self) -> str:
        return self.contract.verdict

    @property
    def verdict_match(self) -> bool:
        return score_verdict(self.run_verdict, self.expected_verdict)

    def figures(self) -> dict[str, Any]:
        return self.score.figures()

    def to_json(self, locate: Locate | None = None) -> dict[str, Any]:
        """docs/cli.md, "JSON": tp, fp, fn, precision, recall, f1, matched, missed, spurious, run_verdict,
        expected_verdict, verdict_match, invalid_findings (in that order). `locate` maps an
        invalid finding's path in the run document to its (line, column) in the run file."""
        out = self.score.to_json()
        out.update(
            run_verdict=self.run_verdict,
            expected_verdict=self.expected_verdict,
            verdict_match=self.verdict_match,
            invalid_findings=[
                i.to_json(locate(i.path) if locate else None) for i in self.invalid_findings
            ],
        )
        return out


def score_run(
    payloads: Iterable[Any], gold: Mapping[str, Any], match: MatchMode = DEFAULT_MATCH
) -> RunScore:
    """Score a run (its reviewer payloads) against a gold record (a `voyage-eval-gold/1` mapping).
    Gold findings without text `file` and `rule_key` are skipped: `validate` reports them.
    `match` is scorer.py's MatchMode (`seed` ignores `dual_flaggable`)."""
    with gc_paused():
        return _score_run(payloads, gold, match)


def _score_run(payloads: Iterable[Any], gold: Mapping[str, Any], match: MatchMode) -> RunScore:
    contract = run_contract(payloads)
    findings = gold.get("findings")
    gold_findings = findings if isinstance(findings, list) else []
    score = score_findings(contract.findings, gold_findings, match)
    expected = gold.get("expected_verdict")
    return RunScore(
        score=score,
        contract=contract,
        expected_verdict=expected if isinstance(expected, str) else None,
        gold_keys=score.tp + score.fn,
    )
