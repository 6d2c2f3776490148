"""The README's two set-up commands, the development guide and `.ci/run` stay in step, word for
word; both installs use the lock, and the test command runs every static check before pytest."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

STATIC_CHECKS = (
    ".venv/bin/ruff check .",
    ".venv/bin/ruff format --check .",
    ".venv/bin/mypy",
    ".venv/bin/lint-imports",
)


def _setup_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.DOTALL)


def test_the_readme_has_the_two_setup_commands() -> None:
    install_and_open, run_tests = _setup_commands()
    assert install_and_open.startswith("python3 -m venv .venv")
    assert install_and_open.endswith("voyage-tui fixtures")
    assert run_tests.startswith("python3 -m venv .venv")
    assert "pytest" in run_tests


def test_both_installs_use_the_lock() -> None:
    install_and_open, run_tests = _setup_commands()
    assert "\n" not in install_and_open and "\n" not in run_tests
    assert ".venv/bin/pip install -c constraints.txt -e . " in install_and_open
    # the test command installs uv through the lock, then the project with uv, through the lock
    steps = run_tests.split(" && ")
    assert steps[1] == ".venv/bin/pip install -c constraints.txt uv"
    assert steps[2].startswith(".venv/bin/uv pip install ")
    assert steps[2].endswith(' -c constraints.txt -e ".[test]"')
    assert "uv" in _pins()


def test_the_test_command_runs_every_static_check_then_pytest() -> None:
    _, run_tests = _setup_commands()
    steps = run_tests.split(" && ")
    # pytest-xdist, a worker per core: the suite is safe to run in parallel (tests/sample.py
    # exports the sample once per worker; every test works in its own folder).
    assert steps[-1] == ".venv/bin/pytest -n auto"
    assert steps[3:-1] == list(STATIC_CHECKS)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, run_tests = _setup_commands()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in ci.splitlines() if line and not line.startswith("#")]
    assert run_tests in commands


def test_the_development_guide_gives_the_same_test_command() -> None:
    _, run_tests = _setup_commands()
    guide = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    assert f"```sh\n{run_tests}\n```" in guide


def _pins() -> dict[str, str]:
    lines = [
        line
        for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.+!\-]+", line) for line in lines)
    return {canonicalize_name(n): v for n, v in (line.split("==", 1) for line in lines)}


def _installed_closure(root: str, extras: set[str]) -> dict[str, str]:
    """Every distribution that installing `root[extras]` brings in, with its installed version:
    the requirements of the installed metadata, followed with their markers and extras."""
    found: dict[str, str] = {}
    pending = [(root, frozenset(extras))]
    while pending:
        name, wanted = pending.pop()
        dist = metadata.distribution(name)
        for text in dist.requires or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in wanted or {""}
            ):
                continue
            key = canonicalize_name(requirement.name)
            if key not in found:
                found[key] = metadata.version(requirement.name)
                pending.append((requirement.name, frozenset(requirement.extras)))
    return found


def test_the_lock_pins_every_package_the_test_install_brings_in() -> None:
    """Every package of voyage-tui[test], transitively, is pinned, at the version installed here
    (in CI's fresh environment: the lock was used), renderer included: textual at the version
    pyproject.toml pins, rich and the tree-sitter grammars."""
    pins = _pins()
    closure = _installed_closure("voyage-tui", {"test"})
    assert {"textual", "rich", "tree-sitter", "tree-sitter-json", "tree-sitter-yaml"} <= set(
        closure
    )
    unpinned = sorted(set(closure) - set(pins))
    assert unpinned == [], f"not in constraints.txt: {unpinned}"
    drifted = {n: (v, pins[n]) for n, v in closure.items() if pins[n] != v}
    assert drifted == {}, f"installed (here) vs pinned: {drifted}"
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    textual = next(d for d in project["dependencies"] if d.startswith("textual"))
    assert textual.endswith(f"=={pins['textual']}")
