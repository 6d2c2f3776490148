"""The scripts beside the screenshots (screenshots/, the design card's layout) still run: the
example report's script wrote with `--output` outside its workspace, which voyage-tui refuses."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from tests.conftest import REPO


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "screenshots" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_report_is_written_with_its_charts(tmp_path: Path) -> None:
    _script("make_results_report").main(tmp_path)
    page = (tmp_path / "results-report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    picture = (tmp_path / "results-html.svg").read_text(encoding="utf-8")
    assert picture.count("<svg") > 1  # the page's charts, stacked
