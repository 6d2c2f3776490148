"""`voyage-tui validate` as docs/cli.md gives it: exit codes, the three output formats, workspace
discovery, voyage.toml, reference files and their defaults, and the engine's incremental
re-validation agreeing with a fresh full validation."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from tests.helpers import codes, only, validate
from voyage_tui.cli import main
from voyage_tui.engine.validation.suite import Suite

T = "fixtures/bug-diagnosis/t1/task.yaml"
TR = "fixtures/trajectories/tr1/task.yaml"

TRAJECTORY = textwrap.dedent(
    """\
    kind: trajectory
    id: tr1
    path: lightweight
    prompt: Add a --dry-run flag to the export command.
    phases: "1: Intake and provenance | 3: Design and planning | 4: Implementation"
    gates: "gate-1: scope agreed: pass"
    terminal_state: merged
    visibility: public
    """
)


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def as_json(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    code, out, _ = cli(["validate", str(root), "--no-git", "--format", "json", *extra], capsys)
    payload = json.loads(out)
    payload["_exit"] = code
    return payload


# --- exit codes ----------------------------------------------------------------------------


def test_exit_0_when_clean(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t1")})
    code, out, _ = cli(["validate", str(root), "--no-git"], capsys)
    assert code == 0
    assert "0 errors" in out


def test_exit_1_with_errors(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t2")})
    code, out, _ = cli(["validate", str(root), "--no-git"], capsys)
    assert code == 1
    assert "id-mismatch" in out


def test_warnings_fail_only_with_strict(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t1", extra="grond_truth: typo\n")})
    assert cli(["validate", str(root), "--no-git"], capsys)[0] == 0
    assert cli(["validate", str(root), "--no-git", "--strict"], capsys)[0] == 1


def test_infos_never_fail_even_with_strict(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t1")})  # reference-default infos only
    payload = as_json(root, capsys, "--strict")
    assert payload["summary"]["infos"] > 0 and payload["summary"]["warnings"] == 0
    assert payload["_exit"] == 0


def test_exit_2_without_a_workspace(tmp_path, capsys):
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    code, out, err = cli(["validate", str(empty), "--no-git"], capsys)
    assert code == 2
    assert out == ""
    assert "no workspace found" in err


def test_exit_2_for_a_missing_path(tmp_path, capsys):
    code, _, err = cli(["validate", str(tmp_path / "absent"), "--no-git"], capsys)
    assert code == 2
    assert "no such file or folder" in err


@pytest.mark.parametrize(
    "argv",
    [["--bogus"], ["--format", "xml"], ["a", "b"]],
    ids=["unknown-flag", "bad-format", "two-paths"],
)
def test_exit_2_for_a_usage_error(make_workspace, capsys, argv):
    root = make_workspace({T: task_yaml("t1")})
    code, _out, err = cli(["validate", str(root), *argv], capsys)
    assert code == 2
    assert "usage:" in err


def test_exit_codes_of_the_real_process(make_workspace, tmp_path):
    root = make_workspace({T: task_yaml("t2")})

    def exit_of(*args: str) -> int:
        return subprocess.run(
            [sys.executable, "-m", "voyage_tui", "validate", *args],
            capture_output=True,
            timeout=60,
        ).returncode

    assert exit_of(str(root), "--no-git") == 1
    assert exit_of(str(tmp_path / "absent")) == 2
    assert exit_of(str(root), "--format", "yaml") == 2


# --- JSON ----------------------------------------------------------------------------------


def test_json_shape_is_exactly_spec_6(make_workspace, capsys):
    root = make_workspace(
        {
            T: task_yaml("t1").replace("class: bug-diagnosis", "class: bug-diagnosys"),
            "fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t2", extra="grond_truth: x\n"),
            TR: TRAJECTORY,
        }
    )
    payload = as_json(root, capsys)
    assert payload.pop("_exit") == 1
    assert set(payload) == {"workspace", "summary", "coverage", "diagnostics"}
    assert payload["workspace"] == str(root)
    summary = payload["summary"]
    assert set(summary) == {"files", "errors", "warnings", "infos"}
    assert all(type(v) is int for v in summary.values())
    assert summary["files"] == 5
    for d in payload["diagnostics"]:
        assert set(d) == {"path", "line", "column", "severity", "code", "message"}
        assert (
            isinstance(d["path"], str) and not d["path"].startswith("/") and "\\" not in d["path"]
        )
        assert d["line"] is None or (type(d["line"]) is int and d["line"] >= 1)
        assert d["column"] is None or (type(d["column"]) is int and d["column"] >= 1)
        assert d["severity"] in ("error", "warning", "info")
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", d["code"])
        assert isinstance(d["message"], str) and d["message"]
    by_severity = {
        s: sum(1 for d in payload["diagnostics"] if d["severity"] == s)
        for s in ("error", "warning", "info")
    }
    assert (summary["errors"], summary["warnings"], summary["infos"]) == (
        by_severity["error"],
        by_severity["warning"],
        by_severity["info"],
    )
    cls = next(d for d in payload["diagnostics"] if d["code"] == "invalid-class")
    assert (cls["path"], cls["line"], cls["column"], cls["severity"]) == (T, 2, 8, "error")
    coverage = payload["coverage"]
    assert set(coverage) == {"classes", "boundaries", "visibility", "trajectory_paths"}
    assert all(type(n) is int for group in coverage.values() for n in group.values())
    assert coverage["classes"]["adversarial"] == 1 and coverage["classes"]["bug-diagnosis"] == 1
    assert coverage["trajectory_paths"]["lightweight"] == 1
    assert coverage["visibility"]["public"] == 5


def test_json_is_sorted_by_path_line_column(make_workspace, capsys):
    root = make_workspace(
        {
            T: task_yaml("t2", extra="grond_truth: x\nvisibilty: public\n"),
            "fixtures/adversarial/adv-2/task.yaml": task_yaml("adv-2", "adversarial").replace(
                "unit", "unti"
            ),
        }
    )
    diagnostics = as_json(root, capsys)["diagnostics"]
    keys = [(d["path"], d["line"] or 0, d["column"] or 0) for d in diagnostics]
    assert keys == sorted(keys)


# --- github --------------------------------------------------------------------------------

_ANNOTATION = re.compile(
    r"^::(error|warning|notice) file=(?P<file>[^,:]+)(?:,line=(?P<line>\d+))?(?:,col=(?P<col>\d+))?"
    r"(?:,title=(?P<title>[^,:]+))?::(?P<message>.+)$"
)


def test_github_annotations(make_workspace, capsys, monkeypatch):
    root = make_workspace(
        {
            T: task_yaml("t1").replace("class: bug-diagnosis", "class: bug-diagnosys"),
            "fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t2", extra="grond_truth: x\n"),
        }
    )
    monkeypatch.chdir(root)
    code, out, _ = cli(["validate", str(root), "--no-git", "--format", "github"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert re.fullmatch(r"\d+ files checked: \d+ errors?, \d+ warnings?, \d+ infos?", lines[-1])
    annotations = [_ANNOTATION.match(line) for line in lines[:-1]]
    assert all(annotations), [
        line for line, m in zip(lines[:-1], annotations, strict=True) if not m
    ]
    assert f"::error file={T},line=2,col=8,title=invalid-class::`class` is 'bug-diagnosys'" in out
    assert (
        "::warning file=fixtures/bug-diagnosis/t2/task.yaml,line=7,col=1,title=unknown-field::"
        in out
    )
    assert "::notice file=rubric.md,title=reference-default::" in out  # no line: no line=


def test_github_paths_are_relative_to_where_the_job_runs(make_workspace, capsys, monkeypatch):
    root = make_workspace({T: task_yaml("t2")})
    monkeypatch.chdir(root.parent)  # the repository root, with the workspace in ws/
    _, out, _ = cli(["validate", "ws", "--no-git", "--format", "github"], capsys)
    assert f"::error file=ws/{T},line=1,col=5,title=id-mismatch::" in out


def test_github_escapes_newlines_and_separators(make_workspace, capsys, monkeypatch):
    root = make_workspace({"fixtures/bug-diagnosis/a,b:c/task.yaml": task_yaml("x")})
    monkeypatch.chdir(root)
    _, out, _ = cli(["validate", str(root), "--no-git", "--format", "github"], capsys)
    assert "file=fixtures/bug-diagnosis/a%2Cb%3Ac/task.yaml,line=1,col=5" in out
    for line in out.splitlines():
        assert "\r" not in line


def _github(root: Path, capsys, monkeypatch) -> list[str]:
    monkeypatch.chdir(root)
    _, out, _ = cli(["validate", str(root), "--no-git", "--format", "github"], capsys)
    return out.splitlines()[:-1]


def _files_of(annotations: list[str]) -> dict[str, str | None]:
    """title (code) -> the file= of its annotation (None: no file=)."""
    found: dict[str, str | None] = {}
    for line in annotations:
        props = line.split("::")[1].split(" ", 1)[1].split(",")
        values = dict(p.split("=", 1) for p in props)
        found[values["title"]] = values.get("file")
    return found


def test_github_points_suite_level_errors_at_a_file_never_a_folder(
    make_workspace, capsys, monkeypatch
):
    root = make_workspace(
        {
            T: task_yaml("t1"),
            "fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t1").replace("id: t1", "id: t2"),
            "fixtures/refactor/t2/task.yaml": task_yaml("t2", "refactor"),
            "voyage.toml": "",
        },
        coverage=False,
    )
    (root / "fixtures/refactor/t3/task.yaml").mkdir(parents=True)  # a folder named task.yaml
    annotations = _github(root, capsys, monkeypatch)
    files = _files_of(annotations)
    assert files["adversarial-coverage"] == "voyage.toml"
    assert files["not-a-regular-file"] == "voyage.toml"
    duplicates = [a for a in annotations if "title=duplicate-id" in a]
    assert {a.split("file=")[1].split(",")[0] for a in duplicates} == {
        "fixtures/bug-diagnosis/t2/task.yaml",
        "fixtures/refactor/t2/task.yaml",
    }
    for line in annotations:
        file = line.split("file=")[1].split(",")[0] if "file=" in line else None
        assert file is None or (root / file).is_file() or not (root / file).exists(), line
    # Moved off its folder, the annotation still says which folder it is about.
    [coverage] = [a for a in annotations if "title=adversarial-coverage" in a]
    assert coverage.endswith(
        "::fixtures: the suite has no 'adversarial' and no "
        "'no-change-needed' fixture; adversarial coverage is mandatory so a "
        "bundle cannot win by reflexively minimising"
    )


def test_github_without_voyage_toml_leaves_a_folder_diagnostic_without_a_file(
    make_workspace, capsys, monkeypatch
):
    root = make_workspace({T: task_yaml("t1")}, coverage=False)
    files = _files_of(_github(root, capsys, monkeypatch))
    assert files["adversarial-coverage"] is None


def test_github_points_an_unreadable_folder_at_voyage_toml(make_workspace, capsys, monkeypatch):
    root = make_workspace({T: task_yaml("t1"), "voyage.toml": ""})
    locked = str(root / "fixtures/bug-diagnosis")
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if os.fspath(path) == locked:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    annotations = _github(root, capsys, monkeypatch)
    [line] = [a for a in annotations if "title=folder-unreadable" in a]
    assert line.startswith(
        "::error file=voyage.toml,title=folder-unreadable::fixtures/bug-diagnosis: "
    )


# --- text ----------------------------------------------------------------------------------


def test_text_reads_like_a_compiler(make_workspace, capsys):
    root = make_workspace(
        {
            T: task_yaml("t1").replace("class: bug-diagnosis", "class: bug-diagnosys")
            + "grond_truth: x\n",
            "fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t3"),
        }
    )
    code, out, _ = cli(["validate", str(root), "--no-git", "--format", "text"], capsys)
    assert code == 1
    lines = out.rstrip("\n").split("\n")
    summary_at = next(
        i for i, line in enumerate(lines) if re.fullmatch(r"\d+ files? checked: .*", line)
    )
    # The summary, then the coverage, come last.
    assert lines[summary_at] == "4 files checked: 2 errors, 1 warning, 4 infos"
    assert lines[summary_at + 1] == "coverage:"
    assert [line.split()[0] for line in lines[summary_at + 2 :]] == [
        "classes",
        "boundaries",
        "visibility",
        "trajectories",
    ]
    assert "bug-diagnosis 1" in lines[summary_at + 2] and "adversarial 1" in lines[summary_at + 2]
    # Before it: one group per file, separated by a blank line.
    body = lines[: summary_at - 1]
    assert lines[summary_at - 1] == ""
    groups = "\n".join(body).split("\n\n")
    paths = []
    pattern = re.compile(
        r"^(?P<path>[^:]+)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: (?P<sev>error|warning|info) (?P<code>[a-z0-9-]+): (?P<msg>.+)$"
    )
    for group in groups:
        matches = [pattern.match(line) for line in group.split("\n")]
        assert all(matches), group
        assert len({m["path"] for m in matches}) == 1, group
        paths.append(matches[0]["path"])
    assert paths == sorted(paths) and len(paths) == len(set(paths))
    assert f"{T}:2:8: error invalid-class: `class` is 'bug-diagnosys'" in out
    assert f"{T}:7:1: warning unknown-field: unknown field `grond_truth`" in out
    assert "fixtures/bug-diagnosis/t2/task.yaml:1:5: error id-mismatch:" in out
    assert "\nrubric.md: info reference-default: " in out


def test_text_without_diagnostics_is_just_the_summary(make_workspace, capsys):
    root = make_workspace(
        {
            T: task_yaml("t1"),
            "references/journey.md": "## Phases\n\n1. Intake and provenance\n",
            "references/routing-table.md": "# Routing\n",
            "references/rule-catalogue.yaml": "- SEC-001\n",
            "rubric.md": "## Correctness\n\n- 1: wrong\n- 5: right\n",
        }
    )
    code, out, _ = cli(["validate", str(root), "--no-git"], capsys)
    assert code == 0
    assert out.startswith("3 files checked: 0 errors, 0 warnings, 0 infos\ncoverage:\n")


# --- discovery ------------------------------------------------------------------------------


@pytest.mark.parametrize("start", ["fixtures/bug-diagnosis/t1", T, "fixtures"])
def test_discovery_walks_up_from_a_subfolder_or_file(make_workspace, capsys, start):
    root = make_workspace({T: task_yaml("t1")})
    payload = as_json(root / start, capsys)
    assert payload["workspace"] == str(root)
    assert payload["summary"]["files"] == 3


def test_discovery_from_the_current_folder(make_workspace, capsys, monkeypatch):
    root = make_workspace({T: task_yaml("t1")})
    monkeypatch.chdir(root / "fixtures/bug-diagnosis")
    code, out, _ = cli(["validate", "--no-git", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["workspace"] == str(root)


def test_discovery_stops_at_the_nearest_voyage_toml(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t1")})
    inner = root / "nested" / "evals"
    (inner / "fixtures/no-change-needed/n1").mkdir(parents=True)
    (inner / "voyage.toml").write_text('[paths]\nfixtures = "fixtures"\n', encoding="utf-8")
    (inner / "fixtures/no-change-needed/n1/task.yaml").write_text(
        task_yaml("n1", "no-change-needed"), encoding="utf-8"
    )
    payload = as_json(inner / "fixtures", capsys)
    assert payload["workspace"] == str(inner)
    assert payload["summary"]["files"] == 1
    assert "adversarial-coverage" in {d["code"] for d in payload["diagnostics"]}


# --- voyage.toml ----------------------------------------------------------------------------


def test_unknown_voyage_toml_key_is_a_diagnostic_with_its_line(make_workspace, capsys):
    root = make_workspace(
        {
            T: task_yaml("t1"),
            "voyage.toml": '[paths]\nfixtures = "fixtures"\n\n[limits]\nmax_bytes = 10\n',
        }
    )
    payload = as_json(root, capsys)
    d = next(d for d in payload["diagnostics"] if d["code"] == "config-unknown-key")
    assert (d["path"], d["line"], d["column"], d["severity"]) == ("voyage.toml", 5, 1, "warning")
    assert "`max_bytes`" in d["message"] and "did you mean `max_file_bytes`?" in d["message"]
    assert payload["_exit"] == 0
    assert cli(["validate", str(root), "--no-git", "--strict"], capsys)[0] == 1


def test_voyage_toml_paths_move_the_fixtures(make_workspace, capsys):
    root = make_workspace({})
    shutil.rmtree(root / "fixtures")
    (root / "voyage.toml").write_text('[paths]\nfixtures = "suite"\n', encoding="utf-8")
    (root / "suite/bug-diagnosis/t1").mkdir(parents=True)
    (root / "suite/bug-diagnosis/t1/task.yaml").write_text(task_yaml("t2"), encoding="utf-8")
    payload = as_json(root, capsys)
    assert {(d["path"], d["code"]) for d in payload["diagnostics"]} >= {
        ("suite/bug-diagnosis/t1/task.yaml", "id-mismatch"),
        ("suite", "adversarial-coverage"),
    }


# --- reference files -------------------------------------------------------------------------


def test_a_workspace_journey_replaces_the_default_completely(make_workspace, capsys):
    journey = textwrap.dedent(
        """\
        # Our journey

        ## Phases

        1. Intake and provenance
        2. Triage
        3. Build
        4. Implementation

        ## Gates

        - gate-1: triaged
        - gate-2: built
        """
    )
    root = make_workspace({TR: TRAJECTORY, "references/journey.md": journey})
    payload = as_json(root, capsys)
    found = {(d["code"], d["line"], d["column"]) for d in payload["diagnostics"] if d["path"] == TR}
    # `3: Design and planning` is a phase only the default journey has.
    assert ("phase-name-mismatch", 5, 37) in found
    message = next(
        d["message"] for d in payload["diagnostics"] if d["code"] == "phase-name-mismatch"
    )
    assert "references/journey.md" in message and "'Build'" in message
    assert not any(
        d["code"] == "reference-default" and d["path"] == "references/journey.md"
        for d in payload["diagnostics"]
    )

    # Gates come from the file too: gate-3..5 of the default are unknown here.
    (root / TR).write_text(
        TRAJECTORY.replace("gate-1: scope agreed: pass", "gate-3: review clean: pass"),
        encoding="utf-8",
    )
    payload = as_json(root, capsys)
    gate = next(d for d in payload["diagnostics"] if d["code"] == "unknown-gate")
    assert "gate-1, gate-2" in gate["message"] and "gate-3" in gate["message"]


@pytest.mark.parametrize(
    "heading",
    [
        "## 1. Intake and provenance",
        "## 1: Intake and provenance",
        "### Phase 1: Intake and provenance",
        "# 1. Intake and provenance",
    ],
)
def test_journey_heading_forms(make_workspace, heading):
    root = make_workspace(
        {
            TR: TRAJECTORY.replace(' | 3: Design and planning | 4: Implementation"', '"'),
            "references/journey.md": f"# Journey\n\n{heading}\n\nText.\n",
        }
    )
    assert [c for c in codes(validate(root), TR)] == []


CATALOGUES = {
    "references/rule-catalogue.yaml": "RULE_CATALOGUE:\n  - SEC-001\n  - STYLE-002\n",
    "references/rule-catalogue.json": '{"RULE_CATALOGUE": {"SEC-001": {"title": "x"}, "STYLE-002": {}}}\n',
    "references/rule-catalogue.mjs": textwrap.dedent(
        """\
        // The rule catalogue, as the reviewer bundle exports it.
        /* keys only matter here */
        export const RULE_CATALOGUE = Object.freeze({
          "SEC-001": { title: "Secrets in code", severity: "BLOCKER" },
          'STYLE-002': { title: "Naming, {braces} and [brackets]" },
        });
        export const OTHER = ["NOT-A-KEY"];
        """
    ),
    "references/rule-catalogue.js": "module.exports.RULE_CATALOGUE = ['SEC-001', \"STYLE-002\"];\n",
}


@pytest.mark.parametrize("rel", list(CATALOGUES), ids=lambda r: r.rsplit(".", 1)[-1])
def test_rule_catalogue_from_yaml_json_and_js(make_workspace, capsys, rel):
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "reviews/pr-3.md",
        "description": "Two findings.",
        "expected_verdict": "BLOCK",
        "findings": [
            {
                "file": "a.py",
                "line": 3,
                "rule_key": "SEC-001",
                "severity": "BLOCKER",
                "owner_reviewer": "correctness",
            },
            {
                "file": "b.py",
                "line": 0,
                "rule_key": "NOT-A-KEY",
                "severity": "MINOR",
                "owner_reviewer": "conformance",
            },
        ],
    }
    root = make_workspace(
        {T: task_yaml("t1"), rel: CATALOGUES[rel], "gold/g.json": json.dumps(gold, indent=2)}
    )
    suite = Suite.open(root, use_git=False)
    assert suite.refs.catalogue.path == rel and not suite.refs.catalogue.is_default
    assert suite.refs.catalogue.value.keys == ("SEC-001", "STYLE-002")
    assert suite.refs.catalogue.diagnostics == []
    payload = as_json(root, capsys)
    unknown = [d for d in payload["diagnostics"] if d["code"] == "unknown-rule-key"]
    assert [(d["path"], "NOT-A-KEY" in d["message"]) for d in unknown] == [("gold/g.json", True)]


def test_reference_default_infos_name_each_default_in_use(make_workspace, capsys):
    root = make_workspace(
        {T: task_yaml("t1"), "rubric.md": "## Correctness\n\n- 1: wrong\n- 5: right\n"}
    )
    payload = as_json(root, capsys)
    infos = {d["path"]: d for d in payload["diagnostics"] if d["code"] == "reference-default"}
    assert set(infos) == {
        "references/journey.md",
        "references/routing-table.md",
        "references/rule-catalogue.yaml",
    }
    for d in infos.values():
        assert d["severity"] == "info" and d["line"] is None
        assert "default" in d["message"] and "shipped with voyage-tui" in d["message"]
    assert payload["_exit"] == 0


def test_an_unreadable_reference_falls_back_to_the_default_and_says_so(make_workspace, capsys):
    root = make_workspace({T: task_yaml("t1")})
    (root / "references/journey.md").mkdir(parents=True)
    payload = as_json(root, capsys)
    found = {
        (d["code"], d["severity"])
        for d in payload["diagnostics"]
        if d["path"] == "references/journey.md"
    }
    assert found == {("not-a-regular-file", "error"), ("reference-default", "info")}


# --- incremental re-validation --------------------------------------------------------------


def _same_as_fresh(suite: Suite, root: Path) -> None:
    fresh = Suite.open(root, use_git=False)
    assert suite.diagnostics() == fresh.diagnostics()
    assert suite.summary() == fresh.summary()
    assert suite.coverage() == fresh.coverage()
    assert set(suite.items) == set(fresh.items)


@pytest.fixture
def live(make_workspace) -> tuple[Suite, Path]:
    root = make_workspace(
        {
            T: task_yaml("t1", extra="context: {file: notes.md}\n"),
            "fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t2"),
            TR: TRAJECTORY,
        }
    )
    suite = Suite.open(root, use_git=False)
    assert {d.code for d in suite.diagnostics() if d.path == T} == {"context-file-missing"}
    return suite, root


def test_revalidate_after_editing_a_task(live):
    suite, root = live
    (root / T).write_text(task_yaml("t1").replace("unit", "unti"), encoding="utf-8")
    touched = suite.revalidate([T])
    assert T in touched
    assert [d.code for d in suite.diagnostics() if d.path == T] == ["invalid-boundary"]
    _same_as_fresh(suite, root)


def test_revalidate_after_deleting_a_task(live):
    suite, root = live
    (root / "fixtures/bug-diagnosis/t2/task.yaml").unlink()
    suite.revalidate(["fixtures/bug-diagnosis/t2/task.yaml"])
    assert "fixtures/bug-diagnosis/t2/task.yaml" not in suite.items
    _same_as_fresh(suite, root)


def test_revalidate_after_deleting_a_fixture_folder(live):
    suite, root = live
    shutil.rmtree(root / "fixtures/bug-diagnosis/t2")
    suite.revalidate(["fixtures/bug-diagnosis/t2"])
    _same_as_fresh(suite, root)


def test_revalidate_after_adding_a_task(live):
    suite, root = live
    added = "fixtures/feature-change/t2/task.yaml"
    (root / added).parent.mkdir(parents=True)
    (root / added).write_text(task_yaml("t2", "feature-change"), encoding="utf-8")
    suite.revalidate([added])
    assert {d.code for d in suite.diagnostics() if d.path == added} == {"duplicate-id"}
    assert suite.coverage()["classes"]["feature-change"] == 1
    _same_as_fresh(suite, root)


def test_revalidate_after_adding_the_missing_coverage_class(make_workspace):
    root = make_workspace({T: task_yaml("t1")}, coverage=False)
    suite = Suite.open(root, use_git=False)
    assert "adversarial-coverage" in codes(suite.diagnostics())
    for rel, cls in (
        ("fixtures/adversarial/a1/task.yaml", "adversarial"),
        ("fixtures/no-change-needed/n1/task.yaml", "no-change-needed"),
    ):
        (root / rel).parent.mkdir(parents=True)
        (root / rel).write_text(task_yaml(rel.split("/")[2], cls), encoding="utf-8")
        suite.revalidate([rel])
        _same_as_fresh(suite, root)
    assert "adversarial-coverage" not in codes(suite.diagnostics())


def test_revalidate_after_changing_journey_md(live):
    suite, root = live
    assert [d.code for d in suite.diagnostics() if d.path == TR] == []
    journey = root / "references/journey.md"
    journey.parent.mkdir()
    journey.write_text(
        "## Phases\n\n1. Intake and provenance\n2. Build\n3. Design and planning\n",
        encoding="utf-8",
    )
    touched = suite.revalidate(["references/journey.md"])
    assert TR in touched
    assert [d.code for d in suite.diagnostics() if d.path == TR] == ["unknown-phase"]
    _same_as_fresh(suite, root)
    journey.write_text(
        "## Phases\n\n1. Intake and provenance\n3. Design and planning\n4. Implementation\n",
        encoding="utf-8",
    )
    suite.revalidate(["references/journey.md"])
    _same_as_fresh(suite, root)
    journey.unlink()
    suite.revalidate(["references/journey.md"])
    _same_as_fresh(suite, root)


def test_revalidate_after_creating_a_context_file(live):
    suite, root = live
    (root / "fixtures/bug-diagnosis/t1/notes.md").write_text(
        "The helper is in src/paging.py.\n", encoding="utf-8"
    )
    touched = suite.revalidate(["fixtures/bug-diagnosis/t1/notes.md"])
    assert T in touched
    assert [d for d in suite.diagnostics() if d.path == T] == []
    _same_as_fresh(suite, root)
    (root / "fixtures/bug-diagnosis/t1/notes.md").unlink()
    suite.revalidate(["fixtures/bug-diagnosis/t1/notes.md"])
    assert {d.code for d in suite.diagnostics() if d.path == T} == {"context-file-missing"}
    _same_as_fresh(suite, root)


def test_revalidate_after_changing_voyage_toml(live):
    suite, root = live
    (root / "voyage.toml").write_text("[limits]\nmax_bytes = 3\n", encoding="utf-8")
    suite.revalidate(["voyage.toml"])
    assert "config-unknown-key" in codes(suite.diagnostics())
    _same_as_fresh(suite, root)


def test_revalidate_after_changing_the_rubric(live):
    suite, root = live
    (root / T).write_text(
        task_yaml("t1", extra="scoring_notes:\n  clarity: reads well\n"), encoding="utf-8"
    )
    suite.revalidate([T])
    assert "unknown-dimension" in codes(suite.diagnostics())
    (root / "rubric.md").write_text("## Clarity\n\n- 1: muddled\n- 5: clear\n", encoding="utf-8")
    suite.revalidate(["rubric.md"])
    assert "unknown-dimension" not in codes(suite.diagnostics())
    _same_as_fresh(suite, root)


def test_revalidate_after_creating_a_json_catalogue(live):
    suite, root = live
    (root / "references").mkdir()
    (root / "references/rule-catalogue.json").write_text('["SEC-001"]\n', encoding="utf-8")
    suite.revalidate(["references/rule-catalogue.json"])
    _same_as_fresh(suite, root)


def test_helpers_only_finds_one(make_workspace):
    root = make_workspace({T: task_yaml("t2")})
    assert only(validate(root), "id-mismatch").line == 1


def test_revalidate_refuses_a_file_under_a_folder_symlinked_out(make_workspace, tmp_path):
    import os

    from voyage_tui.engine.validation.suite import Suite

    outside = tmp_path / "outside" / "x"
    outside.mkdir(parents=True)
    (outside / "task.yaml").write_text(task_yaml("x"))
    root = make_workspace({})
    suite = Suite.open(root, use_git=False)
    (root / "fixtures/bug-diagnosis").mkdir()
    os.symlink(outside, root / "fixtures/bug-diagnosis/x")
    suite.revalidate(["fixtures/bug-diagnosis/x/task.yaml"])
    assert "fixtures/bug-diagnosis/x/task.yaml" not in suite.items
    fresh = Suite.open(root, use_git=False)
    assert "fixtures/bug-diagnosis/x/task.yaml" not in fresh.items


def test_revalidate_notices_an_edit_that_creates_or_removes_a_duplicate_id(make_workspace):
    from voyage_tui.engine.validation.suite import Suite

    a = "fixtures/bug-diagnosis/one/task.yaml"
    b = "fixtures/refactor/one/task.yaml"
    root = make_workspace({a: task_yaml("one"), b: task_yaml("two", "refactor")})
    suite = Suite.open(root, use_git=False)
    assert "duplicate-id" not in {d.code for d in suite.diagnostics()}
    path = root / b
    path.write_text(path.read_text().replace("id: two", "id: one"))
    suite.revalidate([b])
    assert sum(d.code == "duplicate-id" for d in suite.diagnostics()) == 2
    path.write_text(path.read_text().replace("id: one", "id: two"))
    suite.revalidate([b])
    assert "duplicate-id" not in {d.code for d in suite.diagnostics()}
