"""Each step shows its own problems: the diagnostics of the document, tied to the step that
answers them, plus what only the answers can show (the id against the suite, context copies,
gates without a verdict)."""

from __future__ import annotations

from pathlib import Path

from voyage_tui.engine.authoring import (
    Authoring,
    ContextEntry,
    GateMark,
    TaskAnswers,
    TrajectoryAnswers,
    diagnostics_by_step,
    step_of_field,
    steps_for,
)
from voyage_tui.engine.authoring.render import render


def complete_task(**changes: object) -> TaskAnswers:
    answers = TaskAnswers(
        fixture_class="bug-diagnosis",
        id="login-timeout",
        prompt="The login page times out after 30 s on a cold cache.\nFind out why.\n",
        ground_truth="The cache warms lazily; warm it at start-up.",
        expected_boundary="integration",
    )
    for name, value in changes.items():
        setattr(answers, name, value)
    return answers


def codes_by_step(
    authoring: Authoring, answers: TaskAnswers | TrajectoryAnswers
) -> dict[str, list[str]]:
    checked = authoring.check(answers)
    return {
        step: [d.code for d in found]
        for step, found in diagnostics_by_step(answers, checked).items()
        if found and step != "preview"
    }


def test_complete_answers_have_no_diagnostic_and_a_target_folder(authoring: Authoring) -> None:
    checked = authoring.check(complete_task())
    assert checked.diagnostics == []
    assert checked.writable
    assert checked.rel == "fixtures/bug-diagnosis/login-timeout/task.yaml"


def test_the_empty_wizard_shows_each_missing_answer_on_its_own_step(authoring: Authoring) -> None:
    answers = authoring.new("task")
    assert codes_by_step(authoring, answers) == {
        "class": ["missing-field"],
        "prompt": ["missing-field"],
        "id": ["missing-field"],
        "ground_truth": ["missing-field"],
        "expected_boundary": ["missing-field"],
    }
    checked = authoring.check(answers)
    assert not checked.writable
    assert checked.rel == "fixtures/<class>/<id>/task.yaml"


def test_a_wrong_value_shows_on_its_step_with_the_line_it_would_have(authoring: Authoring) -> None:
    answers = complete_task(fixture_class="bug-diagnosys", expected_boundary="e2e")
    checked = authoring.check(answers)
    by_step = diagnostics_by_step(answers, checked)
    (wrong_class,) = by_step["class"]
    assert wrong_class.code == "invalid-class"
    assert "did you mean `bug-diagnosis`" in wrong_class.message
    assert wrong_class.line == 2
    assert checked.text.split("\n")[1] == "class: bug-diagnosys"
    assert [d.code for d in by_step["expected_boundary"]] == ["invalid-boundary"]
    assert checked.rel == "fixtures/bug-diagnosys/login-timeout/task.yaml"
    assert set(by_step["preview"]) == set(checked.diagnostics)


def test_the_id_is_checked_against_the_suite_as_you_type(
    authoring: Authoring, sample_copy: Path
) -> None:
    assert codes_by_step(authoring, complete_task(id="Login Timeout")) == {"id": ["id-not-slug"]}
    taken = codes_by_step(authoring, complete_task(id="pagination-last-page-dropped"))
    assert taken == {"id": ["duplicate-id"]}
    message = (
        authoring.check(complete_task(id="pagination-last-page-dropped")).diagnostics[0].message
    )
    assert "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml" in message
    (sample_copy / "fixtures/bug-diagnosis/half-made").mkdir()
    assert codes_by_step(authoring, complete_task(id="half-made")) == {"id": ["fixture-exists"]}
    slash = authoring.check(complete_task(id="a/b"))
    assert "id-not-slug" in [d.code for d in slash.diagnostics]
    assert not slash.writable


def test_the_id_is_proposed_from_the_prompt(authoring: Authoring) -> None:
    assert authoring.propose_id("Fix the off-by-one in the pagination helper of the API") == (
        "fix-off-by-one-pagination-helper"
    )
    assert authoring.propose_id("Étude: Ünïcode names") == "etude-unicode-names"
    assert authoring.propose_id("   ") == ""
    # taken: numbered
    assert authoring.propose_id("pagination last page dropped") == "pagination-last-page-dropped-2"


def test_adversarial_intent_is_a_step_only_for_the_adversarial_class(authoring: Authoring) -> None:
    names = [s.name for s in steps_for(complete_task())]
    assert "adversarial_intent" not in names
    assert names[:4] == ["kind", "class", "prompt", "id"]
    assert names[-1] == "preview"
    adversarial = complete_task(fixture_class="adversarial")
    assert "adversarial_intent" in [s.name for s in steps_for(adversarial)]
    assert codes_by_step(authoring, adversarial) == {
        "adversarial_intent": ["adversarial-intent-missing"]
    }
    stray = complete_task(adversarial_intent="reflexive deletion")
    assert "adversarial_intent" in [s.name for s in steps_for(stray)]  # so it can be cleared
    assert codes_by_step(authoring, stray) == {
        "adversarial_intent": ["adversarial-intent-unexpected"]
    }
    assert not authoring.check(stray).writable  # a warning is a diagnostic validate would add


def test_scoring_notes_per_dimension(authoring: Authoring) -> None:
    assert [d.name for d in authoring.dimensions()] == [
        "correctness",
        "verification",
        "scope",
        "evidence",
        "communication",
    ]
    ok = complete_task(scoring_notes={"correctness": "5: finds the cold cache", "scope": "x"})
    assert authoring.check(ok).diagnostics == []
    wrong = complete_task(scoring_notes={"corectness": "5: x"})
    (found,) = authoring.check(wrong).diagnostics
    assert found.code == "unknown-dimension" and "`correctness`" in found.message
    assert step_of_field(wrong, "scoring_notes") == "scoring_notes"


def test_context_files_are_copied_in_and_checked_to_stay_inside(authoring: Authoring) -> None:
    source = "fixtures/feature-change/config-v2-migration/v1-example.toml"
    ok = complete_task(
        context=[
            ContextEntry(text="inline"),
            ContextEntry(file="v1.toml", source=source, named=True),
        ]
    )
    checked = authoring.check(ok)
    assert checked.diagnostics == []
    assert "  - {file: v1.toml}" in checked.text.split("\n")

    escaping = complete_task(context=[ContextEntry(file="../x.toml", source=source, named=True)])
    assert codes_by_step(authoring, escaping) == {"context": ["context-path-escapes"]}
    missing = complete_task(
        context=[ContextEntry(file="x.toml", source="fixtures/nope.toml", named=True)]
    )
    assert codes_by_step(authoring, missing) == {"context": ["context-source-unreadable"]}
    outside = complete_task(
        context=[ContextEntry(file="passwd", source="../../etc/passwd", named=True)]
    )
    assert codes_by_step(authoring, outside) == {"context": ["context-source-unreadable"]}
    clash = complete_task(
        context=[
            ContextEntry(file="task.yaml", source=source, named=True),
            ContextEntry(file="a.toml", source=source, named=True),
            ContextEntry(file="a.toml", source=source, named=True),
        ]
    )
    assert codes_by_step(authoring, clash) == {
        "context": ["context-ref-clash", "context-ref-clash"]
    }
    # a reference to a file that nothing copies: the engine's own rule
    bare = complete_task(context=[ContextEntry(file="later.toml")])
    assert codes_by_step(authoring, bare) == {"context": ["context-file-missing"]}


def test_trajectory_steps_come_from_journey_md(authoring: Authoring) -> None:
    answers = authoring.new("trajectory")
    assert isinstance(answers, TrajectoryAnswers)
    assert [p.number for p in answers.phases] == list(range(1, 10))
    assert answers.phases[2].name == "Design and planning"
    assert all(p.traversed for p in answers.phases)
    assert [(g.number, g.description) for g in answers.gates][:2] == [
        (1, "Scope approved"),
        (2, "Design approved"),
    ]
    assert [s.name for s in steps_for(answers)] == [
        "kind",
        "path",
        "prompt",
        "id",
        "phases",
        "gates",
        "terminal_state",
        "final_head_sha",
        "routing",
        "visibility",
        "preview",
    ]


def complete_trajectory(authoring: Authoring) -> TrajectoryAnswers:
    answers = authoring.new("trajectory")
    assert isinstance(answers, TrajectoryAnswers)
    answers.id, answers.path, answers.prompt = "warm-cache", "full", "Warm the cache on deploy."
    answers.terminal_state = "released"
    answers.final_head_sha = "a" * 40
    for gate in answers.gates:
        gate.verdict = "pass"
    return answers


def test_the_full_path_rules_show_while_you_tick(authoring: Authoring) -> None:
    answers = complete_trajectory(authoring)
    assert authoring.check(answers).diagnostics == []
    answers.phases[6].traversed = False  # untick 7: Security and compliance
    assert codes_by_step(authoring, answers) == {
        "phases": ["full-path-missing-phases", "skipped-phase-no-reason"]
    }
    answers.phases[6].reason = "no auth surface"
    assert codes_by_step(authoring, answers) == {"phases": ["full-path-missing-phases"]}
    answers.path = "lightweight"
    assert authoring.check(answers).diagnostics == []
    answers.gates[1] = GateMark(2, recorded=False)
    assert codes_by_step(authoring, answers) == {"gates": ["skipped-gate-no-reason"]}
    answers.gates[1].reason = "no design phase"
    answers.gates[2].verdict = ""
    answers.gates[3].verdict = "passed"
    assert codes_by_step(authoring, answers) == {
        "gates": ["gate-incomplete", "invalid-gate-verdict"]
    }
    answers.path = "full"
    answers.final_head_sha = "abc123"
    assert codes_by_step(authoring, answers)["final_head_sha"] == ["sha-abbreviated"]
    answers.final_head_sha = ""
    assert codes_by_step(authoring, answers)["final_head_sha"] == ["full-path-missing-sha"]


def test_a_journey_of_the_workspace_is_read_never_a_built_in_list(sample_copy: Path) -> None:
    (sample_copy / "fixtures/references/journey.md").write_text(
        "# Journey\n\n## Phases\n\n1. Triage\n2. Fix it\n\n## Gates\n\n- gate-1: Fixed, really.\n",
        encoding="utf-8",
    )
    authoring = Authoring.open(sample_copy, use_git=False)
    answers = authoring.new("trajectory")
    assert isinstance(answers, TrajectoryAnswers)
    assert [(p.number, p.name) for p in answers.phases] == [(1, "Triage"), (2, "Fix it")]
    assert [(g.number, g.description) for g in answers.gates] == [(1, "Fixed")]


def test_a_holdout_gets_a_canary_that_stays(authoring: Authoring) -> None:
    answers = complete_task(visibility="holdout")
    first = authoring.check(answers)
    canary = answers.canary
    assert first.text.startswith(f"# canary: {canary}\n")
    assert authoring.check(answers).text == first.text
    answers.visibility = "public"
    assert "canary" not in authoring.check(answers).text
    answers.visibility = "holdout"
    assert authoring.check(answers).text == first.text


def test_text_that_cannot_be_saved_is_refused(authoring: Authoring) -> None:
    answers = complete_task(prompt="broken \udcff byte")
    assert codes_by_step(authoring, answers) == {"prompt": ["answer-not-utf8"]}


def test_suite_style_matches_the_sample(authoring: Authoring, sample_copy: Path) -> None:
    """A copy of a sample fixture renders as the sample file itself (but for its id), except
    where the sample folds a long line with `>-` (the wizard writes it on one line)."""
    for fixture_id in ("config-v2-migration", "unused-export-handler", "order-email-help-link"):
        answers = authoring.start_from(fixture_id)
        answers.id = fixture_id
        original = next(sample_copy.glob(f"fixtures/*/{fixture_id}/task.yaml")).read_text()
        rendered = render(answers).text
        if fixture_id == "config-v2-migration":
            original = original.replace(
                "  scope: >-\n    Removing v1 support now is wrong (the task says one more minor "
                'release). Adding a general\n    "config schema versioning framework" is '
                "over-reach.\n",
                "  scope: Removing v1 support now is wrong (the task says one more minor release). "
                'Adding a general "config schema versioning framework" is over-reach.\n',
            )
        assert rendered == original


def test_one_line_prose_is_written_as_a_block_not_a_long_quoted_string() -> None:
    """Issue 36 row 11: a one-line prompt or ground truth (even one YAML cannot hold plain, with
    `: ` and `#` in it) is a `|` block, easy to edit and diff, like every prompt of the sample."""
    answers = complete_task(
        prompt='Fix it: the "retry" flag # is ignored',
        ground_truth="The flag is read before the config loads: move the read.",
    )
    text = render(answers).text
    assert 'prompt: |\n  Fix it: the "retry" flag # is ignored\n' in text
    assert "ground_truth: |\n  The flag is read before the config loads: move the read.\n" in text
    trajectory = TrajectoryAnswers(id="help-link", prompt="Fix the help link: it 404s.")
    assert "prompt: |\n  Fix the help link: it 404s.\n" in render(trajectory).text
