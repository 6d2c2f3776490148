"""A judging pass (`voyage-tui judge run`, SPEC 3.11): every agent run of the campaign, each
repeat 1..K, given to the judge's command; its answers appended to `ratings/<name>.jsonl` as a
program's records, in batches (one write and one fsync each).

Resumable: an item and repeat the same command (by its sha256) has already rated is skipped;
a failure writes nothing, so it is tried again next time. A changed command under the same
name starts afresh (its older records stay in the file, and `judge align` reads only the
latest command's). The judge's name takes the rater lock, so a person's session or a second
pass under that name cannot write to the file meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.formats.rating_fields import PROGRAM
from voyage_tui.engine.judging.command import JudgeCommand
from voyage_tui.engine.judging.document import document_bytes, rubric_document
from voyage_tui.engine.judging.process import Answer, Failure, judge_env, run_judge
from voyage_tui.engine.ratings.lock import RaterLock
from voyage_tui.engine.ratings.names import ratings_file_rel
from voyage_tui.engine.ratings.records import Rating, utc_now
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import AgentRunRef

BATCH = 256
"""Records appended at once; and at least every BATCH_SECONDS, so a long pass shows its work."""
BATCH_SECONDS = 2.0


class JudgeRefused(Exception):
    """The pass cannot start: the message says why."""


@dataclass(frozen=True, slots=True)
class Task:
    run: AgentRunRef
    repeat: int


@dataclass(frozen=True, slots=True)
class TaskFailure:
    fixture_id: str
    run_id: str
    repeat: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "fixture_id": self.fixture_id,
            "run_id": self.run_id,
            "repeat": self.repeat,
            "reason": self.reason,
        }


@dataclass(slots=True)
class Plan:
    todo: list[Task]
    skipped: int
    """Items and repeats this command has rated already."""
    other_commands: int
    """Records of this name made by another command (a changed command starts afresh)."""
    total: int


@dataclass(slots=True)
class Summary:
    name: str
    command_sha256: str
    path: str
    total: int
    skipped: int
    judged: int = 0
    failures: list[TaskFailure] = field(default_factory=list)
    other_commands: int = 0
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "judge": self.name,
            "command_sha256": self.command_sha256,
            "path": self.path,
            "items": self.total,
            "skipped": self.skipped,
            "judged": self.judged,
            "failed": len(self.failures),
            "failures": [f.to_json() for f in self.failures],
            "changed_command": self.other_commands > 0,
            "interrupted": self.interrupted,
        }


Progress = Callable[[int, int, int], None]
"""(done, to do, failed so far)."""


def judge_records(campaign: Campaign, name: str) -> Iterator[Rating]:
    """Every program record of the judge `name` that counts, in file order."""
    return (r for r in campaign.store.ratings() if r.rater == name and r.is_program)


def plan_pass(campaign: Campaign, name: str, command: JudgeCommand, repeat: int) -> Plan:
    runs = campaign.runs.runs if campaign.runs is not None else []
    sha = command.sha256
    done: set[tuple[str, str, int]] = set()
    other = 0
    for rating in campaign.store.ratings():
        if rating.rater != name:
            continue
        if not rating.is_program:
            raise JudgeRefused(
                f"{rating.path} holds a person's ratings under the name {name!r}; give the "
                "judge a name of its own"
            )
        judge = rating.judge or {}
        if judge.get("command_sha256") != sha:
            other += 1
        elif rating.scores is not None and isinstance(judge.get("repeat"), int):
            done.add((rating.fixture_id, rating.run_id, judge["repeat"]))
    todo = [
        Task(run, k)
        for run in runs
        for k in range(1, repeat + 1)
        if (run.fixture_id, run.run_id, k) not in done
    ]
    total = len(runs) * repeat
    return Plan(todo, total - len(todo), other, total)


def run_pass(
    campaign: Campaign,
    name: str,
    command: JudgeCommand,
    *,
    repeat: int = 1,
    jobs: int = 1,
    timeout: float = 120.0,
    progress: Progress | None = None,
) -> Summary:
    """Judge every item and repeat not yet judged by this command. Raises JudgeRefused (a
    person's file under the name), LockRefused (the name is busy) or OSError (the file cannot
    be written: what was appended before stays)."""
    ws, rubric = campaign.ws, campaign.rubric
    plan = plan_pass(campaign, name, command, repeat)
    rel = ratings_file_rel(ws, name)
    summary = Summary(
        name, command.sha256, rel, plan.total, plan.skipped, other_commands=plan.other_commands
    )
    if not plan.todo:
        return summary
    dimensions = {d.name: scale_values(d) for d in rubric.dimensions}
    rubric_doc = rubric_document(rubric)
    env = judge_env(command.pass_env)

    def one(task: Task) -> Answer | Failure:
        data = document_bytes(ws, rubric, rubric_doc, task.run, task.repeat)
        return run_judge(command.argv, data, dimensions, timeout=timeout, env=env)

    with RaterLock.take(ws, name):
        store = WorkTree(ws).rater_store(rubric, campaign.runs, [rel])
        pending: list[Rating] = []
        last_flush = time.monotonic()

        def flush() -> None:
            nonlocal last_flush
            if pending:
                store.append_many(ws, pending)
                summary.judged += len(pending)
                pending.clear()
            last_flush = time.monotonic()

        tasks = iter(plan.todo)
        running: dict[Future[Answer | Failure], Task] = {}
        done_count = 0
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            try:
                # A bounded window of work in flight, not 10,000 futures at once.
                for task in tasks:
                    running[pool.submit(one, task)] = task
                    if len(running) >= jobs * 4:
                        break
                while running:
                    finished, _ = wait(running, timeout=BATCH_SECONDS, return_when=FIRST_COMPLETED)
                    for future in finished:
                        task = running.pop(future)
                        result = future.result()
                        done_count += 1
                        if isinstance(result, Answer):
                            pending.append(_record(name, command, task, result))
                        else:
                            summary.failures.append(
                                TaskFailure(
                                    task.run.fixture_id, task.run.run_id, task.repeat, result.reason
                                )
                            )
                        nxt = next(tasks, None)
                        if nxt is not None:
                            running[pool.submit(one, nxt)] = nxt
                    if len(pending) >= BATCH or time.monotonic() - last_flush >= BATCH_SECONDS:
                        flush()
                    if progress is not None:
                        progress(done_count, len(plan.todo), len(summary.failures))
            except KeyboardInterrupt:
                summary.interrupted = True
                for future in running:
                    future.cancel()
            finally:
                flush()
    return summary


def _record(name: str, command: JudgeCommand, task: Task, answer: Answer) -> Rating:
    return Rating(
        fixture_id=task.run.fixture_id,
        run_id=task.run.run_id,
        rater=name,
        scores=answer.scores,
        rated_at=utc_now(),
        blind=True,
        note=answer.note,
        duration_s=answer.duration_s,
        rater_kind=PROGRAM,
        judge={"command_sha256": command.sha256, "repeat": task.repeat},
    )
