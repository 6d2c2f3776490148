"""`voyage-tui agreement [PATH] [--format text|json] [--min-alpha X] [--disputed N]`.

How far the raters agree, per rubric dimension (docs/cli.md, "agreement"): Krippendorff's alpha (ordinal)
over all raters, Cohen's kappa (quadratic weights) per pair of raters, and the items they
disagree on most; then each rater against the adjudicated scores (`calibration`,
engine/ratings/calibration.py). Reads only the rubric, the ratings files and the adjudications
file; `validate` checks the runs the records name. Exit 0; 1 when `--min-alpha` is given and a
dimension's alpha is below it; 2 for a usage error, no workspace, or a ratings file or folder,
or the adjudications file, that cannot be read (its records are missing from the figures, so
they cannot be trusted).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable

from voyage_tui.cli.common import Parser, no_workspace
from voyage_tui.cli.render import dumps
from voyage_tui.engine.campaign.figures import agreement, calibrations
from voyage_tui.engine.campaign.snapshot import Campaign, load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.ratings.agreement import AgreementReport, DisputedItem
from voyage_tui.engine.ratings.calibration import Calibration
from voyage_tui.engine.safe_text import one_line
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui agreement",
        description="How far the raters agree: Krippendorff's alpha (ordinal) per rubric "
        "dimension over all raters, Cohen's kappa (quadratic weights) per pair of raters, and "
        "the most disputed items. Exit 1 when --min-alpha is given and a dimension falls "
        "below it, 2 for a usage error, no workspace, or an unreadable ratings file.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--min-alpha",
        type=float,
        metavar="X",
        help="exit 1 when any dimension's alpha is below X (an alpha that cannot be computed, "
        "with one rater say, is not below)",
    )
    parser.add_argument(
        "--disputed",
        type=int,
        default=5,
        metavar="N",
        help="list the N most disputed items (default 5; 0 for none)",
    )
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.min_alpha is not None and not math.isfinite(args.min_alpha):
        parser.error(f"--min-alpha must be a number, not {args.min_alpha}")
    if args.disputed < 0:
        parser.error("--disputed must be 0 or more")
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    campaign = load_campaign(WorkTree(ws))
    rubric, adjudications = campaign.loaded_rubric, campaign.adjudications
    report = agreement(campaign, disputed=args.disputed)
    calibrated = calibrations(campaign)
    if args.format == "json":
        payload = report.to_json()
        payload["calibration"] = [c.to_json() for c in calibrated]
        print(dumps(payload))
    else:
        notes = Notes()
        lines = text_lines(report, ws.ratings_rel or ".", notes)
        if report.raters:
            lines += calibration_lines(calibrated, notes)
        print("\n".join(lines))
    unreadable = _tell_problems(campaign, [d for d in rubric.diagnostics if _loud(d)])
    if not adjudications.readable:
        for d in adjudications.diagnostics:
            print(
                one_line(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"),
                file=sys.stderr,
            )
        unreadable = True
    if unreadable:
        return 2
    if args.min_alpha is not None:
        below = report.below(args.min_alpha)
        if below:
            listed = ", ".join(
                f"{d.dimension} ({d.alpha:.3f})" for d in below if d.alpha is not None
            )
            print(
                f"voyage-tui agreement: alpha below {args.min_alpha:g}: {listed}",
                file=sys.stderr,
            )
            return 1
    return 0


def _loud(diagnostic: Diagnostic) -> bool:
    return diagnostic.severity is not Severity.INFO


def _tell_problems(campaign: Campaign, rubric_problems: list[Diagnostic]) -> bool:
    """Say on stderr what was left out (the engine decides what: ratings/left_out.py, as the
    agreement screen asks); True when a file or folder could not be read at all."""
    missing = campaign.left_out()
    for d in [*rubric_problems, *missing.unreadable]:
        print(
            one_line(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"),
            file=sys.stderr,
        )
    if missing.records:
        print(
            f"voyage-tui agreement: {plural(len(missing.records), 'problem')} in the "
            "ratings files left records out; `voyage-tui validate` lists them",
            file=sys.stderr,
        )
    return bool(missing.unreadable)


# --- text -------------------------------------------------------------------------------------


def _figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


class Notes:
    """Why a figure is undefined, said once: a row names its reason by number (`[1]`), and the
    reason itself is printed once, below the first table that needs it (nine rows of one pair
    table used to repeat the same sentence, past 150 columns)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self._said = 0

    def mark(self, reason: str | None) -> str:
        """The row's ending: `  [n]` for a reason, "" for none."""
        if not reason:
            return ""
        number = self.numbers.setdefault(reason, len(self.numbers) + 1)
        return f"  [{number}]"

    def new_lines(self) -> list[str]:
        """The reasons numbered since the last call, one line each."""
        fresh = list(self.numbers)[self._said :]
        self._said = len(self.numbers)
        return [f"  [{self.numbers[reason]}] {one_line(reason)}" for reason in fresh]


def text_lines(
    report: AgreementReport, ratings_folder: str, notes: Notes | None = None
) -> list[str]:
    notes = notes if notes is not None else Notes()
    if not report.raters:
        return [f"No ratings yet (in {ratings_folder}/): nothing to compare."]
    labels = report.labels
    title = f"Agreement of {plural(len(report.raters), 'rater')}:"
    if labels.abbreviated:
        # long names: pairs are named by labels (engine/ratings/labels.py), listed here once
        width = max(len(one_line(label)) for label, _ in labels.legend)
        lines = [title]
        lines += [
            f"  {one_line(label).ljust(width)}  {one_line(name)}" for label, name in labels.legend
        ]
    else:
        lines = [f"{title} {one_line(', '.join(report.raters))}"]
    lines += ["", "Krippendorff's alpha (ordinal), all raters"]
    width = max([len(d) for d in report.dimensions] + [len("dimension")])
    lines.append(f"  {'dimension'.ljust(width)}   alpha  items  ratings")
    for name, d in report.dimensions.items():
        row = (
            f"  {one_line(name).ljust(width)}  {_figure(d.alpha):>6}  {d.items:>5}  {d.ratings:>7}"
        )
        lines.append(row + notes.mark(d.reason))
    lines += notes.new_lines()
    if report.pairs:
        lines += ["", "Cohen's kappa (quadratic weights), per pair of raters"]
        pair_width = max(len(one_line(labels.pair(p.raters))) for p in report.pairs)
        lines.append(f"  {'raters'.ljust(pair_width)}  {'dimension'.ljust(width)}   kappa  items")
        shown = None
        for p in report.pairs:
            label = one_line(labels.pair(p.raters))
            cell = label if label != shown else ""
            shown = label
            row = (
                f"  {cell.ljust(pair_width)}  {one_line(p.dimension).ljust(width)}  "
                f"{_figure(p.kappa):>6}  {p.items:>5}"
            )
            lines.append(row + notes.mark(p.reason))
        lines += notes.new_lines()
    omitted = report.pairs_omitted
    if omitted.count:
        lines += [
            "",
            f"{omitted.count:,} (pair, dimension) figures not listed: {omitted.reason}.",
            "  (`--format json` has the same list; `pairs_omitted` counts the rest)",
        ]
    if report.disputed:
        lines += ["", "Most disputed items (largest spread of one dimension's scores)"]
        for item in report.disputed:
            lines.extend(_disputed_lines(item, report))
    return lines


def calibration_lines(calibrated: list[Calibration], notes: Notes | None = None) -> list[str]:
    """Each rater against the adjudicated scores, or why there is nothing to show."""
    notes = notes if notes is not None else Notes()
    title = "Calibration: each rater against the adjudicated scores (quadratic kappa)"
    if not calibrated:
        return ["", title, "  no adjudicated item yet (`voyage-tui adjudicate`)"]
    rater_width = max(len(one_line(c.rater)) for c in calibrated)
    width = max(len(one_line(c.dimension)) for c in calibrated)
    lines = [
        "",
        title,
        f"  {'rater'.ljust(rater_width)}  {'dimension'.ljust(width)}   kappa  items",
    ]
    shown = None
    for c in calibrated:
        name = one_line(c.rater)
        cell = name if name != shown else ""
        shown = name
        row = f"  {cell.ljust(rater_width)}  {one_line(c.dimension).ljust(width)}  {_figure(c.kappa):>6}  {c.items:>5}"
        lines.append(row + notes.mark(c.reason))
    return lines + notes.new_lines()


def _disputed_lines(item: DisputedItem, report: AgreementReport) -> Iterable[str]:
    labels = report.labels
    where = one_line(f"{item.fixture_id} / {item.run_id}")
    yield f"  {where}: spread {item.spread} ({one_line(', '.join(item.widest))})"
    width = max(len(one_line(labels.of(r.rater))) for r in item.ratings)
    for rating in item.ratings:
        scores = one_line(" · ".join(f"{k} {v}" for k, v in (rating.scores or {}).items()))
        yield f"    {one_line(labels.of(rating.rater)).ljust(width)}  {scores}"
        if rating.note:
            yield f"    {' ' * width}  “{one_line(rating.note)}”"
