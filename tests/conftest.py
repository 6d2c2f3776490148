"""Shared test helpers: build throwaway workspaces from a dict of files."""

from __future__ import annotations

import gc
import inspect
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests import fast_textual
from tests.budget import THOROUGH, examples
from tests.sample import REPO, SAMPLE_FIXTURES, SAMPLE_ROOT, copy_sample_into

__all__ = ["REPO", "SAMPLE_FIXTURES", "SAMPLE_ROOT"]

# A property that states no count draws Hypothesis's 100 through the same budget as the rest
# (tests/budget.py); no deadline: on a loaded machine a slow example is not a wrong one.
settings.register_profile("voyage", max_examples=examples(100), deadline=None)
settings.load_profile("voyage")
fast_textual.install()
YAML_TEST_SUITE = REPO.parent / "shared" / "yaml-test-suite"

VALID_TASK = textwrap.dedent(
    """\
    id: {id}
    class: {cls}
    prompt: Fix the off-by-one in the pagination helper.
    ground_truth: The last page is no longer dropped; a unit test covers it.
    expected_boundary: unit
    visibility: public
    """
)


def task_yaml(fixture_id: str = "t1", cls: str = "bug-diagnosis", extra: str = "") -> str:
    text = VALID_TASK.format(id=fixture_id, cls=cls)
    if cls == "adversarial" and "adversarial_intent" not in extra:
        text += "adversarial_intent: reflexive deletion\n"
    return text + textwrap.dedent(extra)


MakeWorkspace = Callable[..., Path]


@pytest.fixture
def make_workspace(tmp_path: Path) -> MakeWorkspace:
    """make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": "...", ...}, coverage=True)

    With coverage=True (the default) an adversarial and a no-change-needed fixture are added, so
    the suite-level coverage rule stays quiet unless a test is about it."""

    def make(files: dict[str, str | bytes] | None = None, coverage: bool = True) -> Path:
        root = tmp_path / "ws"
        root.mkdir(exist_ok=True)
        (root / "fixtures").mkdir(exist_ok=True)
        all_files: dict[str, str | bytes] = {}
        if coverage:
            all_files["fixtures/adversarial/adv-1/task.yaml"] = task_yaml("adv-1", "adversarial")
            all_files["fixtures/no-change-needed/ncn-1/task.yaml"] = task_yaml(
                "ncn-1", "no-change-needed"
            )
        all_files.update(files or {})
        for rel, content in all_files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return root

    return make


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    """A private copy of the sample workspace (voyage.toml + fixtures/, as git holds them)."""
    root = tmp_path / "sample"
    root.mkdir()
    copy_sample_into(root)
    return root


def fresh_dir(base: Path, prefix: str) -> Path:
    """A new, empty folder in `base` (mode 0o700), made with one mkdir: pytest's numbered
    folders list every folder made so far in the worker's base folder to find the next number,
    and point a `...current` link at the new one (quadratic in the tests a worker runs: a CPU
    second per worker, twice a test with the cache home)."""
    return Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=base))


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pytest's `tmp_path`, in the same base folder (kept as pytest keeps it: the last three
    runs), named after the test, made by `fresh_dir`."""
    name = re.sub(r"\W", "_", request.node.name)[:30]
    return fresh_dir(tmp_path_factory.getbasetemp(), name)


@pytest.fixture(autouse=True)
def private_cache_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own $XDG_CACHE_HOME (subprocesses inherit it): `validate` and the app
    write a validation cache there, never into the user's, and no test sees another's."""
    home = fresh_dir(tmp_path_factory.getbasetemp(), "cache-home")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def away_from_the_repository(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test runs in an empty folder of its own, and so does every process it starts: a
    relative `fixtures`, or a command's default workspace (the folder it starts in), is never
    the repository's live sample (tests/test_sample_isolation.py)."""
    here = fresh_dir(tmp_path_factory.getbasetemp(), "cwd")
    monkeypatch.chdir(here)
    return here


@pytest.fixture(autouse=True)
def frames_of_snapshots(request: pytest.FixtureRequest) -> Iterator[None]:
    """A snapshot test's app draws every frame (tests/fast_textual.py says why)."""
    with fast_textual.every_frame("snap_compare" in request.fixturenames):
        yield


WORKERS_PER_CORE = 2
"""`-n auto` starts two test workers a core: an app test waits a third of its time (the pilot's
pauses, a worker thread's result) and the git-hang tests wait on their limits, so one worker a
core left the cores idle a third of the run (measured in docs/development.md)."""


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: pytest -p no:xdist still runs
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The workers `-n auto` starts: two a usable core (PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when it is set, as pytest-xdist documents)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


SCHEDULER = "worksteal"
"""pytest-xdist's `--dist` unless given. Its default (`load`) deals each worker a share of the
tests up front and hands out the rest a few at a time, and a worker never gives tests back: the
worker dealt the last slow app tests ran them alone for 15 s at the end while the others had
finished. `worksteal` lets a worker that runs out take half of the longest queue left, so the
workers finish within a test of each other."""


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook
def pytest_configure_node(node: Any) -> None:
    """Tell each worker how the controller hands out the tests (tests/test_test_session.py
    checks it from a worker, which parses the command line again and never sees the
    controller's choice)."""
    node.workerinput["dist"] = node.config.getoption("dist")


def dist_given(args: Sequence[str]) -> bool:
    """Whether a command line chose how pytest-xdist hands out the tests."""
    return any(arg in ("--dist", "-d", "--distload") or arg.startswith("--dist=") for arg in args)


MEMORY_FILE_SYSTEM = Path("/dev/shm")
MEMORY_ROOM = 4 * 2**30
"""Free bytes the memory file system must have to hold the tests' folders (a run of the whole
suite leaves about 0.4 GB and pytest keeps the last three runs; a container's /dev/shm of
64 MB is left alone)."""


def memory_temp_root() -> Path | None:
    """Where the tests' temporary folders go when the machine has a memory file system with
    room: making folders and files on this machine's disk was a quarter of the engine and
    command-line tests' CPU (system time), in memory a fraction of it."""
    try:
        room = os.statvfs(MEMORY_FILE_SYSTEM)
    except OSError:
        return None
    if room.f_bavail * room.f_frsize < MEMORY_ROOM:
        return None
    if not os.access(MEMORY_FILE_SYSTEM, os.W_OK | os.X_OK):
        return None
    return MEMORY_FILE_SYSTEM


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's bytecode once, before any worker starts: the tests run
    `voyage-tui` as a process a hundred times, and where `PYTHONDONTWRITEBYTECODE` is set (CI's
    machine sets it) an editable install has no bytecode, so each process compiled every module
    it imported again (uv compiles the installed packages, not the project's source). In this
    process: a pool of processes would save a third of a second and needs POSIX semaphores,
    which a container may lack. Let the workers steal tests (`SCHEDULER`), and put the tests'
    folders in memory where there is room (`memory_temp_root`)."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    root = memory_temp_root()
    if root is not None and config.option.basetemp is None:
        # pytest's documented variable, read when the base folder is first made (after this
        # hook); the workers inherit it with the rest of the environment.
        os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", str(root))
    if (
        config.pluginmanager.hasplugin("xdist")
        and config.getoption("dist") == "load"
        and not dist_given(config.invocation_params.args)
    ):
        config.option.dist = SCHEDULER
    import compileall

    compileall.compile_dir(REPO / "voyage_tui", quiet=1)
    _rewrite_test_modules_once(config)


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """Rewrite the asserts of every test module once, before any worker starts. pytest rewrites
    each test module's asserts as it imports it and caches the result, unless
    `PYTHONDONTWRITEBYTECODE` is set: then every worker rewrote every module again (it collects
    them all), 8 CPU seconds a worker. pytest reads a cached rewrite whatever that variable
    says, so the controller writes one. The same for the modules of the plugins it has loaded
    (pytest rewrites every module of a plugin's distribution: Hypothesis, syrupy, anyio,
    pytest-asyncio, xdist; 139 modules, 1.25 CPU s a worker), where their folder is writable.
    (pytest's private API, pinned by constraints.txt.)"""
    if not sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    here = Path(__file__).parent
    sources = [*here.rglob("test_*.py"), *here.rglob("conftest.py")]
    hook = state.hook
    if hook is not None:
        for name, module in list(sys.modules.items()):
            source = getattr(module, "__file__", None)
            if source and source.endswith(".py") and hook._is_marked_for_rewrite(name, state):
                sources.append(Path(source))
    for source in sorted(set(sources)):
        cache_dir = rewrite.get_cache_dir(source)
        pyc = cache_dir / (source.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(source, pyc) is None and rewrite.try_makedirs(cache_dir):
            source_stat, code = rewrite._rewrite_test(source, config)
            rewrite._write_pyc(state, code, source_stat, pyc)


_APP_TESTS = (
    "app/",
    "test_serve.py",
    "test_serve_raters.py",
    # serve's floods and sizes: each serves the app, in a real server
    "security/test_serve_floods.py",
    "security/test_serve_sizes.py",
    # a pilot of the adjudication screen, on the adjudication tests' helpers
    "security/test_adjudicate_names.py",
)
ENGINE_ONLY = "not app"
"""The mark expression of the README's engine and command-line run."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under `-m "not app"`, leave the app's test files unimported: every test in them would be
    deselected, and importing them (Textual's app, the snapshot plugin's fixtures) cost each
    worker half a CPU second."""
    if " ".join(config.option.markexpr.split()) != ENGINE_ONLY:
        return None
    try:
        rel = collection_path.relative_to(Path(__file__).parent).as_posix()
    except ValueError:
        return None
    if collection_path.is_dir():
        rel += "/"
    return True if rel.startswith(_APP_TESTS) else None


_WAITING_TESTS = ("security/test_git_hangs.py",)
"""Tests that wait on git's time limits (marked `waits`): 5-7 s each of waiting, little CPU."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that drive the app (`app`), so `pytest -m "not app"` runs the engine and
    command-line tests alone: every test under tests/app/ and of serve (`_APP_TESTS`), and every
    async test elsewhere (the engine and the command line are synchronous: an async test is a
    pilot driving the app, as the security and git folders have a few). Mark the tests that
    wait on a time limit (`waits`). Then both are handed out first (`long_tests_first`)."""
    here = Path(__file__).parent
    for item in items:
        rel = Path(str(item.path)).relative_to(here).as_posix()
        function = getattr(item, "function", None)
        if rel.startswith(_APP_TESTS) or inspect.iscoroutinefunction(function):
            item.add_marker(pytest.mark.app)
        elif rel.startswith(_WAITING_TESTS):
            item.add_marker(pytest.mark.waits)
    long_tests_first(items)


def long_tests_first(items: list[pytest.Item]) -> None:
    """The app tests first, then the waiting tests, each group in the order collected.
    pytest-xdist hands tests out in that order: with the app tests (about a second each, some
    10-20 s) at the end, one worker ran the last of them alone for half a minute after the
    others had finished, and the worker that drew the last git-hang tests waited out three
    limits in a row for 10 s after the others; the engine's short tests now fill the end."""

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("app") is not None:
            return 0
        return 1 if item.get_closest_marker("waits") is not None else 2

    items.sort(key=rank)


GC_YOUNG_OBJECTS = 10_000
"""Objects allocated before Python's youngest collection, in a test process (Python's: 700)."""


HEAVY_REFERENCES = ("scipy", "sklearn")
"""Reference libraries a few tests compare with, imported where they are used: at collection,
every worker paid for them (scipy.stats alone, a CPU second)."""
IMPORTED_AT_COLLECTION = pytest.StashKey[frozenset[str]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Take what the collection imported out of the cyclic collector's sight. A worker that has
    collected the whole suite holds every object of Textual, SciPy, Hypothesis and the test
    modules, and Python's older-generation collections walked them all again and again: a
    third of the app tests' CPU (measured in docs/development.md). Frozen, they are never
    collected (they live as long as the process anyway); what the tests allocate is collected
    as before, in fewer and larger young collections. A thorough run keeps Python's
    settings."""
    session.stash[IMPORTED_AT_COLLECTION] = frozenset(
        name for name in HEAVY_REFERENCES if name in sys.modules
    )
    if THOROUGH:
        return
    freeze_what_is_alive()
    gc.set_threshold(GC_YOUNG_OBJECTS, 10, 10)


def freeze_what_is_alive() -> None:
    """Collect, then freeze every object left (tests/engine/test_bulk.py freezes again with it
    after its tests unfreeze the worker)."""
    gc.collect()
    gc.freeze()
