"""Inspect AI eval logs (SPEC 3.13): `.eval` (a zip of JSON members, zstd-compressed) and `.json`.

Read without inspect-ai. The log's `eval` header gives the task, ids, model and revision; each
sample (`samples/<id>_epoch_<n>.json` in a `.eval`, the `samples` list of a `.json`) becomes one
run: its final completion the output, its messages the transcript, its scores the outcome.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from voyage_tui.engine.importing.archive import Archive, ArchiveRefused, Limits
from voyage_tui.engine.importing.model import ImportedSample, ImportRefused
from voyage_tui.engine.importing.outcomes import outcome_of
from voyage_tui.engine.importing.sources import open_source, read_source
from voyage_tui.engine.importing.transcript import MAX_TEXT, cut, messages_of, text_of

NAME = "inspect"


def is_eval_archive(head: bytes, names: set[str] | None) -> bool:
    return head.startswith(b"PK") and names is not None and "header.json" in names


def is_json_log(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("eval"), dict)
        and "version" in data
        and ("samples" in data or "status" in data)
    )


def load(path: str, agent: str | None, limits: Limits | None = None) -> list[ImportedSample]:
    limits = limits or Limits()
    if path.endswith(".eval"):
        return list(_from_eval(path, agent, limits))
    data = _json(read_source(path, limits.max_source_bytes), path)
    if not is_json_log(data):
        raise ImportRefused(f"{path}: not an Inspect AI log (no `eval` header)")
    samples = data.get("samples") or []
    if not isinstance(samples, list):
        raise ImportRefused(f"{path}: `samples` is not a list")
    header = data["eval"]
    return [_sample(path, header, s, agent) for s in samples if isinstance(s, dict)]


def _json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ImportRefused(f"{where}: not valid JSON ({exc})") from None


def _from_eval(path: str, agent: str | None, limits: Limits) -> Iterator[ImportedSample]:
    try:
        with open_source(path, limits.max_source_bytes) as handle:
            archive = Archive(handle, path, limits)
            header_name = "header.json" if "header.json" in archive.members else None
            if header_name is None and "_journal/start.json" in archive.members:
                header_name = "_journal/start.json"
            if header_name is None:
                raise ImportRefused(f"{path}: not an Inspect AI log (no header.json)")
            header = _json(archive.read(header_name), f"{path}: {header_name}")
            if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
                raise ImportRefused(f"{path}: {header_name} has no `eval` header")
            names = sorted(n for n in archive.members if _is_sample(n))
            out = []
            for name in names:
                sample = _json(archive.read(name), f"{path}: {name}")
                if not isinstance(sample, dict):
                    raise ImportRefused(f"{path}: {name} is not a sample object")
                out.append(_sample(path, header["eval"], sample, agent))
    except ArchiveRefused as exc:
        raise ImportRefused(str(exc)) from None
    except OSError as exc:
        raise ImportRefused(f"{path}: {exc.strerror or exc}") from None
    yield from out


def _is_sample(name: str) -> bool:
    return name.startswith("samples/") and name.endswith(".json") and "/" not in name[8:]


def _sample(
    path: str, header: dict[str, Any], sample: dict[str, Any], agent: str | None
) -> ImportedSample:
    model = header.get("model") if isinstance(header.get("model"), str) else None
    raw_scores = sample.get("scores")
    raw_scores = raw_scores if isinstance(raw_scores, dict) else {}
    scores = {
        str(name): score.get("value") if isinstance(score, dict) else score
        for name, score in raw_scores.items()
    }
    epoch = sample.get("epoch")
    metadata: dict[str, Any] = {
        "source": NAME,
        "log": os.path.basename(path),
        "task": header.get("task"),
        "sample": sample.get("id"),
        "eval_id": header.get("eval_id"),
        "model": model,
        "epoch": epoch,
        "revision": header.get("revision"),
        "scores": scores,
        "outcome": outcome_of(scores),
    }
    error = sample.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        metadata["error"] = cut(error["message"], 2_000)
    own = sample.get("metadata")
    return ImportedSample(
        source=NAME,
        log=path,
        sample=str(sample.get("id")),
        epoch=epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else 1,
        agent=agent or model or "unknown",
        output=cut(_completion(sample.get("output")), 10 * MAX_TEXT),
        transcript=messages_of(sample.get("messages")),
        metadata=metadata,
        sample_metadata=own if isinstance(own, dict) else {},
    )


def _completion(output: Any) -> str:
    """The sample's final completion: `output.completion`, else its first choice's text."""
    if not isinstance(output, dict):
        return ""
    completion = output.get("completion")
    if isinstance(completion, str) and completion:
        return completion
    choices = output.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message")
        if isinstance(message, dict):
            return text_of(message.get("content"))
    return ""
