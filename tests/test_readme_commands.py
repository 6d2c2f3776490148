"""The README's two set-up commands and `.ci/run` stay in step, word for word."""

from __future__ import annotations

import re

from tests.conftest import REPO


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


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, run_tests = _setup_commands()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in ci.splitlines() if line and not line.startswith("#")]
    assert run_tests in commands
