"""An imported sample as a run file (SPEC 3.8): its id, its YAML text.

`run_id` is `<source>-<log stem>-<sample>-e<epoch>` made safe as a file name: every character
outside `A-Z a-z 0-9 . _ -` becomes `-`, runs of `-` fold into one, no leading `.` or `-` (a
hidden file, an option), and at most MAX_ID characters (a longer id keeps its head and ends in
the sha256 of the whole, so two long ids never collide). The run rule (rules/agent_run_rules.py)
wants `run_id` equal to the file's stem; such an id is one on every file system.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

import yaml

from voyage_tui.engine.importing.model import ImportedSample

MAX_ID = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_DASHES = re.compile(r"-{2,}")

try:
    _Dumper: type[Any] = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - pyyaml built without libyaml
    _Dumper = yaml.SafeDumper


def safe_id(text: str) -> str:
    safe = _DASHES.sub("-", _UNSAFE.sub("-", text)).lstrip(".-") or "run"
    if len(safe) <= MAX_ID:
        return safe
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{safe[: MAX_ID - 17]}-{digest}"


def log_stem(log: str) -> str:
    name = os.path.basename(log.rstrip("/")) or log
    for ending in (".eval", ".json", ".jsonl"):
        if name.endswith(ending):
            return name[: -len(ending)]
    return name


def run_id_of(sample: ImportedSample) -> str:
    return safe_id(f"{sample.source}-{log_stem(sample.log)}-{sample.sample}-e{sample.epoch}")


def run_document(sample: ImportedSample, run_id: str) -> dict[str, Any]:
    doc: dict[str, Any] = {"run_id": run_id, "agent": sample.agent, "output": sample.output}
    if sample.patch is not None:
        doc["patch"] = sample.patch
    if sample.transcript:
        doc["transcript"] = sample.transcript
    doc["metadata"] = sample.metadata
    return doc


def run_yaml(doc: dict[str, Any]) -> bytes:
    text: str = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return text.encode("utf-8", "surrogatepass")
