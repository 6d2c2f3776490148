"""Load one YAML document safely, keeping a small map of where each key and value is.

PyYAML's C loader does the parsing (the pure-Python one where libyaml is absent). On top of its
safe constructor we add what it lacks: duplicate keys are reported (PyYAML keeps the last one
silently), alias expansion is bounded before anything is constructed, and every failure becomes a
diagnostic with its line instead of an exception.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.positions import NoPositions, Positions, YamlPositions
from voyage_tui.engine.loading.text import position_of_index
from voyage_tui.engine.loading.yaml_build import FastBuilder, Unsupported
from voyage_tui.engine.wording import plural

try:
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    # The pure-Python loader: the same safe loader to a caller, another class to a type checker.
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

MAX_INT_CHARS = 1000
"""The longest integer scalar read as a number (a longer one is `yaml-invalid-value`): far past
any count, line or size a fixture holds, and short enough that every int built from it prints
(1,000 hex digits are 1,205 decimal ones; Python prints at most 4,300)."""

MAX_EXPANDED_NODES = 100_000
"""A document whose aliases expand to more nodes than this is an alias bomb, not a fixture."""

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _AliasBomb(Exception):
    pass


class _RecursiveAlias(Exception):
    pass


_STR_TAG = "tag:yaml.org,2002:str"
_MAP_TAG = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG
_SEQ_TAG = yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
_PLAIN_TAGS: dict[str, str] = {}
"""Tag of each plain scalar seen: with no path resolvers (the safe loader has none) the implicit
tag depends on the value alone, and keys and enum values repeat across thousands of files."""
_PLAIN_TAGS_MAX = 50_000


class _Loader(_BaseLoader):
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.marks: dict[int, Any] = {}
        self.duplicates: list[tuple[Any, Any, Any]] = []

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return _STR_TAG  # quoted, block or `!`-tagged: a string, as the resolver says
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag = self._resolved(kind, value, implicit)
                if len(_PLAIN_TAGS) >= _PLAIN_TAGS_MAX:
                    _PLAIN_TAGS.clear()
                _PLAIN_TAGS[value] = tag
            return tag
        # The safe loader has no path resolvers: a collection's implicit tag is the default
        # one (asked once per mapping and sequence, so without Resolver.resolve's steps).
        if kind is MappingNode and not self.yaml_path_resolvers:
            return _MAP_TAG
        if kind is SequenceNode and not self.yaml_path_resolvers:
            return _SEQ_TAG
        return self._resolved(kind, value, implicit)

    def _resolved(self, kind: type, value: Any, implicit: Any) -> str:
        # types-PyYAML leaves Resolver.resolve untyped; it returns the tag, a str.
        tag: str = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
        return tag

    def construct_yaml_map(self, node: MappingNode) -> Generator[dict[Any, Any]]:
        data: dict[Any, Any] = {}
        yield data
        pairs = node.value
        explicit: set[int] | None = None
        if any(key_node.tag == _MERGE_TAG for key_node, _ in pairs):
            explicit = {id(k) for k, _ in pairs if k.tag != _MERGE_TAG}
            self.flatten_mapping(node)
            pairs = node.value
        marks: dict[Any, tuple[Any, Any, Any]] = {}
        construct = self.construct_object
        for key_node, value_node in pairs:
            key = construct(key_node)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    "found a key that is a list or mapping; keys must be plain values",
                    key_node.start_mark,
                ) from None
            if key in marks and (explicit is None or id(key_node) in explicit):
                self.duplicates.append((key, key_node.start_mark, marks[key][0]))
            data[key] = construct(value_node)
            marks[key] = (key_node.start_mark, value_node.start_mark, value_node.end_mark)
        self.marks[id(data)] = marks

    def construct_yaml_seq(self, node: SequenceNode) -> Generator[list[Any]]:
        data: list[Any] = []
        yield data
        data.extend(self.construct_sequence(node))
        self.marks[id(data)] = [(n.start_mark, n.start_mark, n.end_mark) for n in node.value]

    def construct_yaml_int(self, node: ScalarNode) -> int:
        # Bounded before it is converted: int() refuses over 4,300 decimal digits, but YAML 1.1
        # also reads `0x…` (no limit in a power-of-two base) and sexagesimal `1:00:00:…`
        # (PyYAML multiplies it out), either of which builds an int no str() can print.
        if len(node.value) > MAX_INT_CHARS:
            raise ValueError(
                f"a number of {plural(len(node.value), 'character')} exceeds the limit for integer "
                "string conversion"
            )
        value: int = super().construct_yaml_int(node)
        return value

    # The base returns a date; a date here stays text on purpose (below), hence the override.
    def construct_yaml_timestamp(self, node: ScalarNode) -> str:  # type: ignore[override]
        # Fixture fields are text: a date stays the string it was written as, never a datetime
        # (which would fail on `2019-13-45` and is not JSON either).
        return str(node.value)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_yaml_seq)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)


@dataclass(slots=True)
class YamlDocument:
    data: Any
    positions: Positions
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ok: bool = True
    """False when the document could not be loaded at all; `data` is then None."""


def _expanded_size(root: Node) -> int:
    """How many nodes the document has once every alias is expanded, memoised per node so a
    billion-laughs file is measured in microseconds. Raises on a recursive alias."""
    sizes: dict[int, int] = {}
    visiting: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        nid = id(node)
        if isinstance(node, ScalarNode):
            sizes[nid] = 1
            continue
        if isinstance(node, SequenceNode):
            children = node.value
        else:
            children = [part for pair in node.value for part in pair]
        if children_done:
            visiting.discard(nid)
            total = 1
            for child in children:
                total += sizes[id(child)]
                if total > MAX_EXPANDED_NODES:
                    raise _AliasBomb(node)
            sizes[nid] = total
            continue
        if nid in sizes:
            continue
        if nid in visiting:
            raise _RecursiveAlias(node)
        visiting.add(nid)
        stack.append((node, True))
        for child in children:
            cid = id(child)
            if cid in visiting:
                raise _RecursiveAlias(node)
            if cid not in sizes:
                stack.append((child, False))
    return sizes[id(root)]


def _mark_pos(mark: Any) -> tuple[int, int] | None:
    if mark is None:
        return None
    return mark.line + 1, mark.column + 1


def _failure(rel: str, pos: tuple[int, int] | None, code: str, message: str) -> YamlDocument:
    return YamlDocument(None, NoPositions(), [dg.error(rel, pos, code, message)], ok=False)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:") :] if tag.startswith("tag:yaml.org,2002:") else tag


def _marked_error(rel: str, exc: yaml.MarkedYAMLError, text: str) -> YamlDocument:
    problem = exc.problem or ""
    mark = exc.problem_mark or exc.context_mark
    pos = _mark_pos(mark)
    if "maximum nesting depth" in problem:
        return _failure(
            rel, pos, "yaml-too-deep", "the YAML nests deeper than 1,000 levels; it was not loaded"
        )
    if (
        "expected a single document" in (exc.context or "")
        or "expected a single document" in problem
    ):
        return _failure(
            rel,
            pos,
            "yaml-multiple-documents",
            "the file holds more than one YAML document (a second `---`); a fixture is one document",
        )
    if isinstance(exc, ConstructorError) and "could not determine a constructor" in problem:
        tag = _short_tag(problem.rsplit("tag ", 1)[-1].strip("'\" "))
        if "python/" in tag:
            return _failure(
                rel,
                pos,
                "yaml-unsafe-tag",
                f"the tag {tag} asks to run Python code; it is never constructed. Remove it",
            )
        return _failure(
            rel, pos, "yaml-unknown-tag", f"the tag {tag} is not plain YAML data; remove it"
        )
    context = f" {exc.context}" if exc.context else ""
    detail = f"{problem}{context}".strip() or "the YAML could not be parsed"
    if mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t":
        detail += " (a tab: YAML indents with spaces, never tabs)"
    return _failure(rel, pos, "yaml-syntax", detail)


def _unreadable_scalar(loader: _Loader, root: Node) -> tuple[int, int] | None:
    """Where the scalar that failed to construct sits (`!!int abc`, a 5,000-digit integer).
    Only on the error path: each scalar is constructed again on its own until one fails."""
    stack: list[Node] = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            constructor = loader.yaml_constructors.get(node.tag)
            if constructor is None:
                continue
            try:
                constructor(loader, node)
            except Exception:
                return _mark_pos(node.start_mark)
            continue
        if isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, MappingNode):
            stack.extend(part for pair in reversed(node.value) for part in reversed(pair))
    return None


def _construct(
    loader: _Loader, node: Node
) -> tuple[Any, dict[int, Any], list[tuple[Any, Any, Any]]]:
    """The fast builder for plain documents; PyYAML's safe constructor for anything else."""
    builder = FastBuilder(loader)
    try:
        return builder.build(node), builder.marks, builder.duplicates
    except Unsupported:
        data = loader.construct_document(node)
        return data, loader.marks, loader.duplicates


def load_yaml(text: str, rel: str) -> YamlDocument:
    """Load `text` as exactly one YAML document. Never raises."""
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            return _marked_error(rel, exc, text)
        except yaml.reader.ReaderError as exc:
            index = len(text.encode("utf-8")[: exc.position].decode("utf-8", "replace"))
            return _failure(
                rel,
                position_of_index(text, index),
                "invalid-character",
                f"character U+{exc.character:04X} is not allowed in YAML ({exc.reason}); remove it"
                if isinstance(exc.character, int)
                else f"a character is not allowed in YAML ({exc.reason}); remove it",
            )
        except RecursionError:
            return _failure(rel, None, "yaml-too-deep", "the YAML nests too deeply to load")
        except yaml.YAMLError as exc:
            return _failure(rel, None, "yaml-syntax", str(exc))
        if node is None:
            return _failure(
                rel, (1, 1), "empty-file", "the file holds no YAML document; it is empty"
            )
        if "*" in text:
            try:
                _expanded_size(node)
            except _AliasBomb as bomb:
                return _failure(
                    rel,
                    _mark_pos(bomb.args[0].start_mark),
                    "yaml-alias-bomb",
                    f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes "
                    "(an alias bomb); the file was not loaded",
                )
            except _RecursiveAlias as loop:
                return _failure(
                    rel,
                    _mark_pos(loop.args[0].start_mark),
                    "yaml-recursive-alias",
                    "an alias refers to a node that contains it; fixtures cannot be recursive",
                )
        try:
            data, marks, duplicates = _construct(loader, node)
        except yaml.MarkedYAMLError as exc:
            return _marked_error(rel, exc, text)
        except RecursionError:
            return _failure(rel, None, "yaml-too-deep", "the YAML nests too deeply to load")
        except (ValueError, TypeError, OverflowError, ArithmeticError, yaml.YAMLError) as exc:
            return _failure(
                rel,
                _unreadable_scalar(loader, node),
                "yaml-invalid-value",
                "a number has too many digits to read; quote it to make it text"
                if "integer string conversion" in str(exc)
                else f"a value could not be read: {exc}; quote it to make it text",
            )
        positions = YamlPositions(data, marks, text, node.start_mark)
        diagnostics = [
            dg.error(
                rel,
                _mark_pos(second),
                "duplicate-key",
                f"the key `{key}` appears twice in this mapping (first at line {first.line + 1}); "
                "YAML keeps only the last, so remove one",
            )
            for key, second, first in duplicates
        ]
        return YamlDocument(data, positions, diagnostics)
    except Exception as exc:
        return _failure(rel, None, "yaml-unreadable", f"the YAML could not be loaded: {exc!r}")
    finally:
        loader.dispose()
