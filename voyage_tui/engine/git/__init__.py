"""Git checks (docs/git-checks.md): `final_head_sha` against the repository, holdout exposure, retiring a
holdout (its writer is called only by triage's Retirer, which journals each retire for undo). No
Textual here; gitpython is imported only when a check runs."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voyage_tui.engine.git.checks import GitChecks
    from voyage_tui.engine.git.exposure import (
        ExposureReport,
        HoldoutExposure,
        Signal,
        compute_exposure,
    )
    from voyage_tui.engine.git.retire import RetireError, RetireResult

# Each name is imported from its module when first asked for (PEP 562), so importing one
# module of this package does not import them all (`validate`'s start-up: issue 23).
_EXPORTS: dict[str, str] = {
    "GitChecks": "voyage_tui.engine.git.checks",
    "ExposureReport": "voyage_tui.engine.git.exposure",
    "HoldoutExposure": "voyage_tui.engine.git.exposure",
    "Signal": "voyage_tui.engine.git.exposure",
    "compute_exposure": "voyage_tui.engine.git.exposure",
    "RetireError": "voyage_tui.engine.git.retire",
    "RetireResult": "voyage_tui.engine.git.retire",
}

__all__ = [
    "ExposureReport",
    "GitChecks",
    "HoldoutExposure",
    "RetireError",
    "RetireResult",
    "Signal",
    "compute_exposure",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)
