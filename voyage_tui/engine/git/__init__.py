"""Git checks (docs/git-checks.md): `final_head_sha` against the repository, holdout exposure, retiring a
holdout (its writer is called only by triage's Retirer, which journals each retire for undo). No
Textual here; gitpython is imported only when a check runs."""

from voyage_tui.engine.git.checks import GitChecks
from voyage_tui.engine.git.exposure import ExposureReport, HoldoutExposure, Signal, compute_exposure
from voyage_tui.engine.git.retire import RetireError, RetireResult

__all__ = [
    "ExposureReport",
    "GitChecks",
    "HoldoutExposure",
    "RetireError",
    "RetireResult",
    "Signal",
    "compute_exposure",
]
