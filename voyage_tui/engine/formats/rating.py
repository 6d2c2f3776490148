"""Rater records: one JSON object per line of `ratings/<rater>.jsonl`.

The JSON Schema of a record (`voyage-tui schema rating`), built from the one list of the
record's fields (rating_fields.py), which the engine's checker (engine/ratings/records.py and
rules.py) reads too. The checker gives each problem its own code and line and is stricter still
(a blank id, an empty `scores`, a `rated_at` that is not a UTC time); a test keeps every record
this model refuses refused by those checks too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from voyage_tui.engine.formats.rating_fields import RATING_FIELDS


class _RatingBase(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", title="voyage-tui rating record")


def _fields() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in RATING_FIELDS:
        default = ... if f.required else f.default
        out[f.name] = (
            f.annotation,
            Field(default, description=f.description, **dict(f.constraints)),
        )
    return out


RatingRecord: type[BaseModel] = create_model(
    "RatingRecord", __base__=_RatingBase, __module__=__name__, **_fields()
)
