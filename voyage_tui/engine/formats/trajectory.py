"""Trajectory fixtures: `fixtures/trajectories/<id>/task.yaml` with `kind: trajectory`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from voyage_tui.engine.formats.vocabulary import TerminalState, TrajectoryPath, Visibility


class TrajectoryFixture(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="allow", title="voyage-tui trajectory fixture (task.yaml)"
    )

    kind: Literal["trajectory"] = Field(description="Must be `trajectory`.")
    id: str = Field(
        min_length=1, description="Stable, unique identifier; equals the fixture's directory name."
    )
    path: TrajectoryPath = Field(
        description="Journey path: lightweight, full, refactor or high-risk."
    )
    prompt: str = Field(
        min_length=1, description="The change request as presented to the agent under test."
    )
    phases: str = Field(
        min_length=1,
        description="Pipe-separated journey phases as `N: Phase Name`, exactly as in journey.md.",
    )
    gates: str = Field(
        min_length=1,
        description="Pipe-separated `gate-N: description: verdict` (pass, conditional or blocked).",
    )
    terminal_state: TerminalState = Field(
        description="Expected terminal state: merged, closed, blocked or released."
    )
    visibility: Visibility = Field(
        description="public, or holdout (must not be optimised against)."
    )
    skipped_phases: str | None = Field(
        default=None, description="Pipe-separated `N: Phase Name: reason`; every skip has a reason."
    )
    skipped_gates: str | None = Field(default=None, description="Pipe-separated `gate-N: reason`.")
    final_head_sha: str | None = Field(
        default=None,
        description="The full commit SHA the final verdict binds to; required on the full path.",
    )
    routing_selected: Any = Field(
        default=None, description="Specialists loaded (metadata; never validated)."
    )
    routing_skipped: Any = Field(
        default=None,
        description="Specialists not loaded, `skill: reason` (metadata; never validated).",
    )
