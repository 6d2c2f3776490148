"""Bad input (docs/trust.md): any bytes in any file give diagnostics, never a traceback, never a hang,
never code run. Each hostile input is placed as a task.yaml (or a gold JSON file) in a throwaway
workspace and validated the way the command line does it; each must give the right code, at the
right place where there is one, within a time bound.
"""

from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading import safe_read
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.validation.suite import Suite

T = "fixtures/bug-diagnosis/t1/task.yaml"
G = "gold/g1.json"
BOUND_S = 2.0

GOLD = {
    "schema": "voyage-eval-gold/1",
    "source": "reviews/pr-12.md",
    "description": "A clean change.",
    "expected_verdict": "ALLOW",
    "findings": [],
}


def run(root: Path) -> tuple[list[Diagnostic], float]:
    start = time.perf_counter()
    diagnostics = Suite.open(root, use_git=False).diagnostics()
    return diagnostics, time.perf_counter() - start


def at(diagnostics: list[Diagnostic], path: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.path == path]


def one(diagnostics: list[Diagnostic], path: str, code: str) -> Diagnostic:
    found = [d for d in at(diagnostics, path) if d.code == code]
    assert len(found) == 1, [(d.code, d.line, d.column, d.message) for d in at(diagnostics, path)]
    return found[0]


def errors(diagnostics: list[Diagnostic], path: str) -> list[str]:
    return [d.code for d in at(diagnostics, path) if d.severity is Severity.ERROR]


# --- encodings and line ends ----------------------------------------------------------------


def test_invalid_utf8_is_an_error_with_its_line(make_workspace):
    data = task_yaml("t1").encode() + b"scoring_notes:\n  correctness: na\xefve fix\n"
    diagnostics, took = run(make_workspace({T: data}))
    d = one(diagnostics, T, "invalid-utf8")
    assert (d.line, d.column) == (8, 18)
    assert "0xef" in d.message
    assert took < BOUND_S


def test_invalid_utf8_after_multibyte_text_counts_columns_in_characters(make_workspace):
    data = "prompt: ünïcode \u2603 ok ".encode() + b"\xc3\x28\n"
    diagnostics, _ = run(make_workspace({T: data}))
    d = one(diagnostics, T, "invalid-utf8")
    assert (d.line, d.column) == (1, 22)


def test_utf8_bom_is_fine_and_columns_ignore_it(make_workspace):
    data = codecs.BOM_UTF8 + task_yaml("t2").encode()
    diagnostics, took = run(make_workspace({T: data}))
    assert errors(diagnostics, T) == ["id-mismatch"]
    d = one(diagnostics, T, "id-mismatch")
    assert (d.line, d.column) == (1, 5)
    assert took < BOUND_S


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, codecs.BOM_UTF32_BE], ids=["utf16", "utf32"])
def test_wide_encodings_are_refused_with_a_message(make_workspace, bom):
    diagnostics, _ = run(make_workspace({T: bom + "id: t1\n".encode("utf-16-le")}))
    assert errors(diagnostics, T) == ["not-utf8"]


def test_crlf_line_ends_are_fine_and_line_numbers_stay_right(make_workspace):
    text = task_yaml("t1", extra="grond_truth: typo\nvisibility: holdout\n").replace("\n", "\r\n")
    diagnostics, took = run(make_workspace({T: text.encode()}))
    unknown = one(diagnostics, T, "unknown-field")
    assert (unknown.line, unknown.column) == (7, 1)
    dup = one(diagnostics, T, "duplicate-key")
    assert (dup.line, dup.column) == (8, 1)
    assert "first at line 6" in dup.message
    assert took < BOUND_S


def test_crlf_keeps_the_column_of_a_pipe_entry_on_a_continuation_line(make_workspace):
    text = textwrap.dedent(
        """\
        kind: trajectory
        id: tr1
        path: lightweight
        prompt: Add a flag.
        phases: >-
          1: Intake and provenance |
          4: Implementaton
        gates: "gate-1: scope: pass"
        terminal_state: merged
        visibility: public
        """
    ).replace("\n", "\r\n")
    diagnostics, _ = run(make_workspace({"fixtures/trajectories/tr1/task.yaml": text.encode()}))
    d = one(diagnostics, "fixtures/trajectories/tr1/task.yaml", "phase-name-mismatch")
    assert (d.line, d.column) == (7, 3)


def test_old_mac_line_ends_are_read_as_lines(make_workspace):
    text = task_yaml("t2").replace("\n", "\r")
    diagnostics, _ = run(make_workspace({T: text.encode()}))
    assert errors(diagnostics, T) == ["id-mismatch"]


# --- YAML structure -------------------------------------------------------------------------


def test_tab_indentation_is_an_error_that_names_the_tab(make_workspace):
    text = task_yaml("t1") + "scoring_notes:\n\tcorrectness: ok\n"
    diagnostics, took = run(make_workspace({T: text}))
    d = one(diagnostics, T, "yaml-syntax")
    assert (d.line, d.column) == (8, 1)
    assert "tab" in d.message
    assert took < BOUND_S


def test_tabs_inside_values_and_after_colons_are_fine(make_workspace):
    text = task_yaml("t1").replace("class: ", "class:\t").replace("helper.", "helper.\tNow.")
    diagnostics, _ = run(make_workspace({T: text}))
    assert errors(diagnostics, T) == []


def test_duplicate_key_is_an_error_at_the_second_occurrence(make_workspace):
    text = (
        task_yaml("t1")
        + "harness_constraints:\n  tools: [git]\n  tools: [git, make]\nvisibility: holdout\n"
    )
    diagnostics, took = run(make_workspace({T: text}))
    dups = sorted(
        (d.line, d.column, d.message) for d in at(diagnostics, T) if d.code == "duplicate-key"
    )
    assert [(line, col) for line, col, _ in dups] == [(9, 3), (10, 1)]
    assert "first at line 8" in dups[0][2] and "first at line 6" in dups[1][2]
    assert all(
        d.severity is Severity.ERROR for d in at(diagnostics, T) if d.code == "duplicate-key"
    )
    assert took < BOUND_S


def test_merge_keys_are_not_duplicates(make_workspace):
    text = (
        task_yaml("t1")
        + "harness_constraints:\n  base: &b {tools: [git]}\n  ci:\n    <<: *b\n    minutes: 5\n"
    )
    diagnostics, _ = run(make_workspace({T: text}))
    assert errors(diagnostics, T) == []


UNSAFE_TAGS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:subprocess.call [['touch', '{marker}']]",
    "!!python/object/new:os.system ['touch {marker}']",
    "!!python/object/apply:builtins.exec [\"open('{marker}', 'w').close()\"]",
    "!!python/name:os.system",
    "!!python/module:os",
]


@pytest.mark.parametrize("tag", UNSAFE_TAGS, ids=lambda t: t.split()[0])
@pytest.mark.parametrize("where", ["value", "root"])
def test_unsafe_tags_are_errors_and_never_constructed(make_workspace, tmp_path, tag, where):
    marker = tmp_path / "pwned"
    node = tag.format(marker=marker)
    text = f"{node}\n" if where == "root" else task_yaml("t1") + f"harness_constraints: {node}\n"
    diagnostics, took = run(make_workspace({T: text}))
    d = one(diagnostics, T, "yaml-unsafe-tag")
    assert d.severity is Severity.ERROR
    assert d.line == (1 if where == "root" else 7)
    assert not marker.exists(), "the command in the tag ran"
    assert took < BOUND_S


def test_unsafe_tag_on_a_key_is_never_constructed(make_workspace, tmp_path):
    marker = tmp_path / "pwned"
    text = task_yaml("t1") + f"? !!python/object/apply:os.system ['touch {marker}']\n: x\n"
    diagnostics, _ = run(make_workspace({T: text}))
    assert "yaml-unsafe-tag" in errors(diagnostics, T)
    assert not marker.exists()


def billion_laughs(levels: int = 10, width: int = 10) -> str:
    lines = ['a0: &a0 "lol"']
    for n in range(1, levels):
        refs = ", ".join([f"*a{n - 1}"] * width)
        lines.append(f"a{n}: &a{n} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_found_in_milliseconds(make_workspace):
    text = billion_laughs()  # 10^9 nodes once expanded
    start = time.perf_counter()
    doc = load_yaml(text, T)
    took_load = time.perf_counter() - start
    assert [d.code for d in doc.diagnostics] == ["yaml-alias-bomb"]
    assert took_load < 0.05
    diagnostics, took = run(make_workspace({T: text}))
    d = one(diagnostics, T, "yaml-alias-bomb")
    assert d.line == 6  # a5 = 10^5 lol: the first node past the bound
    assert took < BOUND_S


def test_many_aliases_to_one_small_node_are_fine(make_workspace):
    refs = ", ".join(["*tool"] * 2000)
    text = task_yaml("t1") + f"harness_constraints:\n  one: &tool git\n  all: [{refs}]\n"
    diagnostics, _ = run(make_workspace({T: text}))
    assert errors(diagnostics, T) == []


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ("harness_constraints: " + "[" * 5000 + "]" * 5000 + "\n", (7, 21 + 1000)),
        ("harness_constraints: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n", (7, 21 + 4 * 999 + 1)),
        ("harness_constraints:\n  " + "- " * 5000 + "x\n", (8, 2 + 2 * 998 + 1)),
    ],
    ids=["flow-sequence", "flow-mapping", "block-sequence"],
)
def test_5000_deep_nesting_is_an_error_not_a_recursion_error(make_workspace, body, where):
    diagnostics, took = run(make_workspace({T: task_yaml("t1") + body}))
    d = one(diagnostics, T, "yaml-too-deep")
    assert (d.line, d.column) == where
    assert took < BOUND_S


def test_5000_deep_indented_block_mapping(make_workspace):
    body = "".join(" " * n + "a:\n" for n in range(5000)) + " " * 5000 + "b\n"  # 12.5 MB
    root = make_workspace({T: body, "voyage.toml": "[limits]\nmax_file_bytes = 16_000_000\n"})
    diagnostics, took = run(root)
    d = one(diagnostics, T, "yaml-too-deep")
    assert d.line == 1000
    assert took < BOUND_S


def test_nesting_within_the_bound_loads(make_workspace):
    body = "harness_constraints: " + "[" * 900 + "]" * 900 + "\n"
    diagnostics, _ = run(make_workspace({T: task_yaml("t1") + body}))
    assert errors(diagnostics, T) == []


def test_recursive_alias_is_an_error(make_workspace):
    text = task_yaml("t1") + "harness_constraints: &me {self: *me}\n"
    diagnostics, _ = run(make_workspace({T: text}))
    assert errors(diagnostics, T) == ["yaml-recursive-alias"]


def test_a_huge_integer_is_an_error_with_its_place(make_workspace):
    text = task_yaml("t1") + "harness_constraints: " + "9" * 5000 + "\n"
    diagnostics, _ = run(make_workspace({T: text}))
    d = one(diagnostics, T, "yaml-invalid-value")
    assert (d.line, d.column) == (7, 22)
    assert "too many digits" in d.message


# --- files that must not be read ------------------------------------------------------------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path the engine opens for reading (os.open and open) while the test runs."""
    paths: list[str] = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        paths.append(os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    monkeypatch.setattr(safe_read.os, "open", spy)
    return paths


def test_50_mb_file_is_refused_by_size_before_reading(make_workspace, opened):
    root = make_workspace({})
    path = root / T
    path.parent.mkdir(parents=True)
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, nothing written
    diagnostics, took = run(root)
    d = one(diagnostics, T, "file-too-large")
    assert "52,428,800 bytes" in d.message
    assert str(path) not in opened, "the oversized file was opened"
    assert took < BOUND_S


def test_50_mb_real_content_is_refused_too(make_workspace):
    root = make_workspace({})
    path = root / T
    path.parent.mkdir(parents=True)
    path.write_bytes(b"prompt: " + b"x" * (50 * 1024 * 1024) + b"\n")
    diagnostics, took = run(root)
    assert errors(diagnostics, T) == ["file-too-large"]
    assert took < BOUND_S


def test_binary_file_is_an_error(make_workspace):
    data = bytes(range(256)) * 64
    diagnostics, took = run(make_workspace({T: data}))
    d = one(diagnostics, T, "binary-file")
    assert (d.line, d.column) == (1, 1)
    assert took < BOUND_S


def test_binary_without_nul_bytes_is_an_error(make_workspace):
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(128, 256))
    diagnostics, _ = run(make_workspace({T: data}))
    assert errors(diagnostics, T) in (["invalid-utf8"], ["invalid-character"])


def test_directory_named_task_yaml_is_a_diagnostic(make_workspace):
    root = make_workspace({})
    (root / T).mkdir(parents=True)
    diagnostics, _ = run(root)
    d = one(diagnostics, T, "not-a-regular-file")
    assert "folder" in d.message


def test_symlink_out_of_the_workspace_is_refused_unread(make_workspace, tmp_path, opened):
    outside = tmp_path / "secret.yaml"
    outside.write_text(task_yaml("t1"), encoding="utf-8")
    root = make_workspace({})
    (root / T).parent.mkdir(parents=True)
    os.symlink(outside, root / T)
    diagnostics, _ = run(root)
    assert errors(diagnostics, T) == ["symlink-outside-workspace"]
    assert not any(os.path.realpath(p) == str(outside.resolve()) for p in opened)


def test_symlink_inside_the_workspace_is_followed(make_workspace):
    root = make_workspace({"fixtures/bug-diagnosis/t1/real.yaml": task_yaml("t1")})
    os.symlink("real.yaml", root / T)
    diagnostics, _ = run(root)
    assert at(diagnostics, T) == []


def test_relative_symlink_climbing_out_is_refused(make_workspace, tmp_path):
    (tmp_path / "elsewhere.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    root = make_workspace({})
    (root / T).parent.mkdir(parents=True)
    os.symlink("../../../../elsewhere.yaml", root / T)
    diagnostics, _ = run(root)
    assert errors(diagnostics, T) == ["symlink-outside-workspace"]


FIFO_SCRIPT = textwrap.dedent(
    """\
    import json, sys
    from voyage_tui.engine.validation.suite import Suite
    suite = Suite.open(sys.argv[1], use_git=False)
    suite.revalidate(sys.argv[2:])
    print(json.dumps(sorted({(d.path, d.code) for d in suite.diagnostics()})))
    """
)


def test_fifos_are_never_opened(make_workspace):
    """A FIFO named task.yaml (or journey.md, voyage.toml, a gold file, an agent run) blocks
    whoever opens it for reading; the engine must stat it and move on. Run in a child process
    with a timeout so a regression fails instead of hanging the suite."""
    root = make_workspace({"fixtures/bug-diagnosis/t2/task.yaml": task_yaml("t2")})
    fifos = [
        T,
        "references/journey.md",
        "voyage.toml",
        "gold/g1.json",
        "fixtures/bug-diagnosis/t2/runs/run-1.yaml",
    ]
    for rel in fifos:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / rel)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", FIFO_SCRIPT, str(root), T, "references/journey.md"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test exists for
        pytest.fail("validation hung on a FIFO")
    assert proc.returncode == 0, proc.stderr
    found = {tuple(x) for x in json.loads(proc.stdout)}
    assert (T, "not-a-regular-file") in found
    assert ("references/journey.md", "not-a-regular-file") in found
    assert ("references/journey.md", "reference-default") in found
    assert ("voyage.toml", "not-a-regular-file") in found
    assert ("fixtures/bug-diagnosis/t2/runs/run-1.yaml", "not-a-regular-file") in found


def test_fifo_named_task_yaml_through_the_command_line(make_workspace):
    root = make_workspace({})
    (root / T).parent.mkdir(parents=True)
    os.mkfifo(root / T)
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "voyage_tui",
                "validate",
                str(root),
                "--no-git",
                "--format",
                "json",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:  # pragma: no cover
        pytest.fail("voyage-tui validate hung on a FIFO")
    assert proc.returncode == 1, proc.stderr
    payload = json.loads(proc.stdout)
    assert {(d["path"], d["code"]) for d in payload["diagnostics"]} >= {(T, "not-a-regular-file")}


# --- shapes and types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "where"),
    [
        ("", "empty-file", (1, 1)),
        ("\n\n   \n", "empty-file", (1, 1)),
        ("# only a comment\n", "empty-file", (1, 1)),
        ("---\n", "root-not-mapping", (1, 1)),
        ("- id: t1\n- class: bug-diagnosis\n", "root-not-mapping", (1, 1)),
        ("a plain sentence\n", "root-not-mapping", (1, 1)),
        ("42\n", "root-not-mapping", (1, 1)),
        (task_yaml("t1") + "---\n" + task_yaml("t1"), "yaml-multiple-documents", (7, 1)),
        (task_yaml("t1") + "...\n---\nid: t1\n", "yaml-multiple-documents", (8, 1)),
    ],
    ids=[
        "empty",
        "blank-lines",
        "comment",
        "null-document",
        "list-root",
        "scalar-root",
        "number-root",
        "two-documents",
        "two-documents-with-end-marker",
    ],
)
def test_file_shapes(make_workspace, text, code, where):
    diagnostics, took = run(make_workspace({T: text}))
    d = one(diagnostics, T, code)
    assert (d.line, d.column) == where
    assert d.severity is Severity.ERROR
    assert took < BOUND_S


@pytest.mark.parametrize(
    ("old", "new", "where", "words"),
    [
        (
            "prompt: Fix the off-by-one in the pagination helper.",
            "prompt: 42",
            (3, 9),
            ["`prompt` must be text", "number 42"],
        ),
        (
            "class: bug-diagnosis",
            "class: no",
            (2, 8),
            # a closed vocabulary: its choices, and why `no` is not text (quoting it would
            # not make it one of them)
            ["`class` must be one of: bug-diagnosis, ", "boolean false", "YAML reads yes/no"],
        ),
        (
            "visibility: public",
            "visibility: yes",
            (6, 13),
            ["`visibility` must be one of: public, holdout, not the boolean true (YAML reads"],
        ),
        ("expected_boundary: unit", "expected_boundary: [unit]", (5, 20), ["a list"]),
        ("id: t1", "id: {name: t1}", (1, 5), ["a mapping"]),
        (
            "ground_truth: The last page is no longer dropped; a unit test covers it.",
            "ground_truth:",
            (4, 14),
            ["empty (null)"],
        ),
        ("prompt: Fix the off-by-one in the pagination helper.", "prompt: 2024-01-01", None, None),
    ],
    ids=[
        "prompt-number",
        "class-no",
        "visibility-yes",
        "boundary-list",
        "id-mapping",
        "ground-truth-null",
        "prompt-date",
    ],
)
def test_wrong_types_have_helpful_messages(make_workspace, old, new, where, words):
    text = task_yaml("t1").replace(old, new)
    diagnostics, took = run(make_workspace({T: text}))
    if where is None:  # a date stays the text it was written as: no error
        assert errors(diagnostics, T) == []
        return
    d = one(diagnostics, T, "wrong-type")
    assert (d.line, d.column) == where
    for word in words:
        assert word in d.message, d.message
    assert took < BOUND_S


def test_keys_that_are_not_text(make_workspace):
    text = task_yaml("t1") + "1: one\nnull: nothing\n2.5: half\n"
    diagnostics, _ = run(make_workspace({T: text}))
    wrong = sorted((d.line, d.column) for d in at(diagnostics, T) if d.code == "wrong-type")
    assert wrong == [(7, 1), (8, 1), (9, 1)]


def test_a_list_or_mapping_as_a_key_is_an_error(make_workspace):
    text = task_yaml("t1") + "? [a, b]\n: c\n"
    diagnostics, _ = run(make_workspace({T: text}))
    d = one(diagnostics, T, "yaml-syntax")
    assert d.line == 7


# --- gold JSON files ----------------------------------------------------------------------------


def gold_text(**changes: object) -> str:
    return json.dumps({**GOLD, **changes}, indent=2) + "\n"


@pytest.mark.parametrize(
    ("text", "code", "where"),
    [
        ('{\n  "schema": "voyage-eval-gold/1",\n  "source": \n}\n', "json-syntax", (4, 1)),
        ('{\n  "schema": "voyage-eval-gold/1",\n  "source": "a",\n}\n', "json-syntax", (4, 1)),
        ('{\n  "schema": "voyage-eval-gold/1",\n  "source": NaN\n}\n', "json-syntax", (3, 13)),
        (
            '{\n  "schema": "voyage-eval-gold/1",\n  "weight": -Infinity\n}\n',
            "json-syntax",
            (3, 13),
        ),
        ('{"schema": "voyage-eval-gold/1", "n": ' + "9" * 5000 + "}", "json-syntax", (1, 39)),
        (
            '{"schema": "voyage-eval-gold/1", "x": ' + "[" * 5000 + "]" * 5000 + "}",
            "json-too-deep",
            (1, 39 + 998),
        ),
        (
            '{"schema": "voyage-eval-gold/1", "x": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}",
            "json-too-deep",
            (1, 39 + 6 * 998),
        ),
        (gold_text() + gold_text(), "json-syntax", (8, 1)),
    ],
    ids=[
        "missing-value",
        "trailing-comma",
        "nan",
        "infinity",
        "huge-number",
        "deep-array",
        "deep-object",
        "two-documents",
    ],
)
def test_gold_json_hostile_inputs(make_workspace, text, code, where):
    diagnostics, took = run(make_workspace({G: text}))
    d = one(diagnostics, G, code)
    assert (d.line, d.column) == where
    assert d.severity is Severity.ERROR
    assert took < BOUND_S


def test_gold_json_duplicate_key_is_an_error_at_the_second_occurrence(make_workspace):
    text = gold_text().replace('"findings": []', '"findings": [],\n  "source": "again"')
    diagnostics, _ = run(make_workspace({G: text}))
    d = one(diagnostics, G, "duplicate-key")
    assert (d.line, d.column) == (7, 3)
    assert "`source`" in d.message


def test_gold_json_invalid_utf8_bom_and_crlf(make_workspace):
    bad = gold_text().encode().replace(b"A clean change.", b"A cl\xe9an change.")
    crlf = gold_text(expected_verdict="ALOW").replace("\n", "\r\n")
    root = make_workspace(
        {
            G: bad,
            "gold/g2.json": codecs.BOM_UTF8 + gold_text().encode(),
            "gold/g3.json": crlf.encode(),
        }
    )
    diagnostics, _ = run(root)
    d = one(diagnostics, G, "invalid-utf8")
    assert (d.line, d.column) == (4, 23)
    assert errors(diagnostics, "gold/g2.json") == []
    verdict = one(diagnostics, "gold/g3.json", "invalid-verdict")
    assert (verdict.line, verdict.column) == (5, 23)


def test_gold_json_binary_and_oversized(make_workspace):
    root = make_workspace(
        {
            G: b'{"schema": "voyage-eval-gold/1", "x": "\x00"}',
            "voyage.toml": "[limits]\nmax_file_bytes = 4096\n",
            "gold/big.json": gold_text(description="x" * 8000),
        }
    )
    diagnostics, took = run(root)
    assert errors(diagnostics, G) == ["binary-file"]
    assert errors(diagnostics, "gold/big.json") == ["file-too-large"]
    assert took < BOUND_S


def test_gold_json_lone_surrogate_does_not_break_any_output_format(make_workspace):
    text = gold_text().replace('"findings": []', '"findings": [],\n  "\\ud800": 1')
    root = make_workspace({G: text})
    diagnostics, _ = run(root)
    assert G in {d.path for d in diagnostics}
    for fmt in ("text", "json", "github"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "voyage_tui",
                "validate",
                str(root),
                "--no-git",
                "--format",
                fmt,
            ],
            capture_output=True,
            timeout=60,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
        assert proc.returncode in (0, 1)
        if fmt == "json":
            json.loads(proc.stdout)


def test_file_name_that_is_not_utf8_does_not_break_the_output(make_workspace):
    root = make_workspace({})
    folder = os.fsencode(root) + b"/fixtures/bug-diagnosis/caf\xe9"
    os.makedirs(folder)
    with open(folder + b"/task.yaml", "w", encoding="utf-8") as handle:
        handle.write(task_yaml("x"))
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", "validate", str(root), "--no-git"],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    assert proc.returncode == 1
    assert b"id-mismatch" in proc.stdout


# --- the fast builder and PyYAML's safe constructor agree ------------------------------------

FAST_AND_GENERAL = [
    "id: t1\nlist: [1, 2.5, true, null, ~, 0x1F, 2024-01-02]\nnested: {a: {b: [c, {d: e}]}}\n",
    "a: &x [1, 2]\nb: *x\n",
    "base: &b {k: 1}\nmerged:\n  <<: *b\n  k: 2\n",
    "s: !!set {a, b}\n",
    "o: !!omap [{a: 1}, {b: 2}]\n",
    "bin: !!binary aGVsbG8=\n",
    "? [complex]\n: key\n",
    "dup: 1\ndup: 2\n",
]


@pytest.mark.parametrize("text", FAST_AND_GENERAL)
def test_fast_builder_matches_the_safe_constructor(text: str) -> None:
    import yaml

    from voyage_tui.engine.loading import yaml_doc

    doc = yaml_doc.load_yaml(text, "task.yaml")
    try:
        expected = yaml.load(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        assert not doc.ok
        return
    if isinstance(expected, dict):
        for key, value in list(expected.items()):
            if hasattr(value, "isoformat"):
                expected[key] = value.isoformat()
        expected = {
            k: (
                [v.isoformat() if hasattr(v, "isoformat") else v for v in vs]
                if isinstance(vs, list)
                else vs
            )
            for k, vs in expected.items()
        }
    assert doc.data == expected


@pytest.mark.parametrize(
    "text",
    [
        "a: yes\nb: 'yes'\nc: \"1\"\nd: 1\ne: 1.5\nf: ~\ng: null\nh: 2024-01-02\ni: !!str 3\nj: ! 4\nk: |\n  5\n",
        "- on\n- 'on'\n- 0o17\n- 0x1F\n- .inf\n- -.Inf\n- .NaN\n",
    ],
)
def test_cached_tag_resolution_matches_pyyaml(text: str) -> None:
    import yaml

    from voyage_tui.engine.loading import yaml_doc

    for _ in range(2):  # the second pass reads the tags from the cache
        data = yaml_doc.load_yaml(text, "task.yaml").data
        expected = yaml.load(text, Loader=yaml.SafeLoader)
        if isinstance(expected, dict):
            expected = {
                k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in expected.items()
            }
        assert repr(data) == repr(expected)
