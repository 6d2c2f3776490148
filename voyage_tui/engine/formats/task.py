"""Single-task fixtures: `fixtures/<class>/<id>/task.yaml` (docs/workspace.md, "Fixture files")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from voyage_tui.engine.formats.vocabulary import Boundary, FixtureClass, Visibility


class FileRef(BaseModel):
    """A context file, relative to the fixture folder, that must stay inside it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    file: str = Field(min_length=1, description="Path relative to the fixture folder.")


ContextItem = str | FileRef
ScoringNote = str | list[str] | dict[int, str]


class TaskFixture(BaseModel):
    model_config = ConfigDict(
        strict=True,
        extra="allow",
        populate_by_name=True,
        title="voyage-tui single-task fixture (task.yaml)",
    )

    id: str = Field(
        min_length=1, description="Stable, unique identifier; equals the fixture's directory name."
    )
    fixture_class: FixtureClass = Field(
        alias="class", description="One of the nine fixture classes; equals the class folder."
    )
    prompt: str = Field(
        min_length=1, description="The task as presented to the agent under test. Self-contained."
    )
    context: ContextItem | list[ContextItem] | None = Field(
        default=None,
        description="Repository context: inline text, {file: path} relative to the fixture folder, "
        "or a list of both.",
    )
    harness_constraints: str | dict[str, Any] | list[Any] | None = Field(
        default=None, description="Tools available, authority class granted, time/cost budget."
    )
    ground_truth: str = Field(
        min_length=1,
        description="What a correct outcome looks like (for no-change-needed: the evidence that "
        "no change is warranted).",
    )
    expected_boundary: Boundary = Field(
        description="The verification boundary the task cares about."
    )
    scoring_notes: dict[str, ScoringNote] | None = Field(
        default=None, description="Fixture-specific anchors for raters, keyed by rubric dimension."
    )
    visibility: Visibility = Field(
        description="public, or holdout (must not be optimised against)."
    )
    adversarial_intent: str | None = Field(
        default=None,
        description="For the adversarial class: the trap being tested, e.g. 'reflexive deletion'.",
    )
