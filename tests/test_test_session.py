"""How the test session itself runs (tests/conftest.py): what it does to fit the CI budget on
two cores must hold, or the budget is lost without a test saying so."""

from __future__ import annotations

import gc
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import conftest
from tests.budget import THOROUGH


def test_after_collection_the_collector_leaves_what_the_session_imported_alone() -> None:
    """Python's full collections walked every object of every imported module (Textual, SciPy,
    Hypothesis, the test modules) again and again: a third of an app test's CPU in a worker
    that has collected the whole suite. A thorough run keeps Python's own settings."""
    if THOROUGH:
        assert gc.get_freeze_count() == 0
        return
    assert gc.get_freeze_count() > 10_000, "the objects of the collection are frozen"
    assert gc.get_threshold()[0] == conftest.GC_YOUNG_OBJECTS


@dataclass
class FakeItem:
    name: str
    markers: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_the_app_tests_then_the_waiting_ones_are_handed_out_first_in_their_own_order() -> None:
    """pytest-xdist hands tests out in the order collected: the app tests (a second or more each)
    go first, then the tests that wait on a time limit (5-7 s each, which one worker ran one
    after another at the end, 10 s after the others had finished), and the many short tests
    fill the end, so no worker runs alone at the end."""
    items = [
        FakeItem("engine-1"),
        FakeItem("app-1", {"app"}),
        FakeItem("waits-1", {"waits"}),
        FakeItem("engine-2"),
        FakeItem("app-2", {"app"}),
        FakeItem("waits-2", {"waits"}),
        FakeItem("engine-3", {"other"}),
    ]
    conftest.long_tests_first(items)  # type: ignore[arg-type]
    assert [i.name for i in items] == [
        "app-1",
        "app-2",
        "waits-1",
        "waits-2",
        "engine-1",
        "engine-2",
        "engine-3",
    ]


def test_this_session_hands_out_the_app_tests_then_the_waiting_ones_first(
    request: pytest.FixtureRequest,
) -> None:
    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("app") is not None:
            return 0
        return 1 if item.get_closest_marker("waits") is not None else 2

    ranks = [rank(item) for item in request.session.items]
    assert ranks == sorted(ranks), "every app test, then every waiting test, then the others"
    waiting = [i for i in request.session.items if i.get_closest_marker("waits") is not None]
    if "test_git_hangs.py" in {Path(str(item.path)).name for item in request.session.items}:
        assert waiting, "the git-hang tests are marked as waiting"


def test_a_worker_that_runs_out_takes_tests_from_the_others(pytestconfig: pytest.Config) -> None:
    """pytest-xdist's default dealt each worker its share up front and never took tests back:
    the worker dealt the last slow app tests ran them alone for 15 s at the end. `-n auto`
    without `--dist` now lets a worker that runs out steal from the longest queue."""
    workerinput = getattr(pytestconfig, "workerinput", None)
    if workerinput is None:
        pytest.skip("not run by pytest-xdist's workers (-n)")
    if conftest.dist_given(workerinput["mainargv"][1:]):
        pytest.skip("this run chose its own --dist")
    assert workerinput["dist"] == conftest.SCHEDULER == "worksteal"


@pytest.mark.parametrize(
    ("args", "given"),
    [
        (["-n", "auto"], False),
        (["-n", "auto", "--dist", "load"], True),
        (["-n", "2", "--dist=loadfile"], True),
        (["-d", "-n", "2"], True),
        (["-n", "2", "tests/test_distribution.py"], False),
    ],
)
def test_a_dist_on_the_command_line_is_kept(args: list[str], given: bool) -> None:
    assert conftest.dist_given(args) is given


def test_the_collection_imports_no_reference_library(request: pytest.FixtureRequest) -> None:
    """SciPy and scikit-learn are imported by the tests that compare with them, not by the
    collection every worker makes."""
    assert request.session.stash[conftest.IMPORTED_AT_COLLECTION] == frozenset()


def test_a_tests_folders_are_made_without_listing_the_base_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest numbers each test's folder by listing every folder made so far in the worker's
    base folder (and links a `...current` name to it): quadratic in the tests a worker runs, a
    CPU second per worker, twice a test with the cache home. Each is made with one mkdir now."""
    assert re.fullmatch(r"test_a_tests_folders_are_made_-[a-z0-9_]{8}", tmp_path.name)

    def listing(*args: object) -> None:
        raise AssertionError("the base folder was listed")

    with monkeypatch.context() as patched:
        patched.setattr(os, "scandir", listing)
        patched.setattr(os, "listdir", listing)
        made = {conftest.fresh_dir(tmp_path, "same-name") for _ in range(50)}
    assert len(made) == 50
    assert all(path.parent == tmp_path and not any(path.iterdir()) for path in made)
    assert {stat.S_IMODE(path.stat().st_mode) for path in made} == {0o700}


def test_the_tests_folders_are_in_memory_where_the_machine_has_room(tmp_path: Path) -> None:
    """Making folders and files on this machine's disk cost the engine and command-line tests a
    quarter of their CPU (system time: a mkdir about 0.3 ms); in a memory file system it is a
    fraction of that. A command line's `--basetemp` or `PYTEST_DEBUG_TEMPROOT` still decides."""
    root = conftest.memory_temp_root()
    if root is None:
        pytest.skip("no memory file system with room on this machine")
    if os.environ.get("PYTEST_DEBUG_TEMPROOT") != str(root):
        pytest.skip("the command line chose the base folder")
    assert tmp_path.resolve().is_relative_to(root.resolve())


def test_a_small_or_missing_memory_file_system_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.statvfs

    class Small:
        f_bavail = 1000
        f_frsize = 4096

    monkeypatch.setattr(os, "statvfs", lambda path: Small())
    assert conftest.memory_temp_root() is None
    monkeypatch.setattr(os, "statvfs", real)
    monkeypatch.setattr(conftest, "MEMORY_FILE_SYSTEM", tmp_path / "missing")
    assert conftest.memory_temp_root() is None


def test_the_plugins_asserts_are_rewritten_once_for_every_process(
    pytestconfig: pytest.Config,
) -> None:
    """pytest rewrites the asserts of every module of a plugin's distribution (Hypothesis,
    syrupy, pytest-asyncio, xdist) as it imports them, and caches the result unless
    `PYTHONDONTWRITEBYTECODE` is set (this machine and CI set it): each worker rewrote 139
    modules again, 1.25 CPU s. The controller writes the cached rewrite once."""
    from _pytest.assertion import rewrite

    if not sys.dont_write_bytecode or pytestconfig.getoption("assertmode") != "rewrite":
        pytest.skip("pytest caches its rewrites itself")
    state = pytestconfig.stash[rewrite.assertstate_key]
    assert state.hook is not None
    checked = []
    for plugin in pytestconfig.pluginmanager.get_plugins():
        source = getattr(plugin, "__file__", None)
        name = getattr(plugin, "__name__", "")
        if not source or not source.endswith(".py"):
            continue
        if not state.hook._is_marked_for_rewrite(name, state):
            continue
        source_path = Path(source)
        if not os.access(source_path.parent, os.W_OK):
            continue  # a read-only installation: nothing can be cached there
        pyc = rewrite.get_cache_dir(source_path) / (source_path.name[:-3] + rewrite.PYC_TAIL)
        assert rewrite._read_pyc(source_path, pyc) is not None, name
        checked.append(name)
    assert checked, "no rewritten plugin module was checked"


def test_an_engine_only_run_imports_no_app_test_module(pytestconfig: pytest.Config) -> None:
    here = Path(conftest.__file__).parent

    class Option:
        markexpr = ""

    class Config:
        option = Option()

    config = Config()
    for markexpr, ignored in [("not app", True), ("not  app", True), ("app", None), ("", None)]:
        config.option.markexpr = markexpr
        serve_floods = here / "security" / "test_serve_floods.py"
        for path in (
            here / "app",
            here / "app" / "test_footer.py",
            here / "test_serve.py",
            serve_floods,
        ):
            assert conftest.pytest_ignore_collect(path, config) is ignored, (markexpr, path)  # type: ignore[arg-type]
        for path in (here / "engine", here / "test_no_textual.py", here.parent / "app"):
            assert conftest.pytest_ignore_collect(path, config) is None  # type: ignore[arg-type]
    if " ".join(pytestconfig.option.markexpr.split()) == conftest.ENGINE_ONLY:
        # (helper modules of tests/app/ that other tests import are not test files)
        leaked = [name for name in sys.modules if name.startswith("tests.app.test_")]
        assert not leaked, leaked
        assert "tests.test_serve" not in sys.modules
