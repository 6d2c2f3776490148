"""Hypothesis strategies for a wizard's answers: complete ones (every required answer, valid
choices, any text) and arbitrary ones (anything a person could type)."""

from __future__ import annotations

from hypothesis import strategies as st

from voyage_tui.engine.authoring import (
    ContextEntry,
    GateMark,
    PhaseMark,
    RoutingSkip,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.render import clean_text, one_line
from voyage_tui.engine.formats.vocabulary import (
    BOUNDARIES,
    CLASSES,
    GATE_VERDICTS,
    TERMINAL_STATES,
    TRAJECTORY_PATHS,
    VISIBILITIES,
)

SAMPLE_PHASES = (
    "Intake and provenance",
    "Scoping and risk classification",
    "Design and planning",
    "Implementation",
    "Review",
    "Verification",
    "Security and compliance",
    "Release preparation",
    "Merge and release",
)
"""The sample workspace's journey.md (the tests run on a copy of it)."""

SAMPLE_DIMENSIONS = ("correctness", "verification", "scope", "evidence", "communication")

# Any text a person can type or paste: every Unicode category but lone surrogates (which no
# terminal produces and UTF-8 cannot hold), YAML's special characters, line breaks, tabs.
_CHARS = st.characters(blacklist_categories=("Cs",))
_YAMLISH = st.sampled_from(
    [
        ": ",
        " #",
        "- ",
        "|",
        ">",
        "'",
        '"',
        "&a",
        "*a",
        "!!str ",
        "%",
        "@",
        "`",
        "{",
        "}",
        "[",
        "]",
        ",",
        "?",
        "\t",
        "\n",
        "\r\n",
        "\u2028",
        "\x85",
        "\ufeff",
        "yes",
        "null",
        "1.5",
        "0x1f",
        "2024-01-02",
        "~",
        "...",
        "---",
        "\\",
        " ",
    ]
)
any_text = st.lists(st.one_of(st.text(_CHARS, max_size=8), _YAMLISH), max_size=12).map("".join)
text = any_text.filter(lambda t: bool(clean_text(t)))
"""Text that is an answer (not blank)."""
entry_text = text.filter(lambda t: "|" not in t and bool(one_line(t)))
"""Text for an entry of a pipe-separated field (a pipe would split it: the rules say so)."""

slug = st.from_regex(r"\A[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}\Z")
fixture_id = slug.map(lambda s: f"gen-{s}")
"""An id no sample fixture uses."""


@st.composite
def task_answers(draw: st.DrawFn) -> TaskAnswers:
    fixture_class = draw(st.sampled_from(CLASSES))
    context = draw(st.lists(text.map(lambda t: ContextEntry(text=t)), max_size=3))
    if draw(st.booleans()):
        context.insert(
            draw(st.integers(0, len(context))),
            ContextEntry(
                file="v1-example.toml",
                source="fixtures/feature-change/config-v2-migration/v1-example.toml",
                named=True,
            ),
        )
    dimensions = draw(st.lists(st.sampled_from(SAMPLE_DIMENSIONS), unique=True, max_size=4))
    return TaskAnswers(
        fixture_class=fixture_class,
        id=draw(fixture_id),
        prompt=draw(text),
        ground_truth=draw(text),
        expected_boundary=draw(st.sampled_from(BOUNDARIES)),
        visibility=draw(st.sampled_from(VISIBILITIES)),
        context=context,
        adversarial_intent=draw(text) if fixture_class == "adversarial" else "",
        scoring_notes={d: draw(text) for d in dimensions},
    )


@st.composite
def trajectory_answers(draw: st.DrawFn) -> TrajectoryAnswers:
    path = draw(st.sampled_from(TRAJECTORY_PATHS))
    full = path == "full"
    phases = []
    for number, name in enumerate(SAMPLE_PHASES, start=1):
        skipped = not full and draw(st.booleans())
        phases.append(PhaseMark(number, name, not skipped, draw(entry_text) if skipped else ""))
    if not any(p.traversed for p in phases):
        phases[0].traversed = True
    gates = []
    for number in range(1, 6):
        skipped = not full and draw(st.booleans())
        if skipped:
            gates.append(GateMark(number, recorded=False, reason=draw(entry_text)))
        else:
            gates.append(
                GateMark(
                    number,
                    description=draw(entry_text),
                    verdict=draw(st.sampled_from(GATE_VERDICTS)),
                )
            )
    if not any(g.recorded for g in gates):
        gates[0] = GateMark(1, description="intake", verdict="pass")
    sha = draw(st.from_regex(r"\A[0-9a-f]{40}\Z")) if full or draw(st.booleans()) else ""
    return TrajectoryAnswers(
        id=draw(fixture_id),
        path=path,
        prompt=draw(text),
        phases=phases,
        gates=gates,
        terminal_state=draw(st.sampled_from(TERMINAL_STATES)),
        final_head_sha=sha,
        routing_selected=draw(st.lists(st.sampled_from(["perf-review", "ux-review"]), max_size=2)),
        routing_skipped=draw(
            st.lists(
                st.builds(RoutingSkip, st.sampled_from(["docs-review"]), entry_text), max_size=1
            )
        ),
        visibility=draw(st.sampled_from(VISIBILITIES)),
    )


complete_answers = st.one_of(task_answers(), trajectory_answers())

choice = st.one_of(st.sampled_from(CLASSES + BOUNDARIES + VISIBILITIES), any_text)


@st.composite
def arbitrary_task(draw: st.DrawFn) -> TaskAnswers:
    """Anything a person could answer, right or wrong (no context files: see the write tests)."""
    return TaskAnswers(
        fixture_class=draw(st.one_of(st.sampled_from(CLASSES), slug)),
        id=draw(st.one_of(fixture_id, st.just(""))),
        prompt=draw(any_text),
        ground_truth=draw(any_text),
        expected_boundary=draw(choice),
        visibility=draw(choice),
        context=draw(st.lists(any_text.map(lambda t: ContextEntry(text=t)), max_size=2)),
        adversarial_intent=draw(any_text),
        scoring_notes=draw(
            st.dictionaries(
                st.one_of(st.sampled_from(SAMPLE_DIMENSIONS), any_text), any_text, max_size=2
            )
        ),
    )


@st.composite
def arbitrary_trajectory(draw: st.DrawFn) -> TrajectoryAnswers:
    phases = [
        PhaseMark(
            draw(st.integers(0, 12)),
            draw(st.one_of(st.sampled_from(SAMPLE_PHASES), any_text)),
            draw(st.booleans()),
            draw(any_text),
        )
        for _ in range(draw(st.integers(0, 10)))
    ]
    gates = [
        GateMark(
            draw(st.integers(0, 7)),
            draw(st.booleans()),
            draw(any_text),
            draw(st.one_of(st.sampled_from(GATE_VERDICTS), any_text)),
            draw(any_text),
        )
        for _ in range(draw(st.integers(0, 6)))
    ]
    return TrajectoryAnswers(
        id=draw(st.one_of(fixture_id, st.just(""))),
        path=draw(st.one_of(st.sampled_from(TRAJECTORY_PATHS), any_text)),
        prompt=draw(any_text),
        phases=phases,
        gates=gates,
        terminal_state=draw(st.one_of(st.sampled_from(TERMINAL_STATES), any_text)),
        final_head_sha=draw(st.one_of(st.from_regex(r"\A[0-9a-f]{0,64}\Z"), any_text)),
        routing_selected=draw(st.lists(any_text, max_size=2)),
        routing_skipped=draw(st.lists(st.builds(RoutingSkip, any_text, any_text), max_size=2)),
        visibility=draw(choice),
    )


arbitrary_answers = st.one_of(arbitrary_task(), arbitrary_trajectory())
