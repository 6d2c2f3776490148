"""One run of a judge's command on one document: no shell, its own process group (killed
whole on a timeout), a minimal environment (PATH kept), stdout read up to STDOUT_LIMIT and
stderr to STDERR_LIMIT (the rest discarded), and its answer checked against the rubric.
Anything short of a well-formed answer is a `Failure`, never a rating."""

from __future__ import annotations

import contextlib
import json
import os
import select
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


_CHUNK = 65536


def judge_env(
    pass_env: tuple[str, ...], environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    source = os.environ if environ is None else environ
    return {k: source[k] for k in (*KEPT_ENV, *pass_env) if k in source}


def _exchange(
    proc: subprocess.Popen[bytes], document: bytes, timeout: float
) -> tuple[bytes, bytes, bool, bool]:
    """Feed `document` to the judge and read its stdout and stderr, bounded, in this one
    thread (a selector over the three pipes: no thread per item), until both close or the time
    is up. Returns (stdout, stderr, stdout over its limit, timed out)."""
    assert proc.stdin and proc.stdout and proc.stderr
    deadline = time.monotonic() + timeout
    out, err = bytearray(), bytearray()
    over = False
    view = memoryview(document)
    with selectors.DefaultSelector() as selector:
        if view:
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(out), bytes(err), over, True
            # A short wait while the judge lives; once it has exited, only what is already in
            # the pipes (a child it left behind may hold them open, and never close them).
            exited = proc.poll() is not None
            ready = selector.select(0 if exited else min(left, 0.05))
            if exited and not ready:
                break
            # A pipe that selects writable takes PIPE_BUF bytes without blocking.
            for key, _ in ready:
                if key.fileobj is proc.stdin:
                    try:
                        sent = os.write(key.fd, view[: select.PIPE_BUF])
                    except BrokenPipeError:
                        sent = len(view)  # the judge will not read the rest: fine
                    view = view[sent:]
                    if not view:
                        selector.unregister(proc.stdin)
                        with contextlib.suppress(OSError):
                            proc.stdin.close()
                    continue
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is proc.stdout:
                    out += chunk
                    if len(out) > STDOUT_LIMIT:
                        return bytes(out[: STDOUT_LIMIT + 1]), bytes(err), True, False
                elif len(err) < STDERR_LIMIT:
                    err += chunk[: STDERR_LIMIT - len(err)]
                # past the limit stderr is read and dropped, so the judge never blocks on it
    return bytes(out), bytes(err), over, False


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
    try:
        out, err, over, timed_out = _exchange(proc, document, timeout)
        if not (timed_out or over):  # past the limit it is killed, not waited for
            proc.wait(timeout=max(0.0, timeout - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        # Always: a judge's children left behind would keep running, holding the pipes.
        _kill_group(proc)
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
    duration = round(time.monotonic() - started, 3)
    if timed_out:
        return Failure(f"no answer within {timeout:g} s (killed)", duration)
    stderr = one_line(err.decode("utf-8", "replace").strip())
    if over:
        return Failure(f"more than {STDOUT_LIMIT} bytes on stdout (killed)", duration)
    if proc.returncode != 0:
        said = f": {stderr[:200]}" if stderr else ""
        return Failure(f"exit status {proc.returncode}{said}", duration)
    return parse_answer(out, dimensions, duration)


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
