"""A rater session: the queue of (fixture, run) pairs, where the rater is in it, and every step
(submit, undo, redo) as an appended record, so the file stays append-only and a killed session
loses at most the rating on screen.

Order. Blind (the default): the pairs sorted by sha256(rater, fixture_id, run_id), so two raters
see different orders, one rater the same order on every resume, and a run added later slots in
without reshuffling the rest. Not blind: by fixture path, then run.

Assignment. With a team (`[rating] raters`: assignment.py), the queue is the rater's assigned
pairs first, then the others, each part in the order above; the next pair is always an assigned
unrated one while there is one (a skipped assigned pair comes back before any other). Once every
assigned pair is rated, `Progress.assigned_done` says so and the others follow: still rateable,
just not asked of this rater. A rater outside the team is assigned nothing and may rate
everything. Without a team every pair is everyone's.

Resume. The session starts at the first pair of the queue this rater has no rating in force for.

Undo. `undo()` takes back the last submit of this session: it appends the record that restores
the rating in force before that submit, which is a retraction (`scores: null`) when the pair was
unrated, or a copy of the earlier record when the submit re-rated it (an undo returns to the
state before the action, it does not erase an older rating). Undo goes back through every submit
of the session, one at a time; `redo()` re-appends an undone rating until a new submit. Steps
taken in an earlier session are not undone (rate the pair again instead).
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.ratings.assignment import Assignment, workspace_assignment
from voyage_tui.engine.ratings.content import PairContent, load_pair
from voyage_tui.engine.ratings.keypad import ScoreDraft
from voyage_tui.engine.ratings.lock import LockRefused, RaterLock, check_free
from voyage_tui.engine.ratings.names import ratings_file_rel, resolve_rater
from voyage_tui.engine.ratings.records import Rating, parse_ratings, utc_now
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import AgentRunRef, RunIndex, RunKey
from voyage_tui.engine.ratings.store import RatingStore
from voyage_tui.engine.references.rubric import Dimension, Rubric
from voyage_tui.engine.workspace.layout import git_ignores_file
from voyage_tui.engine.workspace.model import Workspace


class SessionError(Exception):
    """The session cannot start (or write): the message says why and what to do."""


def blind_order(runs: list[AgentRunRef], rater: str) -> list[AgentRunRef]:
    """The runs in `rater`'s own shuffled order (stable: a hash, not a random generator)."""

    def rank(run: AgentRunRef) -> bytes:
        seed = "\x00".join((rater, run.fixture_id, run.run_id))
        return hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()

    return sorted(runs, key=rank)


OwnFile = Callable[[Rubric, RunIndex, list[str]], RatingStore]
"""Reads a rater's own ratings file (its path, or none yet), checked against the runs."""


def why_no_session(ws: Workspace, rater: str) -> str | None:
    """Why a session of `rater` (a resolved name) would not start now, or None: what
    RaterSession.open refuses that needs neither the rubric nor the suite (a symlink on the
    way, another live session of the rater, a file that cannot be read or is no ratings file).
    A command asks before it opens the app; the app's session asks again when it opens."""
    rel = ratings_file_rel(ws, rater)
    problem = symlink_on_the_way(ws, rel)
    if problem is not None:
        return problem
    try:
        check_free(ws, rater)
    except LockRefused as exc:
        return str(exc)
    full = ws.abs(rel)
    if not os.path.lexists(full):
        return None
    lines = ws.open_lines(rel)
    if isinstance(lines, Diagnostic):
        return (
            f"{rel} cannot be read ({lines.message}); a session would append to a file whose "
            "ratings it cannot see. Fix the file first"
        )
    parsed = parse_ratings(lines, rel)
    if not parsed.readable:
        reasons = "; ".join(d.message for d in parsed.diagnostics) or "it cannot be read"
        return f"{rel} cannot be read ({reasons}); fix the file first"
    return parsed.foreign.refusal(rel)


def symlink_on_the_way(ws: Workspace, rel: str) -> str | None:
    """Why a session will not write to `rel`: it, or a folder on the way to it below the
    workspace root, is a symlink. None when none is. Ratings are never written through a
    symlink, even one that stays inside the workspace: a branch can commit
    `ratings/carol.jsonl` as a link to `.venv/bin/activate` or `.git/config`, and the writer
    would refuse the first append anyway (this says so before any rating is made)."""
    parts = rel.split("/")
    for depth in range(1, len(parts) + 1):
        shown = "/".join(parts[:depth])
        try:
            info = os.lstat(ws.abs(shown))
        except FileNotFoundError:
            return None  # made by the first append, as a folder and a file
        except OSError as exc:
            return f"{shown} cannot be looked at ({exc.strerror or exc}); nothing was written"
        if stat.S_ISLNK(info.st_mode):
            what = "the ratings file" if depth == len(parts) else "a folder on the way to it"
            return (
                f"{shown} is a symlink, and {what}; ratings are never written through a "
                "symlink, even one that stays inside the workspace (it could lead to any file, "
                "such as .venv/bin/activate or .git/config). Nothing was written. Replace the "
                "link with the file or folder itself"
            )
    return None


def touches_runs(items: Mapping[str, Item], touched: set[str]) -> bool:
    """Whether a change to the files `touched` may add agent runs to a session (a rater's own
    ratings file, appended at every rating, does not: the session need not look again)."""
    return any(
        (item := items.get(path)) is not None and item.kind is FileKind.AGENT_RUN
        for path in touched
    )


def plain_order(runs: list[AgentRunRef]) -> list[AgentRunRef]:
    return sorted(runs, key=lambda r: (r.task_path, r.run_id))


@dataclass(frozen=True, slots=True)
class Progress:
    rated: int
    total: int
    assigned: int = 0
    """The pairs assigned to this rater (every pair when there is no team)."""
    assigned_rated: int = 0
    """Of those, the ones this rater has a rating in force for."""
    team: bool = False
    """Whether `[rating] raters` names a team (else every pair is everyone's)."""
    in_team: bool = True
    """Whether this rater is one of the team (always, without one)."""

    @property
    def assigned_done(self) -> bool:
        """Every pair assigned to this rater is rated: what follows is not asked of them."""
        return self.assigned_rated >= self.assigned

    def __str__(self) -> str:
        if self.team and self.in_team:
            return (
                f"{self.assigned_rated}/{self.assigned} assigned · {self.rated}/{self.total} rated"
            )
        return f"{self.rated}/{self.total} rated"


@dataclass(frozen=True, slots=True)
class _Step:
    run_key: RunKey
    before: Rating | None
    """The rating in force before the submit (None: unrated)."""
    after: Rating
    """The record the submit wrote."""


class RaterSession:
    def __init__(
        self,
        ws: Workspace,
        rubric: Rubric,
        runs: RunIndex,
        store: RatingStore,
        rater: str,
        *,
        blind: bool = True,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], str] = utc_now,
        assignment: Assignment | None = None,
    ) -> None:
        own = store.file_of(ws, rater)
        if own is not None and not own.readable:
            reasons = "; ".join(d.message for d in own.diagnostics) or "it cannot be read"
            raise SessionError(
                f"{own.path} cannot be read ({reasons}); a session would append to a file whose "
                "ratings it cannot see. Fix the file first"
            )
        refusal = own.foreign.refusal(own.path) if own is not None else None
        if refusal is not None:
            raise SessionError(refusal)
        self.ws = ws
        self.rubric = rubric
        self.store = store
        self.rater = rater
        self.blind = blind
        self._clock = clock
        self._now = now
        refs = [replace(r, agent=None) for r in runs.runs] if blind else list(runs.runs)
        ordered = blind_order(refs, rater) if blind else plain_order(refs)
        # The campaign's assignment (campaign/figures.py `assignment`: everyone's ratings in,
        # SPEC 3.9 amended) when the caller has it: this store holds the rater's own file only.
        self.assignment: Assignment = assignment or workspace_assignment(ws)
        self.assigned: frozenset[RunKey] = frozenset(
            self.assignment.items_of(rater, (r.run_key for r in ordered))
        )
        """The pairs asked of this rater (every pair without a team; none for an outsider)."""
        self.queue: list[AgentRunRef] = [r for r in ordered if r.run_key in self.assigned] + [
            r for r in ordered if r.run_key not in self.assigned
        ]
        """Every pair to rate, in this rater's order, the assigned ones first (agent labels
        removed when blind)."""
        self._index = {run.run_key: i for i, run in enumerate(self.queue)}
        self._undo: list[_Step] = []
        self._redo: list[_Step] = []
        self._position: int | None = self._next_unrated(-1)
        self._spent = 0.0
        self._shown_at: float | None = clock()
        self._rater_lock: RaterLock | None = None

    @classmethod
    def open(
        cls,
        ws: Workspace,
        rubric: Rubric,
        items: Mapping[str, Item],
        rater: str | None = None,
        *,
        read: OwnFile,
        blind: bool = True,
        use_git: bool = True,
        clock: Callable[[], float] = time.monotonic,
        lock: bool = True,
        assignment: Assignment | None = None,
    ) -> RaterSession:
        """A session on a validated suite's items (`Suite.items`), for `rater` (else git's
        user.name, else the OS user; RaterNameError when none is usable). `clock` times each
        item (`duration_s`); a screen passes its own to show a time that does not move.

        The session holds its rater's lock (lock.py) until `close()`: SessionError when another
        live session of the rater holds it. `lock=False` is for a session that is only looked
        at (its queue), never written through. `read` reads the rater's own file (the
        campaign's source, engine/campaign/source.py, `WorkTree.rater_store`). `assignment`
        is the campaign's (campaign/figures.py `assignment`); without it, hashing alone."""
        name = resolve_rater(ws, rater, use_git=use_git)
        runs = RunIndex.from_items(items)
        rel = ratings_file_rel(ws, name)
        problem = symlink_on_the_way(ws, rel)
        if problem is not None:
            raise SessionError(problem)
        try:
            held = RaterLock.take(ws, name) if lock else None
        except LockRefused as exc:
            raise SessionError(str(exc)) from exc
        try:
            # Read under the lock: no other session of this rater appends meanwhile.
            paths = [rel] if os.path.lexists(ws.abs(rel)) else []
            store = read(rubric, runs, paths)
            if held is not None and paths:
                # The writer's question (is the file one git ignores?) asked once, here: its
                # answer is kept while the files that decide it stay as they are, so no
                # rating of the session starts a git process (workspace/layout.py).
                git_ignores_file(ws, rel)
            session = cls(
                ws, rubric, runs, store, name, blind=blind, clock=clock, assignment=assignment
            )
        except BaseException:
            if held is not None:
                held.release()
            raise
        session._rater_lock = held
        return session

    def close(self) -> None:
        """End the session: its rater's lock is let go (a second call does nothing)."""
        held, self._rater_lock = self._rater_lock, None
        if held is not None:
            held.release()

    def __enter__(self) -> RaterSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- where the rater is ----------------------------------------------------------------------

    @property
    def dimensions(self) -> list[Dimension]:
        return list(self.rubric.dimensions)

    def draft(self) -> ScoreDraft:
        """An empty draft for the pair on screen (the keys' model: ratings/keypad.py)."""
        return ScoreDraft(self.dimensions)

    @property
    def current(self) -> AgentRunRef | None:
        """The pair on screen; None when every pair is rated (or there is none)."""
        return self.queue[self._position] if self._position is not None else None

    @property
    def finished(self) -> bool:
        return self._position is None

    def progress(self) -> Progress:
        """This rater's ratings in force over all agent runs of the suite (`N/M rated`), and
        over the runs assigned to them."""
        rated = self.store.of_rater(self.rater)
        return Progress(
            rated=sum(1 for run in self.queue if run.run_key in rated),
            total=len(self.queue),
            assigned=len(self.assigned),
            assigned_rated=sum(1 for pair in self.assigned if pair in rated),
            team=self.assignment.has_team,
            in_team=self.in_team,
        )

    @property
    def in_team(self) -> bool:
        """Whether the rater is one of `[rating] raters` (always, when none is set)."""
        return self.assignment.in_team(self.rater)

    def is_assigned(self, run: AgentRunRef | RunKey) -> bool:
        """Whether the pair is asked of this rater (every pair without a team)."""
        pair = run.run_key if isinstance(run, AgentRunRef) else run
        return pair in self.assigned

    def rating_of(self, run: AgentRunRef | RunKey) -> Rating | None:
        """This rater's rating in force for the pair, or None."""
        pair = run.run_key if isinstance(run, AgentRunRef) else run
        return self.store.of_rater(self.rater).get(pair)

    def content(self, run: AgentRunRef | None = None) -> PairContent | None:
        """The task and the run to show (the current pair by default)."""
        run = run if run is not None else self.current
        if run is None:
            return None
        return load_pair(self.ws, self.rubric, run, blind=self.blind)

    def label(self, run: AgentRunRef) -> str:
        """What a screen calls the run: its run_id, or in blind mode only its place among the
        fixture's runs in this rater's order (a run_id such as `run-baseline` can give the
        agent away)."""
        if not self.blind:
            return f"{run.fixture_id} · {run.run_id}"
        siblings = [r.run_id for r in self.queue if r.fixture_id == run.fixture_id]
        return f"{run.fixture_id} · run {siblings.index(run.run_id) + 1} of {len(siblings)}"

    def take_new_runs(self, items: Mapping[str, Item]) -> int:
        """Add the agent runs of `items` this session has not seen (a run written while the
        rater's tab is open) to the queue, in this rater's order, the assigned ones first; the
        pair on screen stays, and a finished session shows the first new unrated one. Runs
        gone since stay in the queue (their rating, if any, is on disk already). How many were
        added."""
        known = set(self._index)
        found = RunIndex.from_items(items).runs
        fresh = [r for r in found if r.run_key not in known]
        if not fresh:
            return 0
        if self.blind:
            fresh = [replace(r, agent=None) for r in fresh]
        everything = self.queue + fresh
        ordered = blind_order(everything, self.rater) if self.blind else plain_order(everything)
        # The assignment is asked again of every pair: it is a hash of the pair (SPEC 3.9),
        # so the pairs asked before are asked still; only the new ones are placed.
        self.assigned = frozenset(
            self.assignment.items_of(self.rater, (r.run_key for r in ordered))
        )
        current = self.current
        self.queue = [r for r in ordered if r.run_key in self.assigned] + [
            r for r in ordered if r.run_key not in self.assigned
        ]
        self._index = {run.run_key: i for i, run in enumerate(self.queue)}
        if current is not None:
            self._position = self._index[current.run_key]  # the clock on it runs on
        else:
            self._show(self._next_unrated(-1))
        return len(fresh)

    # --- moving --------------------------------------------------------------------------------

    def goto(self, run: AgentRunRef | RunKey) -> None:
        """Show a given pair (rated or not); submitting there re-rates it."""
        pair = run.run_key if isinstance(run, AgentRunRef) else run
        if pair not in self._index:
            raise KeyError(f"no agent run {pair[1]!r} of fixture {pair[0]!r} in this session")
        self._show(self._index[pair])

    def skip(self) -> None:
        """Leave the current pair unrated and show the next unrated one after it (the queue
        wraps around); the pair comes back after the others."""
        if self._position is None:
            return
        following = self._next_unrated(self._position, exclude_current=True)
        if following is not None:
            self._show(following)

    # --- the clock -----------------------------------------------------------------------------

    def elapsed(self) -> float:
        """Seconds spent on the pair on screen so far (pauses excluded)."""
        running = self._clock() - self._shown_at if self._shown_at is not None else 0.0
        return self._spent + running

    def pause(self) -> None:
        """Stop the clock (the app lost the screen: suspended, another screen on top)."""
        if self._shown_at is not None:
            self._spent += self._clock() - self._shown_at
            self._shown_at = None

    def resume(self) -> None:
        if self._shown_at is None:
            self._shown_at = self._clock()

    # --- steps that write ----------------------------------------------------------------------

    def check_scores(self, scores: Mapping[str, int]) -> dict[str, int]:
        """`scores` under the rubric's dimension names; ValueError unless every dimension has
        one score on its scale."""
        out: dict[str, int] = {}
        for name, score in scores.items():
            dimension = self.rubric.find(name)
            if dimension is None:
                raise ValueError(f"{name!r} is not a dimension of the rubric")
            if type(score) is not int or score not in scale_values(dimension):
                values = scale_values(dimension)
                raise ValueError(
                    f"{dimension.name} takes a whole number from {values[0]} to {values[-1]}, "
                    f"not {score!r}"
                )
            out[dimension.name] = score
        missing = [d.name for d in self.rubric.dimensions if d.name not in out]
        if missing:
            raise ValueError(f"no score for {', '.join(missing)}")
        return out

    def submit(
        self, scores: Mapping[str, int], note: str = "", *, duration_s: float | None = None
    ) -> Rating:
        """Rate the current pair (every dimension: see check_scores), append the record, and
        move to the next unrated pair. `duration_s` defaults to the clock's elapsed()."""
        run = self.current
        if run is None:
            raise SessionError("every pair is rated: there is nothing on screen to rate")
        checked = self.check_scores(scores)
        seconds = self.elapsed() if duration_s is None else duration_s
        rating = Rating(
            fixture_id=run.fixture_id,
            run_id=run.run_id,
            rater=self.rater,
            scores=checked,
            rated_at=self._now(),
            blind=self.blind,
            note=note,
            duration_s=round(max(seconds, 0.0), 1),
        )
        before = self.rating_of(run)
        stored = self.store.append(self.ws, rating)
        self._undo.append(_Step(run.run_key, before, stored))
        self._redo.clear()
        position = self._index[run.run_key]
        following = self._next_unrated(position)
        self._show(following if following is not None else None)
        return stored

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Rating | None:
        """Take back the last submit of this session (see the module's docstring): appends the
        restoring record and shows that pair again. None when there is nothing to undo."""
        if not self._undo:
            return None
        step = self._undo[-1]
        if step.before is None:
            restoring = Rating(
                fixture_id=step.after.fixture_id,
                run_id=step.after.run_id,
                rater=self.rater,
                scores=None,
                rated_at=self._now(),
                blind=self.blind,
            )
        else:
            restoring = replace(step.before, path="", line=0)
        stored = self.store.append(self.ws, restoring)
        self._undo.pop()
        self._redo.append(step)
        self._show(self._index.get(step.run_key))
        return stored

    def redo(self) -> Rating | None:
        """Append the last undone rating again and move on; None when there is none."""
        if not self._redo:
            return None
        step = self._redo[-1]
        stored = self.store.append(self.ws, replace(step.after, path="", line=0))
        self._redo.pop()
        self._undo.append(_Step(step.run_key, step.before, stored))
        position = self._index.get(step.run_key)
        following = self._next_unrated(position if position is not None else -1)
        self._show(following)
        return stored

    # --- helpers -------------------------------------------------------------------------------

    def _show(self, position: int | None) -> None:
        self._position = position
        self._spent = 0.0
        self._shown_at = self._clock()

    def _next_unrated(self, after: int, *, exclude_current: bool = False) -> int | None:
        """The first unrated pair after position `after`, wrapping around to the start; an
        assigned one before any other while there is one."""
        rated = self.store.of_rater(self.rater)
        count = len(self.queue)
        other: int | None = None
        for step in range(1, count + 1):
            index = (after + step) % count
            if exclude_current and index == after:
                continue
            pair = self.queue[index].run_key
            if pair in rated:
                continue
            if pair in self.assigned:
                return index
            if other is None:
                other = index
        return other
