"""SWE-bench predictions (SPEC 3.13): a JSONL of `{instance_id, model_name_or_path, model_patch}`.

With the harness's run report (`run_evaluation`'s `<model>.<run_id>.json`, whose
`resolved_ids`, `unresolved_ids` and `error_ids` list instance ids), a prediction's outcome is
`resolved` 1 (resolved) or 0 (unresolved, or an error: the patch did not resolve it); an id in
no list has no outcome. The output is a short Markdown note, the patch the run's `patch`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from voyage_tui.engine.importing.model import ImportedSample, ImportRefused
from voyage_tui.engine.importing.sources import read_source

NAME = "swebench"
MAX_BYTES = 1 << 30


def is_prediction(record: Any) -> bool:
    return isinstance(record, dict) and "instance_id" in record and "model_patch" in record


def first_record(data: bytes) -> Any:
    line = data.split(b"\n", 1)[0].strip()
    try:
        return json.loads(line)
    except ValueError:
        return None


def load_report(path: str) -> dict[str, str]:
    """instance id -> resolved | unresolved | error."""
    try:
        report = json.loads(read_source(path, 256 << 20))
    except ValueError as exc:
        raise ImportRefused(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(report, dict) or not any(k.endswith("_ids") for k in report):
        raise ImportRefused(f"{path}: not a SWE-bench run report (no resolved_ids)")
    out: dict[str, str] = {}
    for key, state in (("error_ids", "error"), ("unresolved_ids", "unresolved")):
        for iid in report.get(key) or []:
            out[str(iid)] = state
    for iid in report.get("resolved_ids") or []:
        out[str(iid)] = "resolved"
    return out


def load(path: str, agent: str | None, report: str | None = None) -> list[ImportedSample]:
    states = load_report(report) if report else {}
    data = read_source(path, MAX_BYTES)
    out: list[ImportedSample] = []
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise ImportRefused(f"{path}:{number}: not valid JSON ({exc})") from None
        if not is_prediction(record):
            raise ImportRefused(
                f"{path}:{number}: not a prediction (needs instance_id and model_patch)"
            )
        out.append(_sample(path, record, agent, states, report))
    return out


def _sample(
    path: str, record: dict[str, Any], agent: str | None, states: dict[str, str], report: str | None
) -> ImportedSample:
    iid = str(record["instance_id"])
    model = record.get("model_name_or_path")
    model = model if isinstance(model, str) and model else None
    patch = record.get("model_patch")
    patch = patch if isinstance(patch, str) else ""
    state = states.get(iid)
    metadata: dict[str, Any] = {
        "source": NAME,
        "log": os.path.basename(path),
        "instance_id": iid,
        "sample": iid,
        "model": model,
        "epoch": 1,
    }
    if report:
        metadata["report"] = os.path.basename(report)
        metadata["status"] = state or "not in the report"
        if state is not None:
            metadata["outcome"] = {"resolved": 1.0 if state == "resolved" else 0.0}
    lines = patch.count("\n")
    output = f"SWE-bench prediction for `{iid}`: a patch of {lines} lines" + (
        f" ({state})." if state else "."
    )
    return ImportedSample(
        source=NAME,
        log=path,
        sample=iid,
        epoch=1,
        agent=agent or model or "unknown",
        output=output,
        patch=patch or None,
        metadata=metadata,
        sample_metadata={k: v for k, v in record.items() if k != "model_patch"},
    )
