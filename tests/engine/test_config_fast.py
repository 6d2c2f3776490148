"""voyage.toml is declared once (engine/formats/config_spec.py: plain dataclasses, bounds as
field metadata). The reader checks each value by rules made from it (engine/workspace/config.py),
so `validate` starts without importing pydantic; the pydantic models of engine/formats/config.py,
which word the diagnostics, are built from it. These tests hold the two to one answer: every value the hand-written rules accept, the model accepts
and gives back equal (type included); the same fields with the same defaults; and on every
voyage.toml of the rule data (the bad-config cases) and on generated ones, the diagnostics and
the configuration are those of asking the model about every value."""

from __future__ import annotations

import dataclasses
import datetime
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.budget import examples
from voyage_tui.engine.formats.config import SECTION_MODELS, VoyageModel
from voyage_tui.engine.workspace import config as config_module
from voyage_tui.engine.workspace.config import (
    _CHECKS,
    _KEYS,
    _MISSING,
    _SECTIONS,
    VoyageConfig,
    parse_config,
)

RULE_DATA = Path(__file__).resolve().parents[1] / "data" / "rules"
CONFIG_FILES = sorted(RULE_DATA.glob("config-*/*/voyage.toml"))


def _model_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value goes to the pydantic model, as before the hand-written rules."""
    always_ask = {
        section: dict.fromkeys(keys, lambda value: _MISSING) for section, keys in _CHECKS.items()
    }
    monkeypatch.setattr(config_module, "_CHECKS", always_ask)


def _both(text: str) -> tuple[Any, Any]:
    fast = parse_config(text)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _model_only(monkeypatch)
        slow = parse_config(text)
    return fast, slow


def _same(fast: tuple[VoyageConfig, list[Any]], slow: tuple[VoyageConfig, list[Any]]) -> None:
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]
    for section in _SECTIONS:
        assert getattr(fast[0], section).fields_set == getattr(slow[0], section).fields_set
        for key in _KEYS[section]:
            a, b = getattr(getattr(fast[0], section), key), getattr(getattr(slow[0], section), key)
            assert type(a) is type(b), (section, key, a, b)


def test_the_rule_data_holds_bad_configs() -> None:
    assert len(CONFIG_FILES) >= 8  # the test below cannot pass by finding nothing


@pytest.mark.parametrize(
    "path", CONFIG_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}"
)
def test_each_bad_config_case_gives_what_the_model_gives(path: Path) -> None:
    fast, slow = _both(path.read_text(encoding="utf-8"))
    assert fast[1], "each case has a diagnostic"
    _same(fast, slow)


def test_the_fields_and_defaults_are_the_models() -> None:
    assert list(_SECTIONS) == list(SECTION_MODELS) == list(VoyageModel.model_fields)
    for name, kind in _SECTIONS.items():
        model = SECTION_MODELS[name]
        assert _KEYS[name] == tuple(model.model_fields), name
        assert set(_CHECKS[name]) == set(_KEYS[name]), name
        ours, theirs = kind(), model()
        for key in _KEYS[name]:
            assert getattr(ours, key) == getattr(theirs, key), (name, key)
    assert dataclasses.asdict(VoyageConfig()) == {
        name: {**getattr(VoyageModel(), name).model_dump(), "fields_set": frozenset()}
        for name in _SECTIONS
    }


def test_model_validate_builds_the_same_configuration() -> None:
    config = VoyageConfig.model_validate({"paths": {"fixtures": "suite"}, "triage": {"min_f1": 1}})
    assert config.paths.fixtures == "suite"
    assert config.triage.min_f1 == 1.0 and type(config.triage.min_f1) is float
    assert config.explicitly_set("paths", "fixtures")
    assert not config.explicitly_set("paths", "journey")
    with pytest.raises(ValidationError):
        VoyageConfig.model_validate({"limits": {"max_file_bytes": True}})


# --- every value: the rules accept only what the model accepts, and give back what it gives ---

scalars = st.one_of(
    st.text(max_size=8),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, 1, 2, 100, 101, 1000, 1001, 1_000_000, 1_000_001, 1 << 40, (1 << 40) + 1]),
    st.sampled_from([-1, 1 << 53, (1 << 53) + 1, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.0000001, math.inf, math.nan]),
    st.datetimes(),
    st.dates(),
    st.times(),
)
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=4),
    st.lists(st.text(max_size=4), max_size=4),
    st.lists(st.text(max_size=1), min_size=999, max_size=1002),
    st.dictionaries(st.text(max_size=3), scalars, max_size=2),
)
keys = st.sampled_from([(section, key) for section, names in _KEYS.items() for key in names])


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=keys, value=values)
def test_the_rules_accept_only_what_the_model_accepts(where: tuple[str, str], value: Any) -> None:
    _agree(*where, value)


EDGES: list[Any] = [
    *[True, False, None, "", "x", "../up", "/abs", "a\0b"],
    *[-1, 0, 1, 2, 100, 101, 1000, 1001, 1_000_000, 1_000_001, 1 << 40, (1 << 40) + 1],
    *[(1 << 53) + 1, 10**400, 0.0, -0.0, 0.5, 1.0, 1.5, math.inf, -math.inf, math.nan],
    *[[], ["a"], ["a", 1], [True], ["a"] * 1000, ["a"] * 1001, ("a",), {"a": 1}],
    *[datetime.date(2026, 1, 1), datetime.time(1, 2), datetime.datetime(2026, 1, 1)],
]


def test_the_rules_and_the_model_agree_on_every_edge_value() -> None:
    # Every key with every value at or beside a bound, of every TOML type (and a few no TOML
    # gives): the property below draws more, these are never left to chance.
    for section, names in _KEYS.items():
        for key in names:
            for value in EDGES:
                _agree(section, key, value)


def _agree(section: str, key: str, value: Any) -> None:
    fast = _CHECKS[section][key](value)
    try:
        model = SECTION_MODELS[section].model_validate({key: value})
    except ValidationError:
        assert fast is _MISSING, (section, key, value)
        return
    if fast is _MISSING:
        return  # the model is asked: its answer is used as it is
    given_back = getattr(model, key)
    assert type(fast) is type(given_back), (section, key, value)
    assert fast == given_back, (section, key, value)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, (int, datetime.date, datetime.time)):
        return value.isoformat() if not isinstance(value, int) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise AssertionError(value)


toml_values = st.one_of(
    st.text(alphabet="abc./-_ ", max_size=6),
    st.booleans(),
    st.integers(min_value=-5, max_value=(1 << 40) + 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.text(alphabet="abAB.", max_size=3), max_size=3),
    st.lists(st.integers(0, 3), max_size=2),
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries=st.lists(
        st.tuples(
            st.sampled_from([*_SECTIONS, "pahts"]),
            st.sampled_from([k for ks in _KEYS.values() for k in ks] + ["journy"]),
            toml_values,
        ),
        max_size=6,
        unique_by=lambda e: (e[0], e[1]),
    )
)
def test_a_generated_voyage_toml_gives_what_the_model_gives(
    entries: list[tuple[str, str, Any]],
) -> None:
    tables: dict[str, list[str]] = {}
    for section, key, value in entries:
        tables.setdefault(section, []).append(f"{key} = {_toml(value)}")
    text = "".join(f"[{section}]\n" + "\n".join(lines) + "\n" for section, lines in tables.items())
    _same(*_both(text))


# --- one declaration (issue 34, item 7) ----------------------------------------------------------

ENGINE = Path(__file__).resolve().parents[2] / "voyage_tui" / "engine"


def test_voyage_toml_is_declared_once() -> None:
    """The reader's sections are the declaration's classes, and the pydantic models are built
    from them: a key, default or bound written anywhere else would be a second model."""
    from voyage_tui.engine.formats import config_spec

    assert _SECTIONS is config_spec.SECTIONS
    for name, kind in _SECTIONS.items():
        model = SECTION_MODELS[name]
        for declared in dataclasses.fields(kind):
            if declared.name == "fields_set":
                continue
            made = model.model_fields[declared.name]
            assert made.get_default(call_default_factory=True) == getattr(kind(), declared.name)
            schema = model.model_json_schema()["properties"][declared.name]
            for bound, value in declared.metadata.items():
                pydantic_name = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum"}
                if bound in pydantic_name:
                    assert schema[pydantic_name[bound]] == value, (name, declared.name, bound)
    # no hand-written model or section class of voyage.toml is left anywhere in the engine
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name == "config_spec.py":
            continue
        assert "max_file_bytes: int" not in text, path
        assert "class LimitsModel" not in text and "class LimitsConfig" not in text, path


def test_the_ceiling_is_written_once() -> None:
    from voyage_tui.engine.formats.config_spec import MAX_FILE_BYTES_CEILING

    assert (
        VoyageModel.model_json_schema()["$defs"]["LimitsModel"]["properties"]["max_file_bytes"][
            "maximum"
        ]
        == MAX_FILE_BYTES_CEILING
    )
    defined = sorted(
        path.relative_to(ENGINE).as_posix()
        for path in ENGINE.rglob("*.py")
        if "MAX_FILE_BYTES_CEILING =" in path.read_text(encoding="utf-8")
    )
    assert defined == ["formats/config_spec.py"]
    # the reader, the models and the readers of files name it, never spell it out
    for rel in ("workspace/config.py", "formats/config.py", "loading/safe_read.py"):
        text = (ENGINE / rel).read_text(encoding="utf-8")
        assert not any(s in text for s in ("64 << 20", "67108864", "67_108_864")), rel
