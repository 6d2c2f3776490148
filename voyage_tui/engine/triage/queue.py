"""The triage queue: everything in the workspace that needs a person, worst first.

Computed from the engine's results every time (validation, the exposure report, the scores of the
recorded runs, the ratings in force) and never stored, so it cannot go stale: an item leaves the
queue when it is fixed, or while it is snoozed (see state.py). Order: by kind (keys.KINDS), then
by path and line; low scores worst first (lowest F1, then a verdict that does not match).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from voyage_tui.engine.campaign import figures as campaign_figures
from voyage_tui.engine.campaign.counting import Raters
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.git.exposure import EXPOSURE_KINDS, ExposureReport, Signal
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.safe_read import sha256_inside
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import RunKey, agent_runs
from voyage_tui.engine.review.inputs import ReviewError, load_gold, score_pair
from voyage_tui.engine.scoring.report import RunScore
from voyage_tui.engine.triage.keys import (
    DRIFT,
    ERROR,
    EXPOSED,
    KINDS,
    LOW_SCORE,
    RANK,
    UNRATED,
    WARNING,
    diagnostic_key,
    exposed_key,
    low_score_key,
    unique,
    unrated_key,
)
from voyage_tui.engine.triage.state import Snooze, TriageState
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace

GATING_KINDS: frozenset[str] = frozenset((ERROR, EXPOSED))
"""The kinds that fail `voyage-tui triage` (the CI gate), whatever their snooze."""
EXPOSED_CODE = "holdout-exposed"
DRIFT_CODE = "readme-drift"
MAX_TITLE_CHARS = 160


@dataclass(frozen=True, slots=True)
class TriageItem:
    key: str
    kind: str
    path: str
    line: int | None
    title: str
    detail: str
    column: int | None = None
    code: str = ""
    """The diagnostic's code; for `exposed`, its signals (`canary-leak+co-change`)."""
    files: tuple[str, ...] = ()
    """The files whose change ends a snooze `until change`: the item's file and what it is
    checked against (a run's gold file, the README beside a gold file)."""
    gold: str | None = None
    """`low-score`: the gold file the run is scored against."""
    f1: float | None = None
    verdict_match: bool | None = None
    fixture_id: str | None = None
    """`exposed`: the holdout's id; `unrated`: the fixture the run belongs to."""
    run_id: str | None = None
    signals: tuple[Signal, ...] = ()

    def location(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"

    def to_json(self, snooze: Snooze | None = None) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "path": self.path,
            "line": self.line,
            "title": self.title,
            "detail": self.detail,
            "snoozed_until": snooze.until if snooze is not None else None,
        }

    def _order(self) -> tuple[int, float, int, str, int, int, str]:
        worst = (self.f1 if self.f1 is not None else 0.0, int(bool(self.verdict_match)))
        if self.kind != LOW_SCORE:
            worst = (0.0, 0)
        return (RANK[self.kind], *worst, self.path, self.line or 0, self.column or 0, self.key)


@dataclass(frozen=True, slots=True)
class Queue:
    items: tuple[TriageItem, ...]
    """The queue: every item not snoozed, in order."""
    snoozed: tuple[tuple[TriageItem, Snooze], ...] = ()
    expired: frozenset[str] = frozenset()
    """Keys whose snooze has ended (their file changed, or their date came): forgotten at the
    next write of the state (TriageState.forget_expired)."""
    state_diagnostics: tuple[Diagnostic, ...] = ()

    def counts(self) -> dict[str, int]:
        """Items per kind, every kind present (in queue order)."""
        counts = dict.fromkeys(KINDS, 0)
        for item in self.items:
            counts[item.kind] += 1
        return counts

    def gating(self) -> list[TriageItem]:
        """The items that fail CI: every error and exposed holdout, snoozed or not. A snooze
        only hides an item from the list: the state file is workspace content a branch can
        commit, so nothing in it may pass the gate (issue 18)."""
        return [i for i, _ in self.everything() if i.kind in GATING_KINDS]

    def snoozed_gating(self) -> list[TriageItem]:
        """The gating items a snooze hides: they still count, and the text output says so."""
        return [i for i, _ in self.snoozed if i.kind in GATING_KINDS]

    @property
    def gates(self) -> bool:
        """Whether CI should fail: an error or an exposed holdout, snoozed or not."""
        return bool(self.gating())

    def everything(self) -> list[tuple[TriageItem, Snooze | None]]:
        """Every item, snoozed ones included, in queue order."""
        rows: list[tuple[TriageItem, Snooze | None]] = [(i, None) for i in self.items]
        rows += list(self.snoozed)
        rows.sort(key=lambda row: row[0]._order())
        return rows

    def find(self, key: str) -> TriageItem | None:
        for item, _ in self.everything():
            if item.key == key:
                return item
        return None


# --- what the engine found, cached between computations ----------------------------------------


@dataclass(slots=True)
class ScoreCache:
    """Gold runs' scores from the last computation, reused while the items they came from are
    the same objects (re-validation replaces the Item of every file it re-checks, so an edit to
    a run or its gold file is always seen). The ratings are the view's campaign snapshot's
    (engine/campaign/), read once by the suite."""

    _scores: dict[str, tuple[Item, Item, RunScore | None]] = field(default_factory=dict)
    _golds: dict[str, tuple[Item, dict[str, Any] | None]] = field(default_factory=dict)

    def score(self, view: SuiteView, gold: Item, run: Item) -> RunScore | None:
        cached = self._scores.get(run.path)
        if cached is not None and cached[0] is gold and cached[1] is run:
            return cached[2]
        record = self._gold(view.ws, gold)
        result: RunScore | None = None
        if record is not None:
            try:
                result = score_pair(view.ws, gold.path, run.path, record).score
            except ReviewError:
                result = None  # not a run that can be scored: validate reports why
        self._scores[run.path] = (gold, run, result)
        return result

    def _gold(self, ws: Workspace, gold: Item) -> dict[str, Any] | None:
        cached = self._golds.get(gold.path)
        if cached is not None and cached[0] is gold:
            return cached[1]
        try:
            record: dict[str, Any] | None = load_gold(ws, gold.path)
        except ReviewError:
            record = None
        self._golds[gold.path] = (gold, record)
        return record


# --- collecting the items ------------------------------------------------------------------------


def collect(
    view: SuiteView,
    exposure: ExposureReport | None = None,
    cache: ScoreCache | None = None,
    extra: Iterable[Diagnostic] = (),
) -> list[TriageItem]:
    """Every item the workspace has, snoozed or not, in queue order. `exposure` gives the
    signals of each exposed holdout (without it, the validation message says what they are);
    `extra` are diagnostics to queue beside validation's (the triage state's own)."""
    cache = cache if cache is not None else ScoreCache()
    config = view.ws.config.triage
    found: list[TriageItem] = []
    for item, d in _diagnostics(view, extra):
        if d.code == EXPOSED_CODE and d.path in view.exposed:
            continue  # the holdout's exposed item (below) is this diagnostic
        made = _from_diagnostic(view, item, d, exposure)
        if made is not None:
            found.append(made)
    # Which holdouts are exposed is the view's typed field, never a search for a code.
    found += [_exposed(view, path, exposure) for path in view.exposed]
    found += _low_scores(view, cache, config.min_f1)
    found += _unrated(view)
    found += _too_fast(view)
    found += _judges_below(view)
    found.sort(key=TriageItem._order)
    keys = unique(i.key for i in found)
    return [i if i.key == k else replace(i, key=k) for i, k in zip(found, keys, strict=True)]


def _diagnostics(
    view: SuiteView, extra: Iterable[Diagnostic]
) -> Iterator[tuple[Item | None, Diagnostic]]:
    for item in view.items.values():
        for d in item.diagnostics:
            yield item, d
    for d in (*view.workspace_diagnostics, *extra):
        yield view.items.get(d.path), d


def _title(message: str) -> str:
    """The first clause of a message (what is wrong; what to do follows the `;`)."""
    first = message.split("; ", 1)[0].strip()
    first = " ".join(first.split())
    return first if len(first) <= MAX_TITLE_CHARS else first[: MAX_TITLE_CHARS - 1] + "…"


def _files(*paths: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for p in paths if p))


def _from_diagnostic(
    view: SuiteView, item: Item | None, d: Diagnostic, exposure: ExposureReport | None
) -> TriageItem | None:
    if d.severity is Severity.INFO:
        return None
    deps = item.deps if item is not None and item.path == d.path else ()
    if d.code == DRIFT_CODE:
        kind = DRIFT
        # Either side of the drift may be the one to fix: a change to the gold file or to the
        # README beside it ends a snooze.
        deps = (item.path, *item.deps) if item is not None else ()
    else:
        kind = ERROR if d.severity is Severity.ERROR else WARNING
    return TriageItem(
        key=diagnostic_key(kind, d.path, d.code, d.message),
        kind=kind,
        path=d.path,
        line=d.line,
        column=d.column,
        title=_title(d.message),
        detail=f"{d.code}: {d.message}",
        code=d.code,
        files=_files(d.path, *deps),
    )


def _exposed(view: SuiteView, path: str, exposure: ExposureReport | None) -> TriageItem:
    item = view.items.get(path)
    # The git checks' message on the holdout, if the view has it: where to open the file (its
    # `visibility:` line) and, without the report, which signals.
    note = next((d for d in view.diagnostics_for(path) if d.code == EXPOSED_CODE), None)
    found = exposure.by_path().get(path) if exposure is not None else None
    folder = path.rsplit("/", 2)[-2] if path.count("/") >= 1 else path
    holdout_id = (item.id if item is not None else None) or folder
    if found is not None:
        holdout_id = found.id
        signals = tuple(s for s in found.signals if s.kind in EXPOSURE_KINDS)
        kinds = found.kinds()
        detail = "\n".join(
            f"{s.kind}  {(s.commit or '-')[:10]}  {s.author or '-'}: {s.detail}" for s in signals
        )
    else:
        signals = ()
        # Without the report, the kinds are the ones the validation message names.
        message = note.message if note is not None else ""
        kinds = [k for k in EXPOSURE_KINDS if f"{k} (" in message]
        detail = message or f"holdout `{holdout_id}` is exposed"
    return TriageItem(
        key=exposed_key(path, kinds),
        kind=EXPOSED,
        path=path,
        line=note.line if note is not None else None,
        column=note.column if note is not None else None,
        title=f"holdout `{holdout_id}` exposed: {', '.join(kinds) or 'see the signals'}",
        detail=detail,
        code="+".join(sorted(kinds)),
        files=(path,),
        fixture_id=holdout_id,
        signals=signals,
    )


def _low_scores(view: SuiteView, cache: ScoreCache, min_f1: float) -> list[TriageItem]:
    out: list[TriageItem] = []
    for run in view.items.values():
        if run.kind is not FileKind.GOLD_RUN or run.parent is None:
            continue
        gold = view.items.get(run.parent)
        if gold is None or gold.kind is not FileKind.GOLD or gold.errors:
            continue  # a gold file with errors is never scored against: its errors are queued
        score = cache.score(view, gold, run)
        if score is None or (score.f1 >= min_f1 and score.verdict_match):
            continue
        name = run.path.rsplit("/", 1)[-1]
        problems = []
        if score.f1 < min_f1:
            problems.append(f"F1 {score.f1:.3f} below {min_f1:g}")
        if not score.verdict_match:
            problems.append(f"verdict {score.run_verdict}, expected {score.expected_verdict}")
        figures = (
            f"tp {score.tp} · fp {score.fp} · fn {score.fn} · precision {score.precision:.3f} · "
            f"recall {score.recall:.3f} · F1 {score.f1:.3f}\n"
            f"verdict {score.run_verdict}, expected {score.expected_verdict}"
            f"{'' if score.verdict_match else ' (mismatch)'}\ngold {gold.path}"
        )
        out.append(
            TriageItem(
                key=low_score_key(run.path),
                kind=LOW_SCORE,
                path=run.path,
                line=None,
                title=f"{name}: {'; '.join(problems)}",
                detail=figures,
                files=_files(run.path, gold.path),
                gold=gold.path,
                f1=score.f1,
                verdict_match=score.verdict_match,
            )
        )
    return out


def ratings_wanted(ws: Workspace) -> tuple[int, str]:
    """How many ratings in force an agent run wants before it leaves the `unrated` items, and
    the setting that says so: `[rating] overlap`, unless the deprecated `[triage]
    ratings_per_run` is written (it wins while it is: 0 still turns the items off)."""
    config = ws.config
    if config.explicitly_set("triage", "ratings_per_run"):
        return config.triage.ratings_per_run, "[triage] ratings_per_run"
    return config.rating.overlap, "[rating] overlap"


def _unrated(view: SuiteView) -> list[TriageItem]:
    """The runs that want more people's ratings (programs' never count: SPEC 3.11)."""
    wanted, setting = ratings_wanted(view.ws)
    if wanted <= 0:
        return []
    campaign = view.campaign()
    assignment = campaign_figures.assignment(campaign)
    raters: dict[RunKey, list[str]] = {}
    for fixture_id, run_id, rater in sorted(campaign.in_force(Raters.PEOPLE)):
        raters.setdefault((fixture_id, run_id), []).append(rater)
    settled = campaign.adjudicated()
    out: list[TriageItem] = []
    seen: set[RunKey] = set()
    for run in agent_runs(view.items):
        if run.run_key in seen:
            continue  # a copied run_id: validate reports the copy, the first counts
        seen.add(run.run_key)
        who = raters.get(run.run_key, [])
        if len(who) >= wanted or run.run_key in settled:
            continue
        rated = f"rated by {', '.join(who)}" if who else "not rated yet"
        waiting = [r for r in assignment.raters_of(run.run_key) if r not in who]
        if waiting:
            rated += f"; still assigned to {', '.join(waiting)}"
        out.append(
            TriageItem(
                key=unrated_key(run.run_path, run.fixture_id, run.run_id),
                kind=UNRATED,
                path=run.run_path,
                line=None,
                title=f"{run.fixture_id} / {run.run_id}: {len(who)} of {wanted} ratings"
                + (f", waiting for {', '.join(waiting)}" if waiting else ""),
                detail=f"{rated}; {setting} asks for {wanted}",
                files=(run.run_path,),
                fixture_id=run.fixture_id,
                run_id=run.run_id,
            )
        )
    return out


TOO_FAST_CODE = "rating-too-fast"
MAX_TOO_FAST_LISTED = 10
"""The ratings a `rating-too-fast` item lists before `and N more`."""


def _too_fast(view: SuiteView) -> list[TriageItem]:
    """One warning per ratings file holding people's ratings in force timed below `[rating]
    min_seconds` (issue 36 row 4): a `warning` rather than a kind of its own, so it sits with
    the other things to look at (after errors, exposed holdouts, low scores and drift, before
    the runs that only wait for ratings) and opens where the first such rating is written."""
    threshold = view.ws.config.rating.min_seconds
    if threshold <= 0:
        return []
    by_file: dict[str, list[Rating]] = {}
    for rating in view.campaign().in_force(Raters.PEOPLE).values():
        if rating.duration_s is not None and rating.duration_s < threshold and rating.path:
            by_file.setdefault(rating.path, []).append(rating)
    out: list[TriageItem] = []
    for path, fast in sorted(by_file.items()):
        fast.sort(key=lambda r: r.line)
        rater = fast[0].rater
        lines = [
            f"{r.fixture_id} / {r.run_id}: {r.duration_s:g} s (line {r.line})"
            for r in fast[:MAX_TOO_FAST_LISTED]
        ]
        if len(fast) > MAX_TOO_FAST_LISTED:
            lines.append(f"and {len(fast) - MAX_TOO_FAST_LISTED} more")
        lines.append(
            "Quicker than a run can be read: look at the ratings, ask the rater, retract or "
            "re-rate."
        )
        count = plural(len(fast), "rating")
        out.append(
            TriageItem(
                key=f"{WARNING}:{path}:{TOO_FAST_CODE}:{rater}",
                kind=WARNING,
                path=path,
                line=fast[0].line,
                title=f"{rater}: {count} faster than [rating] min_seconds ({threshold:g} s)",
                detail="\n".join(lines),
                code=TOO_FAST_CODE,
                files=(path,),
            )
        )
    return out


def _judges_below(view: SuiteView) -> list[TriageItem]:
    """A judge below the ceiling on a dimension (triage/judges.py); nothing without a judge."""
    from voyage_tui.engine.triage.judges import judges_below

    campaign = view.campaign()
    if not any(r.is_program for r in campaign.store.ratings()):
        return []
    return judges_below(campaign)


# --- snoozes -------------------------------------------------------------------------------------


def fingerprint(ws: Workspace, files: Iterable[str]) -> str:
    """A digest of the files' bytes (a file that cannot be read counts by why), so a snooze
    ends when the content changes, not when a file is merely touched."""
    digest = hashlib.sha256()
    for rel in files:
        # A block at a time: the files of an item may be a rater's whole ratings file.
        hashed = sha256_inside(
            ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes
        )
        part = hashed if isinstance(hashed, str) else f"!{hashed.code}"
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0" + part.encode() + b"\n")
    return digest.hexdigest()


def apply_snoozes(
    ws: Workspace,
    items: Iterable[TriageItem],
    snoozes: Mapping[str, Snooze],
    today: date,
    state_diagnostics: Iterable[Diagnostic] = (),
) -> Queue:
    active: list[TriageItem] = []
    snoozed: list[tuple[TriageItem, Snooze]] = []
    expired: set[str] = set()
    for item in items:
        snooze = snoozes.get(item.key)
        if snooze is not None and _holds(ws, item, snooze, today):
            snoozed.append((item, snooze))
            continue
        if snooze is not None:
            expired.add(item.key)
        active.append(item)
    return Queue(tuple(active), tuple(snoozed), frozenset(expired), tuple(state_diagnostics))


def _holds(ws: Workspace, item: TriageItem, snooze: Snooze, today: date) -> bool:
    if snooze.until_change:
        # The item's own files, never those the state file names: it is workspace content, and
        # may come from anyone.
        return snooze.fingerprint == fingerprint(ws, item.files)
    ends = snooze.until_date()
    return ends is not None and today < ends


def build_queue(
    view: SuiteView,
    state: TriageState,
    today: date,
    *,
    exposure: ExposureReport | None = None,
    cache: ScoreCache | None = None,
    state_diagnostics: Iterable[Diagnostic] = (),
) -> Queue:
    """The queue of `view`, with the snoozes of `state` as they stand on `today`. The state
    file's own problems are queued as warnings on `.voyage/triage.json`."""
    problems = tuple(state_diagnostics)
    items = collect(view, exposure, cache, problems)
    return apply_snoozes(view.ws, items, state.snoozes, today, problems)
