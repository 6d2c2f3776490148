"""Recorded reviewer payloads: a run file is a JSON array of `{reviewer, findings}`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel

from voyage_tui.engine.formats.vocabulary import FindingSeverity


class RunFinding(BaseModel):
    """FINDING_REQUIRED_FIELDS: file, line, rule_key, severity; anything else rides along."""

    model_config = ConfigDict(strict=True, extra="allow")

    file: str = Field(description="Repo-relative path in the reviewed diff.")
    line: int = Field(ge=0, description="Line in the file; 0 means file-scoped.")
    rule_key: str = Field(min_length=1, description="A member of RULE_CATALOGUE.")
    severity: FindingSeverity = Field(description="BLOCKER, MAJOR, MINOR or SUGGESTION.")


class ReviewerPayload(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")

    reviewer: str = Field(min_length=1, description="The reviewer that produced these findings.")
    # Findings are checked one by one so that one bad finding is reported and left out of the
    # score instead of sinking its whole payload.
    findings: list[dict[str, Any]] = Field(description="The reviewer's findings.")


class RunFile(RootModel[list[ReviewerPayload]]):
    model_config = ConfigDict(title="voyage-tui run file (reviewer payloads)")


class RunFileSchema(RootModel[list["_PayloadSchema"]]):
    """Only for the exported JSON Schema, which states the findings' shape too."""

    model_config = ConfigDict(title="voyage-tui run file (reviewer payloads)")


class _PayloadSchema(BaseModel):
    reviewer: str
    findings: list[RunFinding]


RunFileSchema.model_rebuild()
