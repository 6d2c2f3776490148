"""Check one file of the workspace: read it safely, load it, run its rules, keep a summary."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER, TRAJECTORY_KIND
from voyage_tui.engine.items import AgentRunFacts, GoldFacts, GoldRunFacts, Item, TaskFacts
from voyage_tui.engine.kinds import FileKind
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
    ws: Workspace, rel: str, text: str | None, what: str, found: list[Diagnostic]
) -> tuple[str, dict[Any, Any], Positions] | None:
    """Read (unless a buffer is given) and load a YAML file whose root must be a mapping; on
    any failure the reason is in `found` and the result is None."""
    if text is None:
        read = _read_text(ws, rel)
        if isinstance(read, Diagnostic):
            found.append(read)
            return None
        text = read
    doc = load_yaml(text, rel)
    found.extend(doc.diagnostics)
    if not doc.ok:
        return None
    if not isinstance(doc.data, dict):
        found.append(root_not_mapping(rel, doc.data, what))
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
    kind_here = FileKind.TRAJECTORY if in_trajectories else FileKind.TASK
    found: list[Diagnostic] = []
    loaded = _load_mapping(ws, rel, text, "a fixture", found)
    if loaded is None:
        return Item(rel, kind_here, id=folder_id, diagnostics=tuple(found))
    text, data, positions = loaded
    ctx = FileContext(ws, refs, rel, text)
    kind = data.get("kind")
    fields: dict[str, Any] = {}
    if in_trajectories or kind == TRAJECTORY_KIND:
        kind_here = FileKind.TRAJECTORY
        if not in_trajectories:
            found.append(
                dg.error(
                    rel,
                    positions.value(("kind",)),
                    "trajectory-misplaced",
                    f"trajectory fixtures live in {ws.fixtures_rel}/trajectories/<id>/; move this one there",
                )
            )
        found.extend(check_trajectory(ctx, data, positions, folder_id))
        fields["fixture_class"] = str_field(data, "path")
        sha = data.get("final_head_sha")
        if isinstance(sha, str):
            fields["final_head_sha"] = sha.strip()
            fields["sha_position"] = positions.value(("final_head_sha",))
    else:
        if "kind" in data:
            found.append(
                dg.error(
                    rel,
                    positions.value(("kind",)),
                    "invalid-kind",
                    f"`kind` is {kind!r}; only trajectory fixtures have a kind (`kind: trajectory`),"
                    f" single-task fixtures have none{hint(str(kind), [TRAJECTORY_KIND])}",
                )
            )
        found.extend(check_task(ctx, data, positions, folder_class, folder_id))
        fields["fixture_class"] = str_field(data, "class")
        fields["boundary"] = str_field(data, "expected_boundary")
        fields["ground_truth"] = text_field(data, "ground_truth")
        if data.get("scoring_notes"):
            fields["facts"] = TaskFacts(has_scoring_notes=True)
        if "context" in data:
            folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
            fields["deps"] = _context_deps(folder, context_refs(data["context"]))
    declared = str_field(data, "id")
    if declared:
        fields["id_position"] = positions.value(("id",))
    return Item(
        rel,
        kind_here,
        id=declared or folder_id,
        visibility=str_field(data, "visibility"),
        prompt=text_field(data, "prompt"),
        canary=canary_of(text),
        diagnostics=tuple(found),
        **fields,
    )


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
    parent = f"{fixture_folder}/task.yaml"
    found: list[Diagnostic] = []
    loaded = _load_mapping(ws, rel, text, "an agent run", found)
    if loaded is None:
        return Item(rel, FileKind.AGENT_RUN, id=stem, parent=parent, diagnostics=tuple(found))
    _, data, positions = loaded
    found.extend(check_agent_run(rel, data, positions, stem))
    agent = str_field(data, "agent")
    return Item(
        rel,
        FileKind.AGENT_RUN,
        id=str_field(data, "run_id") or stem,
        parent=parent,
        facts=AgentRunFacts(agent) if agent else None,
        diagnostics=tuple(found),
    )


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
            return Item(rel, FileKind.GOLD, id=rel, diagnostics=(data,))
        return None
    if GOLD_MARKER not in data:
        return None
    decoded = decode(data, rel)
    if isinstance(decoded, Diagnostic):
        return Item(rel, FileKind.GOLD, id=rel, diagnostics=(decoded,))
    return _check_gold_text(ws, refs, rel, decoded)


def _check_gold_text(ws: Workspace, refs: References, rel: str, text: str) -> Item | None:
    gold = gold_from_text(rel, text, refs.catalogue.value)
    if gold.parsed and gold.data is None:
        return None  # JSON, but not a gold record: most JSON files are not
    if gold.data is None:
        return Item(rel, FileKind.GOLD, id=rel, diagnostics=tuple(gold.diagnostics))
    data = gold.data
    found = list(gold.diagnostics)
    readme_found: str | None = None
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    readme_rel = f"{folder}/README.md" if folder else "README.md"
    if os.path.isfile(ws.abs(readme_rel)):
        readme = _read_text(ws, readme_rel)
        if isinstance(readme, str):
            rows = findings_table_rows(readme)
            if rows is not None:
                readme_found = readme_rel
                found.extend(check_readme_drift(rel, data, gold.positions, readme_rel, rows))
    facts = _gold_facts(data, readme_found)
    return Item(
        rel, FileKind.GOLD, id=rel, facts=facts, diagnostics=tuple(found), deps=(readme_rel,)
    )


def _gold_facts(data: dict[str, Any], readme: str | None) -> GoldFacts:
    findings = data.get("findings")
    description = data.get("description")
    verdict = data.get("expected_verdict")
    return GoldFacts(
        description=description if isinstance(description, str) else "",
        # As the tree shows it: a wrong value is an error of its own (gold_rules).
        expected_verdict=str(verdict) if verdict else "",
        findings=len(findings) if isinstance(findings, list) else 0,
        readme=readme,
    )


def check_gold_run(
    ws: Workspace, refs: References, rel: str, gold_rel: str, text: str | None = None
) -> Item:
    stem = os.path.splitext(rel.rsplit("/", 1)[-1])[0]
    item = Item(rel, FileKind.GOLD_RUN, id=stem, parent=gold_rel, deps=(gold_rel,))
    loaded = _read_text(ws, rel) if text is None else text
    if isinstance(loaded, Diagnostic):
        return dataclasses.replace(item, diagnostics=(loaded,))
    run = run_from_text(rel, loaded, refs.catalogue.value)
    facts = GoldRunFacts(len(run.data)) if run.data is not None else None
    return dataclasses.replace(item, facts=facts, diagnostics=tuple(run.diagnostics))
