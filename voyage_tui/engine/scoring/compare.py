"""Run against run: two runs of the same gold (`score --baseline`, and the app's run-vs-run screen).

- gained: gold keys the run matches and the baseline does not;
- lost: gold keys the baseline matches and the run does not;
- spurious_added / spurious_removed: run keys spurious in the run and not in the baseline, and
  the reverse (shown, never a regression by themselves);
- verdict_flip: the two run verdicts when they differ;
- regression: a lost key, or the verdict going from BLOCK (baseline) to ALLOW (run).
  Other flips (BLOCK -> WARN, WARN -> ALLOW, ...) and a lower f1 are shown, not regressions.

A gold key counts as matched whether via its rule_key or via dual_flaggable: a match changing
its `via` is neither gained nor lost. Every list is sorted by (file, rule_key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.scoring.report import RunScore
from voyage_tui.engine.scoring.scorer import Key

REGRESSION_FLIP = ("BLOCK", "ALLOW")


def _keys_json(keys: tuple[Key, ...]) -> list[dict[str, str]]:
    return [{"file": f, "rule_key": r} for f, r in keys]


@dataclass(frozen=True, slots=True)
class BaselineComparison:
    gained: tuple[Key, ...]
    lost: tuple[Key, ...]
    spurious_added: tuple[Key, ...]
    spurious_removed: tuple[Key, ...]
    baseline_verdict: str
    run_verdict: str
    baseline_figures: dict[str, Any]
    run_figures: dict[str, Any]

    @property
    def verdict_flip(self) -> tuple[str, str] | None:
        if self.baseline_verdict == self.run_verdict:
            return None
        return (self.baseline_verdict, self.run_verdict)

    @property
    def block_to_allow(self) -> bool:
        return self.verdict_flip == REGRESSION_FLIP

    @property
    def regression(self) -> bool:
        return bool(self.lost) or self.block_to_allow

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why this is a regression, in words; empty when it is not one."""
        out = [f"lost ({file}, {rule_key})" for file, rule_key in self.lost]
        if self.block_to_allow:
            out.append("verdict flipped BLOCK -> ALLOW")
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        flip = self.verdict_flip
        return {
            "gained": _keys_json(self.gained),
            "lost": _keys_json(self.lost),
            "spurious_added": _keys_json(self.spurious_added),
            "spurious_removed": _keys_json(self.spurious_removed),
            "baseline_verdict": self.baseline_verdict,
            "run_verdict": self.run_verdict,
            "verdict_flip": {"from": flip[0], "to": flip[1]} if flip else None,
            "regression": self.regression,
            "reasons": list(self.reasons),
            "baseline_figures": dict(self.baseline_figures),
            "run_figures": dict(self.run_figures),
        }


def compare_runs(run: RunScore, baseline: RunScore) -> BaselineComparison:
    """Compare `run` with `baseline`, both scored against the same gold."""
    run_matched, base_matched = run.score.matched_keys, baseline.score.matched_keys
    run_spurious = frozenset(s.key for s in run.spurious)
    base_spurious = frozenset(s.key for s in baseline.spurious)
    return BaselineComparison(
        gained=tuple(sorted(run_matched - base_matched)),
        lost=tuple(sorted(base_matched - run_matched)),
        spurious_added=tuple(sorted(run_spurious - base_spurious)),
        spurious_removed=tuple(sorted(base_spurious - run_spurious)),
        baseline_verdict=baseline.run_verdict,
        run_verdict=run.run_verdict,
        baseline_figures=baseline.figures(),
        run_figures=run.figures(),
    )
