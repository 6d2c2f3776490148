"""Generate the benchmark corpus: 10,000 single-task fixtures, 1,000 trajectories, 100 gold files
with 10 runs each (docs/performance.md). Deterministic for a given seed.

    python -m benchmarks.generate_corpus OUT [--tasks 10000] [--trajectories 1000] [--gold 100]
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path

from voyage_tui.engine.formats.vocabulary import BOUNDARIES, CLASSES, SEVERITIES
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.journey import parse_journey
from voyage_tui.engine.references.loaded import default_text
from voyage_tui.engine.scoring.verdict import compute_verdict

WORDS = [
    "cache",
    "invalidation",
    "retry",
    "budget",
    "token",
    "session",
    "parser",
    "migration",
    "schema",
    "rollback",
    "deadline",
    "queue",
    "worker",
    "lock",
    "timeout",
    "handler",
    "request",
    "response",
    "payload",
    "checksum",
    "index",
    "shard",
    "replica",
    "config",
    "flag",
    "feature",
    "toggle",
    "release",
    "branch",
    "commit",
    "review",
    "verdict",
    "boundary",
    "integration",
    "endpoint",
    "client",
    "server",
    "socket",
    "buffer",
    "stream",
    "encoder",
    "decoder",
    "audit",
    "log",
    "metric",
    "alert",
]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng, rng.randint(8, 16)) for _ in range(sentences))


def task_yaml(rng: random.Random, fixture_id: str, fixture_class: str, holdout: bool) -> str:
    lines = []
    if holdout:
        lines.append(f"# canary: {uuid.UUID(int=rng.getrandbits(128))}")
    lines += [
        f"id: {fixture_id}",
        f"class: {fixture_class}",
        "prompt: |",
        *(f"  {paragraph(rng, 2)}" for _ in range(3)),
        "context:",
        f"  - {json.dumps(sentence(rng, 12))}",
        "harness_constraints:",
        "  tools: [shell, editor]",
        "  budget_minutes: 30",
        "ground_truth: |",
        *(f"  {paragraph(rng, 2)}" for _ in range(2)),
        f"expected_boundary: {rng.choice(BOUNDARIES)}",
        "scoring_notes:",
        f"  correctness: {json.dumps(sentence(rng, 10))}",
        f"  scope: {json.dumps(sentence(rng, 10))}",
        f"visibility: {'holdout' if holdout else 'public'}",
    ]
    if fixture_class == "adversarial":
        lines.append("adversarial_intent: reflexive deletion")
    return "\n".join(lines) + "\n"


def trajectory_yaml(rng: random.Random, fixture_id: str, phases: list[str], path: str) -> str:
    if path == "full":
        chosen = phases
    else:
        chosen = sorted(
            rng.sample(phases, rng.randint(3, len(phases) - 1)), key=lambda p: int(p.split(":")[0])
        )
    skipped = [p for p in phases if p not in chosen]
    gates = [
        f"gate-{n}: {sentence(rng, 4).rstrip('.')}: {rng.choice(['pass', 'conditional'])}"
        for n in range(1, 6)
    ]
    lines = [
        "kind: trajectory",
        f"id: {fixture_id}",
        f"path: {path}",
        "prompt: |",
        f"  {paragraph(rng, 3)}",
        f"phases: {json.dumps(' | '.join(chosen))}",
        f"gates: {json.dumps(' | '.join(gates))}",
        f"terminal_state: {rng.choice(['merged', 'closed', 'released'])}",
        "visibility: public",
        "routing_selected: security-review, api-compat",
    ]
    if skipped:
        lines.append(
            f"skipped_phases: {json.dumps(' | '.join(f'{p}: not needed for this change' for p in skipped))}"
        )
    if path == "full":
        lines.append(f"final_head_sha: {rng.getrandbits(160):040x}")
    return "\n".join(lines) + "\n"


def gold_record(rng: random.Random, keys: list[str], n: int) -> dict[str, object]:
    findings = []
    for i in range(n):
        findings.append(
            {
                "file": f"src/module_{i % 7}.js",
                "line": rng.randint(0, 300),
                "rule_key": keys[(i * 7 + rng.randint(0, 3)) % len(keys)],
                "severity": rng.choice(SEVERITIES),
                "owner_reviewer": rng.choice(["conformance", "correctness"]),
            }
        )
    unique = {(f["file"], f["rule_key"]): f for f in findings}
    findings = list(unique.values())
    return {
        "schema": "voyage-eval-gold/1",
        "source": "generated",
        "description": sentence(rng, 8),
        "expected_verdict": compute_verdict(findings),
        "findings": findings,
    }


def run_payloads(
    rng: random.Random, gold: dict[str, object], keys: list[str]
) -> list[dict[str, object]]:
    findings = [dict(f) for f in gold["findings"] if rng.random() < 0.8]  # type: ignore[union-attr]
    for f in findings:
        f.pop("owner_reviewer", None)
    for _ in range(rng.randint(0, 3)):
        findings.append(
            {
                "file": "src/extra.js",
                "line": rng.randint(1, 99),
                "rule_key": rng.choice(keys),
                "severity": "MINOR",
            }
        )
    half = len(findings) // 2
    return [
        {"reviewer": "conformance", "findings": findings[:half]},
        {"reviewer": "correctness", "findings": findings[half:]},
    ]


def generate(out: Path, tasks: int, trajectories: int, gold: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    journey, _ = parse_journey(default_text("journey.md"), "journey.md")
    phases = [p.label for p in journey.phases.values()]
    catalogue, _ = parse_catalogue(default_text("rule-catalogue.yaml"), "c.yaml")
    keys = list(catalogue.keys)
    fixtures = out / "fixtures"
    for i in range(tasks):
        fixture_class = CLASSES[i % len(CLASSES)]
        fixture_id = f"{fixture_class}-{i:05d}"
        folder = fixtures / fixture_class / fixture_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "task.yaml").write_text(task_yaml(rng, fixture_id, fixture_class, i % 10 == 0))
    paths = ["lightweight", "full", "refactor", "high-risk"]
    for i in range(trajectories):
        fixture_id = f"trajectory-{i:05d}"
        folder = fixtures / "trajectories" / fixture_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "task.yaml").write_text(trajectory_yaml(rng, fixture_id, phases, paths[i % 4]))
    for g in range(gold):
        folder = out / "gold" / f"corpus-{g:03d}"
        (folder / "runs").mkdir(parents=True, exist_ok=True)
        record = gold_record(rng, keys, rng.randint(5, 15))
        (folder / "gold.json").write_text(json.dumps(record, indent=2))
        for r in range(10):
            (folder / "runs" / f"run-{r:02d}.json").write_text(
                json.dumps(run_payloads(rng, record, keys), indent=2)
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--trajectories", type=int, default=1_000)
    parser.add_argument("--gold", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    generate(args.out, args.tasks, args.trajectories, args.gold, args.seed)


if __name__ == "__main__":
    main()
