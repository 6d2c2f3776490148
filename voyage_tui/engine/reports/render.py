"""The one entry point of reports: a Report in any of FORMATS, as the command line prints it
and the results screen exports it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # nothing of the results is imported for a command's argument parsing
    from voyage_tui.engine.reports.model import Report

FORMATS = ("text", "json", "csv", "md", "html")
SUFFIXES = {"text": ".txt", "json": ".json", "csv": ".csv", "md": ".md", "html": ".html"}


def render(report: Report, fmt: str) -> str:
    """`report` as `fmt` (one of FORMATS), ending in a newline. Raises ValueError otherwise."""
    if fmt == "json":
        import json

        from voyage_tui.engine.safe_text import json_text

        payload = report.to_json()
        return json_text(json.dumps(payload, indent=2, ensure_ascii=False)) + "\n"
    if fmt == "csv":
        from voyage_tui.engine.reports.table import csv_text

        return csv_text(report)
    if fmt == "md":
        from voyage_tui.engine.reports.markdown import markdown

        return markdown(report)
    if fmt == "html":
        from voyage_tui.engine.reports.html_page import html_report

        return html_report(report)
    if fmt == "text":
        from voyage_tui.engine.reports.text import text

        return text(report)
    raise ValueError(f"a report is one of {', '.join(FORMATS)}, not {fmt!r}")
