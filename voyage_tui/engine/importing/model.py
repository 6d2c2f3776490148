"""What a harness's record becomes before it is matched and written: one ImportedSample."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ImportRefused(Exception):
    """A log that cannot be imported (unreadable, malformed, over a limit): nothing is written."""


@dataclass
class ImportedSample:
    """One sample and epoch (or trial) of a harness's log, in the run file's terms (SPEC 3.8)."""

    source: str
    """inspect | swebench | harbor"""
    log: str
    """The log's file name as given (its stem goes into the run id)."""
    sample: str
    epoch: int
    agent: str
    output: str
    patch: str | None = None
    transcript: list[Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    sample_metadata: dict[str, Any] = field(default_factory=dict)
    """The sample's own metadata, where `--map metadata:KEY` looks for the fixture id."""


@dataclass
class Loaded:
    """A log read whole: its format's name and its samples."""

    format: str
    samples: list[ImportedSample]
