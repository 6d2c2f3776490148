"""How many examples a Hypothesis property draws.

The README's test command runs a quarter of each property's stated examples (at least 20, never
more than stated): the properties ran 100 of the engine tests' 210 CPU seconds, and the whole
suite must fit the CI budget on two cores. `VOYAGE_THOROUGH=1` runs every stated example, as
before a release or after a change to the property's subject (docs/development.md)."""

from __future__ import annotations

import os

THOROUGH = os.environ.get("VOYAGE_THOROUGH", "") not in ("", "0")


def examples(stated: int) -> int:
    """The examples to draw for a property whose thorough run draws `stated`."""
    if THOROUGH:
        return stated
    return min(stated, max(20, stated // 4))
