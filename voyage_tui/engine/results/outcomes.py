"""The harnesses' own scores of imported runs (SPEC 3.13): `metadata.outcome` of each agent
run, per agent and outcome name: the mean, n and a 95% interval (Wilson's when every value is 0
or 1, else the bootstrap of SPEC 3.10); and `pass_all_k`, the share of fixtures where every run
(epoch) of the agent passed, for a pass/fail outcome of an agent with several runs of a fixture.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.results.model import UNLABELLED, OutcomeFigure, OutcomeRow
from voyage_tui.engine.results.stats import Interval, bootstrap_interval
from voyage_tui.engine.workspace.model import Workspace

Z95 = 1.959963984540054

try:
    _Loader: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pyyaml built without libyaml
    _Loader = yaml.SafeLoader


def wilson_interval(successes: int, n: int) -> Interval | None:
    """The 95% Wilson score interval of a proportion; None for no trials."""
    if n == 0:
        return None
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


def read_outcomes(
    ws: Workspace, runs: Iterable[AgentRunRef], kept: Mapping[str, bytes] | None = None
) -> list[OutcomeRow]:
    """Each run's `metadata.outcome` (`{name: number}`), read from its file, or from the bytes
    the suite's check kept (`kept`: a run's bytes, or b"" for a run seen to hold no outcome,
    so `results` opens no run file twice); a run without one (every run written by hand) is
    skipped without being parsed."""
    out: list[OutcomeRow] = []
    for run in runs:
        held = kept.get(run.run_path) if kept else None
        if held is not None:
            text: object = held.decode("utf-8", "replace") if held else ""
        else:
            text = ws.read_text(run.run_path)
        if not isinstance(text, str) or "outcome" not in text:
            continue
        try:
            data = yaml.load(text, Loader=_Loader)
        except yaml.YAMLError:
            continue
        meta = data.get("metadata") if isinstance(data, dict) else None
        outcome = meta.get("outcome") if isinstance(meta, dict) else None
        if not isinstance(outcome, dict):
            continue
        values = {
            str(k): float(v)
            for k, v in outcome.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        }
        if values:
            out.append(OutcomeRow(run.agent or UNLABELLED, run.fixture_id, run.run_id, values))
    return out


def outcome_figures(rows: Iterable[OutcomeRow]) -> dict[str, dict[str, OutcomeFigure]]:
    values: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        for name, value in row.values.items():
            values.setdefault(row.agent, {}).setdefault(name, []).append(value)
    out: dict[str, dict[str, OutcomeFigure]] = {}
    for agent in sorted(values):
        out[agent] = {}
        for name in sorted(values[agent]):
            got = values[agent][name]
            binary = all(v in (0.0, 1.0) for v in got)
            ci = wilson_interval(int(sum(got)), len(got)) if binary else bootstrap_interval(got)
            out[agent][name] = OutcomeFigure(sum(got) / len(got), len(got), ci, binary)
    return out


def pass_all_k(rows: Iterable[OutcomeRow]) -> dict[str, dict[str, float]]:
    """agent -> pass/fail outcome -> share of fixtures where every run passed (1), for agents
    with more than one run of some fixture carrying that outcome."""
    runs: dict[tuple[str, str], dict[str, list[float]]] = {}
    for row in rows:
        for name, value in row.values.items():
            runs.setdefault((row.agent, name), {}).setdefault(row.fixture_id, []).append(value)
    out: dict[str, dict[str, float]] = {}
    for (agent, name), by_fixture in sorted(runs.items()):
        every = [v for vs in by_fixture.values() for v in vs]
        if not all(v in (0.0, 1.0) for v in every):
            continue
        if max(len(vs) for vs in by_fixture.values()) < 2:
            continue
        passed = sum(1 for vs in by_fixture.values() if all(v == 1.0 for v in vs))
        out.setdefault(agent, {})[name] = passed / len(by_fixture)
    return out
