"""What `voyage-tui results` and the results screen show (SPEC 3.10 and 6), as data.

Every figure that cannot be computed is None (JSON null), never NaN, and the object carrying it
says why in `reason` (also null when nothing is wrong): no rated item, one item (no interval),
every item the same score (an interval of no width), no shared fixture, every difference zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from voyage_tui.engine.results.stats import ALPHA, Interval
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode

UNLABELLED = "(unlabelled)"
"""The agent of runs whose `agent` label is missing or empty."""
WORST_LISTED = 5
"""How many fixtures the JSON lists per comparison under `worst` (the screen lists them all)."""


def _ci(interval: Interval | None) -> list[float] | None:
    return interval.as_list() if interval is not None else None


@dataclass(frozen=True, slots=True)
class DimensionStat:
    mean: float | None
    ci: Interval | None
    n: int
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci": _ci(self.ci), "n": self.n, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class AgentResult:
    agent: str
    items: int
    """The agent's runs, rated or not."""
    fixtures: int
    """The fixtures it has runs on."""
    dimensions: dict[str, DimensionStat]

    def to_json(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "fixtures": self.fixtures,
            "dimensions": {name: d.to_json() for name, d in self.dimensions.items()},
        }


@dataclass(frozen=True, slots=True)
class PairedFixture:
    """One shared fixture of a comparison: each side's mean over its rated runs there."""

    fixture_id: str
    agent_mean: float
    baseline_mean: float
    agent_runs: tuple[str, ...]
    baseline_runs: tuple[str, ...]

    @property
    def diff(self) -> float:
        return self.agent_mean - self.baseline_mean

    def to_json(self) -> dict[str, Any]:
        return {
            "fixture_id": self.fixture_id,
            "diff": self.diff,
            "agent_mean": self.agent_mean,
            "baseline_mean": self.baseline_mean,
            "agent_runs": list(self.agent_runs),
            "baseline_runs": list(self.baseline_runs),
        }


class PairSource(Protocol):
    """The shared fixtures of a comparison, made into PairedFixtures only when asked: a
    comparison over 10,000 fixtures keeps arrays, not 10,000 objects."""

    def pairs(self, limit: int | None = None, below_only: bool = False) -> list[PairedFixture]: ...


@dataclass(frozen=True, slots=True)
class Comparison:
    agent: str
    baseline: str
    dimension: str
    fixtures: int
    """The shared fixtures: both agents have rated runs there on this dimension."""
    diff: float | None
    ci: Interval | None
    p: float | None
    verdict: str
    """`better`, `worse` or `unclear`."""
    reason: str | None = None
    """Why `unclear`: `too-few-fixtures`, `no-data` or `not-significant` (stats.REASONS);
    None for `better` and `worse`."""
    p_holm: float | None = None
    """`p` adjusted by Holm's step-down over every comparison of the section."""
    mde: float | None = None
    """The smallest true difference detected with 80% power at two-sided alpha."""
    mde_reason: str | None = None
    """Why `mde` is None."""
    sd: float | None = None
    """The sample sd (ddof 1) of the per-fixture differences."""
    note: str | None = None
    """What else a reader should know (one shared fixture: no interval; every difference
    zero; an interval of no width)."""
    source: PairSource | None = field(default=None, compare=False, repr=False)

    def pairs(self, limit: int | None = None) -> list[PairedFixture]:
        """The shared fixtures, worst first (the agent furthest below the baseline first; ties
        by fixture id)."""
        return self.source.pairs(limit) if self.source is not None else []

    def worst(self, limit: int | None = None) -> list[PairedFixture]:
        """The fixtures where the agent falls below the baseline, furthest first."""
        return self.source.pairs(limit, below_only=True) if self.source is not None else []

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "baseline": self.baseline,
            "dimension": self.dimension,
            "fixtures": self.fixtures,
            "diff": self.diff,
            "ci": _ci(self.ci),
            "p": self.p,
            "verdict": self.verdict,
            "p_holm": self.p_holm,
            "reason": self.reason,
            "mde": self.mde,
            "mde_reason": self.mde_reason,
            "sd": self.sd,
            "note": self.note,
            "worst": [p.to_json() for p in self.worst(WORST_LISTED)],
        }


@dataclass(frozen=True, slots=True)
class GoldCorpusRun:
    """One review agent's run on one gold corpus, scored."""

    stem: str
    corpus: str
    """The gold file's workspace path."""
    run_path: str
    tp: int
    fp: int
    fn: int
    f1: float
    run_verdict: str
    expected_verdict: str | None

    @property
    def verdict_match(self) -> bool:
        return self.expected_verdict is not None and self.run_verdict == self.expected_verdict

    @property
    def block_to_allow(self) -> bool:
        """The run lets through what gold blocks: the worst failure of a review agent."""
        return self.expected_verdict == "BLOCK" and self.run_verdict == "ALLOW"


@dataclass(frozen=True, slots=True)
class GoldAgent:
    stem: str
    runs: tuple[GoldCorpusRun, ...]
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    macro_f1: float
    verdict_accuracy: float

    @property
    def corpora(self) -> int:
        return len(self.runs)

    @property
    def block_to_allow(self) -> tuple[str, ...]:
        return tuple(r.corpus for r in self.runs if r.block_to_allow)

    def to_json(self) -> dict[str, Any]:
        return {
            "corpora": self.corpora,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "macro_f1": self.macro_f1,
            "verdict_accuracy": self.verdict_accuracy,
            "block_to_allow": len(self.block_to_allow),
            "block_to_allow_corpora": list(self.block_to_allow),
        }


@dataclass(frozen=True, slots=True)
class Section:
    """Agents and comparisons over one set of runs: the whole suite, or one group of `--by`."""

    agents: dict[str, AgentResult]
    comparisons: tuple[Comparison, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": {name: a.to_json() for name, a in self.agents.items()},
            "comparisons": [c.to_json() for c in self.comparisons],
        }


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    """One imported run's harness scores (`metadata.outcome`, SPEC 3.13)."""

    agent: str
    fixture_id: str
    run_id: str
    values: dict[str, float]


@dataclass(frozen=True, slots=True)
class OutcomeFigure:
    """An agent's mean of one harness score over its runs, with a 95% interval: Wilson's for
    pass/fail values (`binary`), else the bootstrap's."""

    mean: float
    n: int
    ci: Interval | None
    binary: bool

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "n": self.n, "ci": self.ci.as_list() if self.ci else None}


@dataclass(frozen=True, slots=True)
class ResultsReport:
    baseline: str | None
    dimensions: tuple[str, ...]
    overall: Section
    gold: dict[str, GoldAgent]
    match: MatchMode = DEFAULT_MATCH
    by: str | None = None
    """`class` or `boundary` when the report is broken down, else None."""
    groups: dict[str, Section] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    alpha: float = ALPHA
    """The significance level of every verdict (`--alpha`)."""
    scale: tuple[int, int] | None = None
    """The rubric's lowest and highest score (None: not known)."""
    outcomes: dict[str, dict[str, OutcomeFigure]] = field(default_factory=dict)
    """agent -> harness score name -> figure, over imported runs (results/outcomes.py)."""
    pass_all_k: dict[str, dict[str, float]] = field(default_factory=dict)
    """agent -> pass/fail score name -> share of fixtures where every epoch passed."""

    @property
    def agents(self) -> dict[str, AgentResult]:
        return self.overall.agents

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        return self.overall.comparisons

    @property
    def worse(self) -> tuple[Comparison, ...]:
        return tuple(c for c in self.comparisons if c.verdict == "worse")

    def to_json(self) -> dict[str, Any]:
        """SPEC 6's keys (`baseline`, `agents`, `comparisons`, `gold`), then `match`, `by` with
        `groups` when broken down, and `notices`."""
        out: dict[str, Any] = {"baseline": self.baseline, **self.overall.to_json()}
        out["gold"] = {stem: g.to_json() for stem, g in self.gold.items()}
        out["match"] = self.match
        out["alpha"] = self.alpha
        if self.by is not None:
            out["by"] = self.by
            out["groups"] = {name: s.to_json() for name, s in self.groups.items()}
        if self.outcomes:
            out["outcomes"] = {
                agent: {name: f.to_json() for name, f in by_name.items()}
                for agent, by_name in self.outcomes.items()
            }
            out["pass_all_k"] = self.pass_all_k
        out["notices"] = list(self.notices)
        return out
