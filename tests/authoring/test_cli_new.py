"""`voyage-tui new`: the wizard's answers from flags. Written only when validate would accept
the file with no new diagnostic; otherwise exit 2, every problem listed at once, nothing written."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.authoring.conftest import tree
from tests.git.conftest import Repo
from tests.test_no_textual import probe
from voyage_tui.cli import main, new_cmd
from voyage_tui.engine.authoring import Authoring, TaskAnswers, WizardStart

TASK_FLAGS = [
    "--class",
    "bug-diagnosis",
    "--id",
    "login-timeout",
    "--prompt",
    "The login page times out after 30 s on a cold cache.\nFind out why, and fix it.",
    "--ground-truth",
    "The cache warms lazily on the first request; warm it at start-up.",
    "--boundary",
    "integration",
    "--no-input",
]
NEW_PATH = "fixtures/bug-diagnosis/login-timeout/task.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def validate_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    main(["validate", str(path), "--no-git", "--format", "json"])
    out, _ = capsys.readouterr()
    result: dict[str, Any] = json.loads(out)
    return result


def without(flags: list[str], *names: str) -> list[str]:
    out: list[str] = []
    skip = False
    for flag in flags:
        if skip:
            skip = False
            continue
        if flag in names:
            skip = True
            continue
        out.append(flag)
    return out


def replace(flags: list[str], name: str, value: str) -> list[str]:
    out = list(flags)
    out[out.index(name) + 1] = value
    return out


# --- writing ------------------------------------------------------------------------------------


def test_flags_alone_create_a_fixture_validate_accepts_with_no_new_diagnostic(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures = sample_copy / "fixtures"
    before = validate_json(capsys, fixtures)
    code, out, err = run(capsys, "new", "task", str(fixtures), *TASK_FLAGS)
    assert (code, out, err) == (0, NEW_PATH + "\n", "")
    after = validate_json(capsys, fixtures)
    assert after["diagnostics"] == before["diagnostics"]
    assert after["summary"]["files"] == before["summary"]["files"] + 1
    text = (sample_copy / NEW_PATH).read_text()
    assert "prompt: |\n  The login page times out after 30 s on a cold cache.\n" in text


def test_json_output(sample_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "task", str(sample_copy), *TASK_FLAGS, "--format", "json")
    assert code == 0
    assert json.loads(out) == {
        "path": NEW_PATH,
        "id": "login-timeout",
        "written": True,
        "diagnostics": [],
        "copies": [],
    }


def test_dry_run_prints_the_yaml_and_writes_nothing(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(sample_copy)
    code, out, err = run(capsys, "new", "task", str(sample_copy), *TASK_FLAGS, "--dry-run")
    assert code == 0 and err == ""
    assert out.startswith("id: login-timeout\nclass: bug-diagnosis\nprompt: |\n")
    code, out, _ = run(
        capsys, "new", "task", str(sample_copy), *TASK_FLAGS, "--dry-run", "--format", "json"
    )
    payload = json.loads(out)
    assert payload["written"] is False and payload["yaml"].startswith("id: login-timeout\n")
    assert tree(sample_copy) == before


def test_a_holdout_gets_a_canary_that_exposure_counts(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["exposure", str(sample_copy), "--format", "json"])
    before = json.loads(capsys.readouterr()[0])
    code, _, _ = run(
        capsys, "new", "task", str(sample_copy), *TASK_FLAGS, "--visibility", "holdout"
    )
    assert code == 0
    first = (sample_copy / NEW_PATH).read_text().split("\n", 1)[0]
    assert first.startswith("# canary: ") and len(first) == len("# canary: ") + 36
    main(["exposure", str(sample_copy), "--format", "json"])
    after = json.loads(capsys.readouterr()[0])
    assert after["holdouts"] == before["holdouts"] + 1
    assert after["with_canary"] == before["with_canary"] + 1
    assert after["canary_share"] == round(after["with_canary"] / after["holdouts"], 4)


def test_context_and_scoring_notes_keep_their_order_and_stdin_reads_a_text_flag(
    sample_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(sample_copy)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"From stdin:\n  indented\n")))
    flags = replace(TASK_FLAGS, "--ground-truth", "-")
    code, _, err = run(
        capsys,
        "new",
        "task",
        *flags,
        "--context-file",
        "fixtures/feature-change/config-v2-migration/v1-example.toml",
        "--context",
        "Inline, second.",
        "--scoring-note",
        "correctness=5: finds the lazy warm-up",
    )
    assert (code, err) == (0, "")
    text = (sample_copy / NEW_PATH).read_text()
    assert "context:\n  - {file: v1-example.toml}\n  - Inline, second.\n" in text
    assert "ground_truth: |\n  From stdin:\n    indented\n" in text
    assert 'scoring_notes:\n  correctness: "5: finds the lazy warm-up"\n' in text
    assert (sample_copy / "fixtures/bug-diagnosis/login-timeout/v1-example.toml").is_file()


# --- refusing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "codes", "hint"),
    [
        (replace(TASK_FLAGS, "--class", "bug-diagnosys"), ["invalid-class"], "[--class]"),
        (replace(TASK_FLAGS, "--id", "pagination-last-page-dropped"), ["duplicate-id"], "[--id]"),
        (replace(TASK_FLAGS, "--id", "Login_Timeout"), ["id-not-slug"], "[--id]"),
        (without(TASK_FLAGS, "--ground-truth"), ["missing-field"], "[--ground-truth]"),
        (
            replace(TASK_FLAGS, "--class", "adversarial"),
            ["adversarial-intent-missing"],
            "[--adversarial-intent]",
        ),
        (
            [*TASK_FLAGS, "--adversarial-intent", "reflexive deletion"],
            ["adversarial-intent-unexpected"],
            "",
        ),
        (
            [*TASK_FLAGS, "--scoring-note", "corectness=x"],
            ["unknown-dimension"],
            "[--scoring-note]",
        ),
        ([*TASK_FLAGS, "--context-file", "/etc/hostname"], ["context-source-unreadable"], ""),
        (replace(TASK_FLAGS, "--boundary", "e2e"), ["invalid-boundary"], "[--boundary]"),
    ],
)
def test_each_problem_exits_2_and_writes_nothing(
    sample_copy: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    codes: list[str],
    hint: str,
) -> None:
    before = tree(sample_copy)
    code, out, err = run(capsys, "new", "task", str(sample_copy), *flags)
    assert code == 2 and out == ""
    assert err.startswith("voyage-tui new: nothing was written;")
    found = [
        line.split(": ", 2)[1].split(" ", 1)[1]
        for line in err.splitlines()[1:]
        if ": error " in line or ": warning " in line
    ]
    assert found == codes, err
    assert hint in err
    assert tree(sample_copy) == before
    code, out, _ = run(capsys, "new", "task", str(sample_copy), *flags, "--format", "json")
    payload = json.loads(out)
    assert code == 2 and payload["written"] is False
    assert [d["code"] for d in payload["diagnostics"]] == codes
    assert tree(sample_copy) == before


def test_every_problem_is_listed_at_once(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys,
        "new",
        "task",
        str(sample_copy),
        "--class",
        "bug-diagnosys",
        "--id",
        "Bad Id",
        "--prompt",
        "Fix it.",
        "--scoring-note",
        "nope=x",
        "--no-input",
    )
    assert code == 2
    listed = err.splitlines()[1:]
    assert "5 problems" in err.splitlines()[0]
    assert sorted(
        line.split(": ")[1].split()[1]
        for line in listed
        if "problem" not in line and not line.startswith("(")
    ) == sorted(
        ["missing-field", "missing-field", "id-not-slug", "invalid-class", "unknown-dimension"]
    )


def test_an_empty_command_lists_every_missing_answer_and_proposes_an_id(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys,
        "new",
        "task",
        str(sample_copy),
        "--prompt",
        "Fix the flaky retry test",
        "--no-input",
    )
    assert code == 2
    assert err.count("missing-field") == 4  # id, class, ground_truth, expected_boundary
    assert "(an id proposed from the prompt: --id fix-flaky-retry-test)" in err


def test_an_existing_folder_refuses_the_write(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (sample_copy / "fixtures/bug-diagnosis/login-timeout").mkdir()
    code, _, err = run(capsys, "new", "task", str(sample_copy), *TASK_FLAGS)
    assert code == 2 and "fixture-exists" in err
    assert list((sample_copy / "fixtures/bug-diagnosis/login-timeout").iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["new"],
        ["new", "poem"],
        ["new", "task", "--scoring-note", "no-equals-sign", "--no-input"],
        ["new", "task", "--prompt", "-", "--ground-truth", "-", "--no-input"],
        ["new", "task", "--from", "x", "--resume", "--no-input"],
        ["new", "trajectory", "--skip-phase", "42=no such phase", "--no-input"],
        ["new", "trajectory", "--gate", "one=pass", "--no-input"],
        ["new", "task", "--visibility", "secret", "--no-input"],
    ],
)
def test_usage_errors_exit_2(
    sample_copy: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    monkeypatch.chdir(sample_copy)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"text")))
    before = tree(sample_copy)
    with pytest.raises(SystemExit) as exited:
        code = main(argv)
        raise SystemExit(code)
    assert exited.value.code == 2
    assert tree(sample_copy) == before


def test_no_workspace_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "new", "task", str(empty), *TASK_FLAGS)
    assert code == 2 and "voyage-tui:" in err


# --- starting points ----------------------------------------------------------------------------


def test_from_copies_an_existing_fixture_with_a_new_id(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys,
        "new",
        "task",
        str(sample_copy),
        "--from",
        "canary-promotion-error-budget",
        "--id",
        "canary-promotion-copy",
        "--no-input",
    )
    assert (code, err) == (0, "")
    original = next(
        sample_copy.glob("fixtures/*/canary-promotion-error-budget/task.yaml")
    ).read_text()
    copy = (sample_copy / out.strip()).read_text()
    assert copy.split("\n", 1)[0].startswith("# canary: ")
    assert copy.split("\n", 1)[0] != original.split("\n", 1)[0]  # a canary of its own
    assert copy.split("\n", 2)[2] == original.split("\n", 2)[2]  # the rest is the same
    code, _, err = run(
        capsys,
        "new",
        "task",
        str(sample_copy),
        "--from",
        "no-such-fixture",
        "--id",
        "x",
        "--no-input",
    )
    assert code == 2 and "from-unknown-fixture" in err
    code, _, err = run(
        capsys, "new", "task", str(sample_copy), "--from", "order-email-help-link", "--no-input"
    )
    assert code == 2 and "is a trajectory fixture" in err


def test_resume_reopens_the_newest_draft_and_deletes_it_once_written(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    authoring = Authoring.open(sample_copy, use_git=False)
    draft = TaskAnswers(fixture_class="refactor", id="split-billing", prompt="Split the module.")
    name = authoring.drafts.new_name("task")
    authoring.drafts.save(name, draft, "ground_truth")
    code, _, err = run(capsys, "new", "task", str(sample_copy), "--resume", "--no-input")
    assert code == 2 and err.count("missing-field") == 2  # ground_truth, expected_boundary
    code, out, _ = run(
        capsys,
        "new",
        "task",
        str(sample_copy),
        f"--resume={name}",
        "--ground-truth",
        "Two modules.",
        "--boundary",
        "unit",
        "--no-input",
    )
    assert (code, out) == (0, "fixtures/refactor/split-billing/task.yaml\n")
    assert authoring.drafts.latest("task") is None
    with pytest.raises(SystemExit) as exited:
        main(["new", "task", str(sample_copy), "--resume", "--no-input"])
    assert exited.value.code == 2
    assert "no task draft to resume" in capsys.readouterr()[1]
    (sample_copy / ".voyage/drafts/task-bad.json").write_text("{")
    code, _, err = run(capsys, "new", "task", str(sample_copy), "--resume=task-bad", "--no-input")
    assert code == 2 and "draft-corrupt" in err
    code, _, err = run(capsys, "new", "task", str(sample_copy), "--resume=task-gone", "--no-input")
    assert code == 2 and "draft-not-found" in err and "no draft named 'task-gone'" in err
    assert "delete" not in err


def test_the_path_after_resume_is_the_workspace_not_a_draft(
    sample_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    authoring = Authoring.open(sample_copy, use_git=False)
    answers = authoring.new("task")
    authoring.drafts.save("task-halfway", answers, "ground_truth")
    monkeypatch.chdir(sample_copy.parent)
    code, _, err = run(capsys, "new", "task", "--resume", sample_copy.name, "--no-input")
    assert code == 2 and "missing-field" in err and "draft-" not in err


# --- the interactive wizard ---------------------------------------------------------------------


def test_on_a_terminal_the_wizard_opens_on_the_flags_answers(
    sample_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    started: list[WizardStart] = []

    def opened(start: WizardStart) -> int:
        started.append(start)
        return 1

    monkeypatch.setattr(new_cmd, "open_wizard", opened)
    before = tree(sample_copy)
    code, out, _ = run(capsys, "new", "task", str(sample_copy), "--class", "refactor", "--id", "x")
    assert (code, out) == (1, "")  # the wizard's own exit code
    assert tree(sample_copy) == before  # nothing written behind the screen
    (start,) = started
    assert start.kind == "task" and isinstance(start.answers, TaskAnswers)
    assert (start.answers.fixture_class, start.answers.id) == ("refactor", "x")
    assert start.draft.startswith("task-") and start.step is None


def test_resume_on_a_terminal_reopens_the_draft_at_its_step(
    sample_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    authoring = Authoring.open(sample_copy, use_git=False)
    answers = authoring.new("task")
    answers.prompt = "Half done."
    authoring.drafts.save("task-halfway", answers, "ground_truth")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    started: list[WizardStart] = []
    monkeypatch.setattr(new_cmd, "open_wizard", lambda start: started.append(start) or 0)
    code, _, _ = run(capsys, "new", "task", str(sample_copy), "--resume=task-halfway")
    assert code == 0
    (start,) = started
    assert (start.draft, start.step, start.answers.prompt) == (
        "task-halfway",
        "ground_truth",
        "Half done.",
    )


def test_new_with_no_input_loads_no_textual_module(sample_copy: Path) -> None:
    result = probe(["new", "task", str(sample_copy), *TASK_FLAGS])
    assert result["code"] == 0
    assert result["textual"] == []


# --- trajectories -------------------------------------------------------------------------------


TRAJECTORY_FLAGS = [
    "--id",
    "warm-cache-on-deploy",
    "--path",
    "full",
    "--prompt",
    "Warm the product cache on every deploy so the first requests are fast.",
    "--gate",
    "1=pass",
    "--gate",
    "2=pass:design names the rollback",
    "--gate",
    "3=pass",
    "--gate",
    "4=conditional:staging numbers bound to the head SHA; follow-up for p99",
    "--gate",
    "5=pass",
    "--terminal-state",
    "released",
    "--head",
    "HEAD",
    "--routing-selected",
    "perf-review,release-engineering",
    "--routing-skipped",
    "security-review=no auth path touched",
    "--no-input",
]


def test_a_full_path_trajectory_from_flags_binds_to_the_head_commit(
    git_sample: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    root = git_sample.root
    main(["validate", str(root), "--format", "json"])
    before = json.loads(capsys.readouterr()[0])
    code, out, err = run(capsys, "new", "trajectory", str(root), *TRAJECTORY_FLAGS)
    assert (code, err) == (0, "")
    path = out.strip()
    assert path == "fixtures/trajectories/warm-cache-on-deploy/task.yaml"
    text = (root / path).read_text()
    assert f"final_head_sha: {git_sample.git('rev-parse', 'HEAD')}\n" in text
    assert 'gates: "gate-1: Scope approved: pass | gate-2: design names the rollback: pass' in text
    main(["validate", str(root), "--format", "json"])
    after = json.loads(capsys.readouterr()[0])
    assert after["diagnostics"] == before["diagnostics"]


def test_trajectory_problems_are_listed_at_once(
    git_sample: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = replace(TRAJECTORY_FLAGS, "--head", "no-such-branch")
    flags = ["1=passed" if f == "1=pass" else f for f in flags]
    code, _, err = run(
        capsys, "new", "trajectory", str(git_sample.root), *flags, "--skip-phase", "7"
    )
    assert code == 2
    codes = sorted(line.split(": ")[1].split()[1] for line in err.splitlines()[1:])
    assert codes == sorted(
        [
            "head-unresolved",
            "full-path-missing-sha",
            "full-path-missing-phases",
            "skipped-phase-no-reason",
            "invalid-gate-verdict",
        ]
    )
    assert "[--skip-phase]" in err and "[--head]" in err


def test_a_lightweight_trajectory_skips_with_reasons(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = [
        "--id",
        "fix-typo",
        "--path",
        "lightweight",
        "--prompt",
        "Fix the typo in the footer.",
        "--skip-phase",
        "3=nothing to design",
        "--skip-phase",
        "7=no security surface",
        "--skip-phase",
        "8=rides the next deploy",
        "--gate",
        "1=pass",
        "--skip-gate",
        "2=no design phase",
        "--gate",
        "3=pass",
        "--gate",
        "4=pass",
        "--skip-gate",
        "5=no release preparation",
        "--terminal-state",
        "merged",
        "--no-input",
        "--format",
        "json",
    ]
    code, out, _ = run(capsys, "new", "trajectory", str(sample_copy), *flags)
    assert code == 0, out
    text = (sample_copy / json.loads(out)["path"]).read_text()
    assert (
        'skipped_phases: "3: Design and planning: nothing to design | 7: Security and compliance: '
        'no security surface | 8: Release preparation: rides the next deploy"\n'
    ) in text
    assert 'skipped_gates: "gate-2: no design phase | gate-5: no release preparation"\n' in text


def test_without_any_stdin_no_screen_opens_and_nothing_crashes(
    sample_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", None)
    code, out, _ = run(capsys, "new", "task", str(sample_copy), *TASK_FLAGS[:-1])
    assert (code, out) == (0, NEW_PATH + "\n")
    with pytest.raises(SystemExit):
        main(["new", "task", str(sample_copy), "--prompt", "-", "--no-input"])
    assert "stdin" in capsys.readouterr()[1]
