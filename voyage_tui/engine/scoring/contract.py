"""The coordinator contract (docs/scoring.md, section 1): reviewer payloads -> one merged, verdict-bearing output.

A run file is a JSON array of reviewer payloads `{"reviewer": str, "findings": [...]}`.
`run_contract` turns it into the coordinator output:

- every valid finding of every reviewer, merged: the same (file, line, rule_key) from two
  reviewers (or twice from one) is one finding, with the highest severity and every reviewer that
  reported it (sorted, each once);
- every invalid finding, with its reviewer, the payload's index and the finding's index, and why;
  it is left out of the findings, the verdict and the score, never dropped silently;
- the verdict (computeVerdict over the merged findings) and the counts by severity.

Validity is decided here once, by `finding_problems` and `payload_problems`; `validate` (rules/
run_rules.py) reports exactly what this module leaves out, so the two can never disagree.

A finding is valid when it is an object with `file` (text), `line` (a whole number >= 0; JSON
`true`/`false` and `3.0` are not whole numbers), `rule_key` (non-empty text) and `severity` (one
of BLOCKER, MAJOR, MINOR, SUGGESTION, exactly). Other fields ride along and are ignored. A
payload is usable when it is an object whose `reviewer` is non-empty text and whose `findings`
is a list; an unusable payload is left out whole and reported once, with `index` None.

Pure: no I/O, and the output does not depend on the order of payloads or findings (except the
indices in `invalid`, which point at places in the file and are listed in file order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.formats.schema_errors import describe
from voyage_tui.engine.formats.vocabulary import SEVERITIES, SEVERITY_RANK
from voyage_tui.engine.scoring.verdict import verdict_of_severities
from voyage_tui.engine.suggest import hint

REQUIRED_FIELDS: tuple[str, ...] = ("file", "line", "rule_key", "severity")
"""The fields every finding must have (docs/scoring.md, section 1)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One merged coordinator finding."""

    file: str
    line: int
    rule_key: str
    severity: str
    reviewers: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str]:
        return (self.file, self.rule_key)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "rule_key": self.rule_key,
            "severity": self.severity,
            "reviewers": list(self.reviewers),
        }


@dataclass(frozen=True, slots=True)
class InvalidFinding:
    """A finding (or, with `index` None, a whole payload) left out of the score."""

    reviewer: str
    """The payload's reviewer, or `#<payload_index>` when the payload names none."""
    payload_index: int
    index: int | None
    """Index of the finding in its reviewer's `findings`; None when the whole payload is out."""
    problems: tuple[str, ...]
    field: str | None = None
    """The first offending field present in the finding (where a diagnostic points); None when
    the problem is a missing field or the finding (or payload) as a whole."""

    @property
    def path(self) -> tuple[int | str, ...]:
        """Where it sits in the run document (for positions): the offending field's value when
        there is one, else the finding, else the payload."""
        if self.index is None:
            return (self.payload_index,)
        if self.field is not None:
            return (self.payload_index, "findings", self.index, self.field)
        return (self.payload_index, "findings", self.index)

    def describe(self) -> str:
        what = (
            f"payload [{self.payload_index}] (reviewer {self.reviewer!r})"
            if self.index is None
            else f"findings[{self.index}] of reviewer {self.reviewer!r}"
        )
        return f"{what}: {'; '.join(self.problems)}"

    def to_json(self, position: tuple[int, int] | None = None) -> dict[str, Any]:
        """`position`, when the caller knows it (the engine does not read files), adds the
        1-based `line` and `column` of the finding in the run file."""
        out: dict[str, Any] = {
            "reviewer": self.reviewer,
            "payload_index": self.payload_index,
            "index": self.index,
            "problems": list(self.problems),
        }
        if position is not None:
            out["line"], out["column"] = position
        return out


@dataclass(frozen=True, slots=True)
class ContractOutput:
    findings: tuple[Finding, ...]
    """Merged findings, sorted by (file, line, rule_key)."""
    invalid: tuple[InvalidFinding, ...]
    """In file order: (payload_index, index)."""
    verdict: str
    counts: Mapping[str, int]
    """Merged findings per severity, every severity present (0 when none)."""
    reviewers: tuple[str, ...]
    """The reviewers of the usable payloads, sorted, each once."""

    def to_json(self) -> dict[str, Any]:
        return {
            "findings": [f.to_json() for f in self.findings],
            "invalid_findings": [i.to_json() for i in self.invalid],
            "verdict": self.verdict,
            "counts": dict(self.counts),
            "reviewers": list(self.reviewers),
        }


def _json_kind(value: Any) -> str:
    """How the value reads in the JSON the user wrote."""
    return describe(value, json=True)


def finding_problems(finding: Any) -> tuple[str, ...]:
    """Why a run finding cannot be scored; empty when it can."""
    return tuple(message for _, message in _finding_problems(finding))


def _finding_problems(finding: Any) -> list[tuple[str | None, str]]:
    """(offending field when it is present in the finding, message) pairs."""
    if type(finding) is dict:  # the fast path: a plain, valid finding
        get = finding.get
        file, line, rule_key, severity = get("file"), get("line"), get("rule_key"), get("severity")
        if (
            type(file) is str
            and type(line) is int
            and line >= 0
            and type(rule_key) is str
            and rule_key
            and type(severity) is str
            and severity in SEVERITY_RANK
        ):
            return []
    if not isinstance(finding, (dict, Mapping)):
        return [
            (
                None,
                f"a finding must be an object with {', '.join(REQUIRED_FIELDS)}, not "
                f"{_json_kind(finding)}",
            )
        ]
    problems: list[tuple[str | None, str]] = []
    for name in REQUIRED_FIELDS:
        if name not in finding:
            problems.append((None, f"`{name}` is missing"))
            continue
        value = finding[name]
        if name in ("file", "rule_key", "severity") and not isinstance(value, str):
            problems.append((name, f"`{name}` must be text, not {_json_kind(value)}"))
        elif name == "line":
            if isinstance(value, bool) or not isinstance(value, int):
                problems.append((name, f"`line` must be a whole number, not {_json_kind(value)}"))
            elif value < 0:
                problems.append(
                    (name, f"`line` is {value}; it must be 0 or more (0 means file-scoped)")
                )
        elif name == "rule_key" and value == "":
            problems.append((name, "`rule_key` is empty"))
        elif name == "severity" and value not in SEVERITY_RANK:
            problems.append(
                (
                    name,
                    f"`severity` is {value!r}, not one of {', '.join(SEVERITIES)}"
                    f"{hint(value, SEVERITIES)}",
                )
            )
    return problems


def payload_problems(payload: Any) -> tuple[str, ...]:
    """Why a reviewer payload cannot be used at all; empty when it can."""
    if not isinstance(payload, (dict, Mapping)):
        return (
            'a reviewer payload must be an object {"reviewer": ..., "findings": [...]}, not '
            f"{_json_kind(payload)}",
        )
    problems: list[str] = []
    reviewer = payload.get("reviewer")
    if "reviewer" not in payload:
        problems.append("`reviewer` is missing")
    elif not isinstance(reviewer, str):
        problems.append(f"`reviewer` must be text, not {_json_kind(reviewer)}")
    elif not reviewer.strip():
        problems.append("`reviewer` is empty")
    if "findings" not in payload:
        problems.append("`findings` is missing")
    elif not isinstance(payload["findings"], list):
        problems.append(f"`findings` must be a list, not {_json_kind(payload['findings'])}")
    return tuple(problems)


def reviewer_label(payload: Any, payload_index: int) -> str:
    if isinstance(payload, (dict, Mapping)):
        reviewer = payload.get("reviewer")
        if isinstance(reviewer, str) and reviewer.strip():
            return reviewer
    return f"#{payload_index}"


def run_contract(payloads: Iterable[Any]) -> ContractOutput:
    """The coordinator output of a run (a list of reviewer payloads). Linear in the findings."""
    merged: dict[tuple[str, int, str], tuple[int, set[str]]] = {}
    invalid: list[InvalidFinding] = []
    reviewers: set[str] = set()
    for p_index, payload in enumerate(payloads):
        problems = payload_problems(payload)
        reviewer = reviewer_label(payload, p_index)
        if problems:
            invalid.append(InvalidFinding(reviewer, p_index, None, problems))
            continue
        reviewers.add(reviewer)
        for f_index, finding in enumerate(payload["findings"]):
            found = _finding_problems(finding)
            if found:
                field = next((name for name, _ in found if name is not None), None)
                invalid.append(
                    InvalidFinding(reviewer, p_index, f_index, tuple(m for _, m in found), field)
                )
                continue
            key = (finding["file"], finding["line"], finding["rule_key"])
            rank = SEVERITY_RANK[finding["severity"]]
            entry = merged.get(key)
            if entry is None:
                merged[key] = (rank, {reviewer})
            else:
                entry[1].add(reviewer)
                if rank < entry[0]:
                    merged[key] = (rank, entry[1])
    findings = tuple(
        Finding(
            file,
            line,
            rule_key,
            SEVERITIES[rank],
            tuple(who) if len(who) == 1 else tuple(sorted(who)),
        )
        for (file, line, rule_key), (rank, who) in sorted(merged.items(), key=lambda kv: kv[0])
    )
    counts = {name: 0 for name in SEVERITIES}
    for finding in findings:
        counts[finding.severity] += 1
    verdict = verdict_of_severities(name for name, n in counts.items() if n)
    return ContractOutput(findings, tuple(invalid), verdict, counts, tuple(sorted(reviewers)))
