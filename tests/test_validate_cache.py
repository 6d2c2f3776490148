"""`voyage-tui validate` with its cache: a warm run prints exactly what a cold one prints, in every
format, on the sample and on a workspace full of errors, after every kind of change; an unchanged
suite is answered from the cache (replayed) and any change is checked again."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.conftest import SAMPLE_FIXTURES, task_yaml
from tests.engine.workspaces import RULES, materialize
from tests.sample import copy_sample_into
from voyage_tui.cli import main
from voyage_tui.engine.validation import result_cache
from voyage_tui.engine.validation.cache import MAGIC, cache_file_name, read_cache_file, unseal
from voyage_tui.engine.validation.cache_store import cache_root

FORMATS = ("text", "json", "github")
TASK = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"
TRAJECTORIES = "fixtures/trajectories"


class Runs:
    """The command line run in-process, recording whether each cached run was a replay."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
        self.capsys = capsys
        self.replayed: list[bool] = []
        real = result_cache.replay

        def recording(root: Path, *rest: Any) -> result_cache.ValidationResult | None:
            answer = real(root, *rest)
            self.replayed.append(answer is not None)
            return answer

        monkeypatch.setattr(result_cache, "replay", recording)

    def run(self, root: Path, fmt: str, *extra: str) -> tuple[int, str]:
        self.capsys.readouterr()
        code = main(["validate", str(root), "--no-git", "--format", fmt, *extra])
        out, _ = self.capsys.readouterr()
        return code, out

    def cold(self, root: Path, fmt: str) -> tuple[int, str]:
        return self.run(root, fmt, "--no-cache")

    def warm(self, root: Path, fmt: str) -> tuple[int, str, bool]:
        before = len(self.replayed)
        code, out = self.run(root, fmt)
        assert len(self.replayed) == before + 1
        return code, out, self.replayed[-1]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runs:
    return Runs(monkeypatch, capsys)


# --- the workspaces ------------------------------------------------------------------------------


def sample(dest: Path) -> Path:
    root = dest / "sample"
    root.mkdir()
    copy_sample_into(root)
    return root


def with_errors(dest: Path) -> Path:
    """The sample with an error of every family: config, YAML, schema, duplicate id, layout,
    gold file, run, rating, context file."""
    root = sample(dest)
    config = root / "voyage.toml"
    config.write_text(config.read_text().replace("[paths]\n", "[paths]\nnot_a_key = 1\n"))
    task = root / TASK
    task.write_text(task.read_text().replace("visibility: public", "visibility: pub"))
    twin = root / "fixtures/bug-diagnosis/a-copy"
    shutil.copytree(task.parent, twin)
    (root / "fixtures/bug-diagnosis/broken").mkdir()
    (root / "fixtures/bug-diagnosis/broken/task.yaml").write_text("id: [unclosed\n")
    (root / "fixtures/misplaced").mkdir()
    (root / "fixtures/misplaced/task.yaml").write_text(task_yaml("misplaced"))
    gold = root / "fixtures/gold/jwt-auth/gold.json"
    gold.write_text(gold.read_text().replace('"BLOCK"', '"BLOK"', 1))
    (root / "fixtures/gold/jwt-auth/runs/run-broken.json").write_text("{not json")
    (root / "fixtures/gold/notes.json").write_text('{"not": "a gold file"}')  # gives no item
    ratings = root / "fixtures/ratings/alice.jsonl"
    ratings.write_text(ratings.read_text() + '{"fixture_id": "nope", "run_id": "x"}\n')
    return root


WORKSPACES: dict[str, Callable[[Path], Path]] = {"sample": sample, "errors": with_errors}


# --- the changes ---------------------------------------------------------------------------------


def edit_one_file(root: Path) -> None:
    path = root / TASK
    path.write_text(path.read_text().replace("expected_boundary: unit", "expected_boundary: e2e"))


def delete_one_file(root: Path) -> None:
    (root / "fixtures/feature-change/retry-after-on-429/task.yaml").unlink()


def add_one_file(root: Path) -> None:
    folder = root / "fixtures/bug-diagnosis/added-later"
    folder.mkdir()
    (folder / "task.yaml").write_text(task_yaml("added-later").replace("public", "secret"))


def change_journey(root: Path) -> None:
    path = root / "fixtures/references/journey.md"
    path.write_text(path.read_text().replace("7. Security and compliance", "7. Security review"))


def change_rubric(root: Path) -> None:
    path = root / "fixtures/rubric.md"
    path.write_text(path.read_text().replace("## scope\n", "## sizing\n"))


def delete_context_file(root: Path) -> None:
    """A file no walk lists, that a fixture names: its fixture must be checked again."""
    (root / "fixtures/feature-change/config-v2-migration/v1-example.toml").unlink()


def edit_gold_readme(root: Path) -> None:
    """Edited in place: no folder changes, only the stamp of a file the gold file depends on."""
    path = root / "fixtures/gold/jwt-auth/README.md"
    path.write_text(path.read_text().replace("`dependency-unpinned`", "`dependency-pinned`"))


def edit_ratings_in_place(root: Path) -> None:
    path = root / "fixtures/ratings/bob.jsonl"
    with open(path, "r+", encoding="utf-8") as handle:  # same inode, same folder listing
        text = handle.read()
        handle.seek(0)
        handle.write(text.replace('"correctness": ', '"correctnes": ', 1))
        handle.truncate()


def promote_notes(root: Path) -> None:
    """A JSON file that gave no item (no gold schema) becomes a gold file, in place; in the
    sample it is a new file."""
    gold = (SAMPLE_FIXTURES / "gold/jwt-auth/gold.json").read_text()
    (root / "fixtures/gold/notes.json").write_text(gold.replace("BLOCK", "WARN"))


def delete_agent_run(root: Path) -> None:
    """The ratings that name the run are checked against the runs that remain."""
    (root / "fixtures/bug-diagnosis/pagination-last-page-dropped/runs/run-b1.yaml").unlink()


CHANGES: list[Callable[[Path], None]] = [
    edit_one_file,
    delete_one_file,
    add_one_file,
    delete_context_file,
    edit_gold_readme,
    edit_ratings_in_place,
    promote_notes,
    delete_agent_run,
    change_journey,
    change_rubric,
]


# --- warm is cold, byte for byte -------------------------------------------------------------------


def _assert_warm_is_cold(runs: Runs, root: Path, fmt: str, *, changed: bool) -> tuple[int, str]:
    """Warm, cold, warm: the first warm run checks (nothing cached holds after a change), the
    cold one (`--no-cache`) checks everything and writes what it found, the second warm run
    replays that; all three print the same bytes and exit alike. The cold run's exit code and
    output."""
    first = runs.warm(root, fmt)
    cold = runs.cold(root, fmt)
    second = runs.warm(root, fmt)
    assert first[:2] == cold, f"{fmt}: the first warm run differs from the cold one"
    assert second[:2] == cold, f"{fmt}: the replayed run differs from the cold one"
    if changed:
        assert not first[2], "a changed workspace was answered from the cache"
    assert second[2], "an unchanged workspace was not answered from the cache"
    return cold


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("workspace", sorted(WORKSPACES))
def test_a_warm_run_prints_what_a_cold_run_prints(
    runs: Runs, tmp_path: Path, workspace: str, fmt: str
) -> None:
    root = WORKSPACES[workspace](tmp_path)
    code, before = _assert_warm_is_cold(runs, root, fmt, changed=True)
    if workspace == "errors":
        assert code == 1
    for change in CHANGES:
        change(root)
        _, after = _assert_warm_is_cold(runs, root, fmt, changed=True)
        assert after != before, f"{change.__name__} changed nothing the test can see"
        before = after


def test_a_reference_change_reaches_its_dependants(runs: Runs, tmp_path: Path) -> None:
    root = sample(tmp_path)
    runs.warm(root, "json")
    change_journey(root)
    _, out, replayed = runs.warm(root, "json")
    assert not replayed
    paths = {d["path"] for d in json.loads(out)["diagnostics"] if d["severity"] == "error"}
    assert any(p.startswith(TRAJECTORIES) for p in paths), "the trajectories were not re-checked"
    change_rubric(root)
    _, out, replayed = runs.warm(root, "json")
    assert not replayed
    codes = {d["code"] for d in json.loads(out)["diagnostics"]}
    assert "rating-unknown-dimension" in codes, "the ratings were not re-checked"


def test_every_rule_case_replays_what_a_cold_run_prints(runs: Runs, tmp_path: Path) -> None:
    cases = sorted(
        (code.name, case.name)
        for code in RULES.iterdir()
        if code.is_dir()
        for case in code.iterdir()
        if case.is_dir()
    )
    assert len(cases) > 50
    for n, (code, case) in enumerate(cases):
        root = materialize(code, case, tmp_path / str(n), coverage=code != "adversarial-coverage")
        cold = runs.cold(root, "json")
        runs.warm(root, "json")
        replay = runs.warm(root, "json")
        assert replay[:2] == cold, f"{code}/{case}"
        assert replay[2], f"{code}/{case} was not replayed"


# --- any sequence of changes -----------------------------------------------------------------------

OPERATIONS = [*CHANGES, "restore-task", "touch-task", "new-rating", "remove-gold"]


def _operate(root: Path, operation: Callable[[Path], None] | str, original: bytes) -> None:
    if callable(operation):
        path = root / TASK
        if operation is edit_one_file and not path.exists():
            return
        if (
            operation is delete_one_file
            and not (root / "fixtures/feature-change/retry-after-on-429/task.yaml").exists()
        ):
            return
        if operation is add_one_file and (root / "fixtures/bug-diagnosis/added-later").exists():
            shutil.rmtree(root / "fixtures/bug-diagnosis/added-later")
            return
        with contextlib.suppress(FileNotFoundError):  # a file an earlier step removed
            operation(root)
    elif operation == "restore-task":
        (root / TASK).write_bytes(original)
    elif operation == "touch-task":
        os.utime(root / TASK)  # same bytes, new mtime: checked again, same answer
    elif operation == "new-rating":
        with open(root / "fixtures/ratings/zed.jsonl", "a", encoding="utf-8") as handle:
            handle.write('{"fixture_id": "x"}\n')
    elif operation == "remove-gold":
        (root / "fixtures/gold/jwt-auth/gold.json").unlink(missing_ok=True)


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(OPERATIONS), min_size=1, max_size=4))
def test_after_any_changes_the_cache_answers_what_a_cold_run_does(
    runs: Runs, operations: list[Callable[[Path], None] | str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = with_errors(Path(tmp))
        original = (root / TASK).read_bytes()
        runs.warm(root, "json")
        for operation in operations:
            _operate(root, operation, original)
            first = runs.warm(root, "json")
            cold = runs.cold(root, "json")
            assert first[:2] == cold, operation
            replay = runs.warm(root, "json")
            assert replay[:2] == cold, operation
            assert replay[2]


# --- where the cache lives, and --no-cache ---------------------------------------------------------


def _cache_path(root: Path) -> Path:
    return cache_root() / cache_file_name(os.path.realpath(root))


def test_a_replayed_run_marks_the_cache_as_used(runs: Runs, tmp_path: Path) -> None:
    root = sample(tmp_path)
    runs.warm(root, "text")
    os.utime(_cache_path(root), ns=(1_000_000_000, 1_000_000_000))
    assert runs.warm(root, "text")[2]  # answered from the cache
    assert _cache_path(root).stat().st_mtime_ns > 1_000_000_000


def test_the_cache_is_one_file_in_the_user_cache_dir(runs: Runs, tmp_path: Path) -> None:
    root = sample(tmp_path)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    runs.warm(root, "text")
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    files = list(cache_root().iterdir())
    assert files == [_cache_path(root)]
    parts = unseal(files[0].read_bytes())
    assert parts is not None
    assert msgpack.unpackb(parts[0])[0] == MAGIC
    assert cache_root().parent == Path(os.environ["XDG_CACHE_HOME"])


def test_the_cache_is_written_without_fsync_after_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cache is rebuilt, never lost (a torn one fails its CRC), so it is not fsync'd; and it
    is written once what validate prints is out (issue 23)."""
    root = sample(tmp_path)
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])

    def replacing(*args: object, **kwargs: object) -> None:
        events.append("out" if capsys.readouterr().out else "no output yet")
        real_replace(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replacing)
    assert main(["validate", str(root), "--no-git"]) == 0
    assert events == ["out"]
    assert _cache_path(root).is_file()


def test_no_cache_reads_nothing_and_writes_what_it_found(runs: Runs, tmp_path: Path) -> None:
    """`--no-cache` checks every file without asking the cache, then writes what it found
    (issue 18: a cache it left as it was kept answering wrong), so the next run replays it."""
    root = sample(tmp_path)
    runs.cold(root, "text")
    assert _cache_path(root).is_file()
    runs.warm(root, "text")
    planted = _cache_path(root).read_bytes()
    edit_one_file(root)
    _, out = runs.cold(root, "text")
    assert runs.replayed == [True], "--no-cache asked the cache"
    assert _cache_path(root).read_bytes() != planted
    assert "expected_boundary" in out
    _, again, replayed = runs.warm(root, "text")
    assert replayed and again == out


def test_a_run_with_git_writes_no_listing(runs: Runs, tmp_path: Path, capsys) -> None:
    root = sample(tmp_path)
    capsys.readouterr()
    main(["validate", str(root)])  # git: items are cached, the answer is not
    read = read_cache_file(_cache_path(root).read_bytes())
    assert read is not None
    assert read.listing is None
    assert read.entries()
    assert runs.replayed == []  # a run with git never replays


# --- one cache for the app and the command line ----------------------------------------------------


def _checked_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the Suite checks (reads and parses) from now on."""
    from voyage_tui.engine.validation import suite_gold, suite_load, suite_revalidate

    checked: list[str] = []
    real = suite_load.check_job

    def counting(ws, refs, job):  # type: ignore[no-untyped-def]
        checked.append(job[1])
        return real(ws, refs, job)

    for module in (suite_gold, suite_load, suite_revalidate):  # Suite's parts that check
        monkeypatch.setattr(module, "check_job", counting)
    return checked


def _app_load(root: Path) -> set[str]:
    """A cached load as the app does it; the files it had to check."""
    from voyage_tui.engine.validation.suite import Suite
    from voyage_tui.engine.workspace.model import Workspace

    suite = Suite(Workspace.load(root), use_git=False)
    prepared = suite.prepare(fork=False, cache=True)
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    return {rel for _, rel in prepared.tasks.work}


def test_validate_warms_the_app_and_the_app_warms_validate(
    runs: Runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files that give no item (a JSON file that is no gold file, such as a fixture's
    package.json) are not stored as items: the app reads them again at each start."""
    from voyage_tui.engine.validation.suite import Suite

    root = sample(tmp_path)
    items = set(Suite.open(root, use_git=False).items)
    cold = runs.cold(root, "json")
    runs.warm(root, "json")
    assert not _app_load(root) & items, "the app checked files validate had just checked"
    # Every item came from the cache: the app rewrote nothing, validate's listing is kept.
    assert runs.warm(root, "json") == (*cold, True)
    _cache_path(root).unlink()
    _app_load(root)
    checked = _checked_files(monkeypatch)
    code, out, replayed = runs.warm(root, "json")
    assert (code, out) == cold
    assert not replayed  # the app wrote the items without validate's listing...
    assert not set(checked) & items, "...but every item came from the cache"
    assert runs.warm(root, "json") == (*cold, True)


def test_a_first_run_looks_at_each_file_once(
    runs: Runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 23: the cache's stamp of a file comes from the lstat its read made before opening
    # it, not from an lstat of its own; the next run is still answered from the cache.
    root = sample(tmp_path)
    looked: dict[str, int] = {}
    real_lstat = os.lstat

    def counting(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if isinstance(path, str) and path.endswith("/task.yaml"):
            looked[path] = looked.get(path, 0) + 1
        return real_lstat(path, *args, **kwargs)  # type: ignore[arg-type]

    code, cold_out = runs.cold(root, "json")
    shutil.rmtree(cache_root())  # the run below is a first one: an empty cache
    with monkeypatch.context() as patched:
        patched.setattr(os, "lstat", counting)
        code_first, first_out, replayed = runs.warm(root, "json")
    assert not replayed and (code_first, first_out) == (code, cold_out)
    assert len(looked) >= 10
    assert all(n == 1 for n in looked.values()), looked
    assert runs.warm(root, "json") == (code, cold_out, True)
