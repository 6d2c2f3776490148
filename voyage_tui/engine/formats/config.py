"""`voyage.toml` as pydantic models, strict, no extra keys: built from its one declaration
(formats/config_spec.py), never written out by hand, so a key, a default or a bound cannot
differ between the configuration the engine holds and the model that words its diagnostics.

The engine reads the file with engine/workspace/config.py, which checks each value by rules
made from the same declaration (so `validate` starts without importing pydantic) and asks
these models only for the wording of a value the rules refuse.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from voyage_tui.engine.formats.config_spec import SECTIONS, Section

_STRICT = ConfigDict(strict=True, extra="forbid")
_NOT_PYDANTIC = frozenset({"ceiling"})
"""Bounds of the declaration that are the reader's, not pydantic's (config_spec.py)."""


def section_model(kind: type[Section]) -> type[BaseModel]:
    """The pydantic model of one declared section: its keys, types, defaults and bounds."""
    hints = get_type_hints(kind)
    spec: dict[str, Any] = {}
    for declared in fields(kind):
        if declared.name == "fields_set":
            continue
        bounds = {k: v for k, v in declared.metadata.items() if k not in _NOT_PYDANTIC}
        if declared.default_factory is not MISSING:
            default = Field(default_factory=declared.default_factory, **bounds)
        else:
            default = Field(default=declared.default, **bounds)
        spec[declared.name] = (hints[declared.name], default)
    name = kind.__name__.removesuffix("Config") + "Model"
    return create_model(name, __config__=_STRICT, __doc__=kind.__doc__, **spec)


SECTION_MODELS: dict[str, type[BaseModel]] = {
    name: section_model(kind) for name, kind in SECTIONS.items()
}

_SECTION_FIELDS: dict[str, Any] = {
    name: (model, Field(default_factory=model)) for name, model in SECTION_MODELS.items()
}
VoyageModel: type[BaseModel] = create_model("VoyageModel", __config__=_STRICT, **_SECTION_FIELDS)
