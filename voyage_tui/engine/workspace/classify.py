"""What a workspace path is: the one decision the full walk, live re-validation, the editor and
the item cache all take from here, so they can never disagree about a file.

The answer depends on the path and the workspace's configuration only, never on the file's
content: whether a `*.json` file is in fact a gold record is read from its `schema`, and whether
a `runs/*.json` file is a run depends on a gold file beside its `runs/` folder (see
Suite._check_layout). Which paths git ignores is asked of git by the walk (layout.scan) and by
re-validation alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace, normalize_rel

TASK_FILE = "task.yaml"
RUNS_FOLDER = "runs"
AGENT_RUN_SUFFIXES = (".yaml", ".yml")
GOLD_SUFFIX = ".json"
RATING_SUFFIX = ".jsonl"
NEVER_SEARCHED = frozenset(
    {".git", ".venv", "node_modules", ".voyage", "__pycache__", ".hg", ".svn"}
)
"""Folder names never looked into, wherever they are: nothing below one is a workspace file."""

CATALOGUE_NAMES = (
    "references/rule-catalogue.yaml",
    "references/rule-catalogue.yml",
    "references/rule-catalogue.json",
    "references/rule-catalogue.mjs",
    "references/rule-catalogue.js",
)
"""Where the rule catalogue is looked for while voyage.toml does not name it (first found wins)."""


class PathKind(StrEnum):
    TASK = "task"
    """`<fixtures>/<class>/<id>/task.yaml`"""
    TRAJECTORY = "trajectory"
    """`<fixtures>/trajectories/<id>/task.yaml`"""
    AGENT_RUN = "agent-run"
    """`<fixtures>/<class>/<id>/runs/<run>.yaml` (or .yml), directly in the runs folder."""
    GOLD = "gold"
    """A `*.json` file under the gold folders: a gold file when its `schema` says so."""
    RUN = "run"
    """A `runs/<name>.json` file under the gold folders: a run of the gold file in the folder
    holding `runs/`; where that folder holds none, it may itself be a gold file."""
    RATING = "rating"
    """`<ratings>/<rater>.jsonl`"""
    REFERENCE = "reference"
    """journey.md, the routing table, the rule catalogue, the rubric."""
    CONFIG = "config"
    """voyage.toml"""
    MISPLACED_TASK = "misplaced"
    """A task.yaml directly in the fixtures folder or in a class folder (error
    `misplaced-task-file`)."""
    OTHER = "other"
    """Anything else: a context file, a README beside a gold file, a repository's sources."""


FIXTURE_KINDS = frozenset({PathKind.TASK, PathKind.TRAJECTORY})
JSON_KINDS = frozenset({PathKind.GOLD, PathKind.RUN})
FILE_KINDS = frozenset({PathKind.TASK, PathKind.TRAJECTORY, PathKind.AGENT_RUN})
"""Kinds whose file is opened whatever it turns out to be (a FIFO gets a diagnostic); a folder
in their place is a layout error."""


def _split(rel: str) -> tuple[str, ...]:
    return tuple(rel.split("/")) if rel else ()


def _under(parts: tuple[str, ...], root: tuple[str, ...]) -> bool:
    """`parts` is `root` or below it."""
    return parts[: len(root)] == root


@dataclass(frozen=True, slots=True)
class Classifier:
    """The classification rules of one workspace configuration (built once, asked per path)."""

    fixtures: tuple[str, ...]
    gold_roots: tuple[tuple[str, ...], ...]
    ratings: tuple[str, ...]
    references: dict[str, str]
    """Workspace-relative path -> which reference (journey, rubric, routing_table, catalogue)."""

    @classmethod
    def of(cls, ws: Workspace) -> Classifier:
        paths = ws.config.paths
        references = {
            normalize_rel(paths.journey): "journey",
            normalize_rel(paths.rubric): "rubric",
            normalize_rel(paths.routing_table): "routing_table",
        }
        if not ws.config.explicitly_set("paths", "rule_catalogue"):
            references.update((name, "catalogue") for name in CATALOGUE_NAMES)
        references[normalize_rel(paths.rule_catalogue)] = "catalogue"
        return cls(
            fixtures=_split(ws.fixtures_rel),
            gold_roots=tuple(dict.fromkeys(_split(root) for root in ws.gold_roots)),
            ratings=_split(ws.ratings_rel),
            references=references,
        )

    # --- files ---------------------------------------------------------------------------------

    def kind(self, rel: str) -> PathKind:
        """What the workspace-relative, `/`-separated path `rel` is."""
        if not rel or rel in (".", "..") or rel.startswith("../"):
            return PathKind.OTHER
        parts = tuple(rel.split("/"))
        if not NEVER_SEARCHED.isdisjoint(parts):
            return PathKind.OTHER
        if rel == CONFIG_NAME:
            return PathKind.CONFIG
        if rel in self.references:
            return PathKind.REFERENCE
        name = parts[-1]
        fixture = self._fixture_rest(parts)
        if fixture is not None:
            depth = len(fixture)
            if name == TASK_FILE:
                if depth == 3:
                    return (
                        PathKind.TRAJECTORY if fixture[0] == TRAJECTORIES_FOLDER else PathKind.TASK
                    )
                if depth < 3:
                    return PathKind.MISPLACED_TASK
            elif depth == 4 and fixture[2] == RUNS_FOLDER and name.endswith(AGENT_RUN_SUFFIXES):
                return PathKind.AGENT_RUN
        if name.endswith(RATING_SUFFIX) and parts[:-1] == self.ratings:
            return PathKind.RATING
        if name.endswith(GOLD_SUFFIX) and self._in_gold(parts[:-1]):
            return PathKind.RUN if len(parts) > 1 and parts[-2] == RUNS_FOLDER else PathKind.GOLD
        return PathKind.OTHER

    def reference_role(self, rel: str) -> str | None:
        """Which reference `rel` is (journey, rubric, routing_table, catalogue), or None."""
        return self.references.get(rel)

    def fixture_parts(self, rel: str) -> tuple[str, str] | None:
        """(class folder, id folder) of a path at or below `<fixtures>/<class>/<id>/`."""
        fixture = self._fixture_rest(_split(rel))
        if fixture is None or len(fixture) < 3:
            return None
        return fixture[0], fixture[1]

    def fixture_folder(self, rel: str) -> str | None:
        """`<fixtures>/<class>/<id>` for a path below a fixture's folder, else None."""
        parts = self.fixture_parts(rel)
        if parts is None:
            return None
        return "/".join((*self.fixtures, *parts))

    @staticmethod
    def folder_of(rel: str) -> str:
        return rel.rsplit("/", 1)[0] if "/" in rel else ""

    @staticmethod
    def run_gold_folder(rel: str) -> str:
        """For a RUN path `<folder>/runs/<name>.json`: the folder its gold file sits in."""
        parts = rel.split("/")
        return "/".join(parts[:-2])

    # --- folders -------------------------------------------------------------------------------

    def may_hold(self, folder: str) -> bool:
        """Whether anything below the folder `folder` can be a workspace file: the walk looks
        into exactly these folders."""
        parts = _split(folder)
        if not NEVER_SEARCHED.isdisjoint(parts):
            return False
        # on the way to a configured folder
        for root in (self.fixtures, self.ratings, *self.gold_roots):
            if root[: len(parts)] == parts:
                return True
        if self._in_gold(parts):
            return True
        fixture = self._fixture_rest(parts)
        if fixture is None:
            return False
        return len(fixture) <= 2 or (len(fixture) == 3 and fixture[2] == RUNS_FOLDER)

    def fixture_shape(self, folder: str) -> bool:
        """The fixtures folder, a class folder, a fixture's folder or its runs folder: the folders
        a symlink may stand for (followed when it stays inside the workspace)."""
        fixture = self._fixture_rest(_split(folder))
        if fixture is None:
            return False
        return len(fixture) <= 2 or (len(fixture) == 3 and fixture[2] == RUNS_FOLDER)

    def roots(self) -> list[str]:
        """The configured folders the walk starts from: fixtures, the gold folders, ratings."""
        return list(
            dict.fromkeys(
                "/".join(root) for root in (self.fixtures, *self.gold_roots, self.ratings)
            )
        )

    # --- helpers -------------------------------------------------------------------------------

    def _fixture_rest(self, parts: tuple[str, ...]) -> tuple[str, ...] | None:
        """The path's parts below the fixtures folder (None when not below it)."""
        if len(parts) <= len(self.fixtures) or not _under(parts, self.fixtures):
            return None
        return parts[len(self.fixtures) :]

    def _in_gold(self, folder: tuple[str, ...]) -> bool:
        return any(_under(folder, root) for root in self.gold_roots)


def classify(ws: Workspace, rel: str) -> PathKind:
    """What `rel` is in `ws` (callers asking about many paths build one Classifier)."""
    return Classifier.of(ws).kind(rel)


def kinds_of(ws: Workspace, rels: Iterable[str]) -> dict[str, PathKind]:
    classifier = Classifier.of(ws)
    return {rel: classifier.kind(rel) for rel in rels}
