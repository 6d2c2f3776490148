"""The workspace's inputs to results, gathered in one place for every face (`voyage-tui results`
and the results screen): the suite's agent runs with their agent, class and boundary; the
effective score of every item; the gold runs scored; and notices of what was left out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from voyage_tui.engine.campaign.counting import Raters
from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.diagnostics import Severity
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.ratings.runs import RunIndex
from voyage_tui.engine.results.compute import NO_GROUP, ResultsInputs, RunRow
from voyage_tui.engine.results.model import UNLABELLED, GoldCorpusRun
from voyage_tui.engine.results.outcomes import read_outcomes
from voyage_tui.engine.review.inputs import ReviewError, ReviewInputs
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode
from voyage_tui.engine.wording import plural


def gather_inputs(
    campaign: Campaign,
    items: Mapping[str, Item],
    match: MatchMode = DEFAULT_MATCH,
    raters: Raters = Raters.PEOPLE,
    review: ReviewInputs | None = None,
) -> ResultsInputs:
    """Everything results needs, given the campaign and its validated suite's items
    (`Suite.items`, or a view's): `raters`' effective scores (people's unless asked otherwise,
    SPEC 3.11), and the gold files with their runs, scored here: through `review` when the
    suite gives it (`Suite.review_inputs`: its catalogue and the bytes it read), else read
    afresh against the workspace's catalogue."""
    ws, rubric, adjudications = campaign.ws, campaign.rubric, campaign.adjudications
    runs = campaign.runs if campaign.runs is not None else RunIndex.from_items(items)
    # Effective scores (SPEC 3.9): an adjudication in force settles its dimensions. Only the
    # suite's runs are items here (a record of a run it lacks is validate's to report).
    scores = {pair: item for pair, item in campaign.item_scores(raters).items() if pair in runs}
    rows: list[RunRow] = []
    unlabelled = 0
    for run in runs.runs:
        task = items.get(run.task_path)
        parts = run.task_path.split("/")
        folder = parts[-3] if len(parts) >= 3 else NO_GROUP
        boundary = task.boundary if task is not None and task.boundary else NO_GROUP
        if not run.agent:
            unlabelled += 1
        rows.append(RunRow(run.fixture_id, run.run_id, run.agent or UNLABELLED, folder, boundary))
    notices: list[str] = []
    if unlabelled:
        notices.append(
            f"{plural(unlabelled, 'agent run')} without an `agent` label, grouped under "
            f"{UNLABELLED}"
        )
    missing = campaign.left_out()
    if missing.records:
        notices.append(
            f"{plural(len(missing.records), 'rating record')} with errors left out "
            "(`voyage-tui validate` lists them)"
        )
    if missing.unreadable:
        # Which files and why: the figures are short of them, and a keeper must find them.
        named = ", ".join(f"{d.path} ({d.code})" for d in missing.unreadable[:3])
        more = len(missing.unreadable) - 3
        notices.append(
            f"{plural(len(missing.unreadable), 'ratings file')} could not be read ({named}"
            f"{f' and {more} more' if more > 0 else ''}): their ratings are missing from the "
            "figures"
        )
    if not adjudications.readable:
        notices.append(
            f"{adjudications.path} could not be read: the raters' means stand for every item"
        )
    elif any(d.severity is Severity.ERROR for d in adjudications.diagnostics):
        bad = sum(1 for d in adjudications.diagnostics if d.severity is Severity.ERROR)
        notices.append(
            f"{plural(bad, 'adjudication record')} with errors left out "
            "(`voyage-tui validate` lists them)"
        )
    review = review if review is not None else ReviewInputs.of_workspace(ws, match)
    gold_runs, unscored = _gold_runs(review, items, match)
    if unscored:
        notices.append(
            f"{plural(unscored, 'gold run')} could not be scored (an invalid gold file or run; "
            "`voyage-tui validate` says why)"
        )
    dimensions = [d.name for d in rubric.dimensions]
    values = [v for d in rubric.dimensions for v in d.scale]
    scale = (min(values), max(values)) if values else None
    outcomes = read_outcomes(ws, runs.runs, review.kept)
    return ResultsInputs(rows, scores, dimensions, gold_runs, notices, match, scale, outcomes)


def _gold_runs(
    review: ReviewInputs, items: Mapping[str, Item], match: MatchMode
) -> tuple[list[GoldCorpusRun], int]:
    """Every gold run whose gold file is valid, scored as `score` scores it; and how many
    could not be."""
    # The catalogue checks the gold file only; a run is scored as review.score_pair scores a
    # run of a gold record already checked.
    runs = dataclasses.replace(review, catalogue=None)
    records: dict[str, dict[str, Any] | None] = {}
    out: list[GoldCorpusRun] = []
    unscored = 0
    for path in sorted(items):
        run = items[path]
        if run.kind is not FileKind.GOLD_RUN or run.parent is None:
            continue
        gold = items.get(run.parent)
        if gold is None or gold.kind is not FileKind.GOLD or gold.errors:
            unscored += 1
            continue
        if gold.path not in records:
            try:
                records[gold.path] = review.load_gold(gold.path).data
            except ReviewError:
                records[gold.path] = None
        record = records[gold.path]
        if record is None:
            unscored += 1
            continue
        try:
            score = runs.score_pair(gold.path, run.path, record, match).score
        except ReviewError:
            unscored += 1
            continue
        stem = run.id or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        out.append(
            GoldCorpusRun(
                stem=stem,
                corpus=gold.path,
                run_path=run.path,
                tp=score.tp,
                fp=score.fp,
                fn=score.fn,
                f1=score.f1,
                run_verdict=score.run_verdict,
                expected_verdict=score.expected_verdict,
            )
        )
    return out, unscored
