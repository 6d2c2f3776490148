"""Properties of the authoring engine (hypothesis):

1. Complete answers produce a document that the real validation of the workspace accepts with
   no diagnostic at all, for the new file or for the suite.
2. For any answers at all, what the wizard shows is what `validate` says: the engine's
   diagnostics of the rendered document equal those of the same text written to disk.
3. The suite-style YAML reads back, with the engine's loader, as exactly the document.
4. A draft reads back as exactly the answers it saved.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from tests.authoring.strategies import arbitrary_answers, complete_answers
from tests.budget import examples
from voyage_tui.engine.authoring import Answers, Authoring
from voyage_tui.engine.authoring.check import (
    ANSWER_NOT_UTF8,
    CONTEXT_REF_CLASH,
    CONTEXT_SOURCE_UNREADABLE,
    DUPLICATE_ID,
    FIXTURE_EXISTS,
    GATE_INCOMPLETE,
    ID_NOT_SLUG,
    SuiteFacts,
    check_answers,
    worded,
)
from voyage_tui.engine.authoring.drafts import DraftStore
from voyage_tui.engine.authoring.render import _NOT_IN_BLOCK, canary_line, document, suite_style
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.references.loaded import load_references
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

AUTHORING_ONLY = {
    ID_NOT_SLUG,
    FIXTURE_EXISTS,
    CONTEXT_SOURCE_UNREADABLE,
    CONTEXT_REF_CLASH,
    GATE_INCOMPLETE,
    ANSWER_NOT_UTF8,
    DUPLICATE_ID,
}
FIXTURE_SETTINGS = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


_PRISTINE: dict[str, list[Diagnostic]] = {}
"""The diagnostics of each test's sample copy before any example wrote to it."""


@FIXTURE_SETTINGS
@given(answers=complete_answers)
def test_complete_answers_write_a_fixture_that_validates_clean(
    authoring: Authoring, sample_copy: Path, answers: Answers
) -> None:
    # One session for all the examples (opening one validates the whole sample): each example
    # removes what it wrote, so the sample the session loaded is the one on disk.
    # The sample as copied, checked once for all the examples (each removes what it wrote): a
    # write that left something behind then shows in the next example's comparison.
    if str(sample_copy) not in _PRISTINE:
        _PRISTINE[str(sample_copy)] = Suite.open(sample_copy, use_git=False).diagnostics()
    before = _PRISTINE[str(sample_copy)]

    checked = authoring.check(answers)
    assert checked.diagnostics == [], checked.text
    written = authoring.write(answers)
    try:
        suite = Suite.open(sample_copy, use_git=False)
        assert suite.diagnostics_for(written.path) == []
        assert suite.diagnostics() == before  # and nothing new for the suite (ids, coverage)
        text = (sample_copy / written.path).read_text(encoding="utf-8")
        assert text == checked.text
        assert load_yaml(text, written.path).data == document(answers)
        item = suite.items[written.path]
        assert item.id == answers.id
        if answers.visibility == "holdout":
            assert item.canary == answers.canary and len(answers.canary) == 36
        else:
            assert item.canary is None
    finally:
        shutil.rmtree(sample_copy / written.path.rsplit("/", 1)[0])


@FIXTURE_SETTINGS
@given(answers=arbitrary_answers)
def test_every_step_shows_what_validate_says_of_the_finished_file(
    sample_copy: Path, answers: Answers
) -> None:
    ws = Workspace.from_root(sample_copy)
    facts = SuiteFacts(ws, load_references(ws), ids={})
    checked = check_answers(facts, answers)
    shown = sorted(
        (f.diagnostic for f in checked.findings if f.diagnostic.code not in AUTHORING_ONLY),
        key=lambda d: d.sort_key(),
    )
    target = sample_copy / checked.rel
    target.parent.mkdir(parents=True)
    try:
        target.write_text(checked.text, encoding="utf-8")
        suite = Suite.open(sample_copy, use_git=False)
        assert checked.rel in suite.items
        said = [worded(d) for d in suite.items[checked.rel].diagnostics]  # as sentences
        assert sorted(said, key=lambda d: d.sort_key()) == shown
    finally:
        shutil.rmtree(target.parent)


@settings(max_examples=examples(300), deadline=None)
@given(answers=arbitrary_answers)
def test_the_suite_style_reads_back_as_the_document(answers: Answers) -> None:
    answers.canary = "5b6f7409-ff84-4d96-83fb-2349d3b1b9bc"  # not a sample canary: no leak
    doc = document(answers)
    text, field_lines, _ = suite_style(doc, canary_line(answers))
    loaded = load_yaml(text, "task.yaml")
    assert loaded.ok and loaded.diagnostics == [], text
    assert (loaded.data or {}) == doc
    assert list(loaded.data or {}) == list(doc)
    lines = text.split("\n")
    for key, (first, _last) in field_lines.items():
        assert lines[first - 1].startswith(f"{key}:")
        value = doc[key]
        if isinstance(value, str) and "\n" in value and not _NOT_IN_BLOCK.search(value):
            assert lines[first - 1].startswith(f"{key}: |"), "multi-line text is a `|` block"
            if key in ("prompt", "ground_truth", "adversarial_intent"):
                # cleaned prose ends with one newline: plain `|` (`|2` when it starts indented)
                assert lines[first - 1] in (f"{key}: |", f"{key}: |2")


@FIXTURE_SETTINGS
@given(answers=arbitrary_answers)
def test_a_draft_reads_back_as_the_answers_it_saved(sample_copy: Path, answers: Answers) -> None:
    store = DraftStore(Workspace.from_root(sample_copy))
    name = store.new_name(answers.kind)
    store.save(name, answers, "prompt")
    draft = store.load(name)
    assert draft.answers == answers
    assert draft.step == "prompt"
