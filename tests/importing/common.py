"""The import tests' workspace and logs (tests/data/importing, made by make_logs.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from tests.conftest import MakeWorkspace, task_yaml
from tests.sample import REPO

DATA = REPO / "tests" / "data" / "importing"


def workspace(make_workspace: MakeWorkspace, *ids: str) -> Path:
    files = {f"fixtures/bug-diagnosis/{i}/task.yaml": task_yaml(i) for i in ids or ("t1", "t2")}
    root = make_workspace(files)
    (root / "voyage.toml").write_text("", encoding="utf-8")
    return root


def log_copy(tmp_path: Path, name: str) -> Path:
    """A copy of a committed log (a test never reads what it could change in place)."""
    folder = tmp_path / "logs"
    folder.mkdir(exist_ok=True)
    target = folder / name
    shutil.copy(DATA / name, target)
    return target


def runs(root: Path, fixture: str = "t1") -> dict[str, dict[str, object]]:
    folder = root / "fixtures" / "bug-diagnosis" / fixture / "runs"
    if not folder.is_dir():
        return {}
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())}
