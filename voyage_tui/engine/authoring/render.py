"""Answers -> the fixture document, and that document as YAML text in the suite's style.

The style is the sample's: its key order, the prompt and ground truth (even of one line) and
other multi-line text as `|` block scalars, other single-line text plain where YAML reads it
back as the same text (else double-quoted), context file references as `{file: path}`, and a
`# canary: <uuid4>` first line on a holdout. The text is always parsed back with the engine's
loader and compared with the document; should the suite style ever not round-trip, the whole
document is written double-quoted instead (correct, if plainer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from voyage_tui.engine.authoring.answers import (
    Answers,
    GateMark,
    Note,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.formats.vocabulary import TRAJECTORY_KIND
from voyage_tui.engine.loading.yaml_doc import load_yaml

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    # The pure-Python loader: the same safe loader to a caller, another class to a type checker.
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

TASK_ORDER: tuple[str, ...] = (
    "id",
    "class",
    "prompt",
    "context",
    "harness_constraints",
    "adversarial_intent",
    "ground_truth",
    "expected_boundary",
    "scoring_notes",
    "visibility",
)
"""The key order of the sample's task.yaml files."""

TRAJECTORY_ORDER: tuple[str, ...] = (
    "kind",
    "id",
    "path",
    "prompt",
    "phases",
    "skipped_phases",
    "gates",
    "skipped_gates",
    "terminal_state",
    "final_head_sha",
    "routing_selected",
    "routing_skipped",
    "visibility",
)

HOLDOUT = "holdout"


class RenderError(Exception):
    """The document could not be written as YAML that reads back the same (a bug)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    document: dict[str, Any]
    """What the text reads back as (checked)."""
    field_lines: dict[str, tuple[int, int]]
    """Top-level field -> its first and last line (1-based, inclusive)."""
    context_lines: dict[int, int]
    """1-based line -> index of the `context` entry that starts there."""


# --- the document ------------------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Text as the suite writes it: `\\n` line ends, no trailing spaces, no blank lines around;
    multi-line text ends with one newline (a `|` block), one line is trimmed."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) <= 1:
        return lines[0].strip() if lines else ""
    return "\n".join(lines) + "\n"


def prose(text: str) -> str:
    """A prose field (a prompt, a ground truth) as the suite writes it: always
    a `|` block, one line or many, so it is easy to edit and to diff (issue 36: a one-line
    prompt came out as a long double-quoted string)."""
    cleaned = clean_text(text)
    return cleaned + "\n" if cleaned and not cleaned.endswith("\n") else cleaned


def one_line(text: str) -> str:
    """An entry of a pipe- or comma-separated field: one line, single spaces."""
    return " ".join(text.split())


def gate_complete(gate: GateMark) -> bool:
    """A recorded gate enters `gates` only with a verdict and a description."""
    return bool(one_line(gate.verdict)) and bool(one_line(gate.description))


def document(answers: Answers) -> dict[str, Any]:
    """The fields the answers give, in the suite's key order; unanswered fields are left out.
    A lone surrogate (text from bytes that were not UTF-8) shows as U+FFFD: UTF-8 cannot hold
    it, and the check refuses such an answer anyway (`answer-not-utf8`)."""
    if isinstance(answers, TaskAnswers):
        doc = _task_document(answers)
    else:
        doc = _trajectory_document(answers)
    scrubbed: dict[str, Any] = _scrub(doc)
    return scrubbed


_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    return value


def _put(doc: dict[str, Any], key: str, value: Any) -> None:
    if value not in ("", None, [], {}):
        doc[key] = value


def _task_document(a: TaskAnswers) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    _put(doc, "id", a.id.strip())
    _put(doc, "class", a.fixture_class.strip())
    _put(doc, "prompt", prose(a.prompt))
    context: list[Any] = []
    for entry in a.context:
        if entry.file is not None:
            context.append({"file": entry.file.strip()})
        elif clean_text(entry.text):
            context.append(clean_text(entry.text))
    _put(doc, "context", context)
    _put(doc, "harness_constraints", a.harness_constraints)
    _put(doc, "adversarial_intent", clean_text(a.adversarial_intent))
    _put(doc, "ground_truth", prose(a.ground_truth))
    _put(doc, "expected_boundary", a.expected_boundary.strip())
    notes: dict[str, Note] = {}
    for dimension, note in a.scoring_notes.items():
        cleaned = _clean_note(note)
        if cleaned and dimension.strip():
            notes[dimension.strip()] = cleaned
    _put(doc, "scoring_notes", notes)
    _put(doc, "visibility", a.visibility.strip())
    return doc


def _clean_note(note: Note) -> Note:
    if isinstance(note, str):
        return clean_text(note)
    if isinstance(note, list):
        return [t for t in (clean_text(x) for x in note) if t]
    return {score: t for score, t in ((s, clean_text(x)) for s, x in note.items()) if t}


def _trajectory_document(a: TrajectoryAnswers) -> dict[str, Any]:
    doc: dict[str, Any] = {"kind": TRAJECTORY_KIND}
    _put(doc, "id", a.id.strip())
    _put(doc, "path", a.path.strip())
    _put(doc, "prompt", prose(a.prompt))
    traversed = [f"{p.number}: {one_line(p.name)}" for p in a.phases if p.traversed]
    skipped = [
        f"{p.number}: {one_line(p.name)}"
        + (f": {one_line(p.reason)}" if one_line(p.reason) else "")
        for p in a.phases
        if not p.traversed
    ]
    _put(doc, "phases", " | ".join(traversed))
    _put(doc, "skipped_phases", " | ".join(skipped))
    gates = [
        f"gate-{g.number}: {one_line(g.description)}: {one_line(g.verdict)}"
        for g in a.gates
        if g.recorded and gate_complete(g)
    ]
    skipped_gates = [
        f"gate-{g.number}" + (f": {one_line(g.reason)}" if one_line(g.reason) else "")
        for g in a.gates
        if not g.recorded
    ]
    _put(doc, "gates", " | ".join(gates))
    _put(doc, "skipped_gates", " | ".join(skipped_gates))
    _put(doc, "terminal_state", a.terminal_state.strip())
    _put(doc, "final_head_sha", a.final_head_sha.strip())
    selected = [one_line(skill) for skill in a.routing_selected if one_line(skill)]
    _put(doc, "routing_selected", ", ".join(selected))
    routing_skipped = [
        one_line(r.skill) + (f": {one_line(r.reason)}" if one_line(r.reason) else "")
        for r in a.routing_skipped
        if one_line(r.skill)
    ]
    _put(doc, "routing_skipped", " | ".join(routing_skipped))
    _put(doc, "visibility", a.visibility.strip())
    return doc


def canary_line(answers: Answers) -> str | None:
    if answers.visibility.strip() == HOLDOUT and answers.canary.strip():
        return f"# canary: {answers.canary.strip()}"
    return None


# --- the text ----------------------------------------------------------------------------------


def render(answers: Answers) -> Rendered:
    doc = document(answers)
    canary = canary_line(answers)
    text, field_lines, context_lines = suite_style(doc, canary)
    if _reads_back(text, doc):
        return Rendered(text, doc, field_lines, context_lines)
    text, field_lines = _quoted_style(doc, canary)
    if not _reads_back(text, doc):
        raise RenderError("the answers could not be written as YAML that reads back the same")
    return Rendered(text, doc, field_lines, {})


def _reads_back(text: str, doc: dict[str, Any]) -> bool:
    loaded = load_yaml(text, "task.yaml")
    if not loaded.ok or loaded.diagnostics:
        return False
    data = loaded.data if loaded.data is not None else {}
    return isinstance(data, dict) and list(data) == list(doc) and _same(data, doc)


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (YAML must not turn text into a number)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return (
            list(a) == list(b)
            and all(type(x) is type(y) for x, y in zip(a, b, strict=True))
            and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def suite_style(
    doc: dict[str, Any], canary: str | None
) -> tuple[str, dict[str, tuple[int, int]], dict[int, int]]:
    """The YAML text (not checked here), each top-level field's lines, and the line each
    `context` entry starts on."""
    lines: list[str] = [canary] if canary else []
    field_lines: dict[str, tuple[int, int]] = {}
    context_lines: dict[int, int] = {}
    if not doc:
        lines.append("{}")
    for key, value in doc.items():
        first = len(lines) + 1
        if key == "context" and isinstance(value, list):
            lines.append(f"{_key(key)}:")
            for index, entry in enumerate(value):
                context_lines[len(lines) + 1] = index
                lines.extend(_entry("-", entry, 2))
        else:
            lines.extend(_entry(f"{_key(key)}:", value, 0))
        field_lines[key] = (first, len(lines))
    return "\n".join(lines) + "\n", field_lines, context_lines


def _quoted_style(
    doc: dict[str, Any], canary: str | None
) -> tuple[str, dict[str, tuple[int, int]]]:
    lines: list[str] = [canary] if canary else []
    field_lines: dict[str, tuple[int, int]] = {}
    for key, value in doc.items():
        first = len(lines) + 1
        dumped = yaml.dump(
            {key: value},
            Dumper=yaml.SafeDumper,
            default_style='"',
            allow_unicode=True,
            sort_keys=False,
            width=1 << 30,
        )
        lines.extend(dumped.rstrip("\n").split("\n"))
        field_lines[key] = (first, len(lines))
    if not doc:
        lines.append("{}")
    return "\n".join(lines) + "\n", field_lines


def _entry(prefix: str, value: Any, indent: int) -> list[str]:
    """`prefix` (`key:` or `-`) and its value, at `indent` spaces."""
    pad = " " * indent
    if isinstance(value, str):
        block = _block(value, indent)
        if block is not None:
            return [f"{pad}{prefix} {block[0]}", *block[1]]
        return [f"{pad}{prefix} {_inline(value)}"]
    if isinstance(value, dict):
        if not value:
            return [f"{pad}{prefix} {{}}"]
        if set(value) == {"file"} and isinstance(value["file"], str):
            return [f"{pad}{prefix} {{file: {_inline(value['file'], flow=True)}}}"]
        children = [line for k, v in value.items() for line in _entry(f"{_key(k)}:", v, indent + 2)]
        return _nest(prefix, children, indent)
    if isinstance(value, list):
        if not value:
            return [f"{pad}{prefix} []"]
        flow = _flow_list(value)
        if flow is not None:
            return [f"{pad}{prefix} {flow}"]
        children = [line for v in value for line in _entry("-", v, indent + 2)]
        return _nest(prefix, children, indent)
    return [f"{pad}{prefix} {_scalar(value)}"]


def _nest(prefix: str, children: list[str], indent: int) -> list[str]:
    pad = " " * indent
    if prefix == "-":
        # `- key: value` on one line, the rest of the mapping below it (the suite's form)
        return [f"{pad}- {children[0][indent + 2 :]}", *children[1:]]
    return [f"{pad}{prefix}", *children]


_NOT_IN_BLOCK = re.compile(
    "[^\x09\x0a\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
"""Characters a `|` block cannot hold as they are (control characters, YAML 1.1's extra line
breaks NEL, LS and PS, a BOM, surrogates): such text is double-quoted with escapes."""


def _block(text: str, indent: int) -> tuple[str, list[str]] | None:
    """`|` (with chomping and indentation indicators as needed) and the content lines, or None
    when the text is one line or cannot be a literal block."""
    if "\n" not in text or _NOT_IN_BLOCK.search(text):
        return None
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
    lines = body.split("\n") + [""] * (trailing - 1 if trailing > 1 else 0)
    first = next((line for line in lines if line.strip()), "")
    leading_blank = lines[0] == "" or lines[0].isspace()
    indicator = "2" if first[:1] in (" ", "\t") or leading_blank else ""
    if not first:
        return None  # only blank lines: quoted
    pad = " " * (indent + 2)
    content = [f"{pad}{line}" if line else "" for line in lines]
    return f"|{indicator}{chomp}", content


def _inline(text: str, flow: bool = False) -> str:
    """Plain when YAML reads it back as this text, else double-quoted."""
    return text if _plain_ok(text, flow) else _double_quoted(text)


def _plain_ok(text: str, flow: bool = False) -> bool:
    if not text or text != text.strip() or "\n" in text or _NOT_IN_BLOCK.search(text):
        return False
    if flow and any(c in text for c in ",[]{}"):
        return False
    source = f"[{text}]" if flow else f"k: {text}"
    try:
        loaded = yaml.load(source, Loader=_Loader)
    except Exception:  # any parse failure means: not plain
        return False
    expected: Any = [text] if flow else {"k": text}
    return _same(loaded, expected)


def _key(key: Any) -> str:
    if isinstance(key, str):
        if _plain_ok(key) and _plain_key_ok(key):
            return key
        return _double_quoted(key)
    return _scalar(key)


def _plain_key_ok(key: str) -> bool:
    try:
        loaded = yaml.load(f"{key}: v", Loader=_Loader)
    except Exception:
        return False
    return _same(loaded, {key: "v"})


def _double_quoted(text: str) -> str:
    dumped = yaml.dump(
        text, Dumper=yaml.SafeDumper, default_style='"', allow_unicode=True, width=1 << 30
    )
    return dumped.rstrip("\n").removesuffix("\n...")


def _scalar(value: Any) -> str:
    """A number, boolean or null as YAML writes it."""
    dumped = yaml.dump(value, Dumper=yaml.SafeDumper, width=1 << 30)
    return dumped.rstrip("\n").removesuffix("\n...").strip()


def _flow_list(values: list[Any]) -> str | None:
    """`[a, b, c]` for a short list of plain words (the sample's `tools: [...]`)."""
    if not values or len(values) > 12:
        return None
    parts: list[str] = []
    for value in values:
        if isinstance(value, str) and _plain_ok(value, flow=True) and len(value) <= 40:
            parts.append(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(_scalar(value))
        else:
            return None
    flow = "[" + ", ".join(parts) + "]"
    return flow if len(flow) <= 80 else None
