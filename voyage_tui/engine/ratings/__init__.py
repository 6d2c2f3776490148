"""Ratings (docs/workspace.md, "Ratings"): rater records, their validation, the rater session and agreement.

- records.py: one line of `<ratings>/<rater>.jsonl`, read with its line number;
- rules.py: the checks that need the rubric and the suite (`check_ratings_file`);
- store.py: every file checked, the rating in force per (fixture_id, run_id, rater), and the
  durable append (`RatingStore`, `append_rating`);
- session.py: a rater's queue, resume, submit / undo / redo (`RaterSession`);
- keypad.py: the keys of one pair before it is submitted (`ScoreDraft`);
- lock.py: one live session per rater (`RaterLock`, a flock on `.voyage/locks/<key>.lock`);
- agreement.py: Krippendorff's alpha, Cohen's kappa, the most disputed items; labels.py: the
  raters' short labels in tables of pairs (initials for long names, with a legend);
- names.py: who the rater is (`resolve_rater`); history.py: runs git once held.
- assignment.py: who rates which item in a campaign (`[rating] raters`, `overlap`: rendezvous
  hashing, SPEC 3.9); status.py: the campaign's progress and pace (`ratings status`);
- effective.py: the effective scores of an item (SPEC 3.9).
- names.py: who the rater is (`resolve_rater`); history.py: runs git once held;
- effective.py: the effective score of an item (adjudicated, else the raters' mean);
- adjudications.py: the adjudications file, read, checked, in force, appended;
- disputes.py: the disputed items (`adjudicate --list`, the adjudication screen);
- calibration.py: each rater against the adjudicated scores;
- export.py: the rows of `ratings export`.

No module here imports Textual; numpy and krippendorff are imported only when an alpha is
computed.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voyage_tui.engine.ratings.agreement import (
        AgreementReport,
        DimensionAgreement,
        DisputedItem,
        PairAgreement,
        compute_agreement,
        ordinal_alpha,
        quadratic_kappa,
    )
    from voyage_tui.engine.ratings.content import PairContent, RunView, TaskView, load_pair
    from voyage_tui.engine.ratings.keypad import KeyResult, ScoreDraft
    from voyage_tui.engine.ratings.names import RaterNameError, ratings_file_rel, resolve_rater
    from voyage_tui.engine.ratings.records import Rating, RatingsFile
    from voyage_tui.engine.ratings.rules import check_ratings_file, scale_values
    from voyage_tui.engine.ratings.runs import AgentRunRef, RunIndex
    from voyage_tui.engine.ratings.session import Progress, RaterSession, SessionError
    from voyage_tui.engine.ratings.store import RatingStore, append_rating

# Each name is imported from its module when first asked for (PEP 562), so importing one
# module of this package does not import them all (`validate`'s start-up: issue 23).
_EXPORTS: dict[str, str] = {
    "AgreementReport": "voyage_tui.engine.ratings.agreement",
    "DimensionAgreement": "voyage_tui.engine.ratings.agreement",
    "DisputedItem": "voyage_tui.engine.ratings.agreement",
    "PairAgreement": "voyage_tui.engine.ratings.agreement",
    "compute_agreement": "voyage_tui.engine.ratings.agreement",
    "ordinal_alpha": "voyage_tui.engine.ratings.agreement",
    "quadratic_kappa": "voyage_tui.engine.ratings.agreement",
    "PairContent": "voyage_tui.engine.ratings.content",
    "RunView": "voyage_tui.engine.ratings.content",
    "TaskView": "voyage_tui.engine.ratings.content",
    "load_pair": "voyage_tui.engine.ratings.content",
    "KeyResult": "voyage_tui.engine.ratings.keypad",
    "ScoreDraft": "voyage_tui.engine.ratings.keypad",
    "RaterNameError": "voyage_tui.engine.ratings.names",
    "ratings_file_rel": "voyage_tui.engine.ratings.names",
    "resolve_rater": "voyage_tui.engine.ratings.names",
    "Rating": "voyage_tui.engine.ratings.records",
    "RatingsFile": "voyage_tui.engine.ratings.records",
    "check_ratings_file": "voyage_tui.engine.ratings.rules",
    "scale_values": "voyage_tui.engine.ratings.rules",
    "AgentRunRef": "voyage_tui.engine.ratings.runs",
    "RunIndex": "voyage_tui.engine.ratings.runs",
    "Progress": "voyage_tui.engine.ratings.session",
    "RaterSession": "voyage_tui.engine.ratings.session",
    "SessionError": "voyage_tui.engine.ratings.session",
    "RatingStore": "voyage_tui.engine.ratings.store",
    "append_rating": "voyage_tui.engine.ratings.store",
}

__all__ = [
    "AgentRunRef",
    "AgreementReport",
    "DimensionAgreement",
    "DisputedItem",
    "KeyResult",
    "PairAgreement",
    "PairContent",
    "Progress",
    "RaterNameError",
    "RaterSession",
    "Rating",
    "RatingStore",
    "RatingsFile",
    "RunIndex",
    "RunView",
    "ScoreDraft",
    "SessionError",
    "TaskView",
    "append_rating",
    "check_ratings_file",
    "compute_agreement",
    "load_pair",
    "ordinal_alpha",
    "quadratic_kappa",
    "ratings_file_rel",
    "resolve_rater",
    "scale_values",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)
