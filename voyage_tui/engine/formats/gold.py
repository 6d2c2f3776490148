"""Gold corpus records (`voyage-eval-gold/1`, seed 003)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from voyage_tui.engine.formats.vocabulary import (
    GOLD_SCHEMA,
    OWNER_REVIEWERS,
    SEVERITIES,
    VERDICTS,
)


class GoldFinding(BaseModel):
    """Extension fields are permitted (the seed's "superset"), so extras are kept, not warned."""

    model_config = ConfigDict(strict=True, extra="allow")

    file: str = Field(description="Repo-relative path in the reviewed diff.")
    line: int = Field(ge=0, description="Line in the file; 0 means file-scoped.")
    rule_key: str = Field(min_length=1, description="A member of RULE_CATALOGUE.")
    severity: Literal[SEVERITIES] = Field(  # type: ignore[valid-type]
        description="BLOCKER, MAJOR, MINOR or SUGGESTION."
    )
    owner_reviewer: Literal[OWNER_REVIEWERS] = Field(  # type: ignore[valid-type]
        description="conformance or correctness."
    )
    dual_flaggable: str | None = Field(
        default=None, description="A second rule_key the same issue could carry (catalogue member)."
    )


class GoldRecord(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="allow", populate_by_name=True, title="voyage-eval-gold/1 record"
    )

    schema_id: Literal[GOLD_SCHEMA] = Field(  # type: ignore[valid-type]
        alias="schema", description="Exactly `voyage-eval-gold/1`."
    )
    source: str = Field(description="Path to the prose or fixture this was distilled from.")
    description: str = Field(description="One line.")
    expected_verdict: Literal[VERDICTS] = Field(  # type: ignore[valid-type]
        description="computeVerdict(findings): any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW."
    )
    findings: list[GoldFinding] = Field(description="The seeded findings.")
