"""`voyage-tui score --gold G --run R [--baseline R0] [--format text|json] [--min-f1 X]`.

Scores a recorded run (a JSON array of reviewer payloads) against a `voyage-eval-gold/1` record.
G, R and R0 are plain paths: they need not be inside a workspace. The rule catalogue is the one
of the workspace holding G (found by walking up from G's folder), else the default one.

Exit 0 when the run passes; 1 when f1 < --min-f1, or, with --baseline, when the run loses a gold
key the baseline matched or flips the verdict BLOCK -> ALLOW; 2 for a usage error or bad input
(unreadable, not JSON, a gold file that is not a valid gold record, a run that is not a list),
with `path:line:column` messages on stderr.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from voyage_tui.cli.common import Parser, use_color
from voyage_tui.cli.render import escape_surrogates, text_lines
from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading.json_doc import JsonDocument, load_json
from voyage_tui.engine.loading.safe_read import read_bytes
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.rules.gold_rules import check_gold_record, is_gold
from voyage_tui.engine.rules.run_rules import run_not_list
from voyage_tui.engine.scoring.compare import BaselineComparison, compare_runs
from voyage_tui.engine.scoring.report import Locate, RunScore, score_run
from voyage_tui.engine.wording import plural

MAX_INPUT_BYTES = 256 * 1024 * 1024
"""Files named on the command line are read up to max(this, the workspace's max_file_bytes):
the workspace limit guards the scan of a whole suite, not a file the user asked for by name."""

SYMBOLS = {
    "matched": "=",
    "dual": "~",
    "missed": "-",
    "spurious": "+",
    "invalid": "!",
}
_COLORS = {"=": "\033[32m", "~": "\033[36m", "-": "\033[31m", "+": "\033[33m", "!": "\033[35m"}
_RESET = "\033[0m"


class BadInput(Exception):
    def __init__(self, diagnostics: list[Diagnostic], note: str = "") -> None:
        super().__init__(note)
        self.diagnostics = diagnostics
        self.note = note


def _unit_float(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui score",
        description="Score a recorded run against its gold file (SPEC 3.5-3.6). Exit 0 when it "
        "passes; 1 when f1 < --min-f1 or, with --baseline, on a lost gold key or a BLOCK -> ALLOW "
        "verdict flip; 2 for a usage error or bad input.",
    )
    parser.add_argument("--gold", required=True, metavar="G", help="a voyage-eval-gold/1 file")
    parser.add_argument(
        "--run", required=True, metavar="R", help="a run: JSON array of reviewer payloads"
    )
    parser.add_argument(
        "--baseline", metavar="R0", help="an earlier run of the same gold to compare against"
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--min-f1", type=_unit_float, default=None, metavar="X", help="fail (exit 1) when f1 < X"
    )
    return parser


# --- loading -----------------------------------------------------------------------------------


def _max_bytes(workspace_limit: int | None) -> int:
    return max(MAX_INPUT_BYTES, workspace_limit or 0)


@dataclass(slots=True)
class Loaded:
    doc: JsonDocument
    text: str

    @property
    def data(self) -> Any:
        return self.doc.data


def load_input(path: str, limit: int) -> Loaded:
    """A JSON file named on the command line. Raises BadInput with `path:line:col` diagnostics."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        raise BadInput([dg.error(path, None, "file-missing", "no such file")]) from None
    except OSError as exc:  # a folder on the way the user may not read: say so, not "missing"
        raise BadInput(
            [dg.error(path, None, "file-unreadable", f"cannot read the file: {exc.strerror}")]
        ) from None
    real = os.path.realpath(path)
    data = read_bytes(
        path, path, root_real=os.path.dirname(real), max_bytes=limit, check_symlink=False
    )
    if isinstance(data, Diagnostic):
        raise BadInput([data])
    text = decode(data, path)
    if isinstance(text, Diagnostic):
        raise BadInput([text])
    doc = load_json(text, path)
    if not doc.ok or any(d.severity is Severity.ERROR for d in doc.diagnostics):
        raise BadInput(doc.diagnostics)
    return Loaded(doc, text)


@dataclass(slots=True)
class CatalogueSource:
    catalogue: Catalogue
    description: str
    limit: int | None


def resolve_catalogue(gold_path: str) -> CatalogueSource:
    """The RULE_CATALOGUE of the workspace holding the gold file, else the default one."""
    from voyage_tui.engine.references.catalogue import parse_catalogue
    from voyage_tui.engine.references.loaded import default_text, load_catalogue
    from voyage_tui.engine.workspace.discovery import NoWorkspace
    from voyage_tui.engine.workspace.model import Workspace

    folder = os.path.dirname(os.path.abspath(gold_path))
    try:
        ws = Workspace.load(folder)
    except NoWorkspace:
        catalogue, _ = parse_catalogue(
            default_text("rule-catalogue.yaml"), "(default rule-catalogue.yaml)"
        )
        return CatalogueSource(catalogue, "default (no workspace holds the gold file)", None)
    loaded = load_catalogue(ws)
    where = os.path.join(str(ws.root), loaded.path)
    description = (
        f"default ({_shown(where)} is missing or unreadable)"
        if loaded.is_default
        else _shown(where)
    )
    return CatalogueSource(loaded.value, description, ws.max_file_bytes)


def _shown(path: str) -> str:
    """A path as short as it reads: relative to the current folder when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def load_gold(path: str, source: CatalogueSource) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The gold record and its warnings. Raises BadInput when it is not a valid gold record."""
    doc = load_input(path, _max_bytes(source.limit)).doc
    data = doc.data
    if not is_gold(data):
        if isinstance(data, dict):
            schema = data.get("schema")
            pos = doc.positions.value(("schema",)) if "schema" in data else (1, 1)
            found = f"its `schema` is {schema!r}" if "schema" in data else "it has no `schema`"
        else:
            pos, found = (1, 1), "it is not a JSON object"
        raise BadInput(
            [
                dg.error(
                    path,
                    pos,
                    "not-gold",
                    f"not a gold record: {found}; a gold file is an object with "
                    '"schema": "voyage-eval-gold/1"',
                )
            ]
        )
    problems = check_gold_record(path, data, doc.positions, source.catalogue)
    errors = [d for d in problems if d.severity is Severity.ERROR]
    if errors:
        raise BadInput(
            sorted(problems, key=Diagnostic.sort_key),
            f"{path} is not a valid gold record ({plural(len(errors), 'error')}); fix it first "
            "(`voyage-tui validate` reports the same)",
        )
    return data, sorted(problems, key=Diagnostic.sort_key)


def load_run(path: str, limit: int) -> Loaded:
    """The run document (its `data` is a list). Raises BadInput when it is not a run."""
    loaded = load_input(path, limit)
    if not isinstance(loaded.data, list):
        raise BadInput([run_not_list(path, loaded.data, loaded.doc.positions)])
    return loaded


class Locator:
    """(line, column) of many places in one JSON text: one scan, then a binary search per place
    (asking `Positions.value` for each would count the newlines before each place again)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._values: dict[tuple[object, ...], tuple[int, int]] | None = None
        self._line_starts: list[int] = []

    def __call__(self, path: tuple[int | str, ...]) -> tuple[int, int] | None:
        if self._values is None:
            from voyage_tui.engine.loading.json_scan import ScanError, scan_positions

            try:
                self._values = scan_positions(self._text)[1]
            except (ScanError, RecursionError):
                self._values = {}
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self._text)]
        for cut in range(len(path), -1, -1):
            span = self._values.get(tuple(path[:cut]))
            if span is not None:
                index = span[0]
                line = bisect.bisect_right(self._line_starts, index)
                return line, index - self._line_starts[line - 1] + 1
        return None


# --- text report -------------------------------------------------------------------------------


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def _figures(score: RunScore | dict[str, Any]) -> str:
    f = score.figures() if isinstance(score, RunScore) else score
    return (
        f"tp {f['tp']}  fp {f['fp']}  fn {f['fn']}   precision {_fmt(f['precision'])}  "
        f"recall {_fmt(f['recall'])}  f1 {_fmt(f['f1'])}"
    )


def _visible(text: str) -> str:
    """Text with each lone surrogate (a JSON `\\udc00` escape in the run or the gold file) shown
    as that escape, as stdout would write it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _paint(symbol: str, color: bool) -> str:
    return f"{_COLORS[symbol]}{symbol}{_RESET}" if color else symbol


def _detail(line: int | None, severity: str | None, reviewers: Sequence[str] = ()) -> str:
    parts = []
    if line is not None:
        parts.append("file-scoped" if line == 0 else f"line {line}")
    if severity:
        parts.append(severity)
    if reviewers:
        parts.append("by " + ", ".join(reviewers))
    return ", ".join(parts)


def text_report(
    result: RunScore,
    *,
    gold_path: str,
    run_path: str,
    gold: dict[str, Any],
    catalogue: str,
    comparison: BaselineComparison | None = None,
    baseline_path: str | None = None,
    min_f1: float | None = None,
    color: bool = False,
    locate: Locate | None = None,
) -> list[str]:
    findings = gold.get("findings") if isinstance(gold.get("findings"), list) else []
    contract = result.contract
    lines = [
        f"gold       {gold_path}  ({plural(len(findings), 'finding')}, "
        f"{plural(result.gold_keys, 'key')})",
        f"run        {run_path}  ({plural(len(contract.reviewers), 'reviewer')}, "
        f"{plural(len(contract.findings), 'merged finding')}, {len(contract.invalid)} invalid)",
        f"catalogue  {catalogue}",
        "",
        f"figures    {_figures(result)}",
        f"verdict    run {result.run_verdict}, expected {result.expected_verdict}: "
        + ("match" if result.verdict_match else "MISMATCH"),
    ]
    rows: list[tuple[str, str, str, str]] = []
    for m in result.matched:
        symbol = SYMBOLS["dual" if m.via == "dual_flaggable" else "matched"]
        details = [f"via {m.run_rule_key}"] if m.via == "dual_flaggable" else []
        if m.gold_severity != m.run_severity:
            details.append(f"severity gold {m.gold_severity}, run {m.run_severity}")
        else:
            details.append(str(m.gold_severity))
        if m.gold_line != m.run_line:
            details.append(f"line {m.gold_line} vs {m.run_line}")
        else:
            details.append("file-scoped" if m.gold_line == 0 else f"line {m.gold_line}")
        if m.reviewers:
            details.append("by " + ", ".join(m.reviewers))
        rows.append((symbol, m.file, m.rule_key, "; ".join(details)))
    for k in result.missed:
        rows.append(
            (SYMBOLS["missed"], k.file, k.rule_key, "missed: gold " + _detail(k.line, k.severity))
        )
    for k in result.spurious:
        rows.append(
            (
                SYMBOLS["spurious"],
                k.file,
                k.rule_key,
                "spurious: " + _detail(k.line, k.severity, k.reviewers),
            )
        )
    if rows:
        # escaped before the widths are taken: `\udc00` fills six columns, not one
        rows = [
            (symbol, _visible(file), _visible(key), detail) for symbol, file, key, detail in rows
        ]
        file_w = min(max(len(r[1]) for r in rows), 48)
        key_w = min(max(len(r[2]) for r in rows), 32)
        lines.append("")
        for symbol, file, key, detail in rows:
            lines.append(
                f"{_paint(symbol, color)} {file.ljust(file_w)}  {key.ljust(key_w)}  {detail}"
            )
    if contract.invalid:
        lines.append("")
        for invalid in contract.invalid:
            pos = locate(invalid.path) if locate else None
            where = f"{run_path}:{pos[0]}:{pos[1]}: " if pos else ""
            lines.append(f"{_paint(SYMBOLS['invalid'], color)} {where}{invalid.describe()}")
    if comparison is not None:
        lines += [
            "",
            f"baseline   {baseline_path}",
            f"  figures  {_figures(comparison.baseline_figures)}",
        ]
        lines.append(
            f"  verdict  {comparison.baseline_verdict} -> {comparison.run_verdict}"
            if comparison.verdict_flip
            else f"  verdict  {comparison.run_verdict} (unchanged)"
        )
        for label, keys in (
            ("gained", comparison.gained),
            ("lost", comparison.lost),
            ("spurious added", comparison.spurious_added),
            ("spurious removed", comparison.spurious_removed),
        ):
            for file, key in keys:
                lines.append(f"  {label.ljust(16)} {file}  {key}")
        lines.append(
            "  REGRESSION: " + "; ".join(comparison.reasons)
            if comparison.regression
            else "  no regression (no gold key lost, no BLOCK -> ALLOW flip)"
        )
    lines += [
        "",
        "legend: = matched   ~ matched via dual_flaggable   - missed   + spurious   "
        "! invalid (left out of the score)",
    ]
    failures = failure_reasons(result, comparison, min_f1)
    lines.append("result: " + ("FAIL: " + "; ".join(failures) if failures else "pass"))
    return lines


def failure_reasons(
    result: RunScore, comparison: BaselineComparison | None, min_f1: float | None
) -> list[str]:
    reasons = []
    if min_f1 is not None and result.f1 < min_f1:
        reasons.append(f"f1 {result.f1:.3f} is below --min-f1 {min_f1:g}")
    if comparison is not None and comparison.regression:
        reasons.append("regression against the baseline: " + "; ".join(comparison.reasons))
    return reasons


# --- JSON ----------------------------------------------------------------------------------------


def dump_report(payload: dict[str, Any], indent: str = "") -> str:
    """The report as JSON, one list entry per line: readable, and written by the C encoder
    (json.dumps with `indent` falls back to the pure-Python one: slow on 100,000 matches)."""
    inner = indent + "  "
    parts = []
    for key, value in payload.items():
        head = f"{inner}{json.dumps(key)}: "
        if isinstance(value, list) and value:
            items = ",\n".join(f"{inner}  {json.dumps(v, ensure_ascii=False)}" for v in value)
            parts.append(f"{head}[\n{items}\n{inner}]")
        elif isinstance(value, dict) and value:
            parts.append(head + dump_report(value, inner).rstrip("\n"))
        else:
            parts.append(head + json.dumps(value, ensure_ascii=False))
    return "{\n" + ",\n".join(parts) + f"\n{indent}}}" + ("\n" if not indent else "")


# --- the command -------------------------------------------------------------------------------


def _bad_input(exc: BadInput) -> int:
    lines = text_lines(exc.diagnostics, color=use_color(sys.stderr))
    if lines:
        print("\n".join(lines), file=sys.stderr)
    if exc.note:
        print(f"voyage-tui score: {exc.note}", file=sys.stderr)
    return 2


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        source = resolve_catalogue(args.gold)
        gold, warnings = load_gold(args.gold, source)
        limit = _max_bytes(source.limit)
        run_file = load_run(args.run, limit)
        baseline = load_run(args.baseline, limit).data if args.baseline else None
    except BadInput as exc:
        return _bad_input(exc)
    if warnings:
        print("\n".join(text_lines(warnings, color=use_color(sys.stderr))), file=sys.stderr)

    result = score_run(run_file.data, gold)
    comparison = compare_runs(result, score_run(baseline, gold)) if baseline is not None else None
    locate: Locate = Locator(run_file.text)

    if args.format == "json":
        payload = result.to_json(locate)
        if comparison is not None:
            payload["baseline"] = comparison.to_json()
        sys.stdout.write(escape_surrogates(dump_report(payload)))
    else:
        print(
            "\n".join(
                text_report(
                    result,
                    gold_path=args.gold,
                    run_path=args.run,
                    gold=gold,
                    catalogue=source.description,
                    comparison=comparison,
                    baseline_path=args.baseline,
                    min_f1=args.min_f1,
                    color=use_color(sys.stdout),
                    locate=locate,
                )
            )
        )
    return 1 if failure_reasons(result, comparison, args.min_f1) else 0
