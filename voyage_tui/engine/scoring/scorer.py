"""scoreFindings and scoreVerdict (docs/scoring.md, sections 2 and 3): a run's findings against the gold's.

Matching is at (file, rule_key) granularity. Both sides are projected to *sets* of keys, so two
findings with the same (file, rule_key) count once, whatever their lines and severities.

1. Exact: a gold key is matched by the same run key (`via` "rule_key").
2. Alternative: a gold key still unmatched is matched by the run key (file, dual_flaggable) when
   that run key is used by no other match (`via` "dual_flaggable"). Exact matches are made first,
   for every gold key, so an exact match always wins over an alternative one; an alternative run
   key serves at most one gold key. Gold keys compete for alternatives in (file, rule_key) order,
   and a gold key with several alternatives (only possible when duplicate gold findings carry
   different `dual_flaggable`s) tries them in alphabetical order.
3. tp = matched gold keys, fn = unmatched gold keys, fp = run keys used by no match.
   precision = tp/(tp+fp), recall = tp/(tp+fn), each 0 when its denominator is 0;
   f1 = 2pr/(p+r), 0 when p+r = 0.

Line and severity never affect matching; each match reports them as secondary differences. Where
several findings share a key, the gold side shows its most severe finding (lowest line on a tie),
the run side its highest severity and the line nearest the gold line (the lower on a tie).

Output order: matched and missed by the gold key (file, rule_key), spurious by the run key.
Pure and linear in the number of findings (plus the sort of the output).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from voyage_tui.engine.formats.vocabulary import SEVERITIES, SEVERITY_RANK
from voyage_tui.engine.scoring.contract import Finding

Key = tuple[str, str]
MatchMode = Literal["dual", "seed"]
"""How gold keys are matched (SPEC 3.6 and 3.10): `dual` (the default) also lets a run key
(file, dual_flaggable) stand for a gold key; `seed` matches on (file, rule_key) only, exactly as
the seed's `scoreFindings` does, so its figures can be reproduced by the corpus's node test."""
DEFAULT_MATCH: MatchMode = "dual"
Via = Literal["rule_key", "dual_flaggable"]
VIA_RULE_KEY: Via = "rule_key"
VIA_DUAL: Via = "dual_flaggable"


@dataclass(frozen=True, slots=True)
class Match:
    file: str
    rule_key: str
    """The gold key's rule_key."""
    via: Via
    run_rule_key: str
    """The run key's rule_key: the gold's own, or its dual_flaggable alternative."""
    gold_line: int | None
    run_line: int | None
    gold_severity: str | None
    run_severity: str | None
    reviewers: tuple[str, ...] = ()

    @property
    def key(self) -> Key:
        return (self.file, self.rule_key)

    @property
    def run_key(self) -> Key:
        return (self.file, self.run_rule_key)

    @property
    def differences(self) -> tuple[str, ...]:
        """The secondary differences, in words: ("severity gold MAJOR, run MINOR", "line 41 vs 44")."""
        out: list[str] = []
        if self.via == VIA_DUAL:
            out.append(f"run rule_key {self.run_rule_key} (the gold's dual_flaggable)")
        if self.gold_severity != self.run_severity:
            out.append(f"severity gold {self.gold_severity}, run {self.run_severity}")
        if self.gold_line != self.run_line:
            out.append(f"line {self.gold_line} vs {self.run_line}")
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "rule_key": self.rule_key,
            "via": self.via,
            "run_rule_key": self.run_rule_key,
            "gold_line": self.gold_line,
            "run_line": self.run_line,
            "gold_severity": self.gold_severity,
            "run_severity": self.run_severity,
            "reviewers": list(self.reviewers),
            "differences": list(self.differences),
        }


@dataclass(frozen=True, slots=True)
class KeyRef:
    """A missed gold key or a spurious run key, with the details the report shows."""

    file: str
    rule_key: str
    line: int | None = None
    severity: str | None = None
    reviewers: tuple[str, ...] = ()

    @property
    def key(self) -> Key:
        return (self.file, self.rule_key)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "rule_key": self.rule_key}


@dataclass(frozen=True, slots=True)
class FindingsScore:
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    matched: tuple[Match, ...]
    missed: tuple[KeyRef, ...]
    spurious: tuple[KeyRef, ...]

    def figures(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.figures(),
            "matched": [m.to_json() for m in self.matched],
            "missed": [m.to_json() for m in self.missed],
            "spurious": [s.to_json() for s in self.spurious],
        }

    @property
    def matched_keys(self) -> frozenset[Key]:
        return frozenset(m.key for m in self.matched)


def ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def f1_of(precision: float, recall: float) -> float:
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


_NO_RANK = len(SEVERITIES)
_NO_LINE = 1 << 62


class _Side:
    """Everything one side says about one key. Containers are made only when a key has more
    than one finding (rare), so that a large run allocates one small object per key."""

    __slots__ = ("alternatives", "first_rank", "line", "more_lines", "rank", "reviewers")

    def __init__(self) -> None:
        self.rank = _NO_RANK  # the most severe valid severity seen (gold: of the representative)
        self.line: int | None = None  # run: the first line seen; gold: the representative's
        self.more_lines: list[int] | None = None  # run: every line, once there are several
        self.reviewers: tuple[str, ...] | set[str] = ()
        self.alternatives: str | set[str] | None = None
        self.first_rank = _NO_RANK + 1  # gold: rank of the representative finding

    @property
    def severity(self) -> str | None:
        return SEVERITIES[self.rank] if self.rank < _NO_RANK else None

    def add_line(self, line: int) -> None:
        if self.more_lines is not None:
            self.more_lines.append(line)
        elif self.line is None:
            self.line = line
        else:
            self.more_lines = [self.line, line]

    def lowest_line(self) -> int | None:
        return min(self.more_lines) if self.more_lines else self.line

    def nearest_line(self, target: int | None) -> int | None:
        lines = self.more_lines
        if not lines:
            return self.line
        if target is None:
            return min(lines)
        return min(lines, key=lambda line: (abs(line - target), line))

    def add_reviewers(self, reviewers: Any) -> None:
        if not isinstance(reviewers, (list, tuple)):
            return
        if not self.reviewers and isinstance(reviewers, tuple):
            self.reviewers = reviewers  # shared, not copied: Finding.reviewers is immutable
            return
        merged = set(self.reviewers)
        merged.update(r for r in reviewers if isinstance(r, str))
        self.reviewers = merged

    def sorted_reviewers(self) -> tuple[str, ...]:
        who = self.reviewers
        if len(who) == 1 and isinstance(who, tuple) and isinstance(who[0], str):
            return who
        return tuple(sorted({r for r in who if isinstance(r, str)}))

    def add_alternative(self, alternative: str) -> None:
        current = self.alternatives
        if current is None:
            self.alternatives = alternative
        elif isinstance(current, str):
            if current != alternative:
                self.alternatives = {current, alternative}
        else:
            current.add(alternative)

    def sorted_alternatives(self) -> list[str]:
        current = self.alternatives
        if current is None:
            return []
        return [current] if isinstance(current, str) else sorted(current)


def _fields(finding: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """(file, rule_key, line, severity, dual_flaggable, reviewers) of a mapping or an object."""
    if isinstance(finding, dict):
        get = finding.get
        return (
            get("file"),
            get("rule_key"),
            get("line"),
            get("severity"),
            get("dual_flaggable"),
            get("reviewers"),
        )
    if isinstance(finding, Finding):
        return (
            finding.file,
            finding.rule_key,
            finding.line,
            finding.severity,
            None,
            finding.reviewers,
        )
    if isinstance(finding, Mapping):
        lookup = finding.get
        return (
            lookup("file"),
            lookup("rule_key"),
            lookup("line"),
            lookup("severity"),
            lookup("dual_flaggable"),
            lookup("reviewers"),
        )
    return (
        getattr(finding, "file", None),
        getattr(finding, "rule_key", None),
        getattr(finding, "line", None),
        getattr(finding, "severity", None),
        getattr(finding, "dual_flaggable", None),
        getattr(finding, "reviewers", None),
    )


def _index(findings: Iterable[Any], gold: bool) -> dict[Key, _Side]:
    index: dict[Key, _Side] = {}
    rank_of = SEVERITY_RANK.get
    for finding in findings:
        file, rule_key, line, severity, alternative, reviewers = _fields(finding)
        # The exact-type test is the fast path; isinstance only runs for the rare str subclass.
        if (type(file) is not str or type(rule_key) is not str) and (
            not isinstance(file, str) or not isinstance(rule_key, str)
        ):
            continue  # unscorable: run_contract / validate report these
        key = (file, rule_key)
        side = index.get(key)
        if side is None:
            side = index[key] = _Side()
        rank = rank_of(severity, _NO_RANK) if type(severity) is str else _NO_RANK
        if type(line) is not int:
            line = line if isinstance(line, int) and not isinstance(line, bool) else None
        if gold:
            # The representative: most severe, then lowest line (order-independent).
            if (rank, _NO_LINE if line is None else line) < (
                side.first_rank,
                _NO_LINE if side.line is None else side.line,
            ):
                side.first_rank, side.rank, side.line = rank, rank, line
            if isinstance(alternative, str) and alternative and alternative != rule_key:
                side.add_alternative(alternative)
        else:
            if rank < side.rank:
                side.rank = rank
            if line is not None:
                side.add_line(line)
            if reviewers:
                side.add_reviewers(reviewers)
    return index


def _gold_severity(side: _Side) -> str | None:
    return side.severity


def score_findings(
    run: Iterable[Any], gold: Iterable[Any], match: MatchMode = DEFAULT_MATCH
) -> FindingsScore:
    """Score run findings against gold findings. Both are mappings (or objects) with `file` and
    `rule_key`; `line`, `severity`, gold `dual_flaggable` and run `reviewers` are read when present.
    Entries without text `file` and `rule_key` cannot form a key and are skipped: pass the run
    through `run_contract` first, which reports them. With `match="seed"` the alternatives
    (step 2) are never tried: tp, fp and fn are the seed's set intersections and differences."""
    gold_index = _index(gold, gold=True)
    run_index = _index(run, gold=False)

    matched: dict[Key, tuple[Key, Via]] = {}
    used: set[Key] = set()
    for key in gold_index:
        if key in run_index:
            matched[key] = (key, VIA_RULE_KEY)
            used.add(key)
    waiting = (
        sorted(key for key, side in gold_index.items() if key not in matched and side.alternatives)
        if match == "dual"
        else []
    )
    for key in waiting:
        for alternative in gold_index[key].sorted_alternatives():
            run_key = (key[0], alternative)
            if run_key in run_index and run_key not in used:
                matched[key] = (run_key, VIA_DUAL)
                used.add(run_key)
                break

    matches: list[Match] = []
    for key in sorted(matched):
        run_key, via = matched[key]
        g, r = gold_index[key], run_index[run_key]
        matches.append(
            Match(
                file=key[0],
                rule_key=key[1],
                via=via,
                run_rule_key=run_key[1],
                gold_line=g.line,
                run_line=r.nearest_line(g.line),
                gold_severity=_gold_severity(g),
                run_severity=r.severity,
                reviewers=r.sorted_reviewers(),
            )
        )
    missed = tuple(
        KeyRef(key[0], key[1], side.line, side.severity)
        for key, side in sorted(gold_index.items(), key=lambda kv: kv[0])
        if key not in matched
    )
    spurious = tuple(
        KeyRef(key[0], key[1], side.lowest_line(), side.severity, side.sorted_reviewers())
        for key, side in sorted(run_index.items(), key=lambda kv: kv[0])
        if key not in used
    )
    tp, fn, fp = len(matches), len(missed), len(spurious)
    precision = ratio(tp, tp + fp)
    recall = ratio(tp, tp + fn)
    return FindingsScore(
        tp=tp,
        fp=fp,
        fn=fn,
        precision=precision,
        recall=recall,
        f1=f1_of(precision, recall),
        matched=tuple(matches),
        missed=missed,
        spurious=spurious,
    )


def score_verdict(run_verdict: str | None, expected: str | None) -> bool:
    """scoreVerdict: the run's verdict equals the gold's `expected_verdict`, exactly."""
    return run_verdict is not None and run_verdict == expected
