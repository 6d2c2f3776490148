"""A diff as a Markdown table, for a pull-request comment, and writing it into the workspace.

A run is JSON from anywhere: its strings may hold lone surrogates (`"\\udc00"`), which no encoder
accepts. They are shown as the escape that wrote them, so the table can always be written or
copied and the odd character stays visible.

Every name in the export comes from the workspace (a run's file name, the gold's folder, a
finding's file, rule key and reviewer), so whoever wrote the branch chose it. Each is escaped
before it is written: a line break, any other control character and the bidi overrides become
visible escapes (`\\x0a`, `\\u202e`), so a name cannot add a line of its own under the header or
reorder what a reader sees; Markdown's special characters are backslash-escaped, and code spans
are fenced with more backticks than the name holds, so a name cannot end its cell, its span or
the table. The default file name of an export is made of the run's name with all of that, the
path separators and a leading dot or dash replaced.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat

from voyage_tui.engine.atomic import Expected, WriteRefused
from voyage_tui.engine.review.rows import DiffRow
from voyage_tui.engine.scoring.report import RunScore
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

_SURROGATE = re.compile("[\ud800-\udfff]")

# C0 and C1 controls (with DEL), the line and paragraph separators, the bidi embeddings,
# overrides and isolates, and lone surrogates: nothing a reader should get unseen.
_UNSEEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

# What Markdown (CommonMark with GitHub's tables, strikethrough and math) gives a meaning inside
# a line: emphasis, code, links and images, HTML and entities, a header's closing `#`s, table
# cells, strikethrough, math. `-`, `.` and `:` only mean something at the start of a line, where
# no name is ever written, so names such as `run-misses` stay as they are.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>#|!~$&])")

_BACKTICKS = re.compile("`+")

MAX_NAME_BYTES = 200
"""A default export's name, before `-diff.md`: well under NAME_MAX (255 bytes), with room for
the writer's temp name beside it."""


def encodable(text: str) -> str:
    """`text` with every surrogate code point written as its `\\uXXXX` escape."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def unseen_escaped(text: str) -> str:
    """`text` on one line, every character a reader would not see (or would see act) written as
    its escape: `\\x0a` for a line break, `\\x1b` for ESC, `\\u202e` for a bidi override."""
    return _UNSEEN.sub(_visible, text)


def markdown_text(value: object) -> str:
    """`value` as Markdown text on one line that reads as the value: no character of it starts
    emphasis, a link, HTML or a new cell, and no line break or control character is left."""
    text = "" if value is None else str(value)
    return unseen_escaped(_MARKDOWN.sub(r"\\\1", text))


def markdown_code(value: object) -> str:
    """`value` as one Markdown code span in a table cell, whatever backticks, pipes or line breaks
    it holds: fenced with one backtick more than its longest run of them, its pipes escaped for
    the table (with the backslashes before them, which would otherwise pair up and free the
    pipe), and what a reader would not see escaped."""
    text = unseen_escaped("" if value is None else str(value))
    text = re.sub(r"(\\*)\|", lambda m: m.group(1) * 2 + "\\|", text)
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def export_file_name(name: str, suffix: str = "-diff.md") -> str:
    """A file name made from `name` (a run's) that stays a plain name in its folder: no path
    separator, control character, bidi override or lone surrogate (each becomes `_`), no leading
    dot, dash or space (a hidden file, or one a shell takes for an option), at most
    MAX_NAME_BYTES bytes before `suffix`; "run" when nothing is left."""
    plain = re.sub(r"[/\\]", "_", _UNSEEN.sub("_", name)).lstrip(". -")
    cut = plain.encode("utf-8")[:MAX_NAME_BYTES].decode("utf-8", "ignore")
    return f"{cut or 'run'}{suffix}"


def default_export_rel(run_rel: str, run_name: str) -> str:
    """Where the export of the run at `run_rel` goes unless the person says otherwise: beside the
    run, named after it. The folders on the way are the run's own, with any character a reader
    would not see replaced, so the path shown to confirm is the path written."""
    folder, _, _ = run_rel.rpartition("/")
    folder = _UNSEEN.sub("_", folder)
    name = export_file_name(run_name)
    return f"{folder}/{name}" if folder else name


def _side(line: int | None, severity: str | None, rule_key: str | None = None) -> str:
    """A side of a row as Markdown for one cell (its parts escaped)."""
    if line is None and severity is None:
        return ""
    parts = []
    if rule_key:
        parts.append(markdown_code(rule_key))
    if severity:
        parts.append(markdown_text(severity))
    if line is not None:
        # Line 0 is a file-scoped finding; the diff screen shows it as `(file)` too.
        parts.append(f"line {markdown_text(line)}" if line else "(file)")
    return " ".join(parts)


def markdown_table(gold_name: str, run_name: str, score: RunScore, rows: list[DiffRow]) -> str:
    """The diff as Markdown: a header naming the run and the gold, the figures, one table line
    per row, the invalid findings. Every value from the files is escaped (see the module's
    note), so the text has exactly these lines whatever the names hold."""
    verdict = "✓ match" if score.verdict_match else "✗ mismatch"
    lines = [
        f"### {markdown_text(run_name)} vs {markdown_text(gold_name)}",
        "",
        f"tp {score.tp} · fp {score.fp} · fn {score.fn} · precision {score.precision:.3f} · "
        f"recall {score.recall:.3f} · F1 {score.f1:.3f} · "
        f"verdict {markdown_text(score.run_verdict)} "
        f"(expected {markdown_text(score.expected_verdict)}: {verdict})",
        "",
        "| | file | rule_key | gold | run | notes |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        gold = _side(row.gold_line, row.gold_severity) if row.has_gold else ""
        run_key = (
            row.run_rule_key if row.run_rule_key and row.run_rule_key != row.rule_key else None
        )
        run = _side(row.run_line, row.run_severity, run_key) if row.has_run else ""
        notes = "; ".join(row.differences)
        if row.reviewers:
            notes = (notes + "; " if notes else "") + "reviewers: " + ", ".join(row.reviewers)
        lines.append(
            f"| {row.symbol} {row.state} | {markdown_code(row.file)} | "
            f"{markdown_code(row.rule_key)} | {gold} | {run} | {markdown_text(notes)} |"
        )
    invalid = score.invalid_findings
    if invalid:
        lines += ["", f"{plural(len(invalid), 'invalid finding')} left out of the score:"]
        for finding in invalid:
            where = f"finding {finding.index}" if finding.index is not None else "the whole payload"
            problems = "; ".join(finding.problems)
            lines.append(f"- {markdown_text(finding.reviewer)}, {where}: {markdown_text(problems)}")
    lines.append("")
    lines.append("`=` matched · `~` matched via dual_flaggable · `-` missed · `+` spurious")
    return encodable("\n".join(lines) + "\n")


def export_target(ws: Workspace, rel: str) -> Expected:
    """What an export to the workspace-relative `rel` would replace, as the writer's `expect`:
    `Expected(None)` when nothing is there (a file that appears meanwhile is then not
    overwritten), else the digest of the regular file there, which the person is asked about
    before it is overwritten (and which must still be there, unchanged, when it is).

    Raises WriteRefused, saying what and why, when the name or a folder on the way is a symlink
    (an export never writes through a link, even one that stays inside the workspace), the name
    is not a regular file, or the path is outside the workspace or holds `..`. Only a first look, to ask the
    right question: the writer checks every rule again as it writes."""
    if ".." in rel.replace(os.sep, "/").split("/"):
        # Read lexically, `out/../x` is `x`; the system resolves `out` first, and through a
        # link `..` is the parent of wherever it leads. Never guess which one is meant.
        raise WriteRefused(
            rel,
            f"{rel} goes up a folder (`..`); nothing was written. Give the path from the "
            "workspace's root",
        )
    root = os.path.abspath(ws.root)
    full = os.path.normpath(os.path.join(root, rel))
    if full == root or not full.startswith(root.rstrip(os.sep) + os.sep):
        raise WriteRefused(rel, f"{rel} is outside the workspace; nothing was written")
    here = root
    parts = os.path.relpath(full, root).split(os.sep)
    for depth, part in enumerate(parts, start=1):
        here = os.path.join(here, part)
        shown = "/".join(parts[:depth])
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            return Expected(None)  # the rest is made by the write
        if stat.S_ISLNK(info.st_mode):
            what = "is a symlink" if depth == len(parts) else f"goes through the symlink {shown}"
            raise WriteRefused(
                rel,
                f"{rel} {what}; an export is never written through a link (it could replace "
                "a file other than the one named). Nothing was written: choose another name, "
                "or remove the link",
            )
        if depth < len(parts) and not stat.S_ISDIR(info.st_mode):
            raise WriteRefused(rel, f"{shown} is not a folder; nothing was written")
    if not stat.S_ISREG(info.st_mode):
        raise WriteRefused(
            rel,
            f"{rel} is not a regular file (a folder, FIFO, socket or device); nothing was written",
        )
    return Expected(_digest(here), MAX_TARGET_BYTES)


MAX_TARGET_BYTES = 1 << 30
"""An existing file larger than this is never overwritten by an export (it is not a diff)."""


def _digest(path: str) -> str:
    """sha256 of the regular file at `path`, opened without following a link or blocking."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TARGET_BYTES:
            return ""  # matches no file: the write is refused as changed
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 16):
            digest.update(chunk)
        return digest.hexdigest()
    finally:
        os.close(fd)


def write_markdown_file(ws: Workspace, rel: str, text: str, expect: Expected | None = None) -> str:
    """Write `text` to the workspace-relative `rel`, creating its folders, and return the real
    path written. `expect`: what `export_target` found there; the write happens only if it is
    still so (ContentChanged otherwise). Raises WriteRefused (an OSError) when `rel` is or leads
    outside the workspace or is not a regular file, and OSError when the write fails."""
    return write_file(
        ws, rel, encodable(text).encode("utf-8"), expect=expect, make_folders=True, shown=rel
    )
