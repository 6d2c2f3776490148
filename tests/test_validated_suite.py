"""One way to get a validated suite (issue 34): every command that needs one takes it from the
engine's `validated_suite`, with the validation cache, and a run opens each reference file once.

Opens are counted at `os.open`, which every bounded read of a workspace file goes through
(loading/safe_read.py), and at `builtins.open` (a gold file's marker peek, any plain read); the
sample is too small for the forked child, so every open is seen.
"""

from __future__ import annotations

import ast
import builtins
import collections
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from voyage_tui.cli import main

# Imported before os.open is wrapped: it asks at import whether os.open takes dir_fd (the
# wrapper is not in os.supports_dir_fd), and without it the cache is never written.
from voyage_tui.engine.validation import cache_store  # noqa: F401
from voyage_tui.engine.validation.validated import validated_suite

REFERENCES = (
    "fixtures/references/journey.md",
    "fixtures/references/routing-table.md",
    "fixtures/references/rule-catalogue.yaml",
    "fixtures/rubric.md",
)
TASK = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"


class Opens:
    """Every file opened through os.open while counting, workspace-relative."""

    def __init__(self, root: Path) -> None:
        self.root = str(root) + os.sep
        self.counts: collections.Counter[str] = collections.Counter()

    def of(self, rel: str) -> int:
        return self.counts[rel]

    def task_files(self) -> list[str]:
        return sorted(rel for rel in self.counts if rel.endswith("/task.yaml"))


@pytest.fixture
def count_opens(monkeypatch: pytest.MonkeyPatch) -> Iterator[collections.abc.Callable[..., Opens]]:
    real = os.open
    real_builtin = builtins.open

    def start(root: Path) -> Opens:
        opens = Opens(root)

        def seen(path: object) -> None:
            if isinstance(path, (str, bytes, os.PathLike)):
                name = os.fsdecode(path)
                if name.startswith(opens.root):
                    opens.counts[name[len(opens.root) :]] += 1

        def counting(path: object, *args: object, **kwargs: object) -> int:
            seen(path)
            return real(path, *args, **kwargs)  # type: ignore[arg-type]

        def counting_builtin(path: object, *args: object, **kwargs: object) -> object:
            seen(path)
            return real_builtin(path, *args, **kwargs)  # type: ignore[call-overload]

        monkeypatch.setattr(os, "open", counting)
        monkeypatch.setattr(builtins, "open", counting_builtin)
        return opens

    yield start
    monkeypatch.setattr(os, "open", real)
    monkeypatch.setattr(builtins, "open", real_builtin)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    code = main(argv)
    capsys.readouterr()
    return code


@pytest.mark.parametrize(
    "switches", [[], ["--no-git"], ["--no-cache"], ["--no-git", "--no-cache"]], ids=str
)
def test_a_cold_validate_opens_each_reference_once(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
    switches: list[str],
) -> None:
    opens = count_opens(sample_copy)
    run(["validate", str(sample_copy), *switches], capsys)
    # The cache's key and the parsed reference take the same bytes: one read of each.
    assert {rel: opens.of(rel) for rel in REFERENCES} == dict.fromkeys(REFERENCES, 1)


def test_a_validate_after_an_edit_opens_each_reference_once(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
) -> None:
    run(["validate", str(sample_copy), "--no-git"], capsys)
    task = sample_copy / TASK
    task.write_text(task.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    opens = count_opens(sample_copy)
    # The replay's key reads the references, finds the edit, and the check takes those reads.
    run(["validate", str(sample_copy), "--no-git"], capsys)
    assert {rel: opens.of(rel) for rel in REFERENCES} == dict.fromkeys(REFERENCES, 1)
    assert opens.task_files() == [TASK]  # the rest from the cache


COMMANDS = {
    "exposure": ["exposure"],
    "results": ["results"],
    "ratings status": ["ratings", "status"],
    "ratings export": ["ratings", "export"],
    "triage": ["triage", "--format", "json", "--no-git"],
    "triage with git": ["triage", "--format", "json"],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_every_command_that_needs_a_validated_suite_takes_it_from_the_cache(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    run([*command, str(sample_copy)], capsys)
    opens = count_opens(sample_copy)
    run([*command, str(sample_copy)], capsys)
    # The second run finds every fixture unchanged in the cache the first one wrote. (What a
    # command reads beyond its suite, a rubric for the ratings or a catalogue for the gold
    # files, it still reads itself.)
    assert opens.task_files() == []


def test_the_validated_suite_reads_each_reference_once(
    sample_copy: Path, count_opens: collections.abc.Callable[[Path], Opens]
) -> None:
    opens = count_opens(sample_copy)
    suite = validated_suite(sample_copy, use_git=False)
    assert {rel: opens.of(rel) for rel in REFERENCES} == dict.fromkeys(REFERENCES, 1)
    assert len(opens.task_files()) == len([i for i in suite.items.values() if i.is_fixture])
    # And again: the items from the cache it wrote; the references read again, once each.
    again = count_opens(sample_copy)
    validated_suite(sample_copy, use_git=False)
    assert {rel: again.of(rel) for rel in REFERENCES} == dict.fromkeys(REFERENCES, 1)
    assert again.task_files() == []


def test_a_validate_reuses_what_a_command_checked(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
) -> None:
    run(["results", str(sample_copy)], capsys)
    opens = count_opens(sample_copy)
    run(["validate", str(sample_copy), "--no-git"], capsys)
    assert opens.task_files() == []


def _calls(path: Path) -> set[str]:
    """The names called in a module: `Suite(...)` gives "Suite", `x.validate_all()` gives
    "validate_all", `Suite.open(...)` gives "open" (and "Suite" is not called)."""
    called = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                called.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                called.add(node.func.attr)
                if isinstance(node.func.value, ast.Name) and node.func.value.id == "Suite":
                    called.add("Suite." + node.func.attr)
    return called


def test_no_command_makes_a_validated_suite_of_its_own() -> None:
    """The commands (and the authoring session `new` opens) call validated_suite; the app's
    start (cli/common.py) prepares the live suite's first load, which uses the cache too."""
    callers = [
        *sorted((REPO / "voyage_tui" / "cli").glob("*.py")),
        REPO / "voyage_tui" / "engine" / "authoring" / "session.py",
    ]
    own = {}
    for path in callers:
        if path.name == "common.py":
            continue
        found = _calls(path) & {"Suite", "Suite.open", "validate_all", "prepare_early"}
        if found:
            own[path.name] = sorted(found)
    assert own == {}


def _opened_more_than_once(opens: Opens) -> dict[str, int]:
    return {rel: n for rel, n in sorted(opens.counts.items()) if n > 1}


def test_results_opens_each_file_once(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Cold, every file of the sample that results needs is opened once: the gold files and
    their runs are scored from the bytes validation read, against the catalogue it loaded."""
    opens = count_opens(sample_copy)
    assert run(["results", str(sample_copy)], capsys) == 0
    assert _opened_more_than_once(opens) == {}
    gold = [rel for rel in opens.counts if rel.startswith("fixtures/gold/")]
    assert "fixtures/gold/jwt-auth/gold.json" in gold
    assert "fixtures/gold/jwt-auth/runs/run-perfect.json" in gold
    assert all(opens.of(rel) == 1 for rel in REFERENCES)


def test_a_warm_results_opens_each_file_it_needs_once(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Warm, the fixtures come from the cache and are not opened; the gold files (their items
    cached, their findings not) are read by results itself, once each, and so are the
    references (the cache's key takes their digests, the check their parse) and the ratings."""
    run(["results", str(sample_copy)], capsys)
    opens = count_opens(sample_copy)
    assert run(["results", str(sample_copy)], capsys) == 0
    assert _opened_more_than_once(opens) == {}
    assert opens.task_files() == []
    assert opens.of("fixtures/gold/jwt-auth/gold.json") == 1
    assert opens.of("fixtures/gold/jwt-auth/runs/run-perfect.json") == 1
    assert all(opens.of(rel) == 1 for rel in REFERENCES)


RUN = "fixtures/gold/jwt-auth/runs/run-perfect.json"


def test_results_scores_what_validation_checked_and_a_recheck_reads_afresh(
    sample_copy: Path,
) -> None:
    """The kept bytes are those the check read: an edit after it is not scored until the file
    is checked again (revalidate), which drops them, so the next read is the file's own."""
    suite = validated_suite(sample_copy, use_git=False, keep_gold=True)
    checked = (sample_copy / RUN).read_text(encoding="utf-8")
    (sample_copy / RUN).write_text("[]\n", encoding="utf-8")
    assert suite.review_inputs().read(RUN) == checked
    suite.revalidate([RUN])
    assert suite.review_inputs().read(RUN) == "[]\n"


def test_a_suite_keeps_no_bytes_unless_asked(sample_copy: Path) -> None:
    suite = validated_suite(sample_copy, use_git=False)
    assert suite.review_inputs().kept == {}


def test_a_forked_check_hands_its_gold_bytes_back(
    sample_copy: Path,
    count_opens: collections.abc.Callable[[Path], Opens],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a child checking a share of the files (forced here: the sample has fewer than
    MIN_ITEMS), the gold files and runs of its share come back with its items: this process
    scores them without opening them (the child opened them, once)."""
    from voyage_tui.engine.validation import parallel

    if not parallel.can_fork():
        pytest.skip("this process cannot fork (one core, or a thread running)")
    monkeypatch.setattr(parallel, "MIN_ITEMS", 10)
    opens = count_opens(sample_copy)
    assert run(["results", str(sample_copy)], capsys) == 0
    gold = sorted(
        str(p.relative_to(sample_copy)) for p in sample_copy.glob("fixtures/gold/**/*.json")
    )
    here = [rel for rel in gold if opens.of(rel)]
    assert _opened_more_than_once(opens) == {}
    assert len(here) < len(gold)  # the child's share was not read again


@pytest.mark.parametrize("recorded", [True, False], ids=["from the first screen", "prepared"])
def test_the_app_s_start_reads_each_reference_once(
    sample_copy: Path, count_opens: collections.abc.Callable[[Path], Opens], recorded: bool
) -> None:
    """The app's start (cli/common.py start_first_load, then the live suite's first load): the
    recorded first screen's key, or the load prepared before Textual, and the load itself take
    the references from one read."""
    from voyage_tui.cli.common import start_first_load
    from voyage_tui.engine.validation.first_screen import first_screen_of, save_first_screen
    from voyage_tui.engine.validation.live import LiveEvent, LiveSuite, Loaded
    from voyage_tui.engine.validation.view import view_of
    from voyage_tui.engine.workspace.model import Workspace

    suite = validated_suite(sample_copy, use_git=False)
    if recorded:
        save_first_screen(suite.ws, first_screen_of(view_of(suite), use_git=False))
    ws = Workspace.load(sample_copy)
    opens = count_opens(sample_copy)
    start = start_first_load(ws, use_git=False, watch=False, cache=True)
    assert (start.first_screen is not None) == recorded
    loaded: list[Loaded] = []

    def publish(event: LiveEvent) -> None:
        if isinstance(event, Loaded) and live.show(event.view):
            loaded.append(event)
            live.loaded_painted()

    live = LiveSuite(
        ws,
        use_git=False,
        cache=True,
        start=start,
        run=lambda _group, job: job(),
        publish=publish,
    )
    try:
        live.after_first_screen() if recorded else live.begin()
    finally:
        live.close()
        start.close()
    assert loaded
    assert {rel: opens.of(rel) for rel in REFERENCES} == dict.fromkeys(REFERENCES, 1)
