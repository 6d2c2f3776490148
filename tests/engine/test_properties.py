"""Properties (hypothesis):

1. Any bytes at all, as a task.yaml, an agent run, a gold .json, a run beside it or voyage.toml,
   give a list of diagnostics and never raise.
2. For generated single-task fixtures (mappings with random keys and values, dumped by
   yaml.safe_dump), "no error diagnostics" agrees with the pydantic model accepting the data,
   up to the rules the model cannot see (listed in ENGINE_ONLY).
"""

from __future__ import annotations

import itertools
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.budget import examples
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.formats.task import TaskFixture
from voyage_tui.engine.formats.vocabulary import BOUNDARIES, CLASSES, VISIBILITIES
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.references.loaded import References, load_references
from voyage_tui.engine.validation.file_check import (
    check_agent_run_file,
    check_fixture,
    check_gold_run,
    check_json_candidate,
)
from voyage_tui.engine.workspace.config import parse_config
from voyage_tui.engine.workspace.model import Workspace

SETTINGS = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TASK = "fixtures/bug-diagnosis/t1/task.yaml"
AGENT_RUN = "fixtures/bug-diagnosis/t1/runs/run-1.yaml"
GOLD = "gold/g1.json"
GOLD_RUN = "gold/runs/r1.json"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, References]:
    root = tmp_path_factory.mktemp("properties") / "ws"
    (root / "fixtures/bug-diagnosis/t1/runs").mkdir(parents=True)
    (root / "gold/runs").mkdir(parents=True)
    ws = Workspace.from_root(root)
    return ws, load_references(ws)


def _diagnostics_ok(diagnostics: object) -> None:
    assert isinstance(diagnostics, (list, tuple))
    for d in diagnostics:
        assert isinstance(d, Diagnostic)
        assert d.line is None or d.line >= 1
        assert d.column is None or d.column >= 1


# --- 1. arbitrary bytes --------------------------------------------------------------------

FRAGMENTS = [
    b"id: t1\n",
    b"class: bug-diagnosis\n",
    b"prompt: ",
    b"kind: trajectory\n",
    b"phases: ",
    b'"1: Intake and provenance | 2: x"',
    b"- ",
    b": ",
    b"? ",
    b"&a ",
    b"*a",
    b"<<: ",
    b"!!python/object/apply:os.system ",
    b"!!binary ",
    b"!!int ",
    b"!x ",
    b"%YAML 1.1\n",
    b"%TAG ! tag:x,2000:\n",
    b"---\n",
    b"...\n",
    b"|\n",
    b">-\n",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b"'",
    b'"',
    b"\\",
    b"#",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b"  ",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xe2\x80\xa8",
    b"\xc2\x85",
    b"9" * 50,
    b".nan",
    b"~",
    b"null",
    b"yes",
    b"2024-13-45",
    b"voyage-eval-gold/1",
    b'{"schema": "voyage-eval-gold/1", ',
    b'"findings": [',
    b"NaN",
    b"1e999",
    b'"\\ud800"',
    b"[paths]\n",
    b"[[paths]]\n",
    b"fixtures = ",
    b"max_file_bytes = ",
    b"=",
    b'"""',
]
yamlish_bytes = st.lists(st.sampled_from(FRAGMENTS) | st.binary(max_size=8), max_size=40).map(
    b"".join
)
any_bytes = st.binary(max_size=4096) | yamlish_bytes


@SETTINGS
@given(data=any_bytes)
@example(data=b"")
@example(data=b"\xef\xbb\xbf")
@example(data=b"&a [*a]")
def test_any_bytes_as_task_and_agent_run_never_raise(
    engine: tuple[Workspace, References], data: bytes
) -> None:
    ws, refs = engine
    (ws.root / TASK).write_bytes(data)
    (ws.root / AGENT_RUN).write_bytes(data)
    item = check_fixture(ws, refs, TASK)
    _diagnostics_ok(item.diagnostics)
    run_item = check_agent_run_file(ws, AGENT_RUN)
    _diagnostics_ok(run_item.diagnostics)


@SETTINGS
@given(data=any_bytes, cut=st.integers(min_value=0, max_value=4096))
@example(data=b'{"schema": "voyage-eval-gold/1", "findings": [{"line": 1e999}]}', cut=0)
def test_any_bytes_as_gold_json_never_raise(
    engine: tuple[Workspace, References], data: bytes, cut: int
) -> None:
    ws, refs = engine
    # Splice the gold marker in, so the bytes are taken for a gold file and fully checked.
    cut = min(cut, len(data))
    spliced = data[:cut] + b'"schema": "voyage-eval-gold/1"' + data[cut:]
    for content in (data, spliced):
        (ws.root / GOLD).write_bytes(content)
        (ws.root / GOLD_RUN).write_bytes(content)
        item = check_json_candidate(ws, refs, GOLD)
        if item is not None:
            _diagnostics_ok(item.diagnostics)
        _diagnostics_ok(check_gold_run(ws, refs, GOLD_RUN, GOLD).diagnostics)
        _diagnostics_ok(load_json(content.decode("utf-8", "replace"), GOLD).diagnostics)


@SETTINGS
@given(data=any_bytes)
@example(data=b"[paths]\nfixtures = 3\n[paths.x]\n")
def test_any_bytes_as_voyage_toml_never_raise(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "voyage.toml").write_bytes(data)
        ws = Workspace.from_root(root)
        _diagnostics_ok(ws.config_diagnostics)
        _diagnostics_ok(load_references(ws).diagnostics)
    config, diagnostics = parse_config(data.decode("utf-8", "replace"))
    _diagnostics_ok(diagnostics)
    assert config.limits.max_file_bytes > 0


# --- 2. structured fixtures: engine and model agree --------------------------------------------

ABSENT = object()

# Errors the model cannot see: where the file sits, a file a context ref names, a `kind` the
# model keeps as an extra field, blank-but-not-empty text, and the adversarial trap rule.
ENGINE_ONLY = frozenset(
    {
        "id-mismatch",
        "class-folder-mismatch",
        "adversarial-intent-missing",
        "empty-field",
        "invalid-context",
        "context-file-missing",
        "context-path-escapes",
        "invalid-kind",
    }
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats()
    | st.text(max_size=12)
)
junk = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=6) | st.integers(0, 9) | st.booleans(), inner, max_size=3
        )
    ),
    max_leaves=6,
)
words = st.text(min_size=1, max_size=40)
safe_id = st.from_regex(r"[a-z0-9][a-z0-9-]{0,15}", fullmatch=True)
note = words | st.lists(words, max_size=3) | st.dictionaries(st.integers(1, 5), words, max_size=3)
dimension = st.sampled_from(["correctness", "verification", "scope", "evidence", "communication"])

# Each field: a strategy of values the model accepts; junk is drawn instead one time in 20.
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "id": safe_id,
    "class": st.sampled_from(CLASSES),
    "prompt": words,
    "ground_truth": words,
    "expected_boundary": st.sampled_from(BOUNDARIES),
    "visibility": st.sampled_from(VISIBILITIES),
    "context": words
    | st.lists(words | st.fixed_dictionaries({"file": words}), max_size=3)
    | st.fixed_dictionaries({"file": words}),
    "harness_constraints": words
    | st.dictionaries(st.text(max_size=8), junk, max_size=3)
    | st.lists(junk, max_size=3),
    "scoring_notes": st.dictionaries(dimension | st.text(max_size=10), note, max_size=3),
    "adversarial_intent": words,
}
REQUIRED = ("id", "class", "prompt", "ground_truth", "expected_boundary", "visibility")


@st.composite
def task_dicts(draw: st.DrawFn) -> dict[Any, Any]:
    data: dict[Any, Any] = {}
    for name, strategy in FIELDS.items():
        # Required fields are present 19 times in 20, optional ones half of the time.
        present = draw(st.integers(0, 19)) < (19 if name in REQUIRED else 10)
        if present:
            data[name] = draw(junk if draw(st.integers(0, 19)) == 0 else strategy)
    extra = draw(st.dictionaries(st.text(max_size=12) | st.integers(0, 3), junk, max_size=1))
    for key, value in extra.items():
        if key not in FIELDS:
            data[key] = value
    return data


_counter = itertools.count()


def _folder_for(data: dict[Any, Any]) -> tuple[str, str]:
    cls = data.get("class")
    fixture_id = data.get("id")
    folder_class = cls if isinstance(cls, str) and cls in CLASSES else "bug-diagnosis"
    folder_id = (
        fixture_id
        if isinstance(fixture_id, str)
        and fixture_id
        and "/" not in fixture_id
        and fixture_id.strip(".")
        and fixture_id == fixture_id.strip()
        and "\x00" not in fixture_id
        else f"case-{next(_counter)}"
    )
    return folder_class, folder_id


@SETTINGS
@given(data=task_dicts(), unicode=st.booleans(), flow=st.booleans())
@example(
    data={
        "id": "t1",
        "class": "no-change-needed",
        "prompt": "p",
        "ground_truth": "g",
        "expected_boundary": "unit",
        "visibility": "public",
        "scoring_notes": {1: "x"},
    },
    unicode=False,
    flow=False,
)
@example(
    data={
        "id": "t1",
        "class": "refactor",
        "prompt": "p",
        "ground_truth": "g",
        "expected_boundary": "unit",
        "visibility": "public",
        "harness_constraints": {0: "x"},
    },
    unicode=False,
    flow=False,
)
@example(
    data={
        "id": "t1",
        "class": "refactor",
        "prompt": "p",
        "ground_truth": "g",
        "expected_boundary": "unit",
        "visibility": "public",
        1: None,
    },
    unicode=False,
    flow=False,
)
def test_no_errors_agrees_with_the_model(
    engine: tuple[Workspace, References], data: dict[Any, Any], unicode: bool, flow: bool
) -> None:
    ws, refs = engine
    text = yaml.safe_dump(data, allow_unicode=unicode, default_flow_style=flow, sort_keys=False)
    doc = load_yaml(text, "probe.yaml")
    assume(doc.ok and not doc.diagnostics)  # what the engine reads is what was generated
    loaded = doc.data

    folder_class, folder_id = _folder_for(loaded)
    rel = f"fixtures/{folder_class}/{folder_id}/task.yaml"
    path = ws.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    try:
        item = check_fixture(ws, refs, rel)
    finally:
        os.unlink(path)
    errors = {d.code for d in item.diagnostics if d.severity is Severity.ERROR}

    try:
        TaskFixture.model_validate(loaded)
        accepted = True
    except ValidationError:
        accepted = False

    event("model accepts" if accepted else "model rejects")
    event("engine: no errors" if not errors else "engine: errors")
    if accepted:
        assert errors <= ENGINE_ONLY, (errors, loaded, [d.message for d in item.diagnostics])
    else:
        assert errors, ("the model rejects this, the engine found no error", loaded)
    if not errors:
        assert accepted
