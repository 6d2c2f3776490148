"""What the app does with an exception nobody caught: say so, and keep the person's work.

Textual's default is to stop the app and print a traceback for any exception from a worker, an
action or a message handler; with an editor open, unsaved typing is gone. Here:

- a failed worker, an action or a screen callback that raised, a message handler of the app or
  of one of its screens that raised: the error is shown in a notification (one line, and where
  the full traceback was written) and the app carries on;
- anything else (a widget's own handler, widgets that could not be built, the display): that
  part of the interface has stopped, so the app stops too, but first every unsaved editor buffer
  is written to a recovery file, and the exit message names those files; the exit code is 1.

The hooks are Textual's private ones (voyage_tui/app/textual_private.py lists them): `App._handle_exception` (where every uncaught error ends up, a failed
worker as `WorkerFailed`), `App._dispatch_action` (every key binding and palette command) and
`_dispatch_message` (a message pump's handlers; an error escaping it stops the pump for good).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import WorkerFailed

from voyage_tui.app.textual_private import invoke

LOG_NAME = "errors.log"
LOG_MAX_BYTES = 1 << 20
"""The log is started afresh (the old one kept as errors.log.1) beyond this size."""

ERROR_BURST = (30, 10.0)
"""This many reported errors within this many seconds: something fails over and over (a
repaint, say), so stop as after a crash rather than notify forever."""


def state_dir() -> Path:
    """Where the app keeps its error log and recovery files: the XDG state folder."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(base) / "voyage-tui"


_fallback_dir: Path | None = None


def _private_dir(path: Path) -> Path:
    """`path`, created 0700; when it cannot be made (read-only home), one fresh private
    temporary folder for the process instead: never a place someone else chose."""
    global _fallback_dir
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if path.is_symlink() or not path.is_dir():
            raise NotADirectoryError(f"{path} is not a folder")
        return path
    except OSError:
        if _fallback_dir is None:
            _fallback_dir = Path(tempfile.mkdtemp(prefix="voyage-tui-"))
        return _fallback_dir


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def write_error_log(error: BaseException, context: str) -> Path:
    """Append the traceback to the error log (0600); returns the log's path."""
    folder = _private_dir(state_dir())
    log = folder / LOG_NAME
    try:
        if log.stat().st_size > LOG_MAX_BYTES:
            os.replace(log, folder / f"{LOG_NAME}.1")
    except OSError:
        pass
    stamp = datetime.now().isoformat(timespec="seconds")
    text = f"--- {stamp} {context}\n" + "".join(traceback.format_exception(error))
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, text.encode("utf-8", "backslashreplace"))
    finally:
        os.close(fd)
    return log


def _file_name(rel: str) -> str:
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in rel)
    safe = safe.strip("._") or "buffer"
    # A file name holds 255 bytes; the time stamp and a counter come first. Keep the end of
    # the path: it names the file.
    return safe[-200:].lstrip("._") or "buffer"


def write_recovery(buffers: list[tuple[str, str]]) -> list[tuple[str, Path]]:
    """Each (workspace-relative path, text) to its own new 0600 file in the recovery folder,
    named <time>-<path with / as _>. Surrogates a paste may have left in the text are kept
    (surrogatepass): nothing typed is dropped."""
    folder = _private_dir(state_dir() / "recovery")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    written: list[tuple[str, Path]] = []
    for rel, text in buffers:
        data = text.encode("utf-8", "surrogatepass")
        for attempt in range(1, 100):
            suffix = "" if attempt == 1 else f"-{attempt}"
            path = folder / f"{stamp}{suffix}-{_file_name(rel)}"
            try:
                _write_new(path, data)
            except FileExistsError:
                continue
            written.append((rel, path))
            break
    return written


def summary(error: BaseException) -> str:
    line = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else repr(error)
    return line if len(line) <= 200 else line[:199] + "…"


class AppCrashed(Exception):
    """What the app stopped on, as the person reads it on exit: the error in one line, where its
    traceback is, where the unsaved work went. Textual prints an exception's `__rich__`."""

    def __rich__(self) -> Text:
        # The first line only: the rest holds paths, which `run` prints plainly afterwards (a
        # Rich console wraps or crops them at the terminal's width, and they must be copyable).
        return Text(str(self).splitlines()[0], style="bold red")


class GuardedMessages(MessagePump):
    """For the app's screens: an error in one of their message handlers is reported, and the
    screen goes on handling messages (Textual would stop the screen, and so the app)."""

    async def _dispatch_message(self, message: Message) -> None:
        try:
            await super()._dispatch_message(message)
        except Exception as error:
            report = getattr(self.app, "report_error", None)
            if report is None:
                raise
            report(error, f"{type(self).__name__} handling {type(message).__name__}")


class Resilient(App[int]):
    """The app's side of the above. `unsaved_buffers` is the app's to say."""

    def __init__(self) -> None:
        super().__init__()
        self.reported_errors: list[BaseException] = []
        """Everything reported and survived, for tests to check (and clear when expected)."""
        self.crash_report: str = ""
        self._recent_errors: deque[float] = deque(maxlen=ERROR_BURST[0])

    def unsaved_buffers(self) -> list[tuple[str, str]]:
        return []

    # --- reporting ---------------------------------------------------------------------------

    def report_error(self, error: BaseException, context: str) -> None:
        """Tell the person, log the traceback, carry on (unless errors keep coming)."""
        if self.crash_report:  # stopping already: what fails on the way out is only logged
            with suppress(OSError):
                write_error_log(error, f"{context}, after the crash")
            return
        self.reported_errors.append(error)
        now = time.monotonic()
        self._recent_errors.append(now)
        count, seconds = ERROR_BURST
        if len(self._recent_errors) == count and now - self._recent_errors[0] < seconds:
            self._crash(error, f"{context} (failing over and over)")
            return
        try:
            where = f" Details: {write_error_log(error, context)}"
        except OSError as exc:
            where = f" (the error log could not be written: {exc})"
        with suppress(Exception):  # the app is shutting down: nothing left to tell
            self.notify(
                f"{context} failed: {summary(error)}. The app carries on.{where}",
                title="Unexpected error",
                severity="error",
                timeout=20,
                markup=False,
            )

    def _handle_exception(self, error: Exception) -> None:
        if isinstance(error, WorkerFailed):
            # The worker has ended; nothing else stopped with it.
            self.report_error(error.error, "A background task")
            return
        self._crash(error, "The interface")

    def _crash(self, error: BaseException, context: str) -> None:
        if self.crash_report:  # already stopping; the first error is the one to tell
            return
        lines = [f"voyage-tui stopped on an unexpected error: {summary(error)}"]
        try:
            lines.append(f"The full traceback is in {write_error_log(error, context)}")
        except OSError as exc:
            lines.append(f"(the error log could not be written: {exc})")
            lines += traceback.format_exception(error)
        try:
            buffers = self.unsaved_buffers()
            saved = write_recovery(buffers)
        except Exception as exc:
            lines.append(f"UNSAVED CHANGES COULD NOT BE RECOVERED: {summary(exc)}")
        else:
            if saved:
                lines.append("Your unsaved changes were written to:")
                lines += [f"  {path}  ({rel})" for rel, path in saved]
            if len(saved) < len(buffers):
                lines.append("SOME UNSAVED CHANGES COULD NOT BE WRITTEN")
            if not buffers:
                lines.append("There were no unsaved changes.")
        self.crash_report = "\n".join(lines)
        crashed = AppCrashed(self.crash_report)
        crashed.__cause__ = error
        # Textual's own handling from here: exit code 1, the pilot re-raises, the message is
        # printed once the terminal is restored.
        super()._handle_exception(crashed)

    # --- where errors are caught before Textual would stop the app ------------------------------

    async def _dispatch_action(self, namespace: Any, action_name: str, params: Any) -> bool:
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except Exception as error:
            self.report_error(error, f"The action {action_name!r}")
            return True

    async def _dispatch_message(self, message: Message) -> None:
        try:
            await super()._dispatch_message(message)
        except Exception as error:
            self.report_error(error, f"Handling {type(message).__name__}")

    def push_screen(self, screen: Any, callback: Any = None, *args: Any, **kwargs: Any) -> Any:
        """A screen's result callback that raises is reported (Textual would stop the app)."""
        return super().push_screen(screen, self._guarded(callback), *args, **kwargs)

    def _guarded(self, callback: Callable[[Any], Any] | None) -> Callable[[Any], Any] | None:
        if callback is None:
            return None

        async def guarded(result: Any) -> None:
            try:
                await invoke(callback, result)  # as Textual would: a callback may take no argument
            except Exception as error:
                self.report_error(error, "Acting on a dialog's answer")

        return guarded

    def run(self, *args: Any, **kwargs: Any) -> int | None:
        """The exit code after a crash (1), else what the app exited with."""
        result = super().run(*args, **kwargs)
        if self.crash_report:
            print("\n".join(self.crash_report.splitlines()[1:]), file=sys.stderr)
            return self.return_code or 1
        return result
