"""Files read once in a run: the validation cache's key and the parsed references take the same
bytes (issue 34).

A cold `validate` opened each reference file three times: for the cache's key (its digest), when
the Suite was made, and when the load was prepared. Read once, the key is also the key of exactly
what was checked: a reference edited during the run cannot be recorded as seen.

One `ReadOnce` lives for one load of a suite and is then dropped; a re-check reads afresh (the
app re-reads a reference when the watcher says it changed).
"""

from __future__ import annotations

import os

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import read_bytes_inside


class ReadOnce:
    """The workspace files read so far in this run, by (workspace-relative path, size limit)."""

    __slots__ = ("_reads", "root", "root_real")

    def __init__(self, root: str, root_real: str) -> None:
        self.root = root
        self.root_real = root_real
        self._reads: dict[tuple[str, int], bytes | Diagnostic | None] = {}

    def read(self, rel: str, max_bytes: int) -> bytes | Diagnostic | None:
        """The file's bytes, the diagnostic that says why they were not read (the rules of
        every workspace read: safe_read.read_bytes_inside), or None when nothing is there."""
        key = (rel, max_bytes)
        if key not in self._reads:
            path = os.path.join(self.root, rel)
            found = (
                read_bytes_inside(path, rel, root_real=self.root_real, max_bytes=max_bytes)
                if os.path.lexists(path)
                else None
            )
            self._reads[key] = found
        return self._reads[key]
