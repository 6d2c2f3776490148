"""Agent runs to rate: `fixtures/<class>/<id>/runs/<run-id>.yaml`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class AgentRun(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="allow", title="voyage-tui agent run (runs/*.yaml)"
    )

    run_id: str = Field(min_length=1, description="Identifier of the run; equals the file's stem.")
    agent: str = Field(min_length=1, description="A label for the agent; hidden in blind mode.")
    output: str = Field(description="The agent's final answer, Markdown.")
    patch: str | None = Field(default=None, description="The change it made, a unified diff.")
    transcript: str | list[Any] | None = Field(default=None, description="The run's transcript.")
    metadata: dict[str, Any] | None = Field(
        default=None, description="Anything else about the run."
    )
