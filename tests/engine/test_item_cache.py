"""The app's item cache: reuse what did not change, re-check what did, never trust the workspace."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.conftest import task_yaml
from tests.engine.workspaces import RULES, materialize
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.items import (
    FACTS,
    AgentRunFacts,
    Facts,
    GoldFacts,
    GoldRunFacts,
    Item,
    RatingsFacts,
    TaskFacts,
    stored_item,
)
from voyage_tui.engine.kinds import ITEM_KINDS, FileKind
from voyage_tui.engine.validation.cache import ItemCache, cache_root, pack, unpack
from voyage_tui.engine.validation.item_entry import decode_item, encode_item
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

CTX = "fixtures/bug-diagnosis/ctx/task.yaml"


@pytest.fixture
def root(make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            CTX: task_yaml("ctx", extra="context:\n  - {file: notes.md}\n"),
            "fixtures/bug-diagnosis/ctx/notes.md": "notes\n",
        }
    )


def _load(root: Path) -> tuple[Suite, set[str]]:
    """A cached load, like the app's; returns the suite and the fixtures it had to check."""
    suite = Suite(Workspace.load(root), use_git=False)
    prepared = suite.prepare(fork=False, cache=True)
    checked = {rel for _, rel in prepared.tasks.work}
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    return suite, checked


def _codes(suite: Suite) -> list[tuple[str, str]]:
    return sorted((d.path, d.code) for d in suite.diagnostics())


def test_an_unchanged_workspace_is_taken_from_the_cache(root: Path) -> None:
    first, checked = _load(root)
    assert len(checked) == 4
    second, checked = _load(root)
    assert checked == set()
    assert _codes(second) == _codes(first)


def test_an_unchanged_workspace_does_not_rewrite_the_cache(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Encoding every item again to store what the file holds already would compete with the
    app's first screen; an edit is still written."""
    _load(root)
    writes: list[int] = []
    monkeypatch.setattr(ItemCache, "write", lambda self, *a, **k: writes.append(1))
    _load(root)
    assert writes == []
    path = root / "fixtures/bug-diagnosis/t1/task.yaml"
    path.write_text(path.read_text() + "# edited\n")
    _load(root)
    assert writes == [1]


def test_an_unchanged_start_marks_the_cache_as_used(root: Path) -> None:
    """Not rewritten, the file still counts as just used: the bound on all caches removes the
    least recently written first, and a suite opened every day must not go first."""
    _load(root)
    (cache_file,) = [p for p in cache_root().iterdir() if p.is_file()]
    os.utime(cache_file, ns=(1_000_000_000, 1_000_000_000))
    _load(root)
    assert cache_file.stat().st_mtime_ns > 1_000_000_000


def test_a_changed_fixture_is_checked_again(root: Path) -> None:
    _load(root)
    path = root / "fixtures/bug-diagnosis/t1/task.yaml"
    path.write_text(path.read_text().replace("visibility: public", "visibility: pub"))
    suite, checked = _load(root)
    assert checked == {"fixtures/bug-diagnosis/t1/task.yaml"}
    assert ("fixtures/bug-diagnosis/t1/task.yaml", "invalid-visibility") in _codes(suite)


def test_a_deleted_context_file_rechecks_the_fixture_that_names_it(root: Path) -> None:
    _load(root)
    (root / "fixtures/bug-diagnosis/ctx/notes.md").unlink()
    suite, checked = _load(root)
    assert checked == {CTX}
    assert (CTX, "context-file-missing") in _codes(suite)


def test_a_new_journey_drops_the_whole_cache(root: Path) -> None:
    _load(root)
    (root / "references").mkdir()
    (root / "references/journey.md").write_text("## Phases\n\n1. Only phase\n")
    _, checked = _load(root)
    assert len(checked) == 4


def test_the_cache_lives_outside_the_workspace_and_a_corrupt_one_is_ignored(root: Path) -> None:
    _load(root)
    ws = Workspace.load(root)
    cache = ItemCache(ws)
    assert cache.path.parent == cache_root()
    assert not str(cache.path).startswith(str(root))
    cache.path.write_bytes(b"not a cache")
    _, checked = _load(root)
    assert len(checked) == 4


def test_a_cache_from_another_workspace_is_not_used(
    root: Path, make_workspace, tmp_path: Path
) -> None:
    _load(root)
    other = tmp_path / "other"
    os.rename(root, other)
    _, checked = _load(other)
    assert len(checked) == 4


# --- the format: every item comes back exactly ----------------------------------------------


def _typed(value: object) -> object:
    """`value` with the type of every part spelled out: True == 1 and (1, 2) != [1, 2] aside,
    equality alone would miss a changed type."""
    if isinstance(value, dict):
        return ("dict", sorted((k, _typed(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(v) for v in value])
    if isinstance(value, Item):
        return ("Item", [(f, _typed(getattr(value, f))) for f in Item.__slots__])
    if isinstance(value, Facts):
        fields = [f.name for f in dataclasses.fields(value)]
        return (type(value).__name__, [(f, _typed(getattr(value, f))) for f in fields])
    if isinstance(value, Diagnostic):
        return ("Diagnostic", [(f, _typed(getattr(value, f))) for f in Diagnostic.__slots__])
    return (type(value).__name__, value)


def _round_trip(items: dict[str, Item]) -> dict[str, Item]:
    """Items through the bytes of a cache file and back; the ones not stored are left out."""
    stamp_ = b"\x01" * 40
    entries = {}
    for rel, item in items.items():
        entry = encode_item(rel, stamp_, [[dep, stamp_] for dep in item.deps], item)
        if entry is not None:
            entries[rel] = entry
    back = unpack(pack("key", entries), "key")
    assert back is not None
    return {rel: decode_item(rel, raw) for rel, raw in back.items()}


def _assert_round_trips(items: dict[str, Item]) -> None:
    back = _round_trip(items)
    assert set(back) == set(items)
    for rel, item in items.items():
        assert back[rel] == item, rel
        assert _typed(back[rel]) == _typed(item), rel


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        (-1, [1], TypeError),  # a task's facts are a flag, not a number
        (-1, [True, False], ValueError),  # one field too many
        (-1, {"has_scoring_notes": True}, TypeError),  # format 4's dict
        (3, "fixture", KeyError),  # a kind this version does not know
    ],
)
def test_an_entry_with_other_facts_or_kind_is_refused(field: int, value: Any, error: type) -> None:
    item = Item("t/task.yaml", FileKind.TASK, facts=TaskFacts(True))
    raw = encode_item(item.path, b"\x01" * 40, [], item)
    assert raw is not None and decode_item(item.path, list(raw)) == item
    raw[field] = value
    with pytest.raises(error):
        decode_item(item.path, raw)


def test_every_item_of_the_sample_workspace_round_trips(sample_copy: Path) -> None:
    items = Suite.open(sample_copy, use_git=False).items
    assert {item.kind for item in items.values()} >= {"task", "trajectory", "gold", "gold-run"}
    assert {type(item.facts) for item in items.values()} >= {TaskFacts, GoldFacts, GoldRunFacts}
    _assert_round_trips(items)


def test_the_sample_workspace_comes_back_from_the_cache_file_equal(
    sample_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first, checked = _load(sample_copy)
    assert checked
    second, checked = _load(sample_copy)
    assert not checked & set(first.items)  # only JSON files that are not gold files
    assert second.items == first.items
    assert _typed(second.items) == _typed(first.items)
    assert _codes(second) == _codes(first)


def test_every_item_of_every_rule_case_round_trips(tmp_path: Path) -> None:
    cases = sorted(
        (code.name, case.name)
        for code in RULES.iterdir()
        if code.is_dir()
        for case in code.iterdir()
        if case.is_dir()
    )
    assert len(cases) > 50
    for n, (code, case) in enumerate(cases):
        root = materialize(code, case, tmp_path / str(n), coverage=code != "adversarial-coverage")
        _assert_round_trips(Suite.open(root, use_git=False).items)


HOSTILE_GOLD = {
    "schema": "voyage-eval-gold/1",
    "source": "reviews/pr-12.md",
    "expected_verdict": "ALLOW",
    "findings": [],
}


@pytest.mark.parametrize(
    "files",
    [
        {"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1").encode() + b"notes: na\xefve\n"},
        {"fixtures/bug-diagnosis/t1/task.yaml": "id: t1\n" + "[" * 2000 + "]" * 2000 + "\n"},
        {"fixtures/bug-diagnosis/t1/task.yaml": "!!python/object/apply:os.system ['true']\n"},
        {"fixtures/bug-diagnosis/t1/task.yaml": bytes(range(256))},
        {os.fsdecode(b"fixtures/bug-diagnosis/t\xff/task.yaml"): task_yaml("t2")},
        {"gold/g.json": json.dumps({**HOSTILE_GOLD, "description": "\ud800 lone \udcff"})},
        {"gold/g.json": json.dumps({**HOSTILE_GOLD, "expected_verdict": 10**40})},
        {"gold/g.json": json.dumps({**HOSTILE_GOLD, "expected_verdict": -(2**63) - 1})},
        {"gold/g.json": json.dumps({**HOSTILE_GOLD, "expected_verdict": [[[{"a": 1.5}]]] * 3})},
        {"gold/g.json": json.dumps({**HOSTILE_GOLD, "expected_verdict": "[" * 40 + "]" * 40})},
        {
            "gold/g.json": '{"expected_verdict": ' + "[" * 200 + "]" * 200 + ', "schema": '
            '"voyage-eval-gold/1"}'
        },
    ],
    ids=[
        "invalid-utf8",
        "deep-yaml",
        "unsafe-tag",
        "binary",
        "non-utf8-name",
        "lone-surrogates",
        "huge-int",
        "int-below-int64",
        "nested-verdict",
        "bracket-string",
        "deep-json",
    ],
)
def test_hostile_items_round_trip_or_are_checked_again(
    make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, Any]
) -> None:
    """Each item either comes back equal or is left out of the cache (and checked again next
    time); never a crash, never a changed item."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = make_workspace(files)
    first, _ = _load(root)
    back = _round_trip(first.items)
    for rel, item in back.items():
        assert _typed(item) == _typed(first.items[rel])
    second, checked = _load(root)
    assert checked == set(first.items) - set(back)
    assert _typed(second.items) == _typed(first.items)


# --- hypothesis: any Item the engine could hold ------------------------------------------------

TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=20)
COUNT = st.integers(min_value=0, max_value=10**9)
FACTS_OF: dict[type[Facts], st.SearchStrategy[Facts]] = {
    TaskFacts: st.builds(TaskFacts, st.booleans()),
    AgentRunFacts: st.builds(AgentRunFacts, TEXT),
    GoldFacts: st.builds(GoldFacts, TEXT, TEXT, COUNT, st.none() | TEXT),
    GoldRunFacts: st.builds(GoldRunFacts, COUNT),
    RatingsFacts: st.builds(RatingsFacts, COUNT),
}
ANY_FACTS = st.one_of(*FACTS_OF.values())
"""Facts of any kind: on an item of another kind they cannot be stored (FACTS says which)."""


POSITION = st.none() | st.tuples(st.integers(1, 10**6), st.integers(1, 10**6))
OPT = st.none() | TEXT


@st.composite
def items(draw: st.DrawFn) -> tuple[str, Item]:
    rel = draw(TEXT)
    path = draw(st.just(rel) | TEXT)
    diagnostics = draw(
        st.lists(
            st.builds(
                Diagnostic,
                st.just(path) | TEXT,
                st.none() | st.integers(1, 10**6),
                st.none() | st.integers(1, 10**6),
                st.sampled_from(list(Severity)),
                TEXT,
                TEXT,
            ),
            max_size=4,
        )
    )
    kind = draw(st.sampled_from(sorted(ITEM_KINDS)))
    own = FACTS[kind]
    facts = draw(st.none() | (FACTS_OF[own] if own is not None else st.nothing()) | ANY_FACTS)
    item = Item(
        path=path,
        kind=kind,
        id=draw(OPT),
        fixture_class=draw(OPT),
        boundary=draw(OPT),
        visibility=draw(OPT),
        prompt=draw(TEXT),
        ground_truth=draw(TEXT),
        canary=draw(OPT),
        final_head_sha=draw(OPT),
        sha_position=draw(POSITION),
        id_position=draw(POSITION),
        parent=draw(OPT),
        facts=facts,
        diagnostics=diagnostics,
        deps=tuple(draw(st.lists(TEXT, max_size=3))),
    )
    return rel, item


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(items(), max_size=5))
def test_any_item_round_trips_exactly_or_is_left_out(drawn: list[tuple[str, Item]]) -> None:
    given_items = dict(drawn)
    back = _round_trip(given_items)
    for rel, item in given_items.items():
        storable = item.facts is None or type(item.facts) is FACTS[item.kind]
        assert (rel in back) == storable, (rel, item.facts)
        if storable:
            assert _typed(back[rel]) == _typed(item)


def test_the_cache_file_is_not_a_pickle(root: Path) -> None:
    _load(root)
    ws = Workspace.load(root)
    data = ItemCache(ws).path.read_bytes()
    from voyage_tui.engine.validation.cache import unseal

    parts = unseal(data)
    assert parts is not None
    assert msgpack.unpackb(parts[0])[0] == "voyage-tui item cache"
    assert type(msgpack.unpackb(parts[1])) is dict


# --- the key: by content, every reference it may use -------------------------------------------


def test_a_reference_touched_without_a_change_keeps_the_cache(root: Path) -> None:
    """The key holds each reference's content (SHA-256), not its mtime: a checkout or a save
    that writes the same bytes again checks nothing again."""
    journey = root / "references/journey.md"
    journey.parent.mkdir()
    journey.write_text("## Phases\n\n1. Only phase\n")
    _load(root)
    journey.write_text(journey.read_text())
    os.utime(journey, ns=(1, 1))
    _, checked = _load(root)
    assert checked == set()


def test_a_new_rule_catalogue_of_another_name_drops_the_cache(root: Path) -> None:
    """Without `rule_catalogue` in voyage.toml the first of its names present is used: one that
    appears changes the catalogue every gold file is checked against."""
    _load(root)
    (root / "references").mkdir()
    (root / "references/rule-catalogue.json").write_text('{"rules": []}')
    _, checked = _load(root)
    assert len(checked) == 4


def test_voyage_toml_is_keyed_as_the_workspace_read_it(tmp_path: Path) -> None:
    """`validate` recomputes the key from voyage.toml without parsing it: the digest it takes
    must be the one Workspace.from_root recorded, whatever sits at the name."""
    from voyage_tui.engine.validation.cache_key import config_digest

    root = tmp_path / "ws"
    (root / "fixtures").mkdir(parents=True)
    config = root / "voyage.toml"
    digests = []
    for setup in (
        lambda: None,
        lambda: config.write_text('[paths]\nfixtures = "fixtures"\n'),
        lambda: config.write_text("not toml ["),
        lambda: config.write_bytes(b"\xff\xfe"),
        lambda: (config.unlink(), os.mkfifo(config)),
        lambda: (config.unlink(), os.symlink("/dev/zero", config)),
        lambda: (config.unlink(), config.mkdir()),
    ):
        setup()
        ws = Workspace.from_root(root)
        assert ws.config_digest == config_digest(root)
        digests.append(ws.config_digest)
    assert len(set(digests)) == len(digests)


# --- the bound -------------------------------------------------------------------------------------


def test_a_cache_over_the_bound_is_not_written_and_the_old_one_goes(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.engine.validation import cache as cache_module

    _load(root)
    path = ItemCache(Workspace.load(root)).path
    assert path.exists()
    monkeypatch.setattr(cache_module, "MAX_CACHE_BYTES", 64)
    (root / "fixtures/bug-diagnosis/t1/task.yaml").write_text(task_yaml("t1") + "# edited\n")
    _load(root)
    assert not path.exists(), "an outdated cache was left behind"


def test_the_oldest_caches_go_when_all_of_them_pass_the_total_bound(tmp_path: Path) -> None:
    from voyage_tui.engine.validation.cache import prune
    from voyage_tui.engine.validation.cache_store import write_private

    folder = tmp_path / "cache"
    for n in range(6):
        assert write_private(folder, f"{n}.msgpack", b"x" * 100)
        os.utime(folder / f"{n}.msgpack", ns=(n * 10**9, n * 10**9))
    assert write_private(folder, "other.txt", b"y" * 1000)  # not a cache file: left alone
    prune(folder, keep="0.msgpack", limit=350)
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["0.msgpack", "4.msgpack", "5.msgpack", "other.txt"]


def test_the_file_written_in_pieces_is_the_file_packed_whole() -> None:
    # ItemCache.write streams the file (cache.pack_chunks) so that a big suite's cache is never
    # in memory whole: the pieces are exactly msgpack.packb of the head and of the details,
    # sealed.
    import msgpack

    from voyage_tui.engine.validation.cache import (
        CACHE_FORMAT,
        MAGIC,
        SUMMARY_FIELDS,
        pack_chunks,
        seal,
    )

    entries = {
        f"fixtures/c/f{i}/task.yaml": [
            *[b"stamp", [], None, "task", f"f{i}", "c", None, None],
            *[[1, 2], [[None, 1, 1, "error", "code", "x" * (i % 300)]]],
            *["prompt " * (i % 50), "truth", None, None, None, None, None],
        ]
        for i in range(8000)  # past a megabyte in each section: several pieces of each
    }
    listing = {"format": 1, "files": list(entries)}
    pieces = list(pack_chunks("key", entries, ["rubric.md"], 7, listing))
    assert len(pieces) > 3
    assert max(len(piece) for piece in pieces) < 2 << 20, "a piece held a whole section"
    head = msgpack.packb(
        [
            MAGIC,
            CACHE_FORMAT,
            "key",
            {rel: e[:SUMMARY_FIELDS] for rel, e in entries.items()},
            [["rubric.md"], 7],
            listing,
        ]
    )
    details = msgpack.packb({rel: e[SUMMARY_FIELDS:] for rel, e in entries.items()})
    assert b"".join(pieces) == seal(head, details)
    for size in (0, 200, 300, 70_000):
        small = {"a": [b"s"] + ["x" * size] * 16}
        summary = {"a": small["a"][:SUMMARY_FIELDS]}
        assert b"".join(pack_chunks("k", small)) == seal(
            msgpack.packb([MAGIC, CACHE_FORMAT, "k", summary, [[], 0], None]),
            msgpack.packb({"a": small["a"][SUMMARY_FIELDS:]}),
        )


def test_the_head_is_read_without_the_details(tmp_path: Path, monkeypatch) -> None:
    """validate's replay reads the head of the file alone (issue 23: at 100,000 fixtures the
    details are a hundred megabytes it never uses), yet refuses a file whose details are torn."""
    from voyage_tui.engine.validation import cache_store
    from voyage_tui.engine.validation.cache import pack, read_cache_file, read_head

    folder = tmp_path / "cache"
    entries = {
        f"f{i}": [
            *[b"stamp", [], None, "task", f"f{i}", "c", None, None, None, []],
            *["prompt " * 200, "truth", None, None, None, None, None],
        ]
        for i in range(200)
    }
    data = pack("key", entries, ["rubric.md"], 7, {"format": 1})
    assert cache_store.write_private(folder, "c.msgpack", data)
    read_sizes: list[int] = []
    real = cache_store.read_private

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        got = real(*args, **kwargs)
        read_sizes.append(-1 if got is None else len(got))
        return got

    monkeypatch.setattr("voyage_tui.engine.validation.cache.read_private", recording)
    head = read_head(folder, "c.msgpack")
    assert head is not None and head.packed_details is None
    whole = read_cache_file(data)
    assert whole is not None
    assert (head.key, head.summaries, head.listing) == (whole.key, whole.summaries, whole.listing)
    assert (head.references, head.max_bytes) == (["rubric.md"], 7)
    assert 0 < read_sizes[0] < len(data) // 10, "the details were read into memory"
    # Every byte of the details (their seal) and of the trailer is still checked.
    for at in (len(data) // 2, len(data) - 30, len(data) - 10, len(data) - 1):
        torn = bytearray(data)
        torn[at] ^= 0xFF
        (folder / "c.msgpack").unlink()
        assert cache_store.write_private(folder, "c.msgpack", bytes(torn))
        assert read_head(folder, "c.msgpack") is None, at
    (folder / "c.msgpack").unlink()
    assert cache_store.write_private(folder, "c.msgpack", data[:-1])
    assert read_head(folder, "c.msgpack") is None


def test_the_cache_builds_items_equal_to_the_constructor() -> None:
    """The cache's decode sets an Item's slots directly (`stored_item`: the frozen dataclass's
    own constructor was half of decoding 100,000 cached items): every field, in order, as the
    constructor sets it, and the item as frozen."""
    values = [
        "fixtures/bug-diagnosis/t1/task.yaml",
        FileKind.TASK,
        "t1",
        "bug-diagnosis",
        "none",
        "holdout",
        "the prompt",
        "the truth",
        "canary-1",
        "a" * 40,
        (3, 4),
        (1, 5),
        "parent.yaml",
        TaskFacts(True),
        (Diagnostic("fixtures/bug-diagnosis/t1/task.yaml", 1, 1, Severity.ERROR, "c", "m"),),
        ("fixtures/bug-diagnosis/t1/notes.md",),
    ]
    assert len(values) == len(dataclasses.fields(Item))
    made = stored_item(*values)
    assert made == Item(*values) and type(made) is Item
    assert [getattr(made, f.name) for f in dataclasses.fields(Item)] == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.id = "t2"  # type: ignore[misc]  # frozen: the point of the test
