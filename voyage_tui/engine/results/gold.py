"""Gold by review agent (SPEC 3.10): a gold run's file-name stem names its review agent, across
corpora (`runs/v2.json` beside every gold file is one agent). Per agent: tp, fp and fn summed over
its corpora and their precision, recall and f1 (micro); `macro_f1`, the mean of its per-corpus
f1; `verdict_accuracy`, the share of its corpora whose verdict matched; and its BLOCK -> ALLOW
flips (a run that lets through what gold blocks)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from voyage_tui.engine.results.model import GoldAgent, GoldCorpusRun
from voyage_tui.engine.scoring.scorer import f1_of, ratio


def gold_by_agent(runs: Iterable[GoldCorpusRun]) -> dict[str, GoldAgent]:
    grouped: dict[str, list[GoldCorpusRun]] = {}
    for run in runs:
        grouped.setdefault(run.stem, []).append(run)
    out: dict[str, GoldAgent] = {}
    for stem in sorted(grouped):
        mine = tuple(sorted(grouped[stem], key=lambda r: r.corpus))
        tp = sum(r.tp for r in mine)
        fp = sum(r.fp for r in mine)
        fn = sum(r.fn for r in mine)
        precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
        out[stem] = GoldAgent(
            stem=stem,
            runs=mine,
            tp=tp,
            fp=fp,
            fn=fn,
            precision=precision,
            recall=recall,
            f1=f1_of(precision, recall),
            macro_f1=math.fsum(r.f1 for r in mine) / len(mine),
            verdict_accuracy=sum(r.verdict_match for r in mine) / len(mine),
        )
    return out
