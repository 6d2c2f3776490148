"""`voyage-tui score --gold G --run R [--baseline R0] [--format text|json] [--min-f1 X]`.

Scores a recorded run (a JSON array of reviewer payloads) against a `voyage-eval-gold/1` record.
G, R and R0 are plain paths: they need not be inside a workspace. Rule keys are checked against
the catalogue named with `--catalogue`, else the one of the workspace holding G (found by walking
up from G's folder), else not at all (the report says so, once). The files are loaded and checked
by the same loader as `validate` and the app's diff screen use (engine/rules/gold_run_files.py).

Exit 0 when the run passes; 1 when f1 < --min-f1, or, with --baseline, when the run loses a gold
key the baseline matched or flips the verdict BLOCK -> ALLOW; 2 for a usage error or bad input
(unreadable, not JSON, a gold file that is not a valid gold record, a run that is not a list),
or a `--catalogue` that cannot be used), with `path:line:column` messages on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from voyage_tui.cli.common import Parser, add_match_option, use_color
from voyage_tui.cli.render import json_safe, shown, text_lines
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.review.inputs import ReviewError, ReviewInputs
from voyage_tui.engine.rules.gold_run_files import choose_catalogue
from voyage_tui.engine.scoring.compare import BaselineComparison, compare_runs
from voyage_tui.engine.scoring.report import Locate, RunScore, score_run
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode
from voyage_tui.engine.wording import plural

SYMBOLS = {
    "matched": "=",
    "dual": "~",
    "missed": "-",
    "spurious": "+",
    "invalid": "!",
}
_COLORS = {"=": "\033[32m", "~": "\033[36m", "-": "\033[31m", "+": "\033[33m", "!": "\033[35m"}
_RESET = "\033[0m"


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
        description="Score a recorded run against its gold file (docs/scoring.md). Exit 0 when it "
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
    parser.add_argument(
        "--catalogue",
        metavar="PATH",
        help="check rule keys against this RULE_CATALOGUE file (YAML, JSON or JS) instead of the "
        "workspace's; without either, rule keys are not checked",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_match_option(parser)
    parser.add_argument(
        "--min-f1", type=_unit_float, default=None, metavar="X", help="fail (exit 1) when f1 < X"
    )
    return parser


# --- text report -------------------------------------------------------------------------------


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def _figures(score: RunScore | dict[str, Any]) -> str:
    f = score.figures() if isinstance(score, RunScore) else score
    return (
        f"tp {f['tp']}  fp {f['fp']}  fn {f['fn']}   precision {_fmt(f['precision'])}  "
        f"recall {_fmt(f['recall'])}  f1 {_fmt(f['f1'])}"
    )


def _paint(line: str, color: bool) -> str:
    """A finding's line, its leading symbol coloured: the colour is added to a line already
    escaped (`shown`), so it is the only escape sequence in it."""
    symbol = line[:1]
    if not color or symbol not in _COLORS:
        return line
    return f"{_COLORS[symbol]}{symbol}{_RESET}{line[1:]}"


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
    match: MatchMode = DEFAULT_MATCH,
    comparison: BaselineComparison | None = None,
    baseline_path: str | None = None,
    min_f1: float | None = None,
    color: bool = False,
    locate: Locate | None = None,
) -> list[str]:
    listed = gold.get("findings")
    findings = listed if isinstance(listed, list) else []
    contract = result.contract
    lines = [
        f"gold       {gold_path}  ({plural(len(findings), 'finding')}, "
        f"{plural(result.gold_keys, 'key')})",
        f"run        {run_path}  ({plural(len(contract.reviewers), 'reviewer')}, "
        f"{plural(len(contract.findings), 'merged finding')}, {len(contract.invalid)} invalid)",
        f"catalogue  {catalogue}",
        f"match      {match_words(match)}",
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
        # escaped before the widths are taken: `\udc00` or `\x1b` fills several columns
        rows = [(symbol, shown(file), shown(key), detail) for symbol, file, key, detail in rows]
        file_w = min(max(len(r[1]) for r in rows), 48)
        key_w = min(max(len(r[2]) for r in rows), 32)
        lines.append("")
        for symbol, file, key, detail in rows:
            lines.append(f"{symbol} {file.ljust(file_w)}  {key.ljust(key_w)}  {detail}")
    if contract.invalid:
        lines.append("")
        for invalid in contract.invalid:
            pos = locate(invalid.path) if locate else None
            where = f"{run_path}:{pos[0]}:{pos[1]}: " if pos else ""
            lines.append(f"{SYMBOLS['invalid']} {where}{invalid.describe()}")
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
    # Every line holds text from the files (paths, rule keys, reviewers, the catalogue's path):
    # each is escaped whole, and only then are the symbols coloured.
    return [_paint(shown(line), color) for line in lines]


def match_words(match: MatchMode) -> str:
    """The scoring mode as the text reports name it (docs/scoring.md, "Matching modes")."""
    if match == "seed":
        return "seed: (file, rule_key) only, dual_flaggable ignored (as the seed's scoreFindings)"
    return "dual: (file, rule_key), else (file, dual_flaggable) (SPEC 3.6)"


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


def _refused(diagnostics: Sequence[Diagnostic], note: str = "") -> int:
    lines = text_lines(sorted(diagnostics, key=Diagnostic.sort_key), color=use_color(sys.stderr))
    if lines:
        print("\n".join(lines), file=sys.stderr)
    if note:
        print(f"voyage-tui score: {shown(note)}", file=sys.stderr)
    return 2


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    choice = choose_catalogue(args.gold, args.catalogue)
    if choice.problems:
        return _refused(
            choice.problems, f"the catalogue {args.catalogue} cannot be used; fix it first"
        )
    inputs = ReviewInputs.named(choice)
    try:
        gold_file = inputs.load_gold(args.gold)
        run_file = inputs.load_run(args.run)
        baseline = inputs.load_run(args.baseline).data if args.baseline else None
    except ReviewError as exc:
        return _refused(exc.diagnostics, exc.note)
    gold, run_data = gold_file.data, run_file.data
    assert gold is not None and run_data is not None
    warnings = sorted(gold_file.diagnostics, key=Diagnostic.sort_key)
    if warnings:
        print("\n".join(text_lines(warnings, color=use_color(sys.stderr))), file=sys.stderr)
    if not choice.checked and args.format == "json":
        # The text report says it on its `catalogue` line; JSON has no place for it.
        print(f"voyage-tui score: catalogue {shown(choice.description)}", file=sys.stderr)

    match: MatchMode = args.match
    result = score_run(run_data, gold, match)
    comparison = (
        compare_runs(result, score_run(baseline, gold, match)) if baseline is not None else None
    )
    locate: Locate = run_file.positions.value

    if args.format == "json":
        payload = result.to_json(locate)
        if comparison is not None:
            payload["baseline"] = comparison.to_json()
        payload["match"] = match
        sys.stdout.write(json_safe(dump_report(payload)))
    else:
        print(
            "\n".join(
                text_report(
                    result,
                    gold_path=args.gold,
                    run_path=args.run,
                    gold=gold,
                    catalogue=choice.description,
                    match=match,
                    comparison=comparison,
                    baseline_path=args.baseline,
                    min_f1=args.min_f1,
                    color=use_color(sys.stdout),
                    locate=locate,
                )
            )
        )
    return 1 if failure_reasons(result, comparison, args.min_f1) else 0
