"""The import contracts (pyproject.toml, `lint-imports`) name every package and catch an
upward import: a contract that leaves a package out lets it import anything."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "voyage_tui"


def _contract(name_start: str) -> dict[str, object]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    [found] = [c for c in contracts if c["name"].startswith(name_start)]
    return found


def _named(layers: list[str]) -> set[str]:
    names: set[str] = set()
    for layer in layers:
        for part in layer.replace("|", " ").replace(":", " ").split():
            names.add(part)
    return names


def _children(folder: Path) -> set[str]:
    return {
        p.stem if p.is_file() else p.name
        for p in folder.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }


def test_every_engine_package_is_in_the_engine_s_layers() -> None:
    layers = _contract("The engine's packages")["layers"]
    assert isinstance(layers, list)
    assert _children(PACKAGE / "engine") == _named(layers)


def test_every_app_module_is_in_the_app_s_layers() -> None:
    layers = _contract("Inside the app")["layers"]
    assert isinstance(layers, list)
    assert _children(PACKAGE / "app") - {"styles"} == _named(layers)


def test_planted_upward_imports_break_the_contracts(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "voyage_tui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    plants = {
        "engine/diagnostics.py": "import voyage_tui.engine.triage.queue",
        "engine/loading/text.py": "import voyage_tui.engine.ratings.records",
        "app/widgets/badges.py": "import voyage_tui.app.screens.browser",
    }
    for rel, line in plants.items():
        path = copy / "voyage_tui" / rel
        path.write_text(path.read_text() + f"\n{line}  # planted\n")
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run(
        [str(lint), "--no-cache", "--config", str(copy / "pyproject.toml")],
        cwd=copy,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    broken = out.stdout
    assert "voyage_tui.engine.diagnostics -> voyage_tui.engine.triage.queue" in broken
    assert "voyage_tui.engine.loading.text -> voyage_tui.engine.ratings.records" in broken
    assert "voyage_tui.app.widgets.badges -> voyage_tui.app.screens.browser" in broken
