"""Check one file of the workspace: read it safely, load it, run its rules, keep a summary."""

from __future__ import annotations

import os
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER, TRAJECTORY_KIND
from voyage_tui.engine.items import (
    AGENT_RUN,
    GOLD,
    GOLD_RUN,
    TASK,
    TRAJECTORY,
    Item,
)
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.loading.safe_read import read_bytes
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.references.findings_table import findings_table_rows
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.rules.agent_run_rules import check_agent_run
from voyage_tui.engine.rules.common import canary_of, root_not_mapping, str_field, text_field
from voyage_tui.engine.rules.context import FileContext
from voyage_tui.engine.rules.gold_rules import check_readme_drift
from voyage_tui.engine.rules.gold_run_files import gold_from_text, run_from_text
from voyage_tui.engine.rules.task_rules import check_task, context_refs
from voyage_tui.engine.rules.trajectory_rules import check_trajectory
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.workspace.model import Workspace

GOLD_MARKER = b"voyage-eval-gold/"


def _read_text(ws: Workspace, rel: str) -> str | Diagnostic:
    data = read_bytes(ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes)
    if isinstance(data, Diagnostic):
        return data
    return decode(data, rel)


def _load_mapping(
    ws: Workspace, item: Item, text: str | None, what: str
) -> tuple[str, dict[Any, Any], Positions] | None:
    """Read (unless a buffer is given) and load a YAML file whose root must be a mapping; on
    any failure the reason is on the item and the result is None."""
    rel = item.path
    if text is None:
        read = _read_text(ws, rel)
        if isinstance(read, Diagnostic):
            item.diagnostics.append(read)
            return None
        text = read
    doc = load_yaml(text, rel)
    item.diagnostics.extend(doc.diagnostics)
    if not doc.ok:
        return None
    if not isinstance(doc.data, dict):
        item.diagnostics.append(root_not_mapping(rel, doc.data, what))
        return None
    return text, doc.data, doc.positions


def fixture_parts(ws: Workspace, rel: str) -> tuple[str, str] | None:
    """(class folder, id folder) of `fixtures/<class>/<id>/...`, or None outside that shape."""
    return ws.classifier.fixture_parts(rel)


def check_fixture(ws: Workspace, refs: References, rel: str, text: str | None = None) -> Item:
    """A task.yaml: single-task or trajectory, by its `kind` and its folder. `text` checks an
    editor's buffer instead of the file on disk."""
    parts = fixture_parts(ws, rel)
    folder_class, folder_id = parts if parts else ("", "")
    in_trajectories = folder_class == TRAJECTORIES_FOLDER
    item = Item(rel, TRAJECTORY if in_trajectories else TASK, id=folder_id)
    loaded = _load_mapping(ws, item, text, "a fixture")
    if loaded is None:
        return item
    text, data, positions = loaded
    ctx = FileContext(ws, refs, rel, text)
    kind = data.get("kind")
    if in_trajectories or kind == TRAJECTORY_KIND:
        item.kind = TRAJECTORY
        if not in_trajectories:
            item.diagnostics.append(
                dg.error(
                    rel,
                    positions.value(("kind",)),
                    "trajectory-misplaced",
                    f"trajectory fixtures live in {ws.fixtures_rel}/trajectories/<id>/; move this one there",
                )
            )
        item.diagnostics.extend(check_trajectory(ctx, data, positions, folder_id))
        item.fixture_class = str_field(data, "path")
        sha = data.get("final_head_sha")
        if isinstance(sha, str):
            item.final_head_sha = sha.strip()
            item.sha_position = positions.value(("final_head_sha",))
    else:
        if "kind" in data:
            item.diagnostics.append(
                dg.error(
                    rel,
                    positions.value(("kind",)),
                    "invalid-kind",
                    f"`kind` is {kind!r}; only trajectory fixtures have a kind (`kind: trajectory`),"
                    f" single-task fixtures have none{hint(str(kind), [TRAJECTORY_KIND])}",
                )
            )
        item.diagnostics.extend(check_task(ctx, data, positions, folder_class, folder_id))
        item.fixture_class = str_field(data, "class")
        item.boundary = str_field(data, "expected_boundary")
        item.ground_truth = text_field(data, "ground_truth")
        if data.get("scoring_notes"):
            item.extra["has_scoring_notes"] = True
        if "context" in data:
            item.deps = _context_deps(item.folder, context_refs(data["context"]))
    declared = str_field(data, "id")
    if declared:
        item.id = declared
        item.id_position = positions.value(("id",))
    item.visibility = str_field(data, "visibility")
    item.prompt = text_field(data, "prompt")
    item.canary = canary_of(text)
    return item


def _context_deps(folder: str, refs: list[str]) -> tuple[str, ...]:
    deps = []
    for ref in refs:
        if os.path.isabs(ref):
            continue
        rel = os.path.normpath(f"{folder}/{ref}").replace(os.sep, "/")
        if not rel.startswith(".."):
            deps.append(rel)
    return tuple(deps)


def check_agent_run_file(ws: Workspace, rel: str, text: str | None = None) -> Item:
    stem = os.path.splitext(rel.rsplit("/", 1)[-1])[0]
    fixture_folder = rel.rsplit("/", 2)[0]
    item = Item(rel, AGENT_RUN, id=stem, parent=f"{fixture_folder}/task.yaml")
    loaded = _load_mapping(ws, item, text, "an agent run")
    if loaded is None:
        return item
    _, data, positions = loaded
    item.diagnostics.extend(check_agent_run(rel, data, positions, stem))
    run_id = str_field(data, "run_id")
    if run_id:
        item.id = run_id
    agent = str_field(data, "agent")
    if agent:
        item.extra["agent"] = agent
    return item


def _peek_marker(ws: Workspace, rel: str) -> bool:
    try:
        with open(ws.abs(rel), "rb") as handle:
            return GOLD_MARKER in handle.read(65536)
    except OSError:
        return False


def check_json_candidate(
    ws: Workspace, refs: References, rel: str, text: str | None = None
) -> Item | None:
    """A gold file, or None when this JSON file is not one (most JSON files are not)."""
    if text is not None:
        return _check_gold_text(ws, refs, rel, text)
    data = read_bytes(ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes)
    if isinstance(data, Diagnostic):
        # Unread, it cannot be known to be a gold file; one too large to read says so early on.
        if data.code == "file-too-large" and _peek_marker(ws, rel):
            return Item(rel, GOLD, id=rel, diagnostics=[data])
        return None
    if GOLD_MARKER not in data:
        return None
    decoded = decode(data, rel)
    if isinstance(decoded, Diagnostic):
        return Item(rel, GOLD, id=rel, diagnostics=[decoded])
    return _check_gold_text(ws, refs, rel, decoded)


def _check_gold_text(ws: Workspace, refs: References, rel: str, text: str) -> Item | None:
    gold = gold_from_text(rel, text, refs.catalogue.value)
    if gold.parsed and gold.data is None:
        return None  # JSON, but not a gold record: most JSON files are not
    item = Item(rel, GOLD, id=rel, diagnostics=gold.diagnostics)
    if gold.data is None:
        return item
    data = gold.data
    item.extra.update(_gold_summary(data))
    readme_rel = f"{item.folder}/README.md" if item.folder else "README.md"
    item.deps = (readme_rel,)
    if os.path.isfile(ws.abs(readme_rel)):
        readme = _read_text(ws, readme_rel)
        if isinstance(readme, str):
            rows = findings_table_rows(readme)
            if rows is not None:
                item.extra["readme"] = readme_rel
                item.diagnostics.extend(
                    check_readme_drift(rel, data, gold.positions, readme_rel, rows)
                )
    return item


def _gold_summary(data: dict[str, Any]) -> dict[str, Any]:
    findings = data.get("findings")
    return {
        "description": data.get("description") if isinstance(data.get("description"), str) else "",
        "expected_verdict": data.get("expected_verdict"),
        "findings": len(findings) if isinstance(findings, list) else 0,
    }


def check_gold_run(
    ws: Workspace, refs: References, rel: str, gold_rel: str, text: str | None = None
) -> Item:
    stem = os.path.splitext(rel.rsplit("/", 1)[-1])[0]
    item = Item(rel, GOLD_RUN, id=stem, parent=gold_rel, deps=(gold_rel,))
    loaded = _read_text(ws, rel) if text is None else text
    if isinstance(loaded, Diagnostic):
        item.diagnostics.append(loaded)
        return item
    run = run_from_text(rel, loaded, refs.catalogue.value)
    item.diagnostics.extend(run.diagnostics)
    if run.data is not None:
        item.extra["reviewers"] = len(run.data)
    return item
