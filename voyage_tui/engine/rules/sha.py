"""The shape of `final_head_sha`, checkable without git: a full SHA-1 or SHA-256 hex digest."""

from __future__ import annotations

import re

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Position
from voyage_tui.engine.wording import plural

_HEX = re.compile(r"^[0-9a-fA-F]+$")


def check_sha_format(rel: str, sha: str, where: Position) -> list[Diagnostic]:
    value = sha.strip()
    if not value:
        return []  # an empty value is reported by the rule that requires it
    if not _HEX.match(value):
        return [
            dg.error(
                rel,
                where,
                "sha-invalid",
                f"final_head_sha {value!r} is not a commit SHA (hexadecimal digits only)",
            )
        ]
    if len(value) in (40, 64):
        return []
    if len(value) < 40:
        return [
            dg.error(
                rel,
                where,
                "sha-abbreviated",
                f"final_head_sha {value!r} is abbreviated ({plural(len(value), 'digit')}); the verdict must "
                "bind to one exact commit: write the full SHA (`git rev-parse <sha>`)",
            )
        ]
    return [
        dg.error(
            rel,
            where,
            "sha-invalid",
            f"final_head_sha has {plural(len(value), 'hex digit')}; a commit SHA has 40 (or 64 in a "
            "SHA-256 repository)",
        )
    ]
