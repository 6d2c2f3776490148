"""A test and a file for every rule.

Every diagnostic code the engine emits for task files, trajectories, journey.md, rubric.md, the
rule catalogue, voyage.toml and the loaders has a case folder `tests/data/rules/<code>/<case>/`
(a small workspace, or the part of one the case is about) and an entry below that states the
severity and the exact line and column the diagnostic must point at. A case passes only when
the errors and warnings it produces are exactly the listed ones: no noise beside the rule.

`test_every_engine_code_has_a_case` keeps it that way: a code added to the engine without a case
folder here fails the suite.
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from tests.engine.workspaces import RULES, SETUPS, Expect, assert_case, e, i, materialize, w
from tests.helpers import string_constants
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.formats.schema_errors import translate
from voyage_tui.engine.loading import json_doc, yaml_doc
from voyage_tui.engine.loading.positions import NoPositions
from voyage_tui.engine.loading.safe_read import read_bytes
from voyage_tui.engine.validation.suite import Suite

T = "fixtures/bug-diagnosis/t1/task.yaml"
TR = "fixtures/trajectories/tr1/task.yaml"
ENGINE = Path(__file__).resolve().parents[2] / "voyage_tui" / "engine"


DEFAULT_JOURNEY = "the default journey (references/journey.md is absent)"

# (code, case) -> what the case must produce. The code is the case folder's parent.
CASES: dict[tuple[str, str], list[Expect]] = {
    # --- loading ----------------------------------------------------------------------------
    ("binary-file", "nul-byte"): [e("binary-file", T, 6, 17, "NUL")],
    ("not-utf8", "utf16"): [e("not-utf8", T, 1, 1, "UTF-16")],
    ("invalid-utf8", "latin1-byte"): [e("invalid-utf8", T, 3, 12, "0xe9")],
    ("invalid-character", "control-char"): [e("invalid-character", T, 3, 14, "U+0007")],
    ("empty-file", "empty"): [e("empty-file", T, 1, 1)],
    ("empty-file", "comments-only"): [e("empty-file", T, 1, 1)],
    ("yaml-syntax", "tab-indent"): [e("yaml-syntax", T, 8, 1, "a tab")],
    ("yaml-syntax", "unclosed-quote"): [e("yaml-syntax", T, 7, 1, "quoted scalar")],
    ("yaml-too-deep", "flow-1001"): [e("yaml-too-deep", T, 7, 21 + 1000, "1,000 levels")],
    ("yaml-multiple-documents", "second-document"): [e("yaml-multiple-documents", T, 7, 1)],
    ("yaml-unsafe-tag", "python-apply"): [
        e("yaml-unsafe-tag", T, 7, 22, "!!python/object/apply:os.system", "never constructed")
    ],
    ("yaml-unknown-tag", "custom-tag"): [e("yaml-unknown-tag", T, 7, 22, "!budget")],
    # a..i nest nine-fold: f (line 13) is the first to pass 100,000 nodes
    ("yaml-alias-bomb", "billion-laughs"): [e("yaml-alias-bomb", T, 13, 6, "alias bomb")],
    ("yaml-recursive-alias", "self-reference"): [e("yaml-recursive-alias", T, 7, 22)],
    ("yaml-invalid-value", "bad-int"): [e("yaml-invalid-value", T, 7, 22, "twelve")],
    ("duplicate-key", "yaml"): [e("duplicate-key", T, 7, 1, "`prompt`", "first at line 3")],
    ("duplicate-key", "json-catalogue"): [
        e("duplicate-key", "references/rule-catalogue.json", 3, 3, "`RULE_CATALOGUE`")
    ],
    ("json-syntax", "catalogue-trailing-comma"): [
        e("json-syntax", "references/rule-catalogue.json", 4, 1)
    ],
    ("json-syntax", "catalogue-nan"): [
        e("json-syntax", "references/rule-catalogue.json", 3, 13, "NaN")
    ],
    ("json-too-deep", "catalogue-2000"): [
        e("json-too-deep", "references/rule-catalogue.json", 1, 1000, "too deep")
    ],
    ("root-not-mapping", "list"): [e("root-not-mapping", T, 1, 1, "a list")],
    ("root-not-mapping", "scalar"): [e("root-not-mapping", T, 1, 1, "a single value")],
    ("file-too-large", "limit"): [e("file-too-large", T, None, None, "over the limit of 300")],
    ("not-a-regular-file", "directory"): [e("not-a-regular-file", T, None, None, "a folder")],
    ("symlink-outside-workspace", "task-symlink"): [
        e("symlink-outside-workspace", T, None, None, "not read")
    ],
    ("symlink-outside-workspace", "folder-symlink"): [
        e("symlink-outside-workspace", "fixtures/bug-diagnosis/t1", None, None, "nothing in it")
    ],
    ("symlink-outside-workspace", "references-folder-symlink"): [
        e("symlink-outside-workspace", "references/journey.md", None, None, "not read"),
        i("reference-default", "references/journey.md", None, None, "cannot be read"),
    ],
    ("symlink-outside-workspace", "fixtures-folder-symlink"): [
        e("symlink-outside-workspace", "suite", None, None, "nothing in it was read"),
        e("adversarial-coverage", "suite", None, None),
    ],
    ("broken-symlink", "dangling"): [e("broken-symlink", T, None, None)],
    ("misplaced-task-file", "in-class-folder"): [
        e("misplaced-task-file", "fixtures/bug-diagnosis/task.yaml", None, None)
    ],
    # --- voyage.toml ------------------------------------------------------------------------
    ("config-syntax", "unclosed-header"): [e("config-syntax", "voyage.toml", 1, 7)],
    ("config-unknown-key", "key"): [
        w("config-unknown-key", "voyage.toml", 3, 1, "`journy`", "did you mean `journey`?")
    ],
    ("config-unknown-key", "dotted-key"): [
        w("config-unknown-key", "voyage.toml", 2, 7, "`rubrik`", "did you mean `rubric`?")
    ],
    ("config-unknown-key", "inline-table"): [
        w("config-unknown-key", "voyage.toml", 1, 21, "`branchs`", "did you mean `branches`?")
    ],
    ("config-unknown-key", "section"): [
        w("config-unknown-key", "voyage.toml", 1, 1, "`limts`", "did you mean `limits`?")
    ],
    ("config-invalid", "wrong-type"): [
        e("config-invalid", "voyage.toml", 2, 1, "max_file_bytes", "default 1048576")
    ],
    ("config-invalid", "path-outside"): [
        e("config-invalid", "voyage.toml", 2, 1, "'/etc/passwd' is outside the workspace"),
        e("config-invalid", "voyage.toml", 3, 1, "'../../..' is outside the workspace"),
    ],
    ("config-invalid", "not-a-table"): [e("config-invalid", "voyage.toml", 1, 1, "`[paths]`")],
    ("config-invalid", "nul-in-path"): [
        e("config-invalid", "voyage.toml", 2, 1, "[paths] fixtures", "NUL", "'fixtures' is used"),
        e("config-invalid", "voyage.toml", 3, 1, "[paths] gold", "NUL"),
    ],
    ("config-invalid", "rater-names"): [
        e("config-invalid", "voyage.toml", 4, 4, "'b/en' cannot be a rater's name"),
        e("config-invalid", "voyage.toml", 5, 4, "'ann' is listed twice"),
    ],
    ("config-deprecated", "ratings-per-run"): [
        w("config-deprecated", "voyage.toml", 3, 1, "[rating] overlap")
    ],
    ("reference-missing", "journey"): [e("reference-missing", "docs/journey.md", None, None)],
    ("reference-default", "no-references"): [
        i("reference-default", "references/journey.md", None, None, "default journey"),
        i("reference-default", "rubric.md", None, None, "default rubric"),
        i("reference-default", "references/rule-catalogue.yaml", None, None, "rule catalogue"),
        i("reference-default", "references/routing-table.md", None, None, "routing table"),
    ],
    # --- reference files --------------------------------------------------------------------
    ("journey-no-phases", "prose-only"): [e("journey-no-phases", "references/journey.md", 1, 1)],
    ("journey-duplicate-phase", "heading-and-list"): [
        e("journey-duplicate-phase", "references/journey.md", 8, 1, "at line 6")
    ],
    ("journey-duplicate-gate", "list"): [
        e("journey-duplicate-gate", "references/journey.md", 8, 1, "gate-1")
    ],
    ("rubric-no-dimensions", "prose-only"): [e("rubric-no-dimensions", "rubric.md", 1, 1)],
    ("rubric-duplicate-dimension", "case-insensitive"): [
        e("rubric-duplicate-dimension", "rubric.md", 8, 1, "'correctness'")
    ],
    ("rubric-no-anchors", "prose-dimension"): [
        w("rubric-no-anchors", "rubric.md", 6, 1, "'Scope'")
    ],
    # a scale is at most 20 values, anchors 0..100 (SPEC 3.7): the others are left out of it
    ("rubric-anchor-out-of-range", "above-100"): [
        e("rubric-anchor-out-of-range", "rubric.md", 4, 1, "anchor 100000", "0 to 100")
    ],
    ("rubric-scale-too-large", "typo"): [
        e("rubric-scale-too-large", "rubric.md", 6, 1, "1 to 50, 50 values", "the scale is 1 to 5")
    ],
    # a number over nine digits is never converted (int() refuses 4,300): counted, not read
    ("number-too-long", "rubric-anchor"): [
        e("number-too-long", "rubric.md", 4, 1, "5,000 digits", "left out of the scale")
    ],
    ("number-too-long", "journey-gate"): [
        e("number-too-long", "references/journey.md", 8, 1, "a gate has 11 digits")
    ],
    ("number-too-long", "trajectory-phase"): [
        e("number-too-long", TR, 5, 74, "the phase's number has 11 digits")
    ],
    ("catalogue-empty", "empty-list"): [
        e("catalogue-empty", "references/rule-catalogue.yaml", 1, 1)
    ],
    ("catalogue-unreadable", "yaml-scalar"): [
        e("catalogue-unreadable", "references/rule-catalogue.yaml", 1, 1)
    ],
    ("catalogue-unreadable", "mjs-without-export"): [
        e("catalogue-unreadable", "references/rule-catalogue.mjs", None, None, "RULE_CATALOGUE")
    ],
    # --- single-task fixtures ---------------------------------------------------------------
    ("missing-field", "ground-truth"): [e("missing-field", T, 1, 1, "`ground_truth`")],
    ("wrong-type", "prompt-number"): [e("wrong-type", T, 3, 9, "`prompt` must be text", "42")],
    ("wrong-type", "class-boolean"): [
        e("wrong-type", T, 2, 8, "`class` must be one of: ", "boolean false", "YAML reads yes/no")
    ],
    ("wrong-type", "key-number"): [e("wrong-type", T, 7, 1, "key `1`", "quote")],
    ("wrong-type", "scoring-note"): [e("wrong-type", T, 8, 16, "`correctness`")],
    ("wrong-type", "harness-number"): [e("wrong-type", T, 7, 22, "`harness_constraints`")],
    ("invalid-class", "typo"): [
        e("invalid-class", T, 2, 8, "'bug-diagnosys'", "did you mean `bug-diagnosis`?")
    ],
    ("invalid-boundary", "typo"): [
        e("invalid-boundary", T, 5, 20, "'end-2-end'", "did you mean `end-to-end`?")
    ],
    ("invalid-visibility", "typo"): [
        e("invalid-visibility", T, 6, 13, "'hold-out'", "did you mean `holdout`?")
    ],
    ("invalid-kind", "task-with-kind"): [
        e("invalid-kind", T, 7, 7, "'trajectroy'", "did you mean `trajectory`?")
    ],
    ("invalid-kind", "trajectory-folder"): [e("invalid-kind", TR, 1, 7, "'task'")],
    ("unknown-field", "task-typo"): [
        w("unknown-field", T, 7, 1, "`grond_truth`", "did you mean `ground_truth`?")
    ],
    ("unknown-field", "trajectory-typo"): [
        w("unknown-field", TR, 9, 1, "`skiped_phases`", "did you mean `skipped_phases`?")
    ],
    ("empty-field", "blank"): [e("empty-field", T, 3, 9, "`prompt`")],
    ("empty-field", "empty-string"): [e("empty-field", T, 4, 15, "`ground_truth`")],
    ("id-mismatch", "task"): [e("id-mismatch", T, 1, 5, "'t2'", "'t1'")],
    ("id-mismatch", "trajectory"): [e("id-mismatch", TR, 2, 5, "'tr2'", "'tr1'")],
    ("class-folder-mismatch", "wrong-folder"): [
        e("class-folder-mismatch", T, 2, 8, "fixtures/feature-change/")
    ],
    ("invalid-context", "bad-key"): [
        e("invalid-context", T, 7, 11, "`fiel`", "did you mean `file`?")
    ],
    ("invalid-context", "number"): [e("invalid-context", T, 9, 5)],
    ("context-path-escapes", "dotdot"): [
        e("context-path-escapes", T, 8, 11, "leaves the fixture folder")
    ],
    ("context-path-escapes", "absolute"): [e("context-path-escapes", T, 7, 17, "absolute path")],
    # `a:notes.md` is a file name with a colon, not a drive: only `C:\\...` is absolute
    ("context-path-escapes", "windows-drive"): [
        e("context-path-escapes", T, 9, 11, "absolute path")
    ],
    ("context-path-escapes", "symlink"): [e("context-path-escapes", T, 7, 17, "symlink")],
    ("context-file-missing", "missing"): [e("context-file-missing", T, 7, 17, "'notes.md'")],
    ("adversarial-intent-missing", "absent"): [
        e("adversarial-intent-missing", "fixtures/adversarial/adv-2/task.yaml", 1, 1)
    ],
    ("adversarial-intent-missing", "blank"): [
        e("adversarial-intent-missing", "fixtures/adversarial/adv-2/task.yaml", 7, 1)
    ],
    ("adversarial-intent-unexpected", "bug-diagnosis"): [
        w("adversarial-intent-unexpected", T, 7, 1, "'bug-diagnosis'")
    ],
    ("unknown-dimension", "typo"): [
        w("unknown-dimension", T, 8, 3, "`corectness`", "the closest is `correctness`")
    ],
    ("duplicate-id", "two-classes"): [
        e("duplicate-id", T, 1, 5, "fixtures/feature-change/t1/task.yaml"),
        e("duplicate-id", "fixtures/feature-change/t1/task.yaml", 1, 5, T),
    ],
    ("adversarial-coverage", "none"): [
        e("adversarial-coverage", "fixtures", None, None, "'adversarial'", "'no-change-needed'")
    ],
    ("trajectory-misplaced", "in-task-folder"): [e("trajectory-misplaced", T, 1, 7)],
    # --- trajectories: the column is the offending entry's inside the pipe-separated string --
    ("invalid-path", "typo"): [e("invalid-path", TR, 3, 7, "did you mean `full`?")],
    ("invalid-terminal-state", "typo"): [
        e("invalid-terminal-state", TR, 7, 17, "did you mean `merged`?")
    ],
    ("phase-syntax", "no-colon"): [e("phase-syntax", TR, 5, 74, "'4 Implementation'")],
    ("phase-name-mismatch", "typo"): [
        e("phase-name-mismatch", TR, 5, 74, "'Implementaton'", "did you mean `4: Implementation`?")
    ],
    ("phase-number-mismatch", "wrong-number"): [
        e("phase-number-mismatch", TR, 5, 74, "is phase 4", "write `4: Implementation`")
    ],
    ("unknown-phase", "not-in-journey"): [
        e("unknown-phase", TR, 5, 94, "`10: Deploy`", DEFAULT_JOURNEY)
    ],
    ("unknown-phase", "only-in-default-journey"): [
        e("unknown-phase", TR, 5, 94, "`5: Review`", "references/journey.md")
    ],
    ("duplicate-phase", "phases"): [e("duplicate-phase", TR, 5, 74, "phase 2")],
    ("phases-out-of-order", "phases"): [
        e("phases-out-of-order", TR, 5, 57, "phase 2 comes after phase 4")
    ],
    ("empty-entry", "double-pipe"): [e("empty-entry", TR, 5, 36, "`phases`")],
    ("skipped-phase-syntax", "no-number"): [e("skipped-phase-syntax", TR, 9, 18)],
    ("skipped-phase-no-reason", "no-reason"): [e("skipped-phase-no-reason", TR, 9, 18, "phase 3")],
    ("skipped-phase-no-reason", "empty-reason"): [
        e("skipped-phase-no-reason", TR, 9, 18, "phase 3")
    ],
    ("phase-traversed-and-skipped", "both"): [
        e("phase-traversed-and-skipped", TR, 9, 18, "phase 2")
    ],
    ("gate-syntax", "no-colons"): [e("gate-syntax", TR, 6, 9)],
    ("invalid-gate-verdict", "typo"): [
        e("invalid-gate-verdict", TR, 6, 9, "'passed'", "did you mean `pass`?")
    ],
    ("unknown-gate", "gate-6"): [e("unknown-gate", TR, 6, 38, "gate-6")],
    ("duplicate-gate", "gates"): [e("duplicate-gate", TR, 6, 38, "gate-1 is recorded twice")],
    # the second entry starts with the whole text of the first: it still points at itself
    ("duplicate-gate", "prefix-of-earlier-entry"): [
        e("invalid-gate-verdict", TR, 6, 9, "'passed'"),
        e("duplicate-gate", TR, 6, 40, "gate-3"),
    ],
    ("duplicate-gate", "gates-and-skipped"): [e("duplicate-gate", TR, 9, 17, "`skipped_gates`")],
    ("skipped-gate-syntax", "no-gate-prefix"): [
        e("skipped-gate-syntax", TR, 9, 17, "'g2: no design step'")
    ],
    ("skipped-gate-no-reason", "bare"): [e("skipped-gate-no-reason", TR, 9, 17, "gate-2")],
    ("full-path-missing-phases", "six-phases"): [
        e("full-path-missing-phases", TR, 5, 9, "3: Design and planning", "8: Release preparation")
    ],
    ("full-path-missing-gates", "three-gates"): [
        e("full-path-missing-gates", TR, 6, 8, "gate-2, gate-5")
    ],
    ("full-path-missing-sha", "absent"): [e("full-path-missing-sha", TR, 3, 7)],
    ("sha-invalid", "not-hex"): [e("sha-invalid", TR, 9, 17, "'not-a-commit'")],
    ("sha-invalid", "41-digits"): [e("sha-invalid", TR, 9, 17, "41 hex digits")],
    ("sha-abbreviated", "seven-digits"): [e("sha-abbreviated", TR, 9, 17, "'abc1234'", "full SHA")],
    # --- agent runs -------------------------------------------------------------------------
    ("run-id-mismatch", "renamed-file"): [
        w("run-id-mismatch", "fixtures/bug-diagnosis/t1/runs/run-1.yaml", 1, 9, "run-1.yaml")
    ],
}

# Codes that come from gold files and recorded runs: another test suite (tests/scoring, the gold
# rules' tests) gives them their files. `schema_errors` emits the vocabulary ones for gold fields.
GOLD_AND_RUN_CODES = frozenset(
    {
        "invalid-severity",
        "invalid-owner-reviewer",
        "invalid-verdict",
        "invalid-schema",
        "unknown-rule-key",
        "unknown-dual-flaggable",
        "verdict-mismatch",
        "duplicate-finding-key",
        "readme-drift",
        "run-not-list",
        "invalid-payload",
        "invalid-finding",
        "value-out-of-range",
        "empty-gold",
        "dual-flaggable-same",
    }
)

# Codes no file can produce on its own; each has a test below that makes the condition happen.
NOT_FROM_A_FILE = {
    "file-missing": "test_file_missing_when_the_file_vanishes_before_reading",
    "file-unreadable": "test_file_unreadable_when_the_os_refuses",
    "folder-unreadable": "test_folder_unreadable_when_the_os_refuses_to_list_it",
    "yaml-unreadable": "test_yaml_unreadable_when_the_loader_itself_fails",
    "json-unreadable": "test_json_unreadable_when_the_loader_itself_fails",
    "invalid-value": "test_invalid_value_is_the_fallback_for_a_vocabulary_without_a_code",
    # A line over 1 MiB, of a file over it: tests/security/test_bounded_reads.py.
    "line-too-long": (
        "tests.security.test_bounded_reads::"
        "test_a_line_over_the_bound_is_a_diagnostic_and_the_lines_after_it_count"
    ),
    "problems-not-listed": (
        "tests.security.test_bounded_reads::test_a_file_of_junk_lines_lists_its_first_problems"
    ),
    # A git that does not answer (a FIFO in its config): tests/security/test_git_hangs.py.
    "git-check-failed": (
        "tests.security.test_git_hangs::"
        "test_check_ignore_keeps_the_limit_and_its_failure_is_a_diagnostic"
    ),
}

# Kebab-case strings in the engine that are not diagnostic codes.
NOT_CODES = frozenset(
    {
        "utf-8",
        "voyage-tui",  # the cache folder's name
        "check-ignore",
        "rule-key",
        "no-change-needed",
        "bug-diagnosis",
        "feature-change",
        "spec-ambiguity",
        "regression-prevention",
        "review-finding",
        "release-verification",
        "end-to-end",
        "high-risk",
        "agent-run",
        "gold-run",
    }
)

# Where the codes of this suite's scope are emitted: the loaders, references, workspace,
# validation, the schema errors (formats/) and the rules except gold_rules/run_rules (whose codes
# are listed above) and the gold and run files' loader (its codes are in NOT_FROM_A_FILE).
SCOPE = ("loading", "references", "workspace", "validation", "rules", "formats")
OUT_OF_SCOPE_FILES = frozenset(
    {"rules/gold_rules.py", "rules/run_rules.py", "rules/gold_run_files.py"}
)
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")


def engine_codes() -> dict[str, set[str]]:
    """Every kebab-case string constant in the scoped engine sources -> the files using it."""
    found: dict[str, set[str]] = {}
    for folder in SCOPE:
        for path in sorted((ENGINE / folder).glob("*.py")):
            rel = path.relative_to(ENGINE).as_posix()
            if rel in OUT_OF_SCOPE_FILES:
                continue
            for value in string_constants(path):
                if _KEBAB.match(value):
                    found.setdefault(value, set()).add(rel)
    return {code: files for code, files in found.items() if code not in NOT_CODES}


def _case_ids() -> list[tuple[str, str]]:
    return sorted(CASES)


@pytest.mark.parametrize(("code", "case"), _case_ids(), ids=[f"{c}/{k}" for c, k in _case_ids()])
def test_rule_case(code: str, case: str, tmp_path: Path) -> None:
    root = materialize(code, case, tmp_path, coverage=code != "adversarial-coverage")
    diagnostics = Suite.open(root, use_git=False).diagnostics()
    expected = CASES[(code, case)]
    assert any(x.code == code for x in expected), "a case shows its own code"
    assert_case(diagnostics, expected)


def test_every_engine_code_has_a_case() -> None:
    """A new rule gets a data file too: a code in the engine sources without a case folder under
    tests/data/rules/ (and not owned by the gold/run rules) fails here."""
    codes = engine_codes()
    assert len(codes) > 60, "the scan found the engine's codes"
    with_folder = {p.name for p in RULES.iterdir() if p.is_dir()}
    missing = {
        code: sorted(files)
        for code, files in codes.items()
        if code not in with_folder
        and code not in GOLD_AND_RUN_CODES
        and code not in NOT_FROM_A_FILE
    }
    assert missing == {}, f"codes without tests/data/rules/<code>/: {missing}"


def test_every_case_folder_is_tested_and_shows_a_real_code() -> None:
    # rating-*/ and adjudication-*/ cases have their tables in tests/ratings/test_rule_cases.py,
    # which checks them
    folders = {
        (p.parent.name, p.name)
        for p in RULES.glob("*/*")
        if p.is_dir() and not p.parent.name.startswith(("rating-", "adjudication-"))
    }
    assert folders == set(CASES), "a case folder without an expectation, or the reverse"
    codes = engine_codes()
    for code, _ in CASES:
        assert code in codes, f"{code} is not a code the engine emits"
    assert set(SETUPS) <= set(CASES)


def test_not_from_a_file_codes_have_their_tests() -> None:
    codes = engine_codes()
    for code, test_name in NOT_FROM_A_FILE.items():
        assert code in codes, f"{code} is no longer emitted; drop it from NOT_FROM_A_FILE"
        module, _, name = test_name.rpartition("::")
        where = vars(importlib.import_module(module)) if module else globals()
        assert name in where, test_name


# --- the codes no file can produce on its own -------------------------------------------------


def test_file_missing_when_the_file_vanishes_before_reading(tmp_path: Path) -> None:
    d = read_bytes(
        str(tmp_path / "gone.yaml"), "gone.yaml", root_real=str(tmp_path), max_bytes=1 << 20
    )
    assert isinstance(d, Diagnostic)
    assert (d.code, d.severity, d.path) == ("file-missing", Severity.ERROR, "gone.yaml")


def test_file_unreadable_when_the_os_refuses(tmp_path: Path) -> None:
    # Root reads any file regardless of its mode, so make the OS refuse another way: a name
    # longer than any file system allows.
    name = "x" * 300 + ".yaml"
    d = read_bytes(str(tmp_path / name), name, root_real=str(tmp_path), max_bytes=1 << 20)
    assert isinstance(d, Diagnostic)
    assert (d.code, d.severity) == ("file-unreadable", Severity.ERROR)
    assert "cannot read" in d.message


def test_file_unreadable_when_open_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "task.yaml"
    path.write_text("id: t1\n", encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    d = read_bytes(str(path), "task.yaml", root_real=str(tmp_path), max_bytes=1 << 20)
    assert isinstance(d, Diagnostic)
    assert d.code == "file-unreadable" and "Permission denied" in d.message


def test_folder_unreadable_when_the_os_refuses_to_list_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Root lists any folder regardless of its mode: refuse the listing of this one instead.
    root = materialize("id-mismatch", "task", tmp_path)
    locked = str(root / "fixtures/bug-diagnosis")
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if os.fspath(path) == locked:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    diagnostics = Suite.open(root, use_git=False).diagnostics()
    [d] = [d for d in diagnostics if d.code == "folder-unreadable"]
    assert (d.severity, d.path, d.line, d.column) == (
        Severity.ERROR,
        "fixtures/bug-diagnosis",
        None,
        None,
    )
    assert "Permission denied" in d.message
    # nothing in it was read: the id-mismatch of the task inside is not reported
    assert "id-mismatch" not in {x.code for x in diagnostics}


def test_yaml_unreadable_when_the_loader_itself_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(loader: object, node: object) -> object:
        raise RuntimeError("constructor bug")

    monkeypatch.setattr(yaml_doc, "_construct", broken)
    doc = yaml_doc.load_yaml("id: t1\n", "task.yaml")
    assert not doc.ok and doc.data is None
    [d] = doc.diagnostics
    assert (d.code, d.severity) == ("yaml-unreadable", Severity.ERROR)
    assert "constructor bug" in d.message


def test_json_unreadable_when_the_loader_itself_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("decoder bug")

    monkeypatch.setattr(json_doc.json, "loads", broken)
    doc = json_doc.load_json('{"a": 1}', "gold.json")
    assert not doc.ok
    [d] = doc.diagnostics
    assert (d.code, d.severity) == ("json-unreadable", Severity.ERROR)


def test_invalid_value_is_the_fallback_for_a_vocabulary_without_a_code() -> None:
    from typing import Literal

    class Model(BaseModel):
        model_config = ConfigDict(strict=True)
        colour: Literal["red", "green"]

    with pytest.raises(ValidationError) as info:
        Model.model_validate({"colour": "gren"})
    [d] = translate(
        info.value,
        "x.yaml",
        NoPositions(),
        models=(Model,),
        vocabularies={"colour": ("red", "green")},
    )
    assert (d.code, d.severity) == ("invalid-value", Severity.ERROR)
    assert "did you mean `green`?" in d.message
