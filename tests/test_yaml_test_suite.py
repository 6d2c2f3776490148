"""The 402 inputs of the public YAML test suite, each placed as a task.yaml, get diagnostics (or
validate): never a traceback, never a hang (docs/trust.md).

The inputs are read from `../shared/yaml-test-suite/<ID>/in.yaml`, beside the repository folder;
they are not copied into the repository. Where that folder is absent the tests are skipped.
One workspace serves every case; each case calls the engine's per-file checks directly.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.loaded import References, load_references
from voyage_tui.engine.validation.file_check import check_agent_run_file, check_fixture
from voyage_tui.engine.workspace.model import Workspace

SUITE = Path(__file__).resolve().parent.parent.parent / "shared" / "yaml-test-suite"
CASES = sorted(p.parent.name for p in SUITE.glob("*/in.yaml")) if SUITE.is_dir() else []
ERROR_CASES = (
    frozenset((SUITE / "ERROR_CASES").read_text(encoding="utf-8").split())
    if (SUITE / "ERROR_CASES").is_file()
    else frozenset()
)
ABSENT = f"the YAML test suite is not at {SUITE} (it sits beside the repository folder, in shared/)"
BOUND_S = 2.0

TASK = "fixtures/bug-diagnosis/case/task.yaml"
RUN = "fixtures/bug-diagnosis/case/runs/run-1.yaml"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, References]:
    root = tmp_path_factory.mktemp("yaml-test-suite") / "ws"
    (root / "fixtures/bug-diagnosis/case/runs").mkdir(parents=True)
    ws = Workspace.from_root(root)
    return ws, load_references(ws)


def _well_formed(diagnostics: Sequence[Diagnostic], path: str) -> None:
    assert isinstance(diagnostics, (list, tuple))
    for d in diagnostics:
        assert isinstance(d, Diagnostic)
        assert d.path == path
        assert d.line is None or d.line >= 1
        assert d.column is None or d.column >= 1
        assert d.code and d.message


@pytest.mark.skipif(not CASES, reason=ABSENT)
def test_the_suite_is_complete() -> None:
    assert len(CASES) == 402
    assert len(ERROR_CASES) > 0 and set(CASES) >= ERROR_CASES


@pytest.mark.skipif(not CASES, reason=ABSENT)
@pytest.mark.parametrize("case", CASES or ["absent"])
def test_case_as_task_yaml(case: str, engine: tuple[Workspace, References]) -> None:
    ws, refs = engine
    data = (SUITE / case / "in.yaml").read_bytes()
    (ws.root / TASK).write_bytes(data)
    (ws.root / RUN).write_bytes(data)

    start = time.perf_counter()
    item = check_fixture(ws, refs, TASK)
    run_item = check_agent_run_file(ws, RUN)
    catalogue, catalogue_diagnostics = parse_catalogue(data.decode("utf-8", "replace"), "cat.yaml")
    took = time.perf_counter() - start

    assert took < BOUND_S, f"{case} took {took:.2f}s"
    _well_formed(item.diagnostics, TASK)
    _well_formed(run_item.diagnostics, RUN)
    _well_formed(catalogue_diagnostics, "cat.yaml")
    assert all(isinstance(key, str) for key in catalogue.keys)
    # Not one of them is a complete fixture, so each gets at least one error.
    assert any(d.severity is Severity.ERROR for d in item.diagnostics), case
    if case in ERROR_CASES:
        assert any(d.severity is Severity.ERROR for d in run_item.diagnostics), case


@pytest.mark.skipif(not CASES, reason=ABSENT)
def test_invalid_yaml_is_mostly_reported_as_a_loading_error(
    engine: tuple[Workspace, References],
) -> None:
    """Of the inputs the suite marks invalid, the loader rejects all but a handful that libyaml
    is known to accept; those still fail as fixtures (wrong shape or missing fields)."""
    ws, refs = engine
    loading = {
        "yaml-syntax",
        "yaml-multiple-documents",
        "yaml-unknown-tag",
        "yaml-too-deep",
        "invalid-character",
        "duplicate-key",
        "yaml-invalid-value",
        "empty-file",
    }
    accepted = []
    for case in sorted(ERROR_CASES):
        (ws.root / TASK).write_bytes((SUITE / case / "in.yaml").read_bytes())
        item = check_fixture(ws, refs, TASK)
        if not {d.code for d in item.diagnostics} & loading:
            accepted.append(case)
    assert len(accepted) <= 15, accepted
