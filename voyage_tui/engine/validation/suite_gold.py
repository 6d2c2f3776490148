"""The gold files and runs a full validation read, kept for results (issue 34): `results`
scores them (and reads an imported agent run's harness scores) without opening them again (docs/decisions.md, "results opens each file once")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.safe_read import keeping_bytes, recording_stats
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.checkers import check_job
from voyage_tui.engine.validation.parallel import ForkedMap
from voyage_tui.engine.validation.suite_base import GOLD_KINDS, Job
from voyage_tui.engine.validation.suite_ratings import SuiteRatings

if TYPE_CHECKING:
    from voyage_tui.engine.review.inputs import ReviewInputs
    from voyage_tui.engine.scoring.scorer import MatchMode


class SuiteGold(SuiteRatings):
    """A suite that keeps (keep_gold) the bytes of the gold files and runs it checks."""

    def _keeping_tasks(
        self,
        item_cache: ItemCache | None,
        refs: References,
        work: list[Job],
        fork: bool,
        child_share: float,
        child: tuple[int, int] | None,
    ) -> ForkedMap[Job, Item | None]:
        """_tasks, keeping the bytes of each gold file and run checked, and of each agent run
        that may hold harness scores (a forked child's come
        back with its share: (its read stamps, its kept bytes), taken up by _check_layout)."""
        ws, kept_here = self.ws, self._gold_bytes
        read_stamps = item_cache.read_stamps if item_cache is not None else None

        def check(job: Job) -> Item | None:
            with recording_stats() as stats, keeping_bytes() as kept:
                item = check_job(ws, refs, job)
            if read_stamps is not None and job[1] in stats:
                read_stamps[job[1]] = stats[job[1]]
            if item is not None and job[1] in kept:
                if item.kind in GOLD_KINDS:
                    kept_here[job[1]] = kept[job[1]]
                elif item.kind is FileKind.AGENT_RUN:
                    # results reads an imported run's harness scores (metadata.outcome): the
                    # bytes of a run that may hold one, and b"" for a run seen to hold none
                    data = kept[job[1]]
                    kept_here[job[1]] = data if b"outcome" in data else b""
            return item

        return ForkedMap(
            check,
            work,
            fork=fork,
            child_share=child_share,
            child_extra=lambda: (read_stamps, kept_here),
            child=child,
        )

    def _take_from_child(self, extra: object) -> object:
        """The forked child's extra (ForkedMap.from_child) without the gold bytes it kept (a
        keeping check's is a pair: _keeping_tasks), which are taken up here; what is left is
        the read stamps, for the cache."""
        if not (self.keep_gold and type(extra) is tuple and len(extra) == 2):
            return extra
        stamps, kept = extra
        if type(kept) is dict:
            for rel, data in kept.items():
                if type(rel) is str and type(data) is bytes:
                    self._gold_bytes.setdefault(rel, data)
        return stamps

    def review_inputs(self, match: MatchMode | None = None) -> ReviewInputs:
        """How results reads the gold files and runs: against the catalogue this suite loaded,
        from the bytes its check read (keep_gold) where it still holds them, so a file is
        opened once per run (issue 34); a file checked again since (revalidate) is read
        afresh. `match`: as ReviewInputs' (the default match, unless given)."""
        from voyage_tui.engine.review.inputs import ReviewInputs
        from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH

        catalogue = self.refs.catalogue
        return ReviewInputs(
            self.ws,
            catalogue.value,
            catalogue.path,
            self.ws.max_file_bytes,
            DEFAULT_MATCH if match is None else match,
            kept=self._gold_bytes,
        )
