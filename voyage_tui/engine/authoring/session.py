"""`Authoring`: everything a creation wizard (screen or command line) asks of the engine, for one
workspace. See the package docstring for the calls a screen makes, step by step."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.authoring.answers import (
    TASK_KIND,
    Answers,
    TaskAnswers,
    TrajectoryAnswers,
    new_answers,
)
from voyage_tui.engine.authoring.check import Checked, SuiteFacts, check_answers
from voyage_tui.engine.authoring.choices import (
    Specialist,
    gate_checklist,
    phase_checklist,
    routing_specialists,
)
from voyage_tui.engine.authoring.commits import Commit, recent_commits, resolve_revision
from voyage_tui.engine.authoring.copying import answers_from_fixture
from voyage_tui.engine.authoring.drafts import DraftStore
from voyage_tui.engine.authoring.ids import propose_id
from voyage_tui.engine.authoring.render import HOLDOUT
from voyage_tui.engine.authoring.sources import TrackedFiles
from voyage_tui.engine.authoring.steps import Step, steps_for
from voyage_tui.engine.authoring.write import Written, write_fixture
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import TRAJECTORY_KIND
from voyage_tui.engine.git.checks import GitChecks
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.references.rubric import Dimension
from voyage_tui.engine.safe_text import one_line
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.validated import validated_suite
from voyage_tui.engine.workspace.model import Workspace

FROM_UNKNOWN = "from-unknown-fixture"
FROM_EXPOSED = "from-exposed"


class StartError(Exception):
    """The fixture to start from cannot be used; `diagnostic` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class WizardStart:
    """How the command line opens the interactive wizard: the kind, the answers the flags gave
    (already merged over a copied fixture or a resumed draft), the draft to keep saving to, and
    the step to show first."""

    workspace: str
    kind: str
    answers: Answers
    draft: str
    step: str | None = None
    notices: tuple[str, ...] = ()
    """What the flags asked that could not be done (an unresolved `--head`), said on opening."""


class Authoring:
    """One workspace's authoring context. Cheap to query after construction: `check` renders
    and checks one document (plus one git call the first time a full SHA is seen)."""

    def __init__(self, suite: Suite, *, use_git: bool = True) -> None:
        self.suite = suite
        self.git: GitChecks | None = GitChecks() if use_git else None
        self.drafts = DraftStore(suite.ws)

    @classmethod
    def open(
        cls, start: str | os.PathLike[str] | None = None, *, use_git: bool = True
    ) -> Authoring:
        """Find the workspace from `start` and load its suite (for the ids in use). Forks a
        second process for the load, so it is for single-threaded callers (the command line);
        the app passes its own suite: `Authoring(suite)`. Raises NoWorkspace."""
        return cls(validated_suite(start, use_git=False), use_git=use_git)

    @property
    def ws(self) -> Workspace:
        return self.suite.ws

    # --- references --------------------------------------------------------------------------

    def ids(self) -> dict[str, str]:
        """Fixture id -> its task.yaml, over the suite as loaded (a copy: safe while the app's
        suite is re-validated)."""
        items = dict(self.suite.items)
        return {i.id: i.path for i in items.values() if i.is_fixture and i.id}

    def dimensions(self) -> list[Dimension]:
        """The rubric's dimensions, for the scoring-notes step."""
        return list(self.suite.refs.rubric.value.dimensions)

    def specialists(self) -> list[Specialist]:
        return routing_specialists(self.suite.refs.routing_table.value)

    def recent_commits(self, limit: int = 30) -> list[Commit]:
        """Raises GitUnavailable."""
        return recent_commits(self.ws, limit)

    def resolve_revision(self, revision: str) -> str:
        """Raises RevisionError or GitUnavailable."""
        return resolve_revision(self.ws, revision)

    # --- answers -----------------------------------------------------------------------------

    def new(self, kind: str) -> Answers:
        """Empty answers; a trajectory's phases and gates come from journey.md, all ticked."""
        answers = new_answers(kind)
        if isinstance(answers, TrajectoryAnswers):
            journey = self.suite.refs.journey.value
            answers.phases = phase_checklist(journey)
            answers.gates = gate_checklist(journey)
        return answers

    def start_from(self, fixture_id: str, kind: str | None = None) -> Answers:
        """A copy of an existing fixture's answers with no id (and a fresh canary to come).
        Raises StartError."""
        path = self.ids().get(fixture_id)
        if path is None:
            raise StartError(
                dg.error(
                    self.ws.fixtures_rel or ".",
                    None,
                    FROM_UNKNOWN,
                    f"no fixture has the id {fixture_id!r}; name an existing fixture to start from",
                )
            )
        item = self.suite.items[path]
        found = TASK_KIND if item.kind is FileKind.TASK else TRAJECTORY_KIND
        if kind is not None and found != kind:
            raise StartError(
                dg.error(
                    path,
                    None,
                    FROM_UNKNOWN,
                    f"{fixture_id!r} is a {found} fixture, not a {kind}; start a {found} from it",
                )
            )
        text = self.ws.read_text(path)
        if isinstance(text, Diagnostic):
            raise StartError(
                dg.error(path, None, FROM_UNKNOWN, f"{path} cannot be read: {text.message}")
            )
        loaded = load_yaml(text, path)
        if not loaded.ok or not isinstance(loaded.data, dict):
            raise StartError(
                dg.error(
                    path,
                    None,
                    FROM_UNKNOWN,
                    f"{path} is not a fixture that can be copied (fix it first)",
                )
            )
        folder = path.rsplit("/", 1)[0]
        return answers_from_fixture(loaded.data, folder, self.suite.refs.journey.value)

    def exposed_source(self, fixture_id: str) -> Diagnostic | None:
        """A warning when `fixture_id` is a holdout git shows exposed: a copy keeps its prompt,
        and the prompt is what leaked. None without git, or for a fixture nobody has seen."""
        path = self.ids().get(fixture_id)
        if path is None or self.git is None:
            return None
        from voyage_tui.engine.git.exposure import compute_exposure

        found = compute_exposure(self.ws, self.suite.items.values()).by_path().get(path)
        if found is None or not found.exposed:
            return None
        seen = "; ".join(one_line(s.detail) for s in found.signals[:3])
        return dg.warning(
            path,
            None,
            FROM_EXPOSED,
            f"{fixture_id!r} is an exposed holdout ({seen}): the copy's prompt has already "
            "leaked, so write a new prompt before the copy is used as a holdout",
        )

    def propose_id(self, prompt: str) -> str:
        return propose_id(prompt, self.ids())

    def steps(self, answers: Answers) -> list[Step]:
        return steps_for(answers)

    # --- checking and writing ----------------------------------------------------------------

    def check(self, answers: Answers, tracked: TrackedFiles | None = None) -> Checked:
        """The document the answers produce, and its diagnostics, each tied to its field.
        A holdout without a canary is given one here (kept in the answers, so the preview, the
        draft and the written file all carry the same)."""
        if answers.visibility.strip() == HOLDOUT and not answers.canary.strip():
            answers.canary = str(uuid.uuid4())
        facts = SuiteFacts(self.ws, self.suite.refs, self.ids(), self.git, tracked)
        return check_answers(facts, answers)

    def write(self, answers: Answers, draft: str | None = None) -> Written:
        """Check once more and write. Raises NotWritten (nothing was written) or the OSError of
        a failed write (what was made is removed). The draft, when named, is deleted after."""
        tracked = TrackedFiles(self.ws)  # asked afresh: a file may have been added since
        checked = self.check(answers, tracked)
        written = write_fixture(self.ws, checked, answers, tracked)
        if draft:
            self.drafts.delete(draft)
        return written


__all__ = ["Authoring", "StartError", "TaskAnswers", "TrajectoryAnswers", "WizardStart"]
