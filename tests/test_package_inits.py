"""A package's `__init__.py` is its docstring, unless something imports names from the package
itself: a re-export nobody uses is a second place to keep in step (issue 34 found 249 lines of
them in git/, ratings/ and scoring/)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "voyage_tui"
READERS = (PACKAGE, REPO / "tests", REPO / "benchmarks", REPO / "screenshots")


def _dotted(init: Path) -> str:
    return ".".join(init.parent.relative_to(REPO).parts)


def _names_imported_from_packages() -> set[str]:
    """Every package from which some module imports a name that is not one of its modules."""
    found: set[str] = set()
    for folder in READERS:
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or node.module is None:
                    continue
                base = REPO.joinpath(*node.module.split("."))
                if not (base / "__init__.py").is_file():
                    continue  # a module, not a package
                for alias in node.names:
                    if (
                        not (base / f"{alias.name}.py").is_file()
                        and not (base / alias.name).is_dir()
                    ):
                        found.add(node.module)
    return found


def test_a_package_init_holds_more_than_its_docstring_only_where_its_names_are_imported() -> None:
    used = _names_imported_from_packages()
    more_than_a_docstring = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        body = ast.parse(init.read_text(encoding="utf-8")).body
        rest = [
            node
            for node in body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
        ]
        if rest and _dotted(init) not in used:
            more_than_a_docstring.append(_dotted(init))
    assert more_than_a_docstring == []
