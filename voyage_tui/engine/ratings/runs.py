"""The agent runs a rater can rate, as (fixture_id, run_id) pairs, taken from the validated suite.

A rating names a run by the fixture's `id` and the run's `run_id` (docs/workspace.md, "Ratings"), not by paths, so a
fixture moved to another class folder keeps its ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from voyage_tui.engine.items import AgentRunFacts, Item
from voyage_tui.engine.kinds import FileKind

RunKey = tuple[str, str]
"""(fixture_id, run_id)"""


@dataclass(frozen=True, slots=True)
class AgentRunRef:
    fixture_id: str
    run_id: str
    run_path: str
    """Workspace-relative `fixtures/<class>/<id>/runs/<run>.yaml`."""
    task_path: str
    """The fixture's task.yaml beside the runs folder (it may be missing or invalid)."""
    agent: str | None = None
    """The run's agent label: hidden from a blind rater."""

    @property
    def run_key(self) -> RunKey:
        return (self.fixture_id, self.run_id)


@dataclass(slots=True)
class RunIndex:
    """Every agent run of the suite by (fixture_id, run_id). Two files naming the same pair (a
    `run_id` copied into another file) count once, the first by path: validate reports the copy
    (`run-id-mismatch`)."""

    runs: list[AgentRunRef] = field(default_factory=list)
    by_pair: dict[RunKey, AgentRunRef] = field(default_factory=dict)
    by_fixture: dict[str, list[str]] = field(default_factory=dict)
    """fixture_id -> its run ids, for did-you-mean suggestions."""

    @classmethod
    def of(cls, runs: Iterable[AgentRunRef]) -> RunIndex:
        index = cls()
        for run in sorted(runs, key=lambda r: r.run_path):
            if run.run_key in index.by_pair:
                continue
            index.runs.append(run)
            index.by_pair[run.run_key] = run
            index.by_fixture.setdefault(run.fixture_id, []).append(run.run_id)
        return index

    @classmethod
    def from_items(cls, items: Mapping[str, Item]) -> RunIndex:
        return cls.of(agent_runs(items))

    def __contains__(self, pair: object) -> bool:
        return pair in self.by_pair

    def __len__(self) -> int:
        return len(self.runs)


def agent_runs(items: Mapping[str, Item]) -> list[AgentRunRef]:
    """The agent-run items of a suite, each with the id of its fixture: the `id` its task.yaml
    declares, or the fixture folder's name where the task.yaml is missing or has none."""
    out: list[AgentRunRef] = []
    for item in items.values():
        if item.kind is not FileKind.AGENT_RUN or not item.id:
            continue
        task_path = item.parent or ""
        task = items.get(task_path)
        folder = task_path.rsplit("/", 2)[-2] if task_path.count("/") >= 1 else ""
        fixture_id = task.id if task is not None and task.id else folder
        if not fixture_id:
            continue
        facts = item.facts
        agent = facts.agent if isinstance(facts, AgentRunFacts) else None
        out.append(
            AgentRunRef(
                fixture_id=fixture_id,
                run_id=item.id,
                run_path=item.path,
                task_path=task_path,
                agent=agent,
            )
        )
    out.sort(key=lambda r: r.run_path)
    return out
