"""The command line against hostile inputs and a hostile environment: lone surrogates in a run or
a gold file, folders the user cannot read, a NUL in voyage.toml, and an stdout that fails.

Every case must end in a message and an exit code, never a traceback.

CI runs as root, and root reads any folder whatever its mode, so a folder is made unreadable by
making the OS calls refuse it (`deny`), as they refuse a user without permission: listing the
folder and reaching anything inside it fail with EACCES, while the folder itself can be stat'ed.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO, task_yaml
from tests.scoring.common import SAMPLE_GOLD, SAMPLE_RUNS, dump, finding, gold_finding, payload
from tests.triage.seed import seeded_sample
from voyage_tui.cli import main
from voyage_tui.engine.workspace.discovery import NoWorkspace, find_workspace

VOYAGE = str(Path(sys.executable).with_name("voyage-tui"))
NO_SPACE = "voyage-tui: cannot write the output: No space left on device"
T1 = "fixtures/bug-diagnosis/t1/task.yaml"
T2 = "fixtures/bug-diagnosis/t2/task.yaml"


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command line in-process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def run_cli(
    args: list[str], *, cwd: Path = REPO, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [VOYAGE, *args],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="strict",
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )


# --- stdout that fails -------------------------------------------------------------------------

RUN = str(SAMPLE_RUNS / "run-perfect.json")

OUTPUT_COMMANDS = {
    "validate": ["validate", "fixtures", "--no-git"],
    "validate-json": ["validate", "fixtures", "--no-git", "--format", "json"],
    "validate-github": ["validate", "fixtures", "--no-git", "--format", "github"],
    "score": ["score", "--gold", str(SAMPLE_GOLD), "--run", RUN],
    "score-json": ["score", "--gold", str(SAMPLE_GOLD), "--run", RUN, "--format", "json"],
    "exposure": ["exposure", "fixtures"],
    "exposure-json": ["exposure", "fixtures", "--format", "json"],
    "schema": ["schema", "task"],
    "version": ["--version"],
    "help": ["--help"],
    # argparse prints its help and raises SystemExit(0): the output is flushed at exit
    "validate-help": ["validate", "--help"],
    "score-help": ["score", "--help"],
    "exposure-help": ["exposure", "--help"],
    "schema-help": ["schema", "--help"],
    "diff-help": ["diff", "--help"],
    "open-help": [".", "--help"],
}


@pytest.fixture(scope="module")
def sample_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample as a small git repository of its own (tests/triage/seed.py), read by the
    commands below: never the live `fixtures/`, and `exposure` reads two commits, not the
    history of voyage-tui's own repository."""
    return seeded_sample(tmp_path_factory.mktemp("full-disk"))


@pytest.mark.parametrize("args", OUTPUT_COMMANDS.values(), ids=OUTPUT_COMMANDS.keys())
def test_stdout_on_a_full_disk_is_one_line_and_exit_2(
    args: list[str], sample_repository: Path
) -> None:
    with open("/dev/full", "w") as full:
        proc = run_cli(args, cwd=sample_repository, stdout=full.fileno())
    assert "Traceback" not in proc.stderr
    assert "Exception ignored" not in proc.stderr
    assert proc.stderr.splitlines()[-1:] == [NO_SPACE], proc.stderr
    # gold warnings or diagnostics may come before it on stderr; the failure itself is one line
    assert proc.stderr.count("cannot write") == 1
    assert proc.returncode == 2


def test_stdout_failure_on_a_clean_run_is_the_only_line_on_stderr() -> None:
    with open("/dev/full", "w") as full:
        proc = run_cli(["schema", "gold"], stdout=full.fileno())
    assert (proc.returncode, proc.stderr) == (2, NO_SPACE + "\n")


def test_a_reader_that_leaves_early_is_not_an_error() -> None:
    """A guard of what main did already, kept now that main handles every failing output:
    `voyage-tui schema task | head -1`: the closed pipe ends the command quietly (exit 141,
    as a shell reports a process ended by SIGPIPE). The reader is gone before the first write,
    so the test does not depend on how much fits in the pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = run_cli(["schema", "task"], stdout=write_end)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (141, "")


def test_a_failing_stdout_in_process_is_reported_not_raised(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sys, "stdout", Full())
    assert main(["schema", "task"]) == 2
    assert capsys.readouterr().err == NO_SPACE + "\n"


def test_an_error_that_is_not_the_output_s_still_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard of the design: only a failing stdout becomes the one-line message; another
    OSError is a bug, and its traceback must still be seen."""
    from voyage_tui.cli import schema_cmd

    def broken(kind: str) -> dict[str, object]:
        raise OSError(errno.EIO, "not about the output")

    monkeypatch.setattr(schema_cmd, "schema_for", broken)
    with pytest.raises(OSError, match="not about the output"):
        main(["schema", "task"])


# --- lone surrogates in a run or a gold file ---------------------------------------------------

S = "\udc00"


def _score_corpus(tmp_path: Path, field: str) -> tuple[Path, Path]:
    """A gold file and a run whose `field` holds a lone surrogate (a JSON `\\udc00` escape)."""
    file = f"a{S}.py" if field == "file" else "a.py"
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "tests",
        "description": "a gold record built by a test",
        "expected_verdict": "BLOCK",
        "findings": [gold_finding(file, 3, "jwt-alg-none", "BLOCKER")],
    }
    rule_key = f"jwt-alg-none{S}" if field == "rule_key" else "jwt-alg-none"
    reviewer = f"correctness{S}" if field == "reviewer" else "correctness"
    run = [
        payload(reviewer, finding(file, 3, "jwt-alg-none", "BLOCKER")),
        payload("conformance", finding("b.py", 1, rule_key, "MINOR")),
    ]
    # json.dumps writes a lone surrogate as the escape `\udc00`: the files are plain ASCII
    gold_path, run_path = tmp_path / "gold.json", tmp_path / "run.json"
    gold_path.write_text(dump(gold), encoding="ascii")
    run_path.write_text(dump(run), encoding="ascii")
    assert "\\udc00" in run_path.read_text(encoding="ascii")
    return gold_path, run_path


@pytest.mark.parametrize("field", ["file", "rule_key", "reviewer"])
def test_score_text_shows_a_lone_surrogate_escaped(tmp_path: Path, field: str) -> None:
    gold, run = _score_corpus(tmp_path, field)
    proc = run_cli(["score", "--gold", str(gold), "--run", str(run)], cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert "\\udc00" in proc.stdout  # visible, as the escape that wrote it
    assert "result: pass" in proc.stdout
    # the columns of the finding rows still line up around the six-character escape
    [matched] = [line for line in proc.stdout.splitlines() if line.startswith("= ")]
    [spurious] = [line for line in proc.stdout.splitlines() if line.startswith("+ ")]
    assert matched.index("jwt-alg-none") == spurious.index("jwt-alg-none"), (matched, spurious)
    assert matched.index("BLOCKER;") == spurious.index("spurious:"), (matched, spurious)


@pytest.mark.parametrize("field", ["file", "rule_key", "reviewer"])
def test_score_json_keeps_a_lone_surrogate_as_a_json_escape(tmp_path: Path, field: str) -> None:
    gold, run = _score_corpus(tmp_path, field)
    proc = run_cli(
        ["score", "--gold", str(gold), "--run", str(run), "--format", "json"], cwd=tmp_path
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # valid JSON, and the value survives the round trip
    assert S in json.dumps(report, ensure_ascii=False)
    if field == "file":
        assert report["matched"][0]["file"] == f"a{S}.py"
    if field == "reviewer":
        assert f"correctness{S}" in report["matched"][0]["reviewers"]


def test_score_in_process_with_a_surrogate_reviewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, run = _score_corpus(tmp_path, "reviewer")
    code, out, _ = cli(["score", "--gold", str(gold), "--run", str(run)], capsys)
    assert code == 0
    assert "correctness\\udc00" in out


def test_validate_json_keeps_a_lone_surrogate_valid(
    make_workspace: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard, not a defect: validate already wrote this escaped; the handling moved to main.
    A folder name that is not UTF-8 reaches Python as a lone surrogate (`\\udcff`)."""
    root = make_workspace({T1: task_yaml("t1")})
    folder = os.path.join(os.fsencode(root / "fixtures/bug-diagnosis"), b"t\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"task.yaml"), "w", encoding="utf-8") as f:
        f.write(task_yaml("t2"))
    code, out, _ = cli(["validate", str(root), "--no-git", "--format", "json"], capsys)
    paths = {d["path"] for d in json.loads(out)["diagnostics"]}
    assert "fixtures/bug-diagnosis/t\udcff/task.yaml" in paths
    assert code == 1


# --- folders that cannot be read ---------------------------------------------------------------


def _as_path(path: object) -> str | None:
    if isinstance(path, int):
        return None
    try:
        raw = os.fspath(path)  # type: ignore[arg-type]
    except TypeError:
        return None
    text = os.fsdecode(raw)
    return os.path.abspath(text)


def deny(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """Make each folder behave as a folder of mode 000 owned by someone else does for a user:
    it can be stat'ed, but listing it, or stat'ing or opening anything inside it, fails."""
    denied = [os.path.abspath(f) for f in folders]

    def lists(path: object) -> bool:
        p = _as_path(path)
        return p is not None and any(p == d or p.startswith(d + os.sep) for d in denied)

    def inside(path: object) -> bool:
        p = _as_path(path)
        return p is not None and any(p.startswith(d + os.sep) for d in denied)

    def refuse(path: object) -> OSError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))  # type: ignore[arg-type]

    def guard(real: Callable[..., object], test: Callable[[object], bool]) -> Callable[..., object]:
        def guarded(path: object = ".", *args: object, **kwargs: object) -> object:
            if test(path):
                raise refuse(path)
            return real(path, *args, **kwargs)

        return guarded

    monkeypatch.setattr(os, "scandir", guard(os.scandir, lists))
    monkeypatch.setattr(os, "listdir", guard(os.listdir, lists))
    monkeypatch.setattr(os, "stat", guard(os.stat, inside))
    monkeypatch.setattr(os, "lstat", guard(os.lstat, inside))
    monkeypatch.setattr(os, "open", guard(os.open, inside))
    monkeypatch.setattr(builtins, "open", guard(builtins.open, inside))
    monkeypatch.setattr(io, "open", guard(io.open, inside))


def test_deny_refuses_as_a_folder_of_mode_000_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stand-in really refuses: the tests below would pass for nothing otherwise."""
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "f").write_text("x", encoding="utf-8")
    deny(monkeypatch, folder)
    assert os.path.isdir(folder)
    for attempt in (
        lambda: os.listdir(folder),
        lambda: os.scandir(folder),
        lambda: os.stat(folder / "f"),
        lambda: open(folder / "f").close(),
        lambda: (folder / "f").read_text(),
        lambda: (folder / "f").is_file(),
    ):
        with pytest.raises(PermissionError):
            attempt()


def _validate_json(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict]:
    code, out, err = cli(["validate", str(root), "--format", "json", *extra], capsys)
    assert "Traceback" not in err
    return code, json.loads(out)


def _unreadable(report: dict) -> list[str]:
    return [d["path"] for d in report["diagnostics"] if d["code"] == "folder-unreadable"]


@pytest.mark.parametrize(
    "folder",
    [
        "fixtures/bug-diagnosis/t2",  # a fixture folder
        "fixtures/bug-diagnosis",  # a class folder
        "fixtures",  # the fixtures folder
    ],
)
def test_an_unreadable_fixture_folder_is_an_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    folder: str,
) -> None:
    root = make_workspace({T1: task_yaml("t1"), T2: task_yaml("t2")})
    deny(monkeypatch, root / folder)
    code, report = _validate_json(root, capsys, "--no-git")
    assert code == 1
    assert _unreadable(report) == [folder]
    [d] = [d for d in report["diagnostics"] if d["code"] == "folder-unreadable"]
    assert d["severity"] == "error"
    assert "Permission denied" in d["message"]


def test_an_unreadable_fixture_folder_does_not_stop_the_walk(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_workspace({T1: task_yaml("t1"), T2: task_yaml("t1-wrong")})
    deny(monkeypatch, root / "fixtures/bug-diagnosis/t1")
    _, report = _validate_json(root, capsys, "--no-git")
    assert _unreadable(report) == ["fixtures/bug-diagnosis/t1"]
    # t2, listed after t1, was still read and checked
    assert any(d["path"] == T2 and d["code"] == "id-mismatch" for d in report["diagnostics"]), (
        report
    )


def test_an_unreadable_runs_folder_is_an_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "fixtures/bug-diagnosis/t1/runs").mkdir()
    deny(monkeypatch, root / "fixtures/bug-diagnosis/t1/runs")
    code, report = _validate_json(root, capsys, "--no-git")
    assert code == 1
    assert _unreadable(report) == ["fixtures/bug-diagnosis/t1/runs"]


def test_an_unreadable_gold_folder_is_an_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "voyage.toml").write_text('[paths]\ngold = ["gold"]\n', encoding="utf-8")
    (root / "gold/jwt/runs").mkdir(parents=True)
    deny(monkeypatch, root / "gold/jwt")
    code, report = _validate_json(root, capsys, "--no-git")
    assert code == 1
    assert _unreadable(report) == ["gold/jwt"]


def test_an_unreadable_gold_root_is_an_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "voyage.toml").write_text('[paths]\ngold = ["gold"]\n', encoding="utf-8")
    (root / "gold").mkdir()
    deny(monkeypatch, root / "gold")
    code, report = _validate_json(root, capsys, "--no-git")
    assert code == 1
    assert _unreadable(report) == ["gold"]


def test_an_unreadable_folder_that_git_ignores_is_not_an_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A database volume owned by another user (git-ignored) beside the suite is nobody's gold."""
    root = make_workspace({T1: task_yaml("t1")})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("db-data/\n", encoding="utf-8")
    (root / "db-data").mkdir()
    (root / "notes").mkdir()
    deny(monkeypatch, root / "db-data", root / "notes")
    _, report = _validate_json(root, capsys)
    assert _unreadable(report) == ["notes"]


def test_validate_on_a_workspace_root_that_cannot_be_listed(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Searchable but not listable (mode 711): voyage.toml and fixtures/ are found by name, the
    gold walk of the root cannot list it."""
    root = make_workspace({T1: task_yaml("t1")})
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if _as_path(path) == str(root):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    code, report = _validate_json(root, capsys, "--no-git")
    assert code == 1
    assert _unreadable(report) == ["."]
    assert report["summary"]["files"] >= 3  # the fixtures were still checked


# Every command on a workspace folder the user cannot read: a one-line message, exit 2.
def _locked_workspace(make_workspace: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "voyage.toml").write_text("", encoding="utf-8")
    (root / "gold.json").write_text(dump([]), encoding="utf-8")
    deny(monkeypatch, root)
    return root


WORKSPACE_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "validate": lambda root: ["validate", str(root)],
    "validate-json": lambda root: ["validate", str(root), "--format", "json"],
    "exposure": lambda root: ["exposure", str(root)],
    "exposure-retire": lambda root: ["exposure", str(root), "--retire", "t1"],
    "open": lambda root: [str(root)],
    "diff": lambda root: ["diff", str(root / "gold.json"), str(root / "gold.json")],
    "score": lambda root: [
        "score",
        "--gold",
        str(root / "gold.json"),
        "--run",
        str(root / "gold.json"),
    ],
}


@pytest.mark.parametrize("make_args", WORKSPACE_COMMANDS.values(), ids=WORKSPACE_COMMANDS.keys())
def test_every_command_on_an_unreadable_workspace(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    make_args: Callable[[Path], list[str]],
) -> None:
    root = _locked_workspace(make_workspace, monkeypatch)
    code, out, err = cli(make_args(root), capsys)
    assert code == 2
    assert out == ""
    [line] = err.splitlines()
    assert "Permission denied" in line
    assert str(root) in line


def test_workspace_commands_from_inside_an_unreadable_workspace(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = _locked_workspace(make_workspace, monkeypatch)
    monkeypatch.chdir(root)
    code, out, err = cli(["validate"], capsys)
    assert (code, out) == (2, "")
    assert "Permission denied" in err


def test_schema_needs_no_workspace(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: the one command that reads no workspace works from inside an unreadable one."""
    root = _locked_workspace(make_workspace, monkeypatch)
    monkeypatch.chdir(root)
    code, out, _ = cli(["schema", "gold"], capsys)
    assert code == 0
    assert json.loads(out)["$schema"]


def test_a_path_below_an_unreadable_folder_is_no_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "locked/ws/fixtures").mkdir(parents=True)
    deny(monkeypatch, tmp_path / "locked")
    with pytest.raises(NoWorkspace, match="Permission denied"):
        find_workspace(tmp_path / "locked/ws")


def test_an_unknown_user_s_home_is_no_workspace(tmp_path: Path) -> None:
    with pytest.raises(NoWorkspace):
        find_workspace("~no-such-user-voyage")


@pytest.mark.parametrize("command", ["validate", "exposure"])
def test_a_deleted_current_folder_is_no_workspace(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, out, err = cli([command], capsys)
    assert (code, out) == (2, "")
    [line] = err.splitlines()
    assert "current folder" in line


def test_exposure_with_an_unreadable_fixture_folder_is_not_a_clean_report(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Holdouts in a folder that cannot be read are unknown: exposure must not say all clear."""
    root = make_workspace({T1: task_yaml("t1")})
    deny(monkeypatch, root / "fixtures/bug-diagnosis")
    code, out, err = cli(["exposure", str(root)], capsys)
    assert code == 2
    assert "fixtures/bug-diagnosis" in err and "folder-unreadable" in err
    assert "holdout" in out  # the report of what could be read is still given


def test_the_app_re_scan_survives_a_runs_folder_that_cannot_be_listed(
    make_workspace: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app re-checks a changed gold file's runs folder by listing it."""
    from voyage_tui.engine.validation.suite import Suite

    root = make_workspace({T1: task_yaml("t1")})
    (root / "gold/runs").mkdir(parents=True)
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "t",
        "description": "d",
        "expected_verdict": "ALLOW",
        "findings": [],
    }
    (root / "gold/gold.json").write_text(dump(gold), encoding="utf-8")
    suite = Suite.open(root, use_git=False)
    deny(monkeypatch, root / "gold/runs")
    suite.revalidate(["gold/gold.json"])
    assert "gold/gold.json" in suite.items


# --- a NUL in voyage.toml ----------------------------------------------------------------------

NUL_CONFIGS = {
    "fixtures": ('[paths]\nfixtures = "fixtures\\u0000x"\n', 2),
    "journey": ('[paths]\njourney = "references/j\\u0000.md"\n', 2),
    "rule_catalogue": ('[paths]\nrule_catalogue = "c\\u0000.yaml"\n', 2),
    "ratings": ('[paths]\nratings = "ratings\\u0000"\n', 2),
    "gold": ('[paths]\ngold = ["fixtures", "a\\u0000"]\n', 2),
    "git-repo": ('[git]\nrepo = ".\\u0000"\n', 2),
    "git-branches": ('[git]\nbranches = ["main\\u0000"]\n', 2),
    "bundle_paths": ('[holdout]\nbundle_paths = ["agent\\u0000/"]\n', 2),
    "ignore_paths": ('[holdout]\nignore_paths = ["*.md\\u0000"]\n', 2),
}


@pytest.mark.parametrize(("toml", "line"), NUL_CONFIGS.values(), ids=NUL_CONFIGS.keys())
def test_a_nul_in_voyage_toml_is_a_config_error(
    make_workspace: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    toml: str,
    line: int,
) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "voyage.toml").write_text(toml, encoding="utf-8")
    code, report = _validate_json(root, capsys)
    assert code == 1
    errors = [d for d in report["diagnostics"] if d["path"] == "voyage.toml"]
    assert [(d["code"], d["severity"], d["line"]) for d in errors] == [
        ("config-invalid", "error", line)
    ]
    assert "NUL" in errors[0]["message"]
    # the default was used instead: the fixtures were found and checked
    assert report["summary"]["files"] >= 3


def test_exposure_with_a_nul_in_a_gold_path(
    make_workspace: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace({T1: task_yaml("t1")})
    (root / "voyage.toml").write_text(NUL_CONFIGS["gold"][0], encoding="utf-8")
    code, out, err = cli(["exposure", str(root)], capsys)
    assert "Traceback" not in err
    assert code == 0
    assert "0 exposed" in out
