"""What a workspace path is: the one decision the full walk (layout.scan), live re-validation
(Suite.revalidate) and the editor's buffer check all take from here, so they can never disagree
about a file.

The answer depends on the path and the workspace's configuration only, never on the file's
content: whether a `*.json` file is in fact a gold record is read from its `schema`, and whether
a `runs/*.json` file is a run depends on a gold file beside its `runs/` folder (see
Suite._check_layout). Which paths git ignores is asked of git by the walk (layout.scan) and by
re-validation alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
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


class Walk(StrEnum):
    """How the walk (layout.scan) and live re-validation (Suite.revalidate) treat a path."""

    FIXTURE = "fixture"
    """Listed as a fixture and opened whatever it turns out to be (a FIFO gets a diagnostic);
    a folder in its place is a layout error."""
    AGENT_RUN = "agent-run"
    """Listed as an agent run, opened like a fixture."""
    JSON = "json"
    """Listed as a gold candidate when it is a regular file (or a link to one)."""
    RATINGS = "ratings"
    """Listed as a ratings file, whatever it is (the ratings folder is the user's)."""
    ADJUDICATIONS = "adjudications"
    """One configured file: `scan` lists it when it exists, whatever it is, and the walk
    passes it by (it may lie in a folder the walk never lists, the workspace's root)."""
    MISPLACED = "misplaced"
    """A layout error, never opened."""
    NOT_LISTED = "unlisted"
    """Not a file the suite checks (a reference re-reads itself when it changes)."""


WALK: dict[FileKind, Walk] = {
    FileKind.TASK: Walk.FIXTURE,
    FileKind.TRAJECTORY: Walk.FIXTURE,
    FileKind.AGENT_RUN: Walk.AGENT_RUN,
    FileKind.GOLD: Walk.JSON,
    FileKind.GOLD_RUN: Walk.JSON,
    FileKind.RATING: Walk.RATINGS,
    FileKind.ADJUDICATION: Walk.ADJUDICATIONS,
    FileKind.REFERENCE: Walk.NOT_LISTED,
    FileKind.CONFIG: Walk.NOT_LISTED,
    FileKind.MISPLACED_TASK: Walk.MISPLACED,
    FileKind.OTHER: Walk.NOT_LISTED,
}
"""The classify concern of each file kind (see engine/kinds.py)."""

JSON_KINDS = frozenset(k for k, how in WALK.items() if how is Walk.JSON)
FILE_KINDS = frozenset(k for k, how in WALK.items() if how in (Walk.FIXTURE, Walk.AGENT_RUN))
"""Kinds whose file is opened whatever it turns out to be (a FIFO gets a diagnostic); a folder
in their place is a layout error."""


def _split(rel: str) -> tuple[str, ...]:
    return tuple(rel.split("/")) if rel else ()


_NOTHING: frozenset[str] = frozenset()


@dataclass(slots=True)
class FolderRules:
    """The classifier's answers for the entries of one folder, worked out once for the folder:
    the walk asks about every file of the workspace, one folder at a time."""

    parts: tuple[str, ...]
    searched: bool
    """False below a NEVER_SEARCHED folder or outside the workspace: nothing here is anything."""
    is_root: bool
    fixture_depth: int | None
    """How deep this folder's entries lie below the fixtures folder (1: class folders), or None
    outside it."""
    in_trajectories: bool
    """This folder is below `<fixtures>/trajectories/`."""
    named_runs: bool
    in_gold: bool
    is_ratings: bool
    adjudications: str
    """The adjudications file's name when it lies in this folder, else ""."""
    references: frozenset[str]
    """Names of the reference files in this folder."""
    toward_roots: frozenset[str]
    """Names of the entries that are, or lead to, a configured folder."""

    @property
    def holds_fixtures(self) -> bool:
        """This is the fixtures folder, a class folder, a fixture's folder or its runs folder."""
        depth = self.fixture_depth
        return depth is not None and (depth <= 3 or (depth == 4 and self.named_runs))

    def kind(self, name: str) -> FileKind:
        if not self.searched:
            return FileKind.OTHER
        if self.is_root and name == CONFIG_NAME:
            return FileKind.CONFIG
        if name == self.adjudications:
            return FileKind.ADJUDICATION
        if name in self.references:
            return FileKind.REFERENCE
        depth = self.fixture_depth
        if depth is not None:
            if name == TASK_FILE:
                if depth == 3:
                    return FileKind.TRAJECTORY if self.in_trajectories else FileKind.TASK
                if depth < 3:
                    return FileKind.MISPLACED_TASK
            elif depth == 4 and self.named_runs and name.endswith(AGENT_RUN_SUFFIXES):
                return FileKind.AGENT_RUN
        if self.is_ratings and name.endswith(RATING_SUFFIX):
            return FileKind.RATING
        if self.in_gold and name.endswith(GOLD_SUFFIX):
            return FileKind.GOLD_RUN if self.named_runs else FileKind.GOLD
        return FileKind.OTHER

    def child(self, name: str, rules: Classifier) -> FolderRules:
        """The rules of the subfolder `name` (what Classifier.folder gives, derived cheaply)."""
        parts = (*self.parts, name)
        depth = self.fixture_depth
        if depth is not None:
            depth += 1
        elif parts == rules.fixtures:
            depth = 1
        if len(parts) > rules.deepest:
            # Below every configured folder (each fixture's folder of a large suite): no
            # configured folder or reference file to look up.
            return FolderRules(
                parts,
                self.searched and name not in NEVER_SEARCHED and name not in ("..", "."),
                False,
                depth,
                self.in_trajectories or (self.fixture_depth == 1 and name == TRAJECTORIES_FOLDER),
                name == RUNS_FOLDER,
                self.in_gold,
                False,
                "",
                _NOTHING,
                _NOTHING,
            )
        return FolderRules(
            parts=parts,
            searched=self.searched and name not in NEVER_SEARCHED and name not in ("..", "."),
            is_root=False,
            fixture_depth=depth,
            in_trajectories=self.in_trajectories
            or (self.fixture_depth == 1 and name == TRAJECTORIES_FOLDER),
            named_runs=name == RUNS_FOLDER,
            in_gold=self.in_gold or parts in rules.gold_roots,
            is_ratings=parts == rules.ratings,
            adjudications=rules.adjudications_in(parts),
            references=rules.references_in.get(parts, _NOTHING),
            toward_roots=rules.toward_roots.get(parts, _NOTHING),
        )

    def may_hold(self, name: str) -> bool:
        """Whether anything below the entry `name` (a folder) can be a workspace file."""
        if not self.searched or name in NEVER_SEARCHED:
            return False
        if self.in_gold or name in self.toward_roots:
            return True
        return self.fixture_shape(name)

    def fixture_shape(self, name: str) -> bool:
        """Whether the entry `name` is a class folder, a fixture's folder or a fixture's runs
        folder: the folders a symlink may stand for (followed while it stays inside)."""
        depth = self.fixture_depth
        if not self.searched or depth is None:
            return False
        return depth <= 2 or (depth == 3 and name == RUNS_FOLDER)


@dataclass(frozen=True, slots=True)
class Classifier:
    """The classification rules of one workspace configuration (built once, asked per path)."""

    fixtures: tuple[str, ...]
    gold_roots: tuple[tuple[str, ...], ...]
    ratings: tuple[str, ...]
    adjudications: tuple[str, ...]
    """The adjudications file's path, split."""
    references: dict[str, str]
    """Workspace-relative path -> which reference (journey, rubric, routing_table, catalogue)."""
    references_in: dict[tuple[str, ...], frozenset[str]]
    """Folder -> the names of the reference files in it."""
    toward_roots: dict[tuple[str, ...], frozenset[str]]
    """Folder -> the names of its entries that are, or lead to, a configured folder."""
    fixtures_prefix: str = ""
    """`<fixtures>/` ("" when the fixtures folder is the workspace itself)."""
    deepest: int = 0
    """The most parts of a configured folder or of a folder holding a reference file: below
    that depth no folder is one of them."""

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
        fixtures = _split(ws.fixtures_rel)
        gold_roots = tuple(dict.fromkeys(_split(root) for root in ws.gold_roots))
        ratings = _split(ws.ratings_rel)
        adjudications = _split(ws.adjudications_rel)
        references_in: dict[tuple[str, ...], set[str]] = {}
        for rel in references:
            parts = _split(rel)
            if parts:
                references_in.setdefault(parts[:-1], set()).add(parts[-1])
        toward: dict[tuple[str, ...], set[str]] = {}
        for root in (fixtures, ratings, *gold_roots):
            for cut in range(len(root)):
                toward.setdefault(root[:cut], set()).add(root[cut])
        return cls(
            fixtures=fixtures,
            gold_roots=gold_roots,
            ratings=ratings,
            adjudications=adjudications,
            references=references,
            references_in={k: frozenset(v) for k, v in references_in.items()},
            toward_roots={k: frozenset(v) for k, v in toward.items()},
            fixtures_prefix="/".join(fixtures) + "/" if fixtures else "",
            deepest=max(
                len(k)
                for k in (
                    fixtures,
                    ratings,
                    adjudications[:-1],
                    *gold_roots,
                    *references_in,
                    *toward,
                )
            ),
        )

    def folder(self, folder: str) -> FolderRules:
        """The rules for the entries of the workspace-relative folder `folder`."""
        parts = _split(folder)
        fixtures = self.fixtures
        depth: int | None = None
        in_trajectories = False
        if parts[: len(fixtures)] == fixtures:
            depth = len(parts) - len(fixtures) + 1
            in_trajectories = depth >= 2 and parts[len(fixtures)] == TRAJECTORIES_FOLDER
        return FolderRules(
            parts=parts,
            searched=NEVER_SEARCHED.isdisjoint(parts) and ".." not in parts and "." not in parts,
            is_root=not parts,
            fixture_depth=depth,
            in_trajectories=in_trajectories,
            named_runs=bool(parts) and parts[-1] == RUNS_FOLDER,
            in_gold=any(parts[: len(root)] == root for root in self.gold_roots),
            is_ratings=parts == self.ratings,
            adjudications=self.adjudications_in(parts),
            references=self.references_in.get(parts, _NOTHING),
            toward_roots=self.toward_roots.get(parts, _NOTHING),
        )

    def adjudications_in(self, parts: tuple[str, ...]) -> str:
        """The adjudications file's name when it lies in the folder `parts`, else ""."""
        path = self.adjudications
        return path[-1] if path and parts == path[:-1] else ""

    # --- paths ---------------------------------------------------------------------------------

    def kind(self, rel: str) -> FileKind:
        """What the workspace-relative, `/`-separated path `rel` is."""
        if not rel:
            return FileKind.OTHER
        folder, _, name = rel.rpartition("/")
        return self.folder(folder).kind(name)

    def may_hold(self, folder: str) -> bool:
        """Whether anything below the folder `folder` can be a workspace file: the walk looks
        into exactly these folders."""
        if not folder:
            return True
        parent, _, name = folder.rpartition("/")
        return self.folder(parent).may_hold(name)

    def fixture_shape(self, folder: str) -> bool:
        """The fixtures folder's class folders, fixture folders and their runs folders."""
        if not folder:
            return False
        parent, _, name = folder.rpartition("/")
        return self.folder(parent).fixture_shape(name)

    def reference_role(self, rel: str) -> str | None:
        """Which reference `rel` is (journey, rubric, routing_table, catalogue), or None."""
        return self.references.get(rel) if self.kind(rel) is FileKind.REFERENCE else None

    def fixture_parts(self, rel: str) -> tuple[str, str] | None:
        """(class folder, id folder) of a path at or below `<fixtures>/<class>/<id>/`."""
        # Asked for every fixture of every load: string operations, no tuple of every part.
        prefix = self.fixtures_prefix
        if not rel.startswith(prefix):
            return None
        parts = rel[len(prefix) :].split("/", 2)
        if len(parts) < 3:
            return None
        return parts[0], parts[1]

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
        """For a GOLD_RUN path `<folder>/runs/<name>.json`: the folder its gold file sits in."""
        parts = rel.split("/")
        return "/".join(parts[:-2])

    def roots(self) -> list[str]:
        """The configured folders the walk starts from: fixtures, the gold folders, ratings."""
        return list(
            dict.fromkeys(
                "/".join(root) for root in (self.fixtures, *self.gold_roots, self.ratings)
            )
        )
