"""The diagnostics of the document the answers produce, each tied to the field it is about.

The document is rendered and checked with the engine's own file-level check on a buffer (as the
editor checks an unsaved file), at the path it would be written to, so every step shows exactly
what `validate` would say of the finished file. Added on top, because a file alone cannot show
them: the id against the loaded suite (unique, a plain slug, its folder not there yet), context
files that the write will copy in, gates still waiting for a verdict, text that cannot be saved,
and (for a trajectory) `final_head_sha` against the repository, as `validate` checks it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.authoring.answers import (
    Answers,
    ContextEntry,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.ids import slug_problem
from voyage_tui.engine.authoring.render import (
    TASK_ORDER,
    TRAJECTORY_ORDER,
    Rendered,
    clean_text,
    gate_complete,
    render,
)
from voyage_tui.engine.authoring.sources import TrackedFiles, source_problems
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER
from voyage_tui.engine.git.checks import GitChecks
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.file_check import check_fixture
from voyage_tui.engine.wording import sentence
from voyage_tui.engine.workspace.layout import TASK_FILE
from voyage_tui.engine.workspace.model import Workspace

# Codes only the authoring checks give (documented in docs/rules.md, "Creating fixtures").
ID_NOT_SLUG = "id-not-slug"
FIXTURE_EXISTS = "fixture-exists"
CONTEXT_SOURCE_UNREADABLE = "context-source-unreadable"
CONTEXT_REF_CLASH = "context-ref-clash"
GATE_INCOMPLETE = "gate-incomplete"
ANSWER_NOT_UTF8 = "answer-not-utf8"
DUPLICATE_ID = "duplicate-id"  # the suite rule's own code: the same problem, found earlier
MISSING_FIELD = "missing-field"  # the schema's own code

PLACEHOLDER_CLASS = "<class>"
PLACEHOLDER_ID = "<id>"
"""Folder names that stand for a class or id not answered yet (or unable to name a folder):
the document is checked there, and is not written until both are real."""

_CODE_FIELDS = {
    "adversarial-intent-missing": "adversarial_intent",
    "full-path-missing-sha": "final_head_sha",
    "full-path-missing-phases": "phases",
    "full-path-missing-gates": "gates",
    "trajectory-misplaced": "kind",
    "invalid-kind": "kind",
}
"""Diagnostics placed on another field (or on the whole document) that are about this one."""

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Finding:
    diagnostic: Diagnostic
    field: str | None
    """The top-level field it is about (`skipped_phases` counts as its own field); None for the
    document as a whole."""
    blocking: bool
    """An error or warning on the fixture itself: the file is not written while one remains.
    What is about the workspace (git cannot be asked) is shown, never blocking."""


@dataclass(frozen=True, slots=True)
class Checked:
    rel: str
    """Where the file would be written (workspace-relative); `<class>` or `<id>` stands for an
    answer still missing, or one that cannot name a folder."""
    rendered: Rendered
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    copies: tuple[tuple[str, str], ...] = ()
    """(source, target) of every context copy, workspace-relative, in the answers' order: the
    preview shows each, so no file is copied in unseen."""

    @property
    def text(self) -> str:
        return self.rendered.text

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [f.diagnostic for f in self.findings]

    @property
    def blocking(self) -> list[Diagnostic]:
        return [f.diagnostic for f in self.findings if f.blocking]

    @property
    def writable(self) -> bool:
        parts = self.rel.split("/")
        return PLACEHOLDER_CLASS not in parts and PLACEHOLDER_ID not in parts and not self.blocking

    def for_fields(self, fields: tuple[str, ...] | frozenset[str]) -> list[Diagnostic]:
        return [f.diagnostic for f in self.findings if f.field in fields]


@dataclass(slots=True)
class SuiteFacts:
    """What checking needs to know beyond the answers."""

    ws: Workspace
    refs: References
    ids: dict[str, str]
    """Fixture id -> its task.yaml, over the whole suite."""
    git: GitChecks | None = None
    """Asked about `final_head_sha`, caching each SHA's answer; None: no git checks."""
    tracked: TrackedFiles | None = None
    """Asked which files git tracks (for a source the person did not name); None: a new one."""


def folder_name_ok(name: str) -> bool:
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\x00")


def target_folder(ws: Workspace, answers: Answers) -> str:
    """`fixtures/<class>/<id>` (or `fixtures/trajectories/<id>`), workspace-relative."""
    if isinstance(answers, TaskAnswers):
        fixture_class = answers.fixture_class.strip()
        group = fixture_class if folder_name_ok(fixture_class) else PLACEHOLDER_CLASS
    else:
        group = TRAJECTORIES_FOLDER
    fixture_id = answers.id.strip()
    name = fixture_id if folder_name_ok(fixture_id) else PLACEHOLDER_ID
    return "/".join(p for p in (ws.fixtures_rel, group, name) if p)


Placed = tuple[Diagnostic, str | None]
"""An authoring diagnostic and the field it is about."""


def check_answers(facts: SuiteFacts, answers: Answers) -> Checked:
    ws = facts.ws
    folder = target_folder(ws, answers)
    rel = f"{folder}/{TASK_FILE}"
    rendered = render(answers)
    item = check_fixture(ws, facts.refs, rel, rendered.text)
    engine = list(item.diagnostics)
    extra: list[Placed] = []
    copies: list[tuple[str, str]] = []
    if isinstance(answers, TaskAnswers):
        engine, extra, copies = _context(facts, rel, rendered, answers.context, engine)
    else:
        extra += _gates(rel, rendered, answers)
    extra += _id(ws, facts.ids, rel, folder, rendered, answers.id.strip())
    extra += _not_utf8(rel, answers)
    order = TASK_ORDER if isinstance(answers, TaskAnswers) else TRAJECTORY_ORDER
    findings = [
        Finding(d, _field_of(d, rendered, order), d.severity is not Severity.INFO) for d in engine
    ]
    findings += [Finding(d, name, d.severity is not Severity.INFO) for d, name in extra]
    if facts.git is not None and not isinstance(answers, TaskAnswers) and item.final_head_sha:
        git = facts.git.check_one(ws, item)
        findings += [
            Finding(d, "final_head_sha", d.severity is not Severity.INFO) for d in git.for_path(rel)
        ]
        findings += [Finding(d, "final_head_sha", False) for d in git.workspace]
    findings = [_worded(f) for f in findings]
    findings.sort(key=lambda f: f.diagnostic.sort_key())
    return Checked(rel, rendered, tuple(findings), tuple(copies))


def worded(d: Diagnostic) -> Diagnostic:
    """A diagnostic of the answers as the wizard and `new` say it: a whole sentence; a missing
    answer with no place (the file has no lines yet: its step, or its flag, says where it
    goes). Otherwise what `validate` would say of the written file."""
    line, column = (None, None) if d.code == MISSING_FIELD else (d.line, d.column)
    return Diagnostic(d.path, line, column, d.severity, d.code, sentence(d.message))


def _worded(finding: Finding) -> Finding:
    said = worded(finding.diagnostic)
    return finding if said == finding.diagnostic else replace(finding, diagnostic=said)


def _field_of(d: Diagnostic, rendered: Rendered, order: tuple[str, ...]) -> str | None:
    if d.code in _CODE_FIELDS:
        return _CODE_FIELDS[d.code]
    if d.code == MISSING_FIELD:
        return next((f for f in order if f"`{f}`" in d.message), None)
    if d.line is not None:
        for key, (first, last) in rendered.field_lines.items():
            if first <= d.line <= last:
                return key
    return None


# --- the id ----------------------------------------------------------------------------------


def _id(
    ws: Workspace,
    ids: dict[str, str],
    rel: str,
    folder: str,
    rendered: Rendered,
    fixture_id: str,
) -> list[Placed]:
    if not fixture_id:
        return []
    where = _value_position(rendered, "id")
    out: list[Diagnostic] = []
    problem = slug_problem(fixture_id)
    if problem:
        out.append(dg.error(rel, where, ID_NOT_SLUG, problem))
    used_by = ids.get(fixture_id)
    if used_by is not None:
        out.append(
            dg.error(
                rel,
                where,
                DUPLICATE_ID,
                f"The id {fixture_id!r} is also used by {used_by}; ids are unique across the "
                "suite, so choose another.",
            )
        )
    elif PLACEHOLDER_ID not in folder.split("/") and os.path.lexists(ws.abs(folder)):
        out.append(
            dg.error(
                rel,
                where,
                FIXTURE_EXISTS,
                f"The folder {folder} already exists; a new fixture gets a folder of its own, "
                "so choose another id (or move that folder away).",
            )
        )
    return [(d, "id") for d in out]


def _value_position(rendered: Rendered, key: str) -> tuple[int, int] | None:
    lines = rendered.field_lines.get(key)
    if lines is None:
        return None
    return lines[0], len(key) + 3  # `key: value` on the field's first line


# --- context files ---------------------------------------------------------------------------


def _context(
    facts: SuiteFacts,
    rel: str,
    rendered: Rendered,
    entries: list[ContextEntry],
    engine: list[Diagnostic],
) -> tuple[list[Diagnostic], list[Placed], list[tuple[str, str]]]:
    """The engine's diagnostics, less `context-file-missing` for a file the write will copy in
    (the folder does not exist yet, so the engine cannot see it); plus what is wrong with the
    files to copy and with where they would land; and every (source, target) copy."""
    ws = facts.ws
    folder = rel.rsplit("/", 1)[0]
    rendered_entries = [e for e in entries if e.is_file or clean_text(e.text)]
    line_of = {index: line for line, index in rendered.context_lines.items()}
    copied_lines: set[int] = set()
    extra: list[Diagnostic] = []
    landing: dict[str, int] = {}
    copies: list[tuple[str, str]] = []
    sourced = [e for e in rendered_entries if e.file is not None and e.source is not None]
    problems = source_problems(ws, [(e.source or "", e.named) for e in sourced], facts.tracked)
    problem_of = {id(e): p for e, p in zip(sourced, problems, strict=True)}
    for index, entry in enumerate(rendered_entries):
        if entry.file is None:
            continue
        line = line_of.get(index)
        where = (line, 5) if line is not None else None
        target = os.path.normpath(entry.file.strip()).replace(os.sep, "/")
        if entry.source is not None:
            if line is not None:
                copied_lines.add(line)
            copies.append((entry.source, os.path.normpath(f"{folder}/{target}")))
            problem = problem_of.get(id(entry))
            if problem:
                extra.append(
                    dg.error(rel, where, CONTEXT_SOURCE_UNREADABLE, f"The context source {problem}")
                )
        if target in (TASK_FILE, ".") or target.startswith("runs/") or target == "runs":
            extra.append(
                dg.error(
                    rel,
                    where,
                    CONTEXT_REF_CLASH,
                    f"The context file {entry.file!r} would land on the fixture's own "
                    f"{'task.yaml' if target == TASK_FILE else 'folder or its runs/'}; "
                    "give it another name.",
                )
            )
        elif any(_overlap(target, other) for other in landing):
            other = next(o for o in landing if _overlap(target, o))
            extra.append(
                dg.error(
                    rel,
                    where,
                    CONTEXT_REF_CLASH,
                    f"The context file {target!r} would land on {other!r}, which another "
                    "context entry copies in; give one of them another name.",
                )
            )
        else:
            landing[target] = index
    kept = [d for d in engine if not (d.code == "context-file-missing" and d.line in copied_lines)]
    return kept, [(d, "context") for d in extra], copies


def _overlap(a: str, b: str) -> bool:
    """The same place, or one inside the other (a file copied into a copied folder)."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


# --- gates and text ----------------------------------------------------------------------------


def _gates(rel: str, rendered: Rendered, answers: Answers) -> list[Placed]:
    gates = answers.gates if isinstance(answers, TrajectoryAnswers) else []
    where = _value_position(rendered, "gates")
    out: list[Diagnostic] = []
    for gate in gates:
        if not gate.recorded or gate_complete(gate):
            continue
        lacks = [
            what
            for what, value in (("verdict", gate.verdict), ("description", gate.description))
            if not " ".join(value.split())
        ]
        out.append(
            dg.error(
                rel,
                where,
                GATE_INCOMPLETE,
                f"The recorded gate-{gate.number} has no {' and no '.join(lacks)}; give it "
                f"{'them' if len(lacks) > 1 else 'one'} (verdict pass, conditional or blocked), "
                "or skip the gate with a reason.",
            )
        )
    return [(d, "gates") for d in out]


def _texts(answers: Answers) -> Iterator[tuple[str, str]]:
    if isinstance(answers, TaskAnswers):
        yield "class", answers.fixture_class
        yield "prompt", answers.prompt
        yield "ground_truth", answers.ground_truth
        yield "adversarial_intent", answers.adversarial_intent
        yield "expected_boundary", answers.expected_boundary
        for entry in answers.context:
            yield "context", entry.text + (entry.file or "") + (entry.source or "")
        for dimension, note in answers.scoring_notes.items():
            yield "scoring_notes", dimension + repr(note)
    else:
        yield "path", answers.path
        yield "prompt", answers.prompt
        yield "terminal_state", answers.terminal_state
        yield "final_head_sha", answers.final_head_sha
        for phase in answers.phases:
            yield ("phases" if phase.traversed else "skipped_phases"), phase.name + phase.reason
        for gate in answers.gates:
            yield "gates", gate.description + gate.verdict + gate.reason
        for skill in answers.routing_selected:
            yield "routing_selected", skill
        for skip in answers.routing_skipped:
            yield "routing_skipped", skip.skill + skip.reason
    yield "id", answers.id
    yield "visibility", answers.visibility


def _not_utf8(rel: str, answers: Answers) -> list[Placed]:
    bad = sorted({name for name, text in _texts(answers) if _SURROGATE.search(text)})
    return [
        (
            dg.error(
                rel,
                None,
                ANSWER_NOT_UTF8,
                f"The answer for `{name}` holds characters that cannot be saved as UTF-8 (text "
                "that came from bytes that are not UTF-8); retype it.",
            ),
            name,
        )
        for name in bad
    ]
