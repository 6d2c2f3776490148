"""What to ask before a holdout is retired, and what each answer means.

Every face that retires on a keypress asks this same question first (the app's browser and its
triage screen; a second face would too): retiring makes a holdout public for good, and a commit
is a second, separate choice. The command line asks nothing: `exposure --retire` names the
fixture, which is the confirmation, and `--commit` the second choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voyage_tui.engine.wording import plural

COMMIT = "commit"
"""Retire, then commit each file alone (its message names the exposure signals)."""
ONLY = "retire"
"""Retire and leave the change uncommitted."""


@dataclass(frozen=True, slots=True)
class RetireQuestion:
    text: str
    answers: tuple[str, ...] = (COMMIT, ONLY)
    """In the order offered; the first is the default. Any other answer (cancel, escape, a
    dismissed dialog) retires nothing."""

    @staticmethod
    def commit_for(answer: str | None) -> bool | None:
        """What an answer means: None retires nothing; else whether to commit too."""
        if answer == COMMIT:
            return True
        if answer == ONLY:
            return False
        return None


def retire_question(paths: Sequence[str]) -> RetireQuestion:
    """The one question for retiring these files, however many (a bulk retire asks once)."""
    if not paths:
        raise ValueError("a retire names at least one file")
    if len(paths) == 1:
        return RetireQuestion(
            f"Retire {paths[0]} from holdout? Its `visibility:` becomes `public`; nothing else "
            "in the file changes. A commit of that one file names the exposure signals."
        )
    return RetireQuestion(
        f"Retire {plural(len(paths), 'holdout')} from holdout ({_names(paths)})? Each one's "
        "`visibility:` becomes `public`; nothing else in the files changes. Each is committed "
        "alone, its message naming its exposure signals."
    )


def _names(paths: Sequence[str], shown: int = 3) -> str:
    names = ", ".join(paths[:shown])
    return names if len(paths) <= shown else f"{names} and {len(paths) - shown} more"
