"""A campaign's figures, each a function of a snapshot, for every face: disputes (`adjudicate`,
the adjudication screen), status (`ratings status`, the status view), agreement and calibration
(`agreement`, the agreement screen), the export's rows (`ratings export`). The computations are
the ratings package's (pure functions of ratings in force); what is decided here is what they
are given: people's ratings only (SPEC 3.11), unless a caller asks otherwise.
"""

from __future__ import annotations

import os

from voyage_tui.engine.campaign.counting import Raters
from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.ratings.agreement import AgreementReport, compute_agreement
from voyage_tui.engine.ratings.assignment import Assignment, workspace_assignment
from voyage_tui.engine.ratings.calibration import Calibration, calibration
from voyage_tui.engine.ratings.disputes import DisputeReport, disputes
from voyage_tui.engine.ratings.export import ExportRow, export_rows
from voyage_tui.engine.ratings.records import RATINGS_SUFFIX
from voyage_tui.engine.ratings.status import CampaignStatus, campaign_status, raters_with_a_file


def assignment(campaign: Campaign) -> Assignment:
    """Who is asked to rate what, once people's ratings are in (SPEC 3.9, amended): the places
    rated team members hold, the rest by hashing. The session, `ratings status` and triage's
    `unrated` items all take this one (programs hold no place: SPEC 3.11)."""
    if "assignment" not in campaign._memo:
        base = workspace_assignment(campaign.ws)
        campaign._memo["assignment"] = base.with_ratings(campaign.in_force(Raters.PEOPLE).values())
    found: Assignment = campaign._memo["assignment"]
    return found


def dispute_report(campaign: Campaign) -> DisputeReport:
    """The disputed items among people's ratings in force, at `[rating] dispute_spread`."""
    in_force = campaign.in_force(Raters.PEOPLE)
    items = disputes(
        in_force.values(), campaign.adjudicated(), campaign.ws.config.rating.dispute_spread
    )
    return DisputeReport(campaign.store, campaign.adjudications, items, in_force)


def status(campaign: Campaign) -> CampaignStatus:
    """Progress and pace over the suite's runs (the campaign's runs must be known). Read from
    a source that does not check the records against the runs, a rating of a run the suite no
    longer has still tells its rater's pace, though it makes no item done or complete. A file
    whose every record is a program's is no person's, so it is nobody's row."""
    runs = campaign.runs
    pairs = [run.run_key for run in runs.runs] if runs is not None else []
    programs_only = {
        os.path.basename(path)[: -len(RATINGS_SUFFIX)]
        for path, checked in campaign.store.files.items()
        if checked.ratings and all(r.is_program for r in checked.ratings)
    }
    people_files = [
        name for name in raters_with_a_file(campaign.store) if name not in programs_only
    ]
    return campaign_status(
        pairs,
        campaign.in_force(Raters.PEOPLE).values(),
        assignment(campaign),
        people_files,
        campaign.ws.config.rating.min_seconds,
    )


def agreement(campaign: Campaign, *, disputed: int = 10) -> AgreementReport:
    """Agreement among people (programs are held to it, never part of it: SPEC 3.11)."""
    return compute_agreement(
        campaign.in_force(Raters.PEOPLE).values(), campaign.rubric, disputed=disputed
    )


def calibrations(campaign: Campaign) -> list[Calibration]:
    """Each person against the adjudicated scores."""
    return calibration(
        campaign.in_force(Raters.PEOPLE).values(), campaign.adjudicated(), campaign.rubric
    )


def export(campaign: Campaign, raters: Raters = Raters.PEOPLE) -> list[ExportRow]:
    """The rows of `ratings export`: `raters`' ratings in force and the adjudications in
    force, each run with its agent label (when the campaign knows the runs)."""
    runs = campaign.runs
    agents = {run.run_key: run.agent for run in runs.runs} if runs is not None else {}
    return export_rows(
        campaign.in_force(raters).values(),
        campaign.adjudications.effective().values(),
        agents,
        [d.name for d in campaign.rubric.dimensions],
    )
