"""`voyage-tui new task|trajectory [PATH] [flags]`: create a fixture, the wizard's way.

Every step of the wizard has a flag; the flags pre-fill its answers. With `--no-input`, with
`--dry-run`, or when stdin is not a terminal, no screen opens: with every required answer the
fixture is written and its path printed (`--dry-run` prints the YAML instead); any problem exits
2 listing every problem at once, and nothing is written. Otherwise the interactive wizard opens
(`open_wizard`). Textual is imported only there, never on the `--no-input` path.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from voyage_tui.cli.common import Parser, no_workspace
from voyage_tui.cli.render import dumps
from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.authoring.answers import (
    KINDS,
    TASK_KIND,
    Answers,
    ContextEntry,
    GateMark,
    PhaseMark,
    RoutingSkip,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.check import Checked, target_folder
from voyage_tui.engine.authoring.choices import CLASS_CHOICES, gate_verdict
from voyage_tui.engine.authoring.commits import RevisionError
from voyage_tui.engine.authoring.drafts import DraftUnusable
from voyage_tui.engine.authoring.session import Authoring, StartError, WizardStart
from voyage_tui.engine.authoring.write import NotWritten
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.formats.vocabulary import VISIBILITIES
from voyage_tui.engine.git.repo import GitUnavailable
from voyage_tui.engine.safe_text import one_line, printable
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace

HEAD_UNRESOLVED = "head-unresolved"

EXIT_WRITTEN = 0
EXIT_PROBLEMS = 2

FLAGS: dict[str, str] = {
    "class": "--class",
    "id": "--id",
    "prompt": "--prompt",
    "ground_truth": "--ground-truth",
    "expected_boundary": "--boundary",
    "visibility": "--visibility",
    "context": "--context / --context-file",
    "adversarial_intent": "--adversarial-intent",
    "scoring_notes": "--scoring-note",
    "path": "--path",
    "phases": "--phase / --skip-phase",
    "skipped_phases": "--skip-phase",
    "gates": "--gate / --skip-gate",
    "skipped_gates": "--skip-gate",
    "terminal_state": "--terminal-state",
    "final_head_sha": "--head",
    "routing_selected": "--routing-selected",
    "routing_skipped": "--routing-skipped",
}
"""The flag that answers each field, named beside its problems."""

USAGE = """usage: voyage-tui new task [PATH] [flags]
       voyage-tui new trajectory [PATH] [flags]

Create a fixture step by step (`voyage-tui new task --help` lists the flags). Shared flags:
  --from ID            start from an existing fixture
  --resume[=DRAFT]     reopen the newest draft (or the one named DRAFT)
  --no-input           never open a screen: write from the flags alone
  --dry-run            print the YAML instead of writing (no screen)
  --format text|json   how --no-input and --dry-run report (json: one object)"""


# --- the interactive wizard ---------------------------------------------------------------------


def open_wizard(start: WizardStart) -> int:
    """Open the app on the wizard with `start`'s answers and return the exit code: 0 when the
    fixture was written (its path printed), 1 when the person left (the draft named). Textual is
    imported here, and only here."""
    from voyage_tui.app.wizard_launch import run_wizard

    return run_wizard(start)


# --- arguments -----------------------------------------------------------------------------------


def _resume_named(args: list[str]) -> list[str]:
    """`--resume=DRAFT` as the hidden `--resume-draft DRAFT` (argparse cannot give one flag an
    optional value that is only taken after `=`); everything after `--` is left alone."""
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        if arg.startswith("--resume="):
            out += ["--resume-draft", arg[len("--resume=") :]]
        else:
            out.append(arg)
    return out


class _Ordered(argparse.Action):
    """Appends (flag, value) to one shared list, so `--context` and `--context-file` keep the
    order they were given in."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        items = list(getattr(namespace, self.dest) or [])
        items.append((option_string, values))
        setattr(namespace, self.dest, items)


def _common(parser: Parser, kind: str) -> None:
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--id", help="the fixture's id: a plain slug, unique across the suite")
    parser.add_argument("--prompt", metavar="TEXT", help="the prompt (`-` reads stdin)")
    parser.add_argument("--visibility", choices=VISIBILITIES, help="public (default) or holdout")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--from", dest="from_id", metavar="ID", help=f"start from the {kind} ID")
    # `--resume[=DRAFT]`: the name only after `=`, so `--resume fixtures` reads `fixtures` as
    # the workspace, as every other command does, not as a draft's name.
    start.add_argument(
        "--resume",
        action="store_true",
        help="reopen the newest draft of this kind from .voyage/drafts/; "
        "`--resume=DRAFT` reopens the draft named DRAFT",
    )
    start.add_argument("--resume-draft", metavar="DRAFT", help=argparse.SUPPRESS)
    parser.add_argument(
        "--no-input", action="store_true", help="never open a screen: write from the flags alone"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the YAML instead of writing (no screen)"
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="with --no-input or --dry-run: text (default: the path written, or the YAML; "
        "problems on stderr) or json (one object: path, id, written, diagnostics, copies, and "
        "the yaml of a dry run)",
    )


def task_parser() -> Parser:
    classes = "\n".join(f"  {c.value}: {c.meaning}" for c in CLASS_CHOICES)
    parser = Parser(
        prog="voyage-tui new task",
        description="Create a single-task fixture in fixtures/<class>/<id>/task.yaml. Exit 0 "
        "when written (or printed with --dry-run), 2 when anything is wrong: every problem is "
        "listed and nothing is written.",
        epilog=f"classes:\n{classes}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _common(parser, "fixture")
    parser.add_argument(
        "--class", dest="fixture_class", metavar="C", help="one of the nine classes"
    )
    parser.add_argument("--ground-truth", metavar="TEXT", help="`-` reads stdin")
    parser.add_argument("--boundary", metavar="B", help="unit, integration, end-to-end, production")
    parser.add_argument(
        "--context", dest="context", action=_Ordered, metavar="TEXT", help="inline context"
    )
    parser.add_argument(
        "--context-file",
        dest="context",
        action=_Ordered,
        metavar="REL",
        help="a file or folder of the workspace, copied into the fixture's folder",
    )
    parser.add_argument("--adversarial-intent", metavar="TEXT", help="the trap (adversarial only)")
    parser.add_argument(
        "--scoring-note", action="append", default=[], metavar="DIM=TEXT", help="per dimension"
    )
    return parser


def trajectory_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui new trajectory",
        description="Create a trajectory fixture in fixtures/trajectories/<id>/task.yaml. Every "
        "phase and gate of journey.md starts ticked; skip those the journey did not take, each "
        "with its reason. Exit 0 when written (or printed with --dry-run), 2 when anything is "
        "wrong: every problem is listed and nothing is written.",
    )
    _common(parser, "trajectory")
    parser.add_argument("--path", dest="journey_path", metavar="P", help="the journey path")
    parser.add_argument(
        "--phase", action="append", default=[], metavar="N", help="tick phase N (traversed)"
    )
    parser.add_argument(
        "--skip-phase", action="append", default=[], metavar="N=REASON", help="untick phase N"
    )
    parser.add_argument(
        "--gate",
        action="append",
        default=[],
        metavar="N[=VERDICT[:DESCRIPTION]]",
        help="record gate N with its verdict: pass (p, the default), conditional (c) or blocked "
        "(b); every gate starts recorded as pass",
    )
    parser.add_argument(
        "--skip-gate", action="append", default=[], metavar="N=REASON", help="skip gate N"
    )
    parser.add_argument("--terminal-state", metavar="S", help="merged, closed, blocked, released")
    parser.add_argument(
        "--head", metavar="REV", help="final_head_sha: any revision, stored as the full SHA"
    )
    parser.add_argument(
        "--routing-selected",
        action="append",
        default=[],
        metavar="SKILL[,SKILL]",
        help="specialists loaded",
    )
    parser.add_argument(
        "--routing-skipped",
        action="append",
        default=[],
        metavar="SKILL=REASON",
        help="a specialist not loaded, and why",
    )
    return parser


# --- the command -----------------------------------------------------------------------------------


def run(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        stream = sys.stdout if argv else sys.stderr
        print(USAGE, file=stream)
        return 0 if argv else 2
    kind, rest = argv[0], argv[1:]
    if kind not in KINDS:
        print(USAGE, file=sys.stderr)
        print(f"voyage-tui new: {kind!r} is not task or trajectory", file=sys.stderr)
        return 2
    parser = task_parser() if kind == TASK_KIND else trajectory_parser()
    args = parser.parse_args(_resume_named(rest))
    stdin = _Stdin(parser)
    try:
        authoring = Authoring.open(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)

    draft = ""
    step: str | None = None
    notes: list[Diagnostic] = []
    """Warnings about where the answers came from, shown with the result whatever it is."""
    try:
        if args.resume or args.resume_draft is not None:
            found = (
                authoring.drafts.load(args.resume_draft)
                if args.resume_draft is not None
                else authoring.drafts.latest(kind)
            )
            if found is None:
                parser.error(f"there is no {kind} draft to resume in .voyage/drafts/")
            if found.kind != kind:
                parser.error(f"draft {found.name!r} is a {found.kind}, not a {kind}")
            answers, draft, step = found.answers, found.name, found.step
        elif args.from_id:
            answers = authoring.start_from(args.from_id, kind)
            leaked = authoring.exposed_source(args.from_id)
            if leaked is not None:
                notes.append(leaked)
        else:
            answers = authoring.new(kind)
    except (DraftUnusable, StartError) as exc:
        return _report(args.format, None, [exc.diagnostic])

    problems: list[Diagnostic] = []
    if isinstance(answers, TaskAnswers):
        _task_flags(args, answers, stdin, authoring)
    else:
        problems += _trajectory_flags(parser, args, answers, stdin, authoring)

    interactive = not (args.no_input or args.dry_run) and _on_a_terminal()
    if interactive:
        start = WizardStart(
            str(authoring.ws.root),
            kind,
            answers,
            draft or authoring.drafts.new_name(kind),
            step,
            notices=tuple(p.message for p in [*notes, *problems]),
        )
        return open_wizard(start)

    checked = authoring.check(answers)
    blocking = checked.blocking + problems
    if blocking or not checked.writable:
        return _report(
            args.format, checked, checked.diagnostics + problems + notes, answers, authoring
        )
    if args.dry_run:
        return _done(args.format, checked, answers, written=False, extra=notes)
    try:
        authoring.write(answers, draft or None)
    except NotWritten as exc:
        return _report(args.format, checked, exc.problems + notes, answers, authoring)
    except OSError as exc:
        print(
            f"voyage-tui new: cannot write {one_line(checked.rel)}: "
            f"{one_line(str(exc.strerror or exc))}; nothing was "
            "written",
            file=sys.stderr,
        )
        return 2
    return _done(args.format, checked, answers, written=True, extra=notes)


# --- flags -> answers ------------------------------------------------------------------------------


def _on_a_terminal() -> bool:
    stdin = sys.stdin
    try:
        return stdin is not None and stdin.isatty()
    except (AttributeError, ValueError, OSError):  # closed, or a stream without a terminal
        return False


class _Stdin:
    """`-` as a text flag's value reads stdin, once."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.used_by: str | None = None

    def text(self, flag: str, value: str) -> str:
        if value != "-":
            return value
        if self.used_by is not None:
            self.parser.error(f"{self.used_by} already reads stdin; only one flag can use `-`")
        self.used_by = flag
        if sys.stdin is None:
            self.parser.error(f"{flag} -: there is no stdin to read")
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, str):
            return data
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.parser.error(f"stdin (for {flag}) is not UTF-8 text")


def _split(parser: Parser, flag: str, value: str, sep: str = "=") -> tuple[str, str]:
    key, found, rest = value.partition(sep)
    if not found or not key.strip():
        parser.error(f"{flag} takes KEY{sep}VALUE, not {value!r}")
    return key.strip(), rest


def _number(parser: Parser, flag: str, text: str) -> int:
    cleaned = text.strip().removeprefix("gate-")
    if not cleaned.isascii() or not cleaned.isdigit() or len(cleaned) > 6:
        parser.error(f"{flag}: {text!r} is not a phase or gate number")
    return int(cleaned)


def _task_flags(
    args: argparse.Namespace, answers: TaskAnswers, stdin: _Stdin, authoring: Authoring
) -> None:
    parser = stdin.parser
    if args.fixture_class is not None:
        answers.fixture_class = args.fixture_class
    if args.id is not None:
        answers.id = args.id
    if args.prompt is not None:
        answers.prompt = stdin.text("--prompt", args.prompt)
    if args.ground_truth is not None:
        answers.ground_truth = stdin.text("--ground-truth", args.ground_truth)
    if args.boundary is not None:
        answers.expected_boundary = args.boundary
    if args.visibility is not None:
        answers.visibility = args.visibility
    for flag, value in args.context or []:
        if flag == "--context":
            answers.context.append(ContextEntry(text=stdin.text(flag, value)))
        else:
            named = _context_file(authoring, value)
            # A source the draft (or --from) already copies is confirmed where it lands there,
            # not copied a second time beside it.
            earlier = next(
                (e for e in answers.context if e.source == named.source and not e.named), None
            )
            if earlier is not None:
                earlier.named = True
            else:
                answers.context.append(named)
    if args.adversarial_intent is not None:
        answers.adversarial_intent = stdin.text("--adversarial-intent", args.adversarial_intent)
    for note in args.scoring_note:
        dimension, text = _split(parser, "--scoring-note", note)
        answers.scoring_notes[dimension] = stdin.text("--scoring-note", text)


def _context_file(authoring: Authoring, value: str) -> ContextEntry:
    """A file the person names (from the current folder): copied into the fixture under its
    own name. A path outside the workspace stays as given, and the check refuses it."""
    ws = authoring.ws
    real = os.path.realpath(os.path.abspath(value))
    rel = os.path.relpath(real, ws.root_real).replace(os.sep, "/")
    name = os.path.basename(os.path.normpath(value)) or value
    return ContextEntry(file=name, source=rel, named=True)


def _trajectory_flags(
    parser: Parser,
    args: argparse.Namespace,
    answers: TrajectoryAnswers,
    stdin: _Stdin,
    authoring: Authoring,
) -> list[Diagnostic]:
    if args.id is not None:
        answers.id = args.id
    if args.journey_path is not None:
        answers.path = args.journey_path
    if args.prompt is not None:
        answers.prompt = stdin.text("--prompt", args.prompt)
    if args.visibility is not None:
        answers.visibility = args.visibility
    if args.terminal_state is not None:
        answers.terminal_state = args.terminal_state
    phases = {p.number: p for p in answers.phases}
    for value in args.phase:
        number = _number(parser, "--phase", value)
        _phase(parser, phases, number, "--phase").traversed = True
    for value in args.skip_phase:
        number_text, _, reason = value.partition("=")
        mark = _phase(parser, phases, _number(parser, "--skip-phase", number_text), "--skip-phase")
        mark.traversed, mark.reason = False, reason
    gates = {g.number: g for g in answers.gates}
    for value in args.gate:
        # `N`, `N=VERDICT` or `N=VERDICT:DESCRIPTION`; the verdict a letter or a word, pass
        # when none is given
        number_text, _, verdict_text = value.partition("=")
        verdict, _, description = verdict_text.partition(":")
        number = _number(parser, "--gate", number_text)
        gate = gates.setdefault(number, GateMark(number))
        gate.recorded, gate.verdict = True, gate_verdict(verdict)
        if description.strip():
            gate.description = description.strip()
    for value in args.skip_gate:
        number_text, _, reason = value.partition("=")
        number = _number(parser, "--skip-gate", number_text)
        gate = gates.setdefault(number, GateMark(number))
        gate.recorded, gate.reason = False, reason
    answers.gates = [gates[n] for n in sorted(gates)]
    for value in args.routing_selected:
        answers.routing_selected += [s.strip() for s in value.split(",") if s.strip()]
    for value in args.routing_skipped:
        skill, reason = _split(parser, "--routing-skipped", value)
        answers.routing_skipped.append(RoutingSkip(skill, reason))
    if args.head is None:
        return []
    try:
        answers.final_head_sha = authoring.resolve_revision(args.head)
    except (RevisionError, GitUnavailable) as exc:
        rel = f"{target_folder(authoring.ws, answers)}/task.yaml"
        return [dg.error(rel, None, HEAD_UNRESOLVED, f"--head: {exc}")]
    return []


def _phase(parser: Parser, phases: dict[int, PhaseMark], number: int, flag: str) -> PhaseMark:
    mark = phases.get(number)
    if mark is None:
        known = ", ".join(str(n) for n in sorted(phases)) or "none"
        parser.error(f"{flag}: journey.md has no phase {number} (its phases: {known})")
    return mark


# --- output --------------------------------------------------------------------------------------


def _field_of(checked: Checked | None, diagnostic: Diagnostic) -> str | None:
    if checked is None:
        return None
    return next((f.field for f in checked.findings if f.diagnostic == diagnostic), None)


def _line(checked: Checked | None, d: Diagnostic) -> str:
    flag = FLAGS.get(_field_of(checked, d) or "")
    hint = f" [{flag}]" if flag else ""
    # the location and the message quote the workspace (a fixture copied with --from, a draft)
    return one_line(f"{d.location()}: {d.severity.value} {d.code}: {d.message}") + hint


def _report(
    fmt: str,
    checked: Checked | None,
    diagnostics: list[Diagnostic],
    answers: Answers | None = None,
    authoring: Authoring | None = None,
) -> int:
    """Nothing was written: every problem, at once."""
    diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "json":
        print(
            dumps(
                {
                    "path": checked.rel if checked else None,
                    "id": answers.id.strip() if answers else None,
                    "written": False,
                    "diagnostics": [d.to_json() for d in diagnostics],
                }
            )
        )
        return EXIT_PROBLEMS
    shown = [d for d in diagnostics if d.severity is not Severity.INFO] or diagnostics
    count = len(shown)
    print(
        f"voyage-tui new: nothing was written; {plural(count, 'problem')}:",
        file=sys.stderr,
    )
    for d in shown:
        print(_line(checked, d), file=sys.stderr)
    if answers is not None and authoring is not None and not answers.id.strip():
        proposal = authoring.propose_id(answers.prompt)
        if proposal:
            print(f"(an id proposed from the prompt: --id {one_line(proposal)})", file=sys.stderr)
    return EXIT_PROBLEMS


def _done(
    fmt: str, checked: Checked, answers: Answers, written: bool, extra: list[Diagnostic]
) -> int:
    notes = [*extra, *(d for d in checked.diagnostics if d not in checked.blocking)]
    if fmt == "json":
        payload: dict[str, Any] = {
            "path": checked.rel,
            "id": answers.id.strip(),
            "written": written,
            "diagnostics": [d.to_json() for d in notes],
            "copies": [{"source": source, "target": target} for source, target in checked.copies],
        }
        if not written:
            payload["yaml"] = checked.text
        print(dumps(payload))
        return EXIT_WRITTEN
    if written:
        print(one_line(checked.rel))
    else:
        # The YAML writer quotes a value holding a control character with escapes already
        # (engine/authoring/render.py); this keeps it so for any line it did not write.
        sys.stdout.write(printable(checked.text))
        # The YAML names only where a copy lands: say what is read, so nothing comes in unseen.
        for source, target in checked.copies:
            print(f"copies {printable(source)} to {printable(target)}", file=sys.stderr)
    for d in notes:
        print(_line(checked, d), file=sys.stderr)
    return EXIT_WRITTEN


__all__ = ["FLAGS", "HEAD_UNRESOLVED", "open_wizard", "run"]
