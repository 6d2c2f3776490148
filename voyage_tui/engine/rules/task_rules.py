"""Single-task fixtures (docs/rules.md, "Single-task fixtures")."""

from __future__ import annotations

import os
import re
from typing import Any

from pydantic import ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Position
from voyage_tui.engine.formats.schema_errors import key_problem, translate, unknown_fields
from voyage_tui.engine.formats.task import TaskFixture
from voyage_tui.engine.formats.vocabulary import BOUNDARIES, CLASSES, VISIBILITIES
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.references.rubric import dimension_key
from voyage_tui.engine.rules.common import blank_text, id_mismatch, str_field
from voyage_tui.engine.rules.context import FileContext
from voyage_tui.engine.suggest import closest
from voyage_tui.engine.workspace.model import Workspace

_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")  # C:\ or C:/, absolute on Windows
_UNION_FIELDS = frozenset({"context", "scoring_notes", "harness_constraints"})
_VOCABULARIES = {"class": CLASSES, "expected_boundary": BOUNDARIES, "visibility": VISIBILITIES}


def check_task(
    ctx: FileContext, data: dict[Any, Any], positions: Positions, folder_class: str, folder_id: str
) -> list[Diagnostic]:
    rel = ctx.rel
    out: list[Diagnostic] = []
    try:
        TaskFixture.model_validate(data)
    except ValidationError as exc:
        out += translate(
            exc,
            rel,
            positions,
            models=(TaskFixture,),
            skip=_UNION_FIELDS,
            vocabularies=_VOCABULARIES,
        )
    out += unknown_fields(data, TaskFixture, rel, positions, also_known=frozenset({"kind"}))
    out += blank_text(data, ("id", "prompt", "ground_truth"), rel, positions)

    out += id_mismatch(data, folder_id, rel, positions)
    fixture_class = str_field(data, "class")
    if fixture_class in CLASSES and fixture_class != folder_class:
        out.append(
            dg.error(
                rel,
                positions.value(("class",)),
                "class-folder-mismatch",
                f"class is {fixture_class!r} but the fixture sits in the {folder_class!r} folder; "
                f"move it to fixtures/{fixture_class}/ or fix `class`",
            )
        )

    if "context" in data:
        out += _check_context(ctx, data["context"], positions)
    harness = data.get("harness_constraints")
    if isinstance(harness, dict) and not all(isinstance(k, str) for k in harness):
        bad = next(k for k in harness if not isinstance(k, str))
        out.append(
            dg.error(
                rel,
                positions.key(("harness_constraints", bad)),
                "wrong-type",
                f"in `harness_constraints`, {key_problem(bad)}",
            )
        )
    elif "harness_constraints" in data and not isinstance(
        data["harness_constraints"], (str, dict, list, type(None))
    ):
        out.append(
            dg.error(
                rel,
                positions.value(("harness_constraints",)),
                "wrong-type",
                "`harness_constraints` must be text, a mapping or a list",
            )
        )

    intent = data.get("adversarial_intent")
    if fixture_class == "adversarial" and (not isinstance(intent, str) or not intent.strip()):
        where = (
            positions.key(("adversarial_intent",))
            if "adversarial_intent" in data
            else positions.value(())
        )
        out.append(
            dg.error(
                rel,
                where,
                "adversarial-intent-missing",
                "adversarial fixtures name their trap: add `adversarial_intent` "
                '(e.g. "reflexive deletion", "reflexive no-dependency")',
            )
        )
    elif (
        fixture_class in CLASSES and fixture_class != "adversarial" and "adversarial_intent" in data
    ):
        out.append(
            dg.warning(
                rel,
                positions.key(("adversarial_intent",)),
                "adversarial-intent-unexpected",
                f"`adversarial_intent` belongs to the adversarial class; this fixture is "
                f"{fixture_class!r}, so remove it or change the class",
            )
        )

    if "scoring_notes" in data:
        out += _check_scoring_notes(ctx, data["scoring_notes"], positions)
    return out


def context_refs(value: Any) -> list[str]:
    """The `{file: path}` references of a `context` value, as written."""
    entries = value if isinstance(value, list) else [value]
    return [
        entry["file"]
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("file"), str) and entry["file"].strip()
    ]


def _check_context(ctx: FileContext, value: Any, positions: Positions) -> list[Diagnostic]:
    items: list[tuple[tuple[Any, ...], Any]]
    if isinstance(value, list):
        items = [(("context", i), item) for i, item in enumerate(value)]
    else:
        items = [(("context",), value)]
    out: list[Diagnostic] = []
    for path, item in items:
        if isinstance(item, str):
            continue
        if isinstance(item, dict) and set(item) == {"file"} and isinstance(item["file"], str):
            out += _check_file_ref(ctx, item["file"], path, positions)
            continue
        if isinstance(item, dict):
            wrong = [k for k in item if k != "file"]
            if wrong:
                suggestion = closest(str(wrong[0]), ["file"])
                extra = "; did you mean `file`?" if suggestion else ""
                out.append(
                    dg.error(
                        ctx.rel,
                        positions.key((*path, wrong[0])),
                        "invalid-context",
                        f"a context file reference is `{{file: path}}`; `{wrong[0]}` is not a "
                        f"key of it{extra}",
                    )
                )
                continue
            out.append(
                dg.error(
                    ctx.rel,
                    positions.value((*path, "file")),
                    "invalid-context",
                    "`file` must be a path (text) relative to the fixture folder",
                )
            )
            continue
        out.append(
            dg.error(
                ctx.rel,
                positions.value(path),
                "invalid-context",
                "`context` is inline text, a file reference `{file: path}`, or a list of those",
            )
        )
    return out


def _check_file_ref(
    ctx: FileContext, ref: str, path: tuple[Any, ...], positions: Positions
) -> list[Diagnostic]:
    return context_ref_problems(ctx.ws, ctx.rel, ref, positions.value((*path, "file")))


def context_ref_problems(ws: Workspace, rel: str, ref: str, where: Position) -> list[Diagnostic]:
    """Why the context file `ref` of the task file `rel` may not be read (empty when it may):
    the one check of a ref, for validation and for every reader that shows the file."""
    if not ref.strip():
        return [dg.error(rel, where, "invalid-context", "the context file path is empty")]
    if os.path.isabs(ref) or ref.startswith(("/", "\\")) or _DRIVE.match(ref):
        return [
            dg.error(
                rel,
                where,
                "context-path-escapes",
                f"{ref!r} is an absolute path; context files are relative to the fixture folder",
            )
        ]
    folder_abs = ws.abs(rel.rsplit("/", 1)[0])
    target = os.path.normpath(os.path.join(folder_abs, ref))
    folder_norm = os.path.normpath(folder_abs)
    if not is_within(folder_norm, target):
        return [
            dg.error(
                rel,
                where,
                "context-path-escapes",
                f"{ref!r} leaves the fixture folder; context files must live inside it",
            )
        ]
    if not os.path.lexists(target):
        return [
            dg.error(
                rel,
                where,
                "context-file-missing",
                f"context file {ref!r} does not exist in the fixture folder",
            )
        ]
    if not is_within(os.path.realpath(folder_abs), os.path.realpath(target)):
        return [
            dg.error(
                rel,
                where,
                "context-path-escapes",
                f"{ref!r} is a symlink that leads out of the fixture folder",
            )
        ]
    if not os.path.exists(target):
        return [
            dg.error(
                rel, where, "context-file-missing", f"context file {ref!r} is a broken symlink"
            )
        ]
    return []


def _check_scoring_notes(ctx: FileContext, notes: Any, positions: Positions) -> list[Diagnostic]:
    rel = ctx.rel
    if notes is None:
        return []
    if not isinstance(notes, dict):
        return [
            dg.error(
                rel,
                positions.value(("scoring_notes",)),
                "wrong-type",
                "`scoring_notes` must be a mapping of rubric dimension -> anchors",
            )
        ]
    dimensions = ctx.refs.rubric.value.by_key()
    out: list[Diagnostic] = []
    for key, note in notes.items():
        path = ("scoring_notes", key)
        if not isinstance(key, str):
            out.append(
                dg.error(
                    rel,
                    positions.key(path),
                    "wrong-type",
                    f"in `scoring_notes`, {key_problem(key)}: keys are rubric dimension names",
                )
            )
        elif dimension_key(key) not in dimensions:
            names_list = [d.name for d in dimensions.values()]
            best = closest(str(key), names_list, cutoff=0.5)
            names = ", ".join(names_list)
            out.append(
                dg.warning(
                    rel,
                    positions.key(path),
                    "unknown-dimension",
                    f"`{key}` is not a rubric dimension"
                    + (f"; the closest is `{best}`" if best else "")
                    + f" (dimensions: {names})",
                )
            )
        if not _valid_note(note):
            out.append(
                dg.error(
                    rel,
                    positions.value(path),
                    "wrong-type",
                    f"scoring note `{key}` must be text, a list of text, or a mapping score -> text",
                )
            )
    return out


def _valid_note(note: Any) -> bool:
    if isinstance(note, str):
        return True
    if isinstance(note, list):
        return all(isinstance(x, str) for x in note)
    if isinstance(note, dict):
        return all(
            isinstance(k, int) and not isinstance(k, bool) and isinstance(v, str)
            for k, v in note.items()
        )
    return False
