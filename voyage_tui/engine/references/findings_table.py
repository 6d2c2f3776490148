"""The findings table of a README.md beside a gold file (the prose side of prose/JSON drift)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from voyage_tui.engine.references.markdown import parse, plain

_FILE_HEADERS = {"file", "path", "file path"}
_RULE_HEADERS = {"rule_key", "rule key", "rule", "rulekey", "rule-key"}


@dataclass(frozen=True, slots=True)
class TableRow:
    file: str
    rule_key: str
    line: int | None


def findings_table_rows(text: str) -> list[TableRow] | None:
    """Rows of every table that has a file column and a rule-key column; None when the README
    has no such table (then there is nothing to drift from)."""
    rows = _rows_of(text)
    return None if rows is None else list(rows)


def forget_tables() -> None:
    """Forget every table read (for a test that counts parses)."""
    _rows_of.cache_clear()


@functools.lru_cache(maxsize=256)
def _rows_of(text: str) -> tuple[TableRow, ...] | None:
    """The rows, read once per text: parsing the table was a quarter of a check of the sample,
    and the app asked again at every re-check of the gold file beside it (the tests, for each
    copy of the sample)."""
    tokens = parse(text)
    rows: list[TableRow] = []
    found = False
    i = 0
    while i < len(tokens):
        if tokens[i].type != "table_open":
            i += 1
            continue
        header: list[str] = []
        body: list[tuple[list[str], int | None]] = []
        current: list[str] | None = None
        row_line: int | None = None
        in_head = False
        j = i + 1
        while j < len(tokens) and tokens[j].type != "table_close":
            token = tokens[j]
            if token.type == "thead_open":
                in_head = True
            elif token.type == "thead_close":
                in_head = False
            elif token.type == "tr_open":
                current = []
                row_line = token.map[0] + 1 if token.map else None
            elif token.type == "inline" and current is not None:
                current.append(plain(token))
            elif token.type == "tr_close" and current is not None:
                if in_head:
                    header = current
                else:
                    body.append((current, row_line))
                current = None
            j += 1
        i = j + 1
        names = [cell.strip().lower() for cell in header]
        file_col = next((k for k, name in enumerate(names) if name in _FILE_HEADERS), None)
        rule_col = next((k for k, name in enumerate(names) if name in _RULE_HEADERS), None)
        if file_col is None or rule_col is None:
            continue
        found = True
        for cells, line in body:
            if max(file_col, rule_col) < len(cells) and cells[file_col] and cells[rule_col]:
                rows.append(TableRow(cells[file_col].strip(), cells[rule_col].strip(), line))
    return tuple(rows) if found else None
