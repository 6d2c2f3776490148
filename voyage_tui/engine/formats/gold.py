"""Gold corpus records (`voyage-eval-gold/1`; docs/rules.md, "Gold files")."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from voyage_tui.engine.formats.vocabulary import (
    FindingSeverity,
    GoldSchema,
    OwnerReviewer,
    Verdict,
)


class GoldFinding(BaseModel):
    """Extension fields are permitted on a finding, so extras are kept, not warned (docs/rules.md,
    "Gold files")."""

    model_config = ConfigDict(strict=True, extra="allow")

    file: str = Field(description="Repo-relative path in the reviewed diff.")
    line: int = Field(ge=0, description="Line in the file; 0 means file-scoped.")
    rule_key: str = Field(min_length=1, description="A member of RULE_CATALOGUE.")
    severity: FindingSeverity = Field(description="BLOCKER, MAJOR, MINOR or SUGGESTION.")
    owner_reviewer: OwnerReviewer = Field(description="conformance or correctness.")
    dual_flaggable: str | None = Field(
        default=None, description="A second rule_key the same issue could carry (catalogue member)."
    )


class GoldRecord(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="allow", populate_by_name=True, title="voyage-eval-gold/1 record"
    )

    schema_id: GoldSchema = Field(alias="schema", description="Exactly `voyage-eval-gold/1`.")
    source: str = Field(description="Path to the prose or fixture this was distilled from.")
    description: str = Field(description="One line.")
    expected_verdict: Verdict = Field(
        description="computeVerdict(findings): any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW."
    )
    findings: list[GoldFinding] = Field(description="The seeded findings.")
