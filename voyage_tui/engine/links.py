"""Whether a link in workspace text may be opened, and in what form (issue 33).

A run's output, a prompt or a ground truth is Markdown from the workspace, so a link in it is
chosen by whoever wrote the file. Opening one runs the user's browser program with the link as
an argument: a target such as `--remote-debugging-port=9222` would be read by the browser as an
option, and `evil.desktop` or a bare path would be opened as a local file by `xdg-open`. So:

- a rater-only session (`voyage-tui rate`, `serve --rate`) opens no link at all: the rater reads
  runs written by the agents being rated, and their browser is not the suite's to steer;
- elsewhere only an absolute `http` or `https` URL with a host is opened, and what the browser
  is given is the URL as urllib re-assembles it, so it always begins with `http://` or
  `https://` and can never be read as an option; anything else (a relative target, `file:`,
  `mailto:`, a leading `-`, whitespace or control characters) is refused, and said.

The app asks here for every link it would open (app.py `open_url`, which every Markdown widget's
click reaches).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from voyage_tui.engine.safe_text import one_line

OPENED_SCHEMES = frozenset({"http", "https"})
MAX_URL_CHARS = 2048
"""A longer target is refused: no real page needs more, and it is shown shortened anyway."""
SHOWN_CHARS = 80

RATER_SESSION = "links are not opened in a rater session"


@dataclass(frozen=True, slots=True)
class LinkDecision:
    """`url`: what to give the browser, or None when nothing is opened; `reason`: why not (a
    sentence to show the user, workspace text in it escaped), "" when opened."""

    url: str | None
    reason: str = ""


def link_to_open(href: str, *, rater_only: bool) -> LinkDecision:
    """What opening the link `href` does: nothing in a rater-only session; elsewhere the
    re-assembled URL when `href` is an absolute http(s) URL with a host, else nothing."""
    if rater_only:
        return LinkDecision(None, RATER_SESSION)
    problem = _problem(href)
    if problem is not None:
        return LinkDecision(None, f"link not opened: {problem} ({_shown(href)})")
    parts = urlsplit(href)
    url = urlunsplit(parts)
    # Re-assembled from its parts, the URL begins with its scheme; checked again all the same.
    if not url.startswith(f"{parts.scheme}://") or _problem(url) is not None:
        return LinkDecision(None, f"link not opened: not a plain web address ({_shown(href)})")
    return LinkDecision(url)


def _problem(href: str) -> str | None:
    """Why `href` is not an http(s) URL the browser may be given, or None."""
    if not href:
        return "the link is empty"
    if len(href) > MAX_URL_CHARS:
        return f"the link is longer than {MAX_URL_CHARS} characters"
    if href.startswith("-"):
        return "the link starts with `-`, which a program would read as an option"
    if any(char.isspace() or unicodedata.category(char).startswith(("C", "Z")) for char in href):
        return "the link holds spaces or control characters"
    try:
        parts = urlsplit(href)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return "the link is not a well-formed URL"
    if parts.scheme.lower() not in OPENED_SCHEMES:
        return "only http and https links are opened"
    if not parts.netloc or not parts.hostname:
        return "the link names no host"
    if parts.netloc.startswith("-") or parts.hostname.startswith("-"):
        return "the link's host starts with `-`"
    return None


def _shown(href: str) -> str:
    text = one_line(href)
    return text if len(text) <= SHOWN_CHARS else f"{text[: SHOWN_CHARS - 1]}…"
