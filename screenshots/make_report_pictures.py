"""Pictures of the results report, as a reader sees it:

    python screenshots/make_report_pictures.py

On a copy of the sample workspace (tests/sample.py; its `baseline` agent as the baseline),
`voyage-tui results --format html` and `--format md` are written to `sample-report.html` and
`sample-report.md` beside this script; a headless Chromium (`chromium`, the Debian package)
takes the HTML at 1300 and 800 pixels wide (`results-report-1300.png`, `results-report-800.png`)
and the Markdown as a pull-request comment would show it, turned into HTML by markdown-it-py in a
GitHub-like style (`results-report-md.png`). Without Chromium only the report files are written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.sample import copy_sample_into  # noqa: E402
from voyage_tui.cli import main as cli  # noqa: E402

COMMENT_STYLE = """
body{font:14px -apple-system,'Segoe UI','Noto Sans',Helvetica,Arial,sans-serif;color:#1f2328;
margin:0;background:#f6f8fa}
.comment{max-width:880px;margin:16px auto;background:#fff;border:1px solid #d0d7de;
border-radius:6px;padding:16px 24px}
table{border-collapse:collapse;display:block;overflow:auto;margin:0 0 16px}
th,td{border:1px solid #d0d7de;padding:6px 13px}tr:nth-child(2n){background:#f6f8fa}
code{background:#eff1f3;padding:.2em .4em;border-radius:6px;font-size:85%}
blockquote{color:#59636e;border-left:.25em solid #d0d7de;margin:0;padding:0 1em}
h3{font-size:1.25em}h4{font-size:1em}
"""


def reports(root: Path) -> dict[str, Path]:
    out = {}
    for fmt in ("html", "md"):
        target = HERE / f"sample-report.{fmt}"
        argv = ["results", str(root), "--baseline", "baseline", "--format", fmt]
        code = cli([*argv, "--output", str(target), "--force"])
        if code:
            raise SystemExit(code)
        out[fmt] = target
    return out


def comment_page(markdown: Path, page: Path) -> None:
    """The Markdown as GitHub renders a comment: HTML inside it (the `<details>`) kept."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown.read_text())
    page.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<style>{COMMENT_STYLE}</style></head><body><div class='comment'>{body}</div>"
        "</body></html>\n",
        encoding="utf-8",
    )


def shoot(page: Path, png: Path, width: int, height: int) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print(f"no chromium: {png.name} not taken", file=sys.stderr)
        return
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={png}",
            f"--window-size={width},{height}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_sample_into(Path(tmp) / "sample")
        files = reports(root)
        shoot(files["html"], HERE / "results-report-1300.png", 1300, 1950)
        shoot(files["html"], HERE / "results-report-800.png", 800, 2350)
        page = Path(tmp) / "comment.html"
        comment_page(files["md"], page)
        shoot(page, HERE / "results-report-md.png", 1000, 2000)


if __name__ == "__main__":
    main()
