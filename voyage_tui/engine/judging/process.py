"""One run of a judge's command on one document: no shell, its own process group (killed
whole on a timeout), a minimal environment (PATH kept), stdout read up to STDOUT_LIMIT and
stderr to STDERR_LIMIT (the rest discarded), and its answer checked against the rubric.
Anything short of a well-formed answer is a `Failure`, never a rating."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from voyage_tui.engine.safe_text import one_line

STDOUT_LIMIT = 1 << 20
STDERR_LIMIT = 2_000
"""Characters of stderr kept, to say why a judge failed; the rest is read and dropped."""
NOTE_LIMIT = 10_000
KEPT_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "SYSTEMROOT")
"""The environment a judge always gets: enough to find programs and read text; nothing else
of the user's unless named (`pass_env`): a judge is a program of the user's, but the tool
hands it no secret it was not told to."""


@dataclass(frozen=True, slots=True)
class Answer:
    scores: dict[str, int]
    note: str
    duration_s: float


@dataclass(frozen=True, slots=True)
class Failure:
    reason: str
    duration_s: float


def judge_env(
    pass_env: tuple[str, ...], environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    source = os.environ if environ is None else environ
    return {k: source[k] for k in (*KEPT_ENV, *pass_env) if k in source}


def _read_bounded(stream: IO[bytes], limit: int, out: list[bytes], over: threading.Event) -> None:
    kept = 0
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read(65536):
            if kept < limit:
                out.append(chunk[: limit - kept + 1])
                kept += len(out[-1])
                if kept > limit:
                    over.set()
            # past the limit the rest is read and dropped, so the judge never blocks on a pipe


def _feed(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError, ValueError):
        stream.write(data)
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(proc.pid, signal.SIGKILL)


def run_judge(
    argv: tuple[str, ...],
    document: bytes,
    dimensions: Mapping[str, list[int]],
    *,
    timeout: float,
    env: Mapping[str, str],
) -> Answer | Failure:
    """Run `argv` once with `document` on stdin and check its answer: every dimension of the
    rubric scored with an integer on its scale, a text note."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            start_new_session=True,
            close_fds=True,
        )
    except OSError as exc:
        return Failure(f"cannot run {argv[0]!r}: {exc.strerror or exc}", 0.0)
    assert proc.stdin and proc.stdout and proc.stderr
    out: list[bytes] = []
    err: list[bytes] = []
    over = threading.Event()
    never = threading.Event()
    threads = [
        threading.Thread(target=_feed, args=(proc.stdin, document), daemon=True),
        threading.Thread(
            target=_read_bounded, args=(proc.stdout, STDOUT_LIMIT, out, over), daemon=True
        ),
        threading.Thread(
            target=_read_bounded, args=(proc.stderr, STDERR_LIMIT, err, never), daemon=True
        ),
    ]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    # Always: a judge's children left holding the pipes would keep the readers waiting.
    _kill_group(proc)
    proc.wait()
    for thread in threads:
        thread.join(timeout=5)
    duration = round(time.monotonic() - started, 3)
    if timed_out:
        return Failure(f"no answer within {timeout:g} s (killed)", duration)
    stderr = one_line(b"".join(err)[:STDERR_LIMIT].decode("utf-8", "replace").strip())
    if proc.returncode != 0:
        said = f": {stderr[:200]}" if stderr else ""
        return Failure(f"exit status {proc.returncode}{said}", duration)
    if over.is_set():
        return Failure(f"more than {STDOUT_LIMIT} bytes on stdout", duration)
    return parse_answer(b"".join(out), dimensions, duration)


def parse_answer(
    data: bytes, dimensions: Mapping[str, list[int]], duration: float
) -> Answer | Failure:
    try:
        doc: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Failure(f"stdout is not a JSON document ({exc})", duration)
    if not isinstance(doc, dict) or not isinstance(doc.get("scores"), dict):
        return Failure('stdout is not {"scores": {dimension: int}, "note": text}', duration)
    note = doc.get("note", "")
    if not isinstance(note, str):
        return Failure("`note` is not text", duration)
    scores: dict[str, int] = {}
    for name, scale in dimensions.items():
        value = doc["scores"].get(name)
        if value is None:
            return Failure(f"no score for {name!r}", duration)
        if isinstance(value, bool) or not isinstance(value, int):
            return Failure(f"the score for {name!r} is not an integer", duration)
        if value not in scale:
            return Failure(
                f"the score {value} for {name!r} is off its scale ({scale[0]}..{scale[-1]})",
                duration,
            )
        scores[name] = value
    unknown = sorted(set(doc["scores"]) - set(dimensions))
    if unknown:
        return Failure(f"a score for a dimension the rubric lacks: {unknown[0]!r}", duration)
    return Answer(scores, note[:NOTE_LIMIT], duration)
