"""Harbor jobs (SPEC 3.13): a job folder of trial folders, each with its `result.json`.

A trial's result names its `task_name`, its `agent_info` (`name`, `version`, `model_info`), the
verifier's `rewards` (`verifier_result.rewards`, `{name: number}`) and `exception_info` when the
trial failed. The trials of one task are its epochs, numbered in the order of their folder names
(so the same job imports to the same run ids). The job's own `result.json` (beside the trial
folders) is not a trial and is skipped.
"""

from __future__ import annotations

import json
import os
from typing import Any

from voyage_tui.engine.importing.model import ImportedSample, ImportRefused
from voyage_tui.engine.importing.outcomes import outcome_of
from voyage_tui.engine.importing.sources import read_source
from voyage_tui.engine.importing.transcript import cut

NAME = "harbor"
MAX_RESULT_BYTES = 16 << 20
MAX_TRIALS = 100_000


def is_trial(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and "task_name" in data
        and ("verifier_result" in data or "agent_info" in data)
    )


def trial_results(job: str) -> list[str]:
    """The trial folders' result.json paths, in name order (symlinked folders skipped)."""
    try:
        entries = sorted(os.scandir(job), key=lambda e: e.name)
    except OSError as exc:
        raise ImportRefused(f"{job}: {exc.strerror or exc}") from None
    if len(entries) > MAX_TRIALS:
        raise ImportRefused(f"{job}: more than {MAX_TRIALS} entries")
    out = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            result = os.path.join(entry.path, "result.json")
            if os.path.isfile(result) and not os.path.islink(result):
                out.append(result)
    return out


def _json(path: str) -> Any:
    try:
        return json.loads(read_source(path, MAX_RESULT_BYTES))
    except ValueError as exc:
        raise ImportRefused(f"{path}: not valid JSON ({exc})") from None


def load(job: str, agent: str | None) -> list[ImportedSample]:
    trials = [(path, _json(path)) for path in trial_results(job)]
    trials = [(p, t) for p, t in trials if is_trial(t)]
    if not trials:
        raise ImportRefused(f"{job}: no Harbor trial (a folder with a result.json) found")
    epochs: dict[str, int] = {}
    out = []
    for path, trial in trials:
        task = str(trial["task_name"])
        epochs[task] = epochs.get(task, 0) + 1
        out.append(_sample(job, path, trial, epochs[task], agent))
    return out


def _agent_label(info: Any) -> str | None:
    if not isinstance(info, dict):
        return None
    name = info.get("name") if isinstance(info.get("name"), str) else None
    model_info = info.get("model_info")
    model = model_info.get("name") if isinstance(model_info, dict) else None
    if name and isinstance(model, str) and model:
        return f"{name}/{model}"
    return name


def _sample(
    job: str, path: str, trial: dict[str, Any], epoch: int, agent: str | None
) -> ImportedSample:
    task = str(trial["task_name"])
    verifier = trial.get("verifier_result")
    rewards = verifier.get("rewards") if isinstance(verifier, dict) else None
    rewards = rewards if isinstance(rewards, dict) else {}
    exception = trial.get("exception_info")
    trial_name = trial.get("trial_name") or os.path.basename(os.path.dirname(path))
    metadata: dict[str, Any] = {
        "source": NAME,
        "log": os.path.basename(os.path.normpath(job)),
        "trial": trial_name,
        "task": task,
        "sample": task,
        "model": _agent_label(trial.get("agent_info")),
        "epoch": epoch,
        "agent_info": trial.get("agent_info"),
        "scores": rewards,
        "outcome": outcome_of(rewards),
    }
    lines = [f"Harbor trial `{trial_name}` of task `{task}`."]
    if rewards:
        lines.append("Rewards: " + ", ".join(f"{k} = {v}" for k, v in rewards.items()) + ".")
    if isinstance(exception, dict):
        kind = exception.get("exception_type") or "an exception"
        message = exception.get("exception_message") or ""
        metadata["exception"] = {"type": kind, "message": cut(str(message), 2_000)}
        lines.append(f"The trial failed: {kind}: {cut(str(message), 2_000)}")
    return ImportedSample(
        source=NAME,
        log=os.path.normpath(job),
        sample=task,
        epoch=epoch,
        agent=agent or _agent_label(trial.get("agent_info")) or "unknown",
        output="\n\n".join(lines),
        metadata=metadata,
        sample_metadata={"task_name": task, "trial_name": trial_name},
    )


def load_trial(folder: str, agent: str | None) -> list[ImportedSample]:
    """One trial folder given on its own: its job is the folder above."""
    path = os.path.join(folder, "result.json")
    trial = _json(path)
    if not is_trial(trial):
        raise ImportRefused(f"{path}: not a Harbor trial result (no task_name)")
    job = os.path.dirname(os.path.normpath(folder)) or "."
    return [_sample(job, path, trial, 1, agent)]
