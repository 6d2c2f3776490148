"""Triage's judge items (SPEC 3.11, docs/judges.md): a judge below the ceiling on a dimension,
where its `judge_kappa` interval lies wholly under the people's `human_kappa` interval. A
warning, not a new kind: it asks a person to look before the judge's ratings are leant on."""

from __future__ import annotations

from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.judging.align import align, judge_names
from voyage_tui.engine.ratings.names import ratings_file_rel
from voyage_tui.engine.triage.keys import WARNING, diagnostic_key
from voyage_tui.engine.triage.queue import TriageItem

CODE = "judge-below-ceiling"


def judges_below(campaign: Campaign) -> list[TriageItem]:
    out: list[TriageItem] = []
    for name in judge_names(campaign):
        report = align(campaign, name)
        path = ratings_file_rel(campaign.ws, name)
        for d in report.dimensions.values():
            if not d.below_ceiling or d.judge_kappa_ci is None or d.human_kappa_ci is None:
                continue
            title = f"judge {name} below the ceiling on {d.dimension}"
            detail = (
                f"its kappa with the people {d.judge_kappa:.2f} [{d.judge_kappa_ci[0]:.2f}, "
                f"{d.judge_kappa_ci[1]:.2f}] lies wholly under theirs among themselves "
                f"{d.human_kappa:.2f} [{d.human_kappa_ci[0]:.2f}, {d.human_kappa_ci[1]:.2f}] "
                f"over {d.items} items: `voyage-tui judge align --judge {name}`"
            )
            out.append(
                TriageItem(
                    key=diagnostic_key(WARNING, path, CODE, f"{name} {d.dimension}"),
                    kind=WARNING,
                    path=path,
                    line=None,
                    title=title,
                    detail=detail,
                    code=CODE,
                    files=(path,),
                )
            )
    return out
