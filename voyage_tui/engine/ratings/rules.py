"""The rules of a ratings file that need more than the line itself: the rater against the file's
name, each dimension against the rubric and its scale, each (fixture_id, run_id) against the
agent runs of the suite (and, for one that is gone, the git history).

`check_ratings_file` is the whole check of one file, a function of its bytes, the rubric and the
runs: `validate`, the rater session and `agreement` all go through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Position
from voyage_tui.engine.ratings.records import (
    DUPLICATE_KEY,
    ParsedFile,
    ParsedLine,
    Rating,
    RatingsFile,
    parse_ratings,
)
from voyage_tui.engine.ratings.runs import RunIndex, RunKey
from voyage_tui.engine.references.rubric import Dimension, Rubric
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import file_owner, rater_key, rater_slug

RATER_MISMATCH = "rating-rater-mismatch"
UNKNOWN_DIMENSION = "rating-unknown-dimension"
SCORE_OUT_OF_SCALE = "rating-score-out-of-scale"
UNKNOWN_RUN = "rating-unknown-run"
DELETED_RUN = "rating-deleted-run"

DeletedRuns = Callable[[], set[RunKey] | None]
"""Asked (at most once per check, and only when a record names a run the suite lacks) for the
(fixture folder, run stem) pairs the git history once held; None when history is unknown."""


def score_range(dimension: Dimension) -> tuple[int, int]:
    """A dimension's scale: its lowest to its highest anchor (anchors may skip values, as
    1/3/5: a 2 is between two anchors, so it is on the scale)."""
    scale = dimension.scale
    return scale[0], scale[-1]


def scale_values(dimension: Dimension) -> list[int]:
    """Every score the dimension allows, lowest first."""
    low, high = score_range(dimension)
    return list(range(low, high + 1))


def check_ratings_file(
    ws: Workspace,
    rubric: Rubric,
    rel: str,
    runs: RunIndex | None = None,
    deleted_runs: DeletedRuns | None = None,
    data: bytes | None = None,
) -> RatingsFile:
    """Read (unless `data` is given) and check the ratings file `rel`. Without `runs` the runs
    the records name are not checked (what `agreement` does: it needs only the rubric)."""
    source = ws.open_lines(rel) if data is None else data
    if isinstance(source, Diagnostic):
        return RatingsFile(rel, diagnostics=[source], readable=False)
    return check_parsed(parse_ratings(source, rel), rubric, runs, deleted_runs)


def check_parsed(
    parsed: ParsedFile,
    rubric: Rubric,
    runs: RunIndex | None = None,
    deleted_runs: DeletedRuns | None = None,
) -> RatingsFile:
    checked = RatingsFile(
        parsed.path,
        diagnostics=list(parsed.diagnostics),
        readable=parsed.readable,
        line_count=parsed.line_count,
        ends_with_newline=parsed.ends_with_newline,
        foreign=parsed.foreign,
    )
    history = _History(deleted_runs)
    deleted: dict[RunKey, list[ParsedLine]] = {}
    # A file is one rater's: named after them (`alice.jsonl`) or after their name's slug
    # (`firstname-lastname.jsonl` for "Firstname Lastname"); a record of anyone else does not
    # count, so one rater's ratings never supersede another's.
    owner = file_owner((line.rating.rater for line in parsed.lines), parsed.rater)
    for line in parsed.lines:
        problems: list[Diagnostic] = []
        rating = _check_rater(line, owner or parsed.rater, problems)
        rating = _check_scores(line, rating, rubric, problems)
        if runs is not None and rating.run_key not in runs:
            if history.holds(rating.run_key):
                deleted.setdefault(rating.run_key, []).append(line)
            else:
                problems.append(_unknown_run(line, runs, history.known))
        checked.diagnostics.extend(problems)
        if not any(p.severity is dg.Severity.ERROR for p in problems):
            checked.ratings.append(rating)
    for (fixture_id, run_id), lines in deleted.items():
        count = len(lines)
        records = "this record" if count == 1 else f"these {plural(count, 'record')}"
        checked.diagnostics.append(
            dg.warning(
                parsed.path,
                lines[-1].at(("run_id",)),
                DELETED_RUN,
                f"run `{run_id}` of fixture `{fixture_id}` was deleted (git history holds its "
                f"file, the suite no longer does); {records} still count for agreement. Delete "
                "the lines if the run should not count",
            )
        )
    checked.diagnostics.sort(key=Diagnostic.sort_key)
    return checked


class _History:
    def __init__(self, ask: DeletedRuns | None) -> None:
        self._ask = ask
        self._pairs: set[RunKey] | None = None
        self._asked = False

    @property
    def known(self) -> bool:
        """Whether git history could be asked at all."""
        return self._asked and self._pairs is not None

    def holds(self, pair: RunKey) -> bool:
        if not self._asked:
            self._asked = True
            self._pairs = self._ask() if self._ask is not None else None
        return self._pairs is not None and pair in self._pairs


def _check_rater(line: ParsedLine, file_rater: str, problems: list[Diagnostic]) -> Rating:
    """The record as its file's rater's: one of another rater key is a mismatch; another
    spelling of the file's rater (`Jose` in José's `jose.jsonl`, `Zoë` decomposed) is the file's
    rater, under the file's spelling, so agreement and supersession see one rater."""
    rating = line.rating
    if rating.rater == file_rater:
        return rating
    if rater_key(rating.rater) == rater_key(file_rater):
        return replace(rating, rater=file_rater)
    problems.append(
        dg.error(
            rating.path,
            line.at(("rater",)),
            RATER_MISMATCH,
            f"this record's rater is {rating.rater!r}, but this is {file_rater}'s file: each "
            f"rater's records live in <ratings>/<rater>.jsonl (or the name's slug, "
            f"{rater_slug(rating.rater) or rating.rater}.jsonl). Move the line to "
            f"{rating.rater}'s file, or correct the name; until then it does not count",
        )
    )
    return rating


def _check_scores(
    line: ParsedLine, rating: Rating, rubric: Rubric, problems: list[Diagnostic]
) -> Rating:
    """The rating with its dimensions under the rubric's own names (a record may write
    `Correctness` for `correctness`, as scoring notes may), each problem reported."""
    if rating.scores is None:
        return rating
    canonical = rubric_scores(
        rating.scores,
        rubric,
        rating.path,
        line.at,
        problems,
        ScoreCodes(UNKNOWN_DIMENSION, SCORE_OUT_OF_SCALE),
    )
    if list(canonical) == list(rating.scores):
        return rating
    return replace(rating, scores=canonical)


@dataclass(frozen=True, slots=True)
class ScoreCodes:
    unknown_dimension: str
    out_of_scale: str


Locate = Callable[..., Position]
"""`ParsedLine.at`: (path inside the record, key=...) -> the file position."""


def rubric_scores(
    scores: Mapping[str, int],
    rubric: Rubric,
    path: str,
    at: Locate,
    problems: list[Diagnostic],
    codes: ScoreCodes,
) -> dict[str, int]:
    """`scores` under the rubric's own dimension names, each unknown dimension, duplicate and
    score off its scale reported (a record with one does not count). Ratings and adjudications
    alike."""
    names = [d.name for d in rubric.dimensions]
    canonical: dict[str, int] = {}
    written: dict[str, str] = {}
    for name, score in scores.items():
        dimension = rubric.find(name)
        if dimension is None:
            problems.append(
                dg.error(
                    path,
                    at(("scores", name), key=True),
                    codes.unknown_dimension,
                    f"`{name}` is not a dimension of the rubric{hint(name, names)}; the "
                    f"dimensions are {', '.join(names) or 'none'}. This record does not count "
                    "until it is fixed",
                )
            )
            continue
        if dimension.name in written:
            problems.append(
                dg.error(
                    path,
                    at(("scores", name), key=True),
                    DUPLICATE_KEY,
                    f"`{name}` and `{written[dimension.name]}` both score the dimension "
                    f"`{dimension.name}`; keep one",
                )
            )
            continue
        written[dimension.name] = name
        low, high = score_range(dimension)
        if not low <= score <= high:
            problems.append(
                dg.error(
                    path,
                    at(("scores", name)),
                    codes.out_of_scale,
                    f"`{name}` is scored {score}, outside its scale of {low} to {high} (the "
                    "rubric's lowest and highest anchors); this record does not count until "
                    "it is fixed",
                )
            )
        canonical[dimension.name] = score
    return canonical


def _unknown_run(line: ParsedLine, runs: RunIndex, history_known: bool) -> Diagnostic:
    rating = line.rating
    history = (
        "nor does the git history hold such a run file"
        if history_known
        else "git history was not searched for a deleted run (no git, or --no-git)"
    )
    return unknown_run(rating.path, rating.run_key, line.at, runs, UNKNOWN_RUN, history)


def unknown_run(
    path: str, pair: RunKey, at: Locate, runs: RunIndex, code: str, history: str | None
) -> Diagnostic:
    """A record naming (fixture_id, run_id) the suite has no agent run for, with did-you-mean;
    `history` says what git's history holds, when that was asked."""
    fixture_id, run_id = pair
    fixture_runs = runs.by_fixture.get(fixture_id)
    if fixture_runs is not None:
        where = at(("run_id",))
        listed = ", ".join(fixture_runs)
        what = (
            f"fixture `{fixture_id}` has no agent run `{run_id}`"
            f"{hint(run_id, fixture_runs)} (its runs: {listed})"
        )
    else:
        where = at(("fixture_id",))
        fixtures = sorted(runs.by_fixture)
        what = f"no fixture with agent runs has the id `{fixture_id}`{hint(fixture_id, fixtures)}"
    said = f"{what}; {history}" if history else what
    return dg.error(
        path, where, code, f"{said}. Correct the ids; until then this record does not count"
    )
