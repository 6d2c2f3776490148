"""Write the example HTML report of `voyage-tui results` and a picture of its charts:

    python screenshots/make_results_report.py

On the workspace the results tests build (tests/results/common.py: an agent clearly better, equal
and clearly worse than the baseline on three dimensions; two gold corpora with two review
agents), `results --baseline old --format html` is written to `results-report.html` here, and
the SVG charts it embeds, stacked on a white page, to `results-html.svg` (docs/cli.md shows it).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.results.common import build  # noqa: E402
from voyage_tui.cli import main as cli  # noqa: E402

SVG = re.compile(
    r"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 (\d+) (\d+)'.*?</svg>", re.S
)


def main(folder: Path = HERE) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = build(Path(tmp) / "ws")
        # Printed, not written with --output: voyage-tui writes only inside the workspace.
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = cli(["results", str(root), "--baseline", "old", "--format", "html"])
        if code:
            raise SystemExit(code)
    page = printed.getvalue()
    (folder / "results-report.html").write_text(page, encoding="utf-8")
    charts, y, width = [], 10, 0
    for found in SVG.finditer(page):
        w, h = int(found.group(1)), int(found.group(2))
        title = re.search(r"aria-label='([^']*)'", found.group(0))
        charts.append(
            f"<text x='10' y='{y + 14}' font-family='sans-serif' font-size='14' "
            f"font-weight='bold'>{title.group(1) if title else ''}</text>"
        )
        y += 22
        inner = found.group(0).replace("<svg ", f"<svg x='10' y='{y}' height='{h}' ", 1)
        charts.append(inner)
        y += h + 10
        width = max(width, w + 20)
    picture = (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{y}'>"
        f"<rect width='100%' height='100%' fill='white'/>{''.join(charts)}</svg>\n"
    )
    (folder / "results-html.svg").write_text(picture, encoding="utf-8")


if __name__ == "__main__":
    main()
