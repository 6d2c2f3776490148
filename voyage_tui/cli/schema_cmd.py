"""`voyage-tui schema KIND`: the JSON Schema of a file format, for editors' YAML servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from voyage_tui.cli.common import Parser
from voyage_tui.cli.render import dumps


def _task() -> dict[str, Any]:
    from voyage_tui.engine.formats.task import TaskFixture

    return TaskFixture.model_json_schema(by_alias=True)


def _trajectory() -> dict[str, Any]:
    from voyage_tui.engine.formats.trajectory import TrajectoryFixture

    return TrajectoryFixture.model_json_schema(by_alias=True)


def _gold() -> dict[str, Any]:
    from voyage_tui.engine.formats.gold import GoldRecord

    return GoldRecord.model_json_schema(by_alias=True)


def _run() -> dict[str, Any]:
    from voyage_tui.engine.formats.payload import RunFileSchema

    return RunFileSchema.model_json_schema(by_alias=True)


def _agent_run() -> dict[str, Any]:
    from voyage_tui.engine.formats.agent_run import AgentRun

    return AgentRun.model_json_schema(by_alias=True)


def _rating() -> dict[str, Any]:
    from voyage_tui.engine.formats.rating import RatingRecord

    return RatingRecord.model_json_schema(by_alias=True)


def _adjudication() -> dict[str, Any]:
    from voyage_tui.engine.formats.adjudication import AdjudicationRecord

    return AdjudicationRecord.model_json_schema(by_alias=True)


SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "task": _task,
    "trajectory": _trajectory,
    "gold": _gold,
    "run": _run,
    "agent-run": _agent_run,
    "rating": _rating,
    "adjudication": _adjudication,
}


def schema_for(kind: str) -> dict[str, Any]:
    schema = SCHEMAS[kind]()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def run(argv: list[str]) -> int:
    parser = Parser(prog="voyage-tui schema", description="Print the JSON Schema of a file format.")
    parser.add_argument("kind", choices=tuple(SCHEMAS))
    args = parser.parse_args(argv)
    print(dumps(schema_for(args.kind)))
    return 0
