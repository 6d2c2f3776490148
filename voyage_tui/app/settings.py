"""What the app is opened with: one frozen object instead of a keyword argument per option."""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.authoring import WizardStart
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode


@dataclass(frozen=True, slots=True)
class AppSettings:
    use_git: bool = True
    """Run the checks that need git (history, exposure)."""
    watch: bool = True
    """Watch the workspace for changes made outside the app."""
    cache: bool = False
    """The first load may use the validation cache, and the first screen is recorded for the
    next start when the app closes."""
    keymap: dict[str, str] | None = None
    """Binding id -> keys; None reads the user's keymap file."""
    initial_diff: tuple[str, str] | None = None
    """(gold, run) to open the diff on (`voyage-tui diff`)."""
    match: MatchMode = DEFAULT_MATCH
    """How that diff matches gold keys (`voyage-tui diff --match`)."""
    initial_rate: tuple[str | None, bool] | None = None
    """(rater, blind) to open the rater session on (`voyage-tui rate`)."""
    rater_only: bool = False
    """A rater-only session (`voyage-tui rate`, `serve --rate`): the app opens on the rater
    session (`initial_rate`) and never leaves the rating views; `escape` asks to end it. What
    it allows is decided in app/rater_only.py."""
    initial_adjudicate: str | None = None
    """The adjudicator to open the adjudication screen as (`voyage-tui adjudicate`)."""
    initial_triage: bool = False
    """Open on the triage queue (`voyage-tui triage`)."""
    initial_wizard: WizardStart | None = None
    """Open on the creation wizard, which ends the app (`voyage-tui new`)."""
