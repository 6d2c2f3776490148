"""Which harness wrote a log, known by its content, not its name (SPEC 3.13).

- an Inspect AI `.eval`: a zip archive holding `header.json` (or, still running,
  `_journal/start.json`);
- an Inspect AI `.json` log: an object with `version` and an `eval` header;
- SWE-bench predictions: a JSONL whose first record has `instance_id` and `model_patch`;
- a Harbor job: a folder whose trial folders hold a `result.json` with `task_name`, or such a
  trial folder itself.
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import Any

from voyage_tui.engine.importing import harbor, inspect, swebench
from voyage_tui.engine.importing.archive import Limits
from voyage_tui.engine.importing.model import ImportedSample, ImportRefused
from voyage_tui.engine.importing.sources import open_source, read_source

FORMATS = {
    inspect.NAME: "an Inspect AI log",
    swebench.NAME: "SWE-bench predictions",
    harbor.NAME: "a Harbor job",
}
_PEEK = 64 << 20


def detect(path: str) -> str | None:
    """The format's name (a key of FORMATS), or None when it is none of them. Raises
    ImportRefused when the path cannot be read at all."""
    if os.path.isdir(path):
        if harbor.trial_results(path):
            return harbor.NAME
        if os.path.isfile(os.path.join(path, "result.json")):
            return harbor.NAME if _is_trial_file(os.path.join(path, "result.json")) else None
        return None
    with open_source(path, Limits().max_source_bytes) as handle:
        head = handle.read(4)
        if head.startswith(b"PK"):
            try:
                names = set(zipfile.ZipFile(handle).namelist())
            except (zipfile.BadZipFile, OSError, ValueError):
                return None
            if "header.json" in names or "_journal/start.json" in names:
                return inspect.NAME
            return None
    if os.path.getsize(path) <= _PEEK:
        data = read_source(path, _PEEK)
        parsed = _json(data)
        if inspect.is_json_log(parsed):
            return inspect.NAME
        if swebench.is_prediction(swebench.first_record(data)):
            return swebench.NAME
        return None
    with open_source(path, Limits().max_source_bytes) as handle:
        first = handle.readline(_PEEK)
    if swebench.is_prediction(swebench.first_record(first)):
        return swebench.NAME
    return None


def _is_trial_file(path: str) -> bool:
    try:
        return harbor.is_trial(_json(read_source(path, harbor.MAX_RESULT_BYTES)))
    except ImportRefused:
        return False


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def load(
    fmt: str,
    path: str,
    *,
    agent: str | None = None,
    report: str | None = None,
    limits: Limits | None = None,
) -> list[ImportedSample]:
    if fmt == inspect.NAME:
        return inspect.load(path, agent, limits)
    if fmt == swebench.NAME:
        return swebench.load(path, agent, report)
    if fmt == harbor.NAME:
        if not os.path.isdir(path):
            raise ImportRefused(f"{path}: a Harbor job is a folder")
        if not harbor.trial_results(path) and os.path.isfile(os.path.join(path, "result.json")):
            return harbor.load_trial(path, agent)
        return harbor.load(path, agent)
    raise ImportRefused(f"unknown format {fmt!r}")
