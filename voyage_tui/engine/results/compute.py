"""Results (SPEC 3.10): per agent and dimension the mean, n and bootstrap interval of its items'
effective scores; paired comparisons against a baseline over shared fixtures; the same broken
down by class or expected boundary. Pure: the workspace's inputs are gathered by inputs.py.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from voyage_tui.engine.ratings.effective import ItemScores
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.results.gold import gold_by_agent
from voyage_tui.engine.results.model import (
    UNLABELLED,
    AgentResult,
    Comparison,
    DimensionStat,
    GoldCorpusRun,
    OutcomeRow,
    PairedFixture,
    ResultsReport,
    Section,
)
from voyage_tui.engine.results.outcomes import outcome_figures, pass_all_k
from voyage_tui.engine.results.stats import (
    ALPHA,
    MDE_FEW,
    bootstrap_interval,
    decide,
    holm,
    minimum_detectable,
    paired_interval,
    sample_sd,
    sign_flip_p,
)
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode

BREAKDOWNS = ("class", "boundary")
WORKERS = 4
"""At most this many threads compute the figures (numpy's sampling runs outside the GIL)."""
NO_GROUP = "(none)"
"""The group of a fixture with no class folder or no expected boundary (a trajectory's)."""


@dataclass(frozen=True, slots=True)
class RunRow:
    """One agent run, with what results groups it by."""

    fixture_id: str
    run_id: str
    agent: str
    """The run's label, or UNLABELLED."""
    fixture_class: str = NO_GROUP
    """The fixture's class folder."""
    boundary: str = NO_GROUP
    """The fixture's `expected_boundary`."""

    @property
    def run_key(self) -> RunKey:
        return (self.fixture_id, self.run_id)


@dataclass(slots=True)
class ResultsInputs:
    runs: list[RunRow]
    items: Mapping[RunKey, ItemScores]
    """Effective scores per item (engine/ratings/effective.item_scores)."""
    dimensions: list[str]
    """The rubric's dimensions, in its order."""
    gold_runs: list[GoldCorpusRun] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    match: MatchMode = DEFAULT_MATCH
    scale: tuple[int, int] | None = None
    """The rubric's lowest and highest score over every dimension (the charts' one axis)."""
    outcomes: list[OutcomeRow] = field(default_factory=list)
    """Imported runs' harness scores (results/outcomes.read_outcomes)."""

    def agents(self) -> list[str]:
        return _ordered({r.agent for r in self.runs}, None)


class UnknownBaseline(ValueError):
    def __init__(self, baseline: str, agents: Sequence[str]) -> None:
        self.baseline = baseline
        self.agents = list(agents)
        listed = ", ".join(self.agents) if self.agents else "none: no agent run has a label"
        super().__init__(f"no agent is named {baseline!r}; the agents are: {listed}")


def compute_results(
    inputs: ResultsInputs,
    baseline: str | None = None,
    by: str | None = None,
    alpha: float = ALPHA,
) -> ResultsReport:
    """The report; `baseline` "" or None makes no comparisons. Raises UnknownBaseline for a
    baseline no run is labelled with, ValueError for a `by` not in BREAKDOWNS or an alpha
    not strictly between 0 and 1."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha is between 0 and 1, not {alpha!r}")
    baseline = baseline or None
    if baseline is not None and baseline not in inputs.agents():
        raise UnknownBaseline(baseline, inputs.agents())
    if by is not None and by not in BREAKDOWNS:
        raise ValueError(f"--by is one of {', '.join(BREAKDOWNS)}, not {by!r}")
    overall = section(inputs.runs, inputs.items, inputs.dimensions, baseline, alpha)
    groups: dict[str, Section] = {}
    if by is not None:
        grouped: dict[str, list[RunRow]] = {}
        for row in inputs.runs:
            key = row.fixture_class if by == "class" else row.boundary
            grouped.setdefault(key, []).append(row)
        for name in sorted(grouped, key=lambda g: (g == NO_GROUP, g)):
            groups[name] = section(grouped[name], inputs.items, inputs.dimensions, baseline, alpha)
    return ResultsReport(
        baseline=baseline,
        dimensions=tuple(inputs.dimensions),
        overall=overall,
        gold=gold_by_agent(inputs.gold_runs),
        match=inputs.match,
        by=by,
        groups=groups,
        notices=tuple(inputs.notices),
        alpha=alpha,
        scale=inputs.scale,
        outcomes=outcome_figures(inputs.outcomes),
        pass_all_k=pass_all_k(inputs.outcomes),
    )


def _ordered(agents: Iterable[str], baseline: str | None) -> list[str]:
    """The baseline first, then by name, `(unlabelled)` last."""
    return sorted(set(agents), key=lambda a: (a != baseline, a == UNLABELLED, a))


@dataclass(slots=True)
class _Scores:
    """One agent's rated runs on one dimension, as arrays: fixture number, score, and the run's
    place in the agent's `run_ids`."""

    fixture: Any
    value: Any
    run: Any
    run_ids: list[str]

    def per_fixture(self, fixtures: int) -> tuple[Any, Any]:
        """(sum, count) of the scores per fixture number."""
        import numpy as np

        sums = np.bincount(self.fixture, weights=self.value, minlength=fixtures)
        counts = np.bincount(self.fixture, minlength=fixtures)
        return sums, counts


def section(
    runs: Iterable[RunRow],
    items: Mapping[RunKey, ItemScores],
    dimensions: Sequence[str],
    baseline: str | None,
    alpha: float = ALPHA,
) -> Section:
    import numpy as np

    by_agent: dict[str, list[RunRow]] = {}
    for row in runs:
        by_agent.setdefault(row.agent, []).append(row)
    fixture_number: dict[str, int] = {}
    agents: dict[str, AgentResult] = {}
    scored: dict[str, dict[str, _Scores]] = {}
    nan = math.nan
    for agent in _ordered(by_agent, baseline):
        rows = by_agent[agent]
        numbers: list[int] = []
        run_ids: list[str] = []
        table: list[list[float]] = []
        for row in rows:
            item = items.get(row.run_key)
            if item is None:
                continue
            scores = item.scores()
            if not scores:
                continue
            number = fixture_number.setdefault(row.fixture_id, len(fixture_number))
            numbers.append(number)
            run_ids.append(row.run_id)
            table.append([scores.get(d, nan) for d in dimensions])
        matrix = np.asarray(table, dtype=np.float64).reshape(len(table), len(dimensions))
        fixture_of = np.asarray(numbers, dtype=np.int64)
        mine: dict[str, _Scores] = {}
        for column, dimension in enumerate(dimensions):
            rated = ~np.isnan(matrix[:, column])
            mine[dimension] = _Scores(
                fixture_of[rated], matrix[rated, column], np.flatnonzero(rated), run_ids
            )
        scored[agent] = mine
    # Every figure draws from its own generator, seeded alike: computed in any order, or at
    # once on several cores (numpy's sampling releases the GIL), they are the same figures.
    with _pool() as pool:
        stats = pool.map(
            lambda job: dimension_stat(scored[job[0]][job[1]].value.tolist()),
            [(agent, d) for agent in scored for d in dimensions],
        )
        for agent in scored:
            rows = by_agent[agent]
            agents[agent] = AgentResult(
                agent=agent,
                items=len(rows),
                fixtures=len({r.fixture_id for r in rows}),
                dimensions={d: next(stats) for d in dimensions},
            )
        comparisons: list[Comparison] = []
        if baseline is not None and baseline in scored:
            names = list(fixture_number)
            rank = np.empty(len(names), dtype=np.int64)
            rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
            jobs = [(a, d) for a in agents if a != baseline for d in dimensions]
            comparisons = list(
                pool.map(
                    lambda job: compare(
                        job[0],
                        baseline,
                        job[1],
                        scored[job[0]][job[1]],
                        scored[baseline][job[1]],
                        names,
                        rank,
                        alpha,
                    ),
                    jobs,
                )
            )
    return Section(agents, decided(comparisons, alpha))


def decided(comparisons: Sequence[Comparison], alpha: float) -> tuple[Comparison, ...]:
    """Every comparison with its `p_holm` (Holm over all of them: every agent and dimension of
    one section) and its verdict and reason by SPEC 3.10's rule (stats.decide)."""
    adjusted = holm([c.p for c in comparisons])
    out = []
    for c, p_holm in zip(comparisons, adjusted, strict=True):
        verdict, reason = decide(c.ci, p_holm, c.fixtures, alpha)
        out.append(replace(c, p_holm=p_holm, verdict=verdict, reason=reason))
    return tuple(out)


def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=min(WORKERS, os.cpu_count() or 1))


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def dimension_stat(values: Sequence[float]) -> DimensionStat:
    n = len(values)
    if n == 0:
        return DimensionStat(None, None, 0, "no rated item")
    mean = _mean(values)
    if n == 1:
        return DimensionStat(mean, None, 1, "one rated item: no interval")
    interval = bootstrap_interval(values)
    reason = None
    if interval is not None and interval.low == interval.high:
        reason = "every item has the same score: the interval has no width"
    return DimensionStat(mean, interval, n, reason)


@dataclass(slots=True)
class _Pairs:
    """The shared fixtures of one comparison (model.PairSource)."""

    shared: Any
    """Fixture numbers, worst first."""
    diffs: Any
    agent_means: Any
    baseline_means: Any
    mine: _Scores
    theirs: _Scores
    names: list[str]

    def pairs(self, limit: int | None = None, below_only: bool = False) -> list[PairedFixture]:
        count = len(self.shared)
        if below_only:
            count = int((self.diffs < 0).sum())
        if limit is not None:
            count = min(count, limit)
        wanted = self.shared[:count]
        runs_mine = _runs_by_fixture(self.mine, wanted)
        runs_theirs = _runs_by_fixture(self.theirs, wanted)
        return [
            PairedFixture(
                fixture_id=self.names[number],
                agent_mean=float(self.agent_means[i]),
                baseline_mean=float(self.baseline_means[i]),
                agent_runs=tuple(runs_mine.get(number, ())),
                baseline_runs=tuple(runs_theirs.get(number, ())),
            )
            for i, number in enumerate(wanted.tolist())
        ]


def _runs_by_fixture(scores: _Scores, numbers: Any) -> dict[int, list[str]]:
    import numpy as np

    keep = np.isin(scores.fixture, numbers)
    out: dict[int, list[str]] = {}
    for number, run in zip(scores.fixture[keep].tolist(), scores.run[keep].tolist(), strict=True):
        out.setdefault(number, []).append(scores.run_ids[run])
    return out


def compare(
    agent: str,
    baseline: str,
    dimension: str,
    mine: _Scores,
    theirs: _Scores,
    names: list[str],
    rank: Any,
    alpha: float = ALPHA,
) -> Comparison:
    """`agent` against `baseline` on one dimension over the fixtures where both have rated runs
    (several rated runs of one agent on one fixture averaged first). The verdict is left
    `unclear` here: it needs every comparison's p (`decided`)."""
    import numpy as np

    sums_a, counts_a = mine.per_fixture(len(names))
    sums_b, counts_b = theirs.per_fixture(len(names))
    shared = np.flatnonzero((counts_a > 0) & (counts_b > 0))
    means_a = sums_a[shared] / counts_a[shared]
    means_b = sums_b[shared] / counts_b[shared]
    diffs = means_a - means_b
    # Worst first; ties by fixture id, so the order never depends on reading order.
    order = np.lexsort((rank[shared], diffs))
    source = _Pairs(
        shared[order], diffs[order], means_a[order], means_b[order], mine, theirs, names
    )
    common: dict[str, Any] = {
        "agent": agent,
        "baseline": baseline,
        "dimension": dimension,
        "fixtures": len(shared),
        "source": source,
    }
    if not len(shared):
        return Comparison(
            **common,
            diff=None,
            ci=None,
            p=None,
            verdict="unclear",
            reason="no-data",
            mde_reason=MDE_FEW,
            note="no fixture where both agents have rated runs",
        )
    listed = source.diffs.tolist()
    diff = _mean(listed)
    p = sign_flip_p(listed)
    mde, mde_reason = minimum_detectable(listed, alpha)
    figures: dict[str, Any] = {"p": p, "mde": mde, "mde_reason": mde_reason}
    figures["sd"] = sample_sd(listed)
    if len(listed) == 1:
        return Comparison(
            **common,
            **figures,
            diff=diff,
            ci=None,
            verdict="unclear",
            note="one shared fixture: no interval",
        )
    interval = paired_interval(listed)
    note = None
    if all(d == 0 for d in listed):
        note = "every difference is zero"
    elif interval is not None and interval.low == interval.high:
        note = "every fixture differs by the same amount: the interval has no width"
    return Comparison(**common, **figures, diff=diff, ci=interval, verdict="unclear", note=note)
