"""`voyage-tui new` on a terminal: the app opened on the wizard, ended by the wizard."""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import replace

from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.wizard import WizardOutcome
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.authoring import WizardStart
from voyage_tui.engine.workspace.model import Workspace

EXIT_WRITTEN = 0
EXIT_LEFT = 1


def wizard_app(start: WizardStart, settings: AppSettings | None = None) -> VoyageApp:
    """The app on the wizard of `start`, with `settings` (the default ones without)."""
    settings = replace(settings or AppSettings(), initial_wizard=start)
    return VoyageApp(Workspace.load(start.workspace), settings)


def report(app: VoyageApp, start: WizardStart, code: int | None) -> int:
    """Say how it ended, as `voyage-tui new --no-input` would: the path on stdout when written;
    otherwise, on stderr, that nothing was written and which draft holds the answers."""
    outcome = app.wizard_outcome
    if isinstance(outcome, WizardOutcome) and outcome.written is not None:
        print(outcome.written.path)
        for d in outcome.notes:
            print(f"{d.location()}: {d.severity.value} {d.code}: {d.message}", file=sys.stderr)
        return EXIT_WRITTEN
    if code not in (None, EXIT_WRITTEN, EXIT_LEFT):
        return code  # the app stopped on an error; it has said so
    draft = outcome.draft if isinstance(outcome, WizardOutcome) else ""
    kind = outcome.kind if isinstance(outcome, WizardOutcome) else start.kind
    message = "voyage-tui new: nothing was written"
    if draft:
        where = "" if _inside(os.getcwd(), start.workspace) else f" {shlex.quote(start.workspace)}"
        message += (
            f"; your answers are in the draft {draft} (.voyage/drafts/): "
            f"`voyage-tui new {kind}{where} --resume={draft}` reopens it"
        )
    print(message, file=sys.stderr)
    return EXIT_LEFT


def _inside(path: str, root: str) -> bool:
    """`path` is `root` or below it (so `voyage-tui new` run from there finds the workspace)."""
    try:
        return os.path.commonpath([os.path.realpath(path), os.path.realpath(root)]) == (
            os.path.realpath(root)
        )
    except ValueError:  # different drives
        return False


def run_wizard(start: WizardStart) -> int:
    app = wizard_app(start)
    code = app.run()
    return report(app, start, code)
