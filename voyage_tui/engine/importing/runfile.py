"""An imported sample as a run file (SPEC 3.8): its id, its YAML text.

`run_id` is `<source>-<log stem>-<sample>-e<epoch>` made safe as a file name: every character
outside `A-Z a-z 0-9 . _ -` becomes `-`, runs of `-` fold into one, no leading `.` or `-` (a
hidden file, an option), and at most MAX_ID characters (a longer id keeps its head and ends in
the sha256 of the whole, so two long ids never collide). The run rule (rules/agent_run_rules.py)
wants `run_id` equal to the file's stem; such an id is one on every file system.
"""

from __future__ import annotations

import hashlib
import json
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
    """The run file's YAML: a multi-line text as a literal block, the transcript one JSON-style
    flow mapping a message, the metadata one flow mapping. JSON is YAML, and far cheaper to
    write than pyyaml's representer walking every node (issue 37's 10,000 samples). Where a
    value would not read back the same that way (a float such as 1e-05, which YAML 1.1 reads as
    text; a key that is not text), pyyaml's own dump is written instead."""
    text = _fast_yaml(doc) if _json_safe(doc) else None
    if text is None:
        text = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return text.encode("utf-8", "surrogatepass")


# A float YAML 1.1 reads back as a float: digits, a dot, an exponent with its sign.
_YAML_FLOAT = re.compile(r"-?[0-9]+\.[0-9]*(?:e[-+][0-9]+)?")


def _json_safe(value: Any) -> bool:
    if isinstance(value, str) or value is None or isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return bool(_YAML_FLOAT.fullmatch(repr(value)))
    if isinstance(value, list):
        return all(_json_safe(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_safe(v) for k, v in value.items())
    return False


# What YAML's reader refuses raw (outside its printable set): written as \u escapes.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
# What a literal block cannot hold as it is (line breaks YAML sees, a byte-order mark).
_NOT_LITERAL = re.compile("[\r\x85\u2028\u2029\ufeff\t]")
# What a quoted string must escape: the unprintable, and what YAML 1.1 reads as a line break
# (NEL, LS, PS) or a byte-order mark, which JSON leaves raw.
_ESCAPED = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u2028\u2029\ufeff]"
)


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return _ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _scalar(value: str) -> str:
    """A top-level text as a literal block (readable in the editor), else a quoted string."""
    if (
        "\n" in value
        and value.strip()
        and not value[0].isspace()
        and not value.endswith("\n\n")
        and not _UNPRINTABLE.search(value)
        and not _NOT_LITERAL.search(value)
    ):
        chomp = "" if value.endswith("\n") else "-"
        body = value[:-1] if value.endswith("\n") else value
        return f"|{chomp}\n" + "\n".join("  " + line if line else "" for line in body.split("\n"))
    return _json(value)


def _fast_yaml(doc: dict[str, Any]) -> str | None:
    try:
        out: list[str] = []
        for key, value in doc.items():
            if key == "transcript" and isinstance(value, list):
                out.append("transcript:")
                out += [f"- {_json(message)}" for message in value]
            elif isinstance(value, str):
                out.append(f"{key}: {_scalar(value)}")
            else:
                out.append(f"{key}: {_json(value)}")
        return "\n".join(out) + "\n"
    except (TypeError, ValueError):
        return None
