"""Agent runs waiting to be rated: `fixtures/<class>/<id>/runs/<run-id>.yaml` (docs/workspace.md, "Agent runs and ratings")."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.agent_run import AgentRun
from voyage_tui.engine.formats.schema_errors import translate, unknown_fields
from voyage_tui.engine.loading.positions import Positions


def check_agent_run(
    rel: str, data: dict[Any, Any], positions: Positions, stem: str
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    try:
        AgentRun.model_validate(data)
    except ValidationError as exc:
        out += translate(exc, rel, positions, models=(AgentRun,))
    out += unknown_fields(data, AgentRun, rel, positions)
    run_id = data.get("run_id")
    if isinstance(run_id, str) and run_id and run_id != stem:
        out.append(
            dg.warning(
                rel,
                positions.value(("run_id",)),
                "run-id-mismatch",
                f"run_id is {run_id!r} but the file is {stem}.yaml; ratings refer to runs by "
                "run_id, so keep the two equal",
            )
        )
    return out
