"""One row per (file, rule_key): matched, missed or spurious, with its secondary differences."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from voyage_tui.engine.scoring.report import RunScore
from voyage_tui.engine.scoring.scorer import VIA_DUAL

MATCHED, MISSED, SPURIOUS = "matched", "missed", "spurious"
STATES = (MATCHED, MISSED, SPURIOUS)

SYMBOL = {MATCHED: "=", MISSED: "-", SPURIOUS: "+"}
DUAL_SYMBOL = "~"
"""Symbols match `voyage-tui score`'s text report, so the two read alike without colour."""


@dataclass(frozen=True, slots=True)
class DiffRow:
    state: str
    file: str
    rule_key: str
    """The gold key's rule_key (matched, missed) or the run's (spurious)."""
    via: str | None = None
    gold_line: int | None = None
    gold_severity: str | None = None
    run_rule_key: str | None = None
    run_line: int | None = None
    run_severity: str | None = None
    reviewers: tuple[str, ...] = ()
    differences: tuple[str, ...] = ()

    @property
    def symbol(self) -> str:
        if self.state == MATCHED and self.via == VIA_DUAL:
            return DUAL_SYMBOL
        return SYMBOL[self.state]

    @property
    def is_difference(self) -> bool:
        """Anything but a clean match: missed, spurious, or matched with a line, severity or
        rule-key difference."""
        return self.state != MATCHED or bool(self.differences)

    @property
    def has_gold(self) -> bool:
        return self.state in (MATCHED, MISSED)

    @property
    def has_run(self) -> bool:
        return self.state in (MATCHED, SPURIOUS)


def diff_rows(score: RunScore) -> list[DiffRow]:
    """Every row, sorted by (file, rule_key); a matched row's key is its gold key."""
    rows: list[DiffRow] = []
    for match in score.matched:
        rows.append(
            DiffRow(
                MATCHED,
                match.file,
                match.rule_key,
                via=match.via,
                gold_line=match.gold_line,
                gold_severity=match.gold_severity,
                run_rule_key=match.run_rule_key,
                run_line=match.run_line,
                run_severity=match.run_severity,
                reviewers=match.reviewers,
                differences=match.differences,
            )
        )
    for missed in score.missed:
        rows.append(
            DiffRow(
                MISSED,
                missed.file,
                missed.rule_key,
                gold_line=missed.line,
                gold_severity=missed.severity,
            )
        )
    for spurious in score.spurious:
        rows.append(
            DiffRow(
                SPURIOUS,
                spurious.file,
                spurious.rule_key,
                run_rule_key=spurious.rule_key,
                run_line=spurious.line,
                run_severity=spurious.severity,
                reviewers=spurious.reviewers,
            )
        )
    rows.sort(key=lambda r: (r.file, r.rule_key, STATES.index(r.state)))
    return rows


def only(rows: Iterable[DiffRow], states: Iterable[str]) -> list[DiffRow]:
    wanted = set(states)
    return [r for r in rows if r.state in wanted]
