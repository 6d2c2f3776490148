"""Finding the repository and running git in it, without raising at the caller and without git
running anything the repository names.

A workspace may come from anyone, its `.git/config`, `.git/info/attributes`, hooks and committed
`.gitattributes` included. git runs programs those name (an fsmonitor hook, filter drivers, a
textconv, an external diff, a pager, hooks, credential helpers, a remote helper when a partial
clone fetches a missing object ...). Every git process started here therefore gets:
- the repository named explicitly (`GIT_DIR`, `GIT_WORK_TREE`), found by a `.git` entry at or
  above the workspace (`find_repository`): a folder that merely looks like a repository (`HEAD`,
  `config`, `objects/`, `refs/`, which anyone can commit) is never opened as one, unless
  `[git] repo` names it and it lies outside the workspace and outside any work tree;
- command-line settings (`GIT_CONFIG_COUNT`/`KEY`/`VALUE`), stronger than any file's, that
  switch off what would run a program (`SAFE_SETTINGS`: fsmonitor, hooks, credential helpers,
  signing ...), and every filter driver the configuration defines (included files too) emptied
  (`filter.<x>.clean`, `smudge`, `process`), so no filter runs whatever the attributes say;
- no transport at all (`GIT_ALLOW_PROTOCOL` empty): a missing object is never fetched;
- no pager, no terminal prompt, no optional index write, no replace objects.
The commands themselves read objects where they can, and pass `--no-textconv`/`--no-ext-diff`
where a diff could be made. The one exception is `commit_file`, the commit a person asks for:
see there.

Every git process goes through `start`/`run`: the exit status, stdout as bytes and stderr as text
come back as data; a missing git executable or a path outside any repository becomes a
`GitUnavailable` with a message a person can act on. gitpython (which starts the processes) is
imported lazily, so `validate --no-git` never pays for it.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GIT_ENTRY = ".git"
MAX_GITFILE_BYTES = 4096
"""A `.git` file (`gitdir: <path>`) longer than this is not a gitfile git would write."""

SAFE_SETTINGS: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.askPass", ""),
    ("credential.helper", ""),  # an empty value clears the list of helpers
    ("protocol.allow", "never"),
    ("safe.bareRepository", "explicit"),
    ("log.showSignature", "false"),  # would run gpg.program on every signed commit
    ("commit.gpgSign", "false"),  # gpg.program, gpg.ssh.defaultKeyCommand: the repository's
    ("blame.ignoreRevsFile", ""),  # an empty value clears the list: history is read as it is
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
)
"""Settings given on every git command line. Command-line settings win over every file, so a
repository's own config cannot turn these back on."""

HOOKS_SETTING = "core.hooksPath"

SAFE_ENVIRONMENT: dict[str, str] = {
    "GIT_ALLOW_PROTOCOL": "",  # no transport, whatever protocol.<name>.allow says
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",  # read-only commands never refresh and write the index
    "GIT_NO_REPLACE_OBJECTS": "1",  # refs/replace/* cannot rewrite the history that is read
    "GIT_NO_LAZY_FETCH": "1",  # git 2.44+: a partial clone does not even try to fetch
}

_FILTER_COMMANDS = ("clean", "smudge", "process")


class GitUnavailable(Exception):
    """The check cannot run at all. `code` is a stable diagnostic code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Result:
    status: int
    out: bytes
    err: str

    @property
    def ok(self) -> bool:
        return self.status == 0

    def first_error(self) -> str:
        """git's first `fatal:`/`error:` line, or its first line of stderr."""
        lines = [line.strip() for line in self.err.splitlines() if line.strip()]
        for line in lines:
            if line.startswith(("fatal:", "error:")):
                return line
        return lines[0] if lines else f"git exited with status {self.status}"


@dataclass(slots=True)
class RepoInfo:
    """What the checks need to know about a repository, asked in one `rev-parse`."""

    bare: bool
    shallow: bool
    object_format: str
    """`sha1` or `sha256`."""
    toplevel: str | None
    """The real path of the work tree; None for a bare repository."""
    shallow_file: str | None = None
    """Where git lists the commits a shallow clone was cut at."""

    @property
    def sha_length(self) -> int:
        return 64 if self.object_format == "sha256" else 40


# --- finding the repository ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Location:
    git_dir: str
    work_tree: str | None
    """None for a bare repository (named by `[git] repo`)."""


def find_repository(path: str) -> Location | None:
    """The repository a `.git` entry at or above `path` names (a `.git` folder, or a `.git` file
    saying `gitdir: <path>`, as in a linked worktree or a submodule); None when there is none.
    Unlike git, a folder that only looks like a repository is never taken for one."""
    current = os.path.realpath(path)
    if not os.path.isdir(current):
        current = os.path.dirname(current)
    while True:
        entry = os.path.join(current, GIT_ENTRY)
        if os.path.lexists(entry):
            return Location(_git_dir_of(entry), current)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _git_dir_of(entry: str) -> str:
    """The git dir a `.git` entry names. Anything git would refuse is returned as it is, so that
    git itself says what is wrong with it."""
    if os.path.isdir(entry) or not os.path.isfile(entry):
        return entry
    try:
        with open(entry, "rb") as handle:
            head = handle.read(MAX_GITFILE_BYTES + 1)
    except OSError:
        return entry
    if len(head) > MAX_GITFILE_BYTES or not head.startswith(b"gitdir:"):
        return entry
    target = os.fsdecode(head[len(b"gitdir:") :].strip())
    if not target:
        return entry
    return os.path.normpath(os.path.join(os.path.dirname(entry), target))


def looks_like_git_dir(path: str) -> bool:
    """HEAD, objects/ and refs/: what git takes for a repository when it looks around."""
    return (
        os.path.isfile(os.path.join(path, "HEAD"))
        and os.path.isdir(os.path.join(path, "objects"))
        and os.path.isdir(os.path.join(path, "refs"))
    )


def _is_within(folder: str, path: str) -> bool:
    folder, path = os.path.realpath(folder), os.path.realpath(path)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def locate(path: str, *, bare_ok: bool = False, workspace: str | None = None) -> Location:
    """The repository for `path`, or GitUnavailable saying why there is none.

    `bare_ok` (for `[git] repo`, set by hand): `path` may itself be a bare repository (or a
    `.git` folder), opened as one, unless it lies inside `workspace` or inside another
    repository's work tree: a committed folder shaped like a repository is how a hostile
    checkout makes git read a config of its choosing."""
    if not os.path.exists(path):
        raise GitUnavailable("git-no-repository", f"{path} does not exist")
    if bare_ok and not os.path.lexists(os.path.join(path, GIT_ENTRY)) and looks_like_git_dir(path):
        around = find_repository(os.path.dirname(os.path.realpath(path)))
        inside = around.work_tree if around is not None else None
        if workspace is not None and _is_within(workspace, path):
            inside = workspace
        if inside is not None and os.path.basename(os.path.realpath(path)) != GIT_ENTRY:
            raise GitUnavailable(
                "git-embedded-repository",
                f"{path} is a bare repository inside {inside}: a folder committed into a "
                "checkout can look like a repository, and its config could run programs, so it "
                "is not opened. Name a repository outside any work tree in [git] repo",
            )
        return Location(os.path.realpath(path), None)
    found = find_repository(path)
    if found is None:
        why = f"{path} is not inside a git repository (no .git above it)"
        if looks_like_git_dir(path):
            why += (
                "; the folder looks like a bare repository (HEAD, objects/, refs/), which is "
                "not opened unless [git] repo names it"
            )
        raise GitUnavailable("git-no-repository", why)
    return found


# --- running git ----------------------------------------------------------------------------------


def git_executable() -> str:
    from git import Git

    return Git.GIT_PYTHON_GIT_EXECUTABLE or "git"


def safe_environment(
    location: Location,
    settings: Iterable[tuple[str, str]] = SAFE_SETTINGS,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The variables to set for a git process in `location`: the repository, named; `settings`
    as command-line settings (after any the caller's environment already gives)."""
    env = dict(SAFE_ENVIRONMENT)
    env["GIT_DIR"] = location.git_dir
    if location.work_tree is not None:
        env["GIT_WORK_TREE"] = location.work_tree
    given = os.environ if base is None else base
    try:
        count = max(0, int(given.get("GIT_CONFIG_COUNT", "0")))
    except ValueError:
        count = 0
    for key, value in settings:
        env[f"GIT_CONFIG_KEY_{count}"] = key
        env[f"GIT_CONFIG_VALUE_{count}"] = value
        count += 1
    env["GIT_CONFIG_COUNT"] = str(count)
    return env


def git_command(args: list[str]) -> list[str]:
    return [git_executable(), "--no-pager", "--no-replace-objects", *args]


def filter_drivers(config_listing: bytes) -> list[str]:
    """The filter drivers `git config -z --list` defines."""
    drivers: dict[str, None] = {}
    for record in config_listing.split(b"\0"):
        key = os.fsdecode(record.split(b"\n", 1)[0])
        section, dot, rest = key.partition(".")
        if section.lower() != "filter" or not dot:
            continue
        name, dot, variable = rest.rpartition(".")
        if dot and name and variable.lower() in (*_FILTER_COMMANDS, "required"):
            drivers[name] = None
    return list(drivers)


def filter_settings(drivers: Iterable[str]) -> list[tuple[str, str]]:
    """Settings that empty these filter drivers (so none runs, and a `required` one does not
    stop the command either)."""
    out: list[tuple[str, str]] = []
    for name in drivers:
        out += [(f"filter.{name}.{command}", "") for command in _FILTER_COMMANDS]
        out.append((f"filter.{name}.required", "false"))
    return out


class GitRepo:
    """One repository. Use as a context manager (kept for callers; nothing is held open)."""

    def __init__(self, location: Location, path: str) -> None:
        self.location = location
        self.path = path
        self._info: RepoInfo | None = None
        self._settings: list[tuple[str, str]] | None = None
        self._filters: list[str] = []
        self._partial_clone = False

    @property
    def work_tree(self) -> str | None:
        return self.location.work_tree

    def __enter__(self) -> GitRepo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        pass

    # --- processes ----------------------------------------------------------------------------

    def start(self, args: list[str], stdin: bytes | None = None) -> Running:
        """Start `git ARGS` (from the work tree, or the git dir of a bare repository)."""
        return self._spawn(args, self._safe_settings(), stdin)

    def run(self, args: list[str], stdin: bytes | None = None) -> Result:
        return self.start(args, stdin).wait()

    def _safe_settings(self) -> list[tuple[str, str]]:
        """SAFE_SETTINGS plus every filter driver of this repository's configuration emptied;
        asked once, in one `git config` process that runs nothing."""
        if self._settings is None:
            listing = self._spawn(["config", "-z", "--list"], list(SAFE_SETTINGS), None).wait()
            if not listing.ok:
                raise GitUnavailable(
                    "git-check-failed",
                    f"git cannot read the configuration of the repository at {self.path}: "
                    f"{listing.first_error()}",
                )
            self._filters = filter_drivers(listing.out)
            self._partial_clone = b"\0extensions.partialclone\n" in b"\0" + listing.out
            self._settings = [*SAFE_SETTINGS, *filter_settings(self._filters)]
        return self._settings

    def _spawn(
        self, args: list[str], settings: list[tuple[str, str]], stdin: bytes | None
    ) -> Running:
        try:
            from git import Git
            from git.exc import GitCommandNotFound
        except ImportError as exc:  # gitpython refuses to import without a git executable
            raise GitUnavailable(
                "git-unavailable", f"git checks need gitpython and a git executable: {exc}"
            ) from exc
        why = stalled(self.location)
        if why is not None:
            return Running.not_run(Result(-1, b"", why))
        cwd = self.location.work_tree or self.location.git_dir
        try:
            proc: Any = Git(cwd).execute(
                git_command(args),
                as_process=True,
                istream=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                env=safe_environment(self.location, settings),
            )
        except GitCommandNotFound as exc:
            raise GitUnavailable(
                "git-unavailable", f"the git executable could not be run ({exc}); install git"
            ) from exc
        # The AutoInterrupt wrapper kills its process when collected: Running keeps it alive.
        return Running(proc, stdin, self.location)

    # --- facts --------------------------------------------------------------------------------

    @property
    def partial_clone(self) -> bool:
        """A partial clone: objects it lacks may exist upstream (they are never fetched here)."""
        self._safe_settings()
        return self._partial_clone

    def info(self) -> RepoInfo:
        if self._info is None:
            result = self.run(
                [
                    "rev-parse",
                    "--is-bare-repository",
                    "--is-shallow-repository",
                    "--show-object-format",
                    "--git-path",
                    "shallow",
                ]
            )
            if not result.ok:
                raise GitUnavailable(
                    "git-check-failed",
                    f"git cannot read the repository at {self.path}: {result.first_error()}",
                )
            lines = os.fsdecode(result.out).split("\n")
            shallow = len(lines) > 1 and lines[1] == "true"
            object_format = lines[2] if len(lines) > 2 and lines[2] else "sha1"
            cwd = self.location.work_tree or self.location.git_dir
            shallow_file = os.path.join(cwd, lines[3]) if len(lines) > 3 and lines[3] else None
            toplevel = self.location.work_tree
            self._info = RepoInfo(
                bare=toplevel is None,
                shallow=shallow,
                object_format=object_format,
                toplevel=os.path.realpath(toplevel) if toplevel else None,
                shallow_file=shallow_file,
            )
        return self._info

    def shallow_commits(self) -> set[str]:
        """The commits a shallow clone was cut at: git shows them without their parents, so
        what they seem to change is everything they hold."""
        info = self.info()
        if not info.shallow or info.shallow_file is None:
            return set()
        try:
            with open(info.shallow_file, "rb") as handle:
                data = handle.read(64 * 1024 * 1024)
        except OSError:
            return set()
        return {line.strip().decode("ascii", "replace").lower() for line in data.splitlines()}

    # --- the commit a person asks for -----------------------------------------------------------

    def commit_file(self, inside: str, message: str) -> str:
        """Commit exactly the file `inside` (repository-relative) with `message`; its SHA.

        This commit is asked for by the person using the tool, so the repository's hooks run
        (pre-commit, commit-msg, post-commit ...) as they would for `git commit`: that is the
        one thing here that runs what a repository names. Everything else stays off: no filter
        (a file with a `filter` attribute is refused, since committing it unfiltered would
        store what the filter exists to change), no fsmonitor, no signing program, no
        background maintenance. Raises GitUnavailable."""
        spec = f":(literal){inside}"
        settings = [s for s in self._safe_settings() if s[0] != HOOKS_SETTING]
        attr = self.run(["check-attr", "-z", "filter", "--", inside])
        fields = attr.out.split(b"\0")
        driver = os.fsdecode(fields[2]) if attr.ok and len(fields) > 2 else ""
        if driver in self._filters:
            raise GitUnavailable(
                "git-commit-failed",
                f"the file was retired but not committed: git attributes give it the filter "
                f"`{driver}`, and voyage-tui runs no filter; commit it with git",
            )
        listed = self.run(["ls-files", "-z", "--", spec])
        if listed.ok and not listed.out:
            added = self._spawn(["add", "--", spec], settings, None).wait()
            if not added.ok:
                raise GitUnavailable("git-commit-failed", f"git add failed: {added.first_error()}")
        done = self._spawn(
            ["commit", "--quiet", "-F", "-", "--only", "--", spec], settings, message.encode()
        ).wait(timeout=None)  # the repository's hooks run here, and may take their time
        if not done.ok:
            raise GitUnavailable(
                "git-commit-failed",
                f"the file was retired but git commit failed: {done.first_error()}",
            )
        head = self.run(["rev-parse", "HEAD"])
        return head.out.decode("ascii", "replace").strip()


DEFAULT_TIMEOUT = 120.0
"""Seconds a git process may run before it is stopped (VOYAGE_GIT_TIMEOUT overrides)."""
MAX_TIMEOUT = 24 * 3600.0
"""The longest limit VOYAGE_GIT_TIMEOUT can set: a day. `inf` or 1e300 would overflow the
wait (a traceback), and no check is worth more."""
TIMEOUT_VARIABLE = "VOYAGE_GIT_TIMEOUT"
_SECONDS = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
"""A plain decimal number: `float` would also take `nan`, `1_0` and spaces inside."""
_INFINITE = ("inf", "+inf", "infinity", "+infinity")


def _timeout_setting() -> tuple[float, str | None]:
    """The limit VOYAGE_GIT_TIMEOUT gives, and why it is not the value written (or None)."""
    raw = os.environ.get(TIMEOUT_VARIABLE, "")
    text = raw.strip()
    if not text:
        return DEFAULT_TIMEOUT, None
    shown = f"{TIMEOUT_VARIABLE}={raw!a}"  # !a: the value reaches the terminal escaped
    if text.lower() in _INFINITE:
        value = math.inf
    elif _SECONDS.fullmatch(text):
        value = float(text)  # 1e999 is inf
    else:
        return DEFAULT_TIMEOUT, (
            f"{shown} is not a number of seconds; the default, {DEFAULT_TIMEOUT:g} s, is used"
        )
    if value <= 0:
        return DEFAULT_TIMEOUT, (
            f"{shown} is not above 0; the default, {DEFAULT_TIMEOUT:g} s, is used"
        )
    if value > MAX_TIMEOUT:
        return MAX_TIMEOUT, f"{shown} is above a day; {MAX_TIMEOUT:g} s (24 hours) is used"
    return value, None


def git_timeout() -> float:
    """The time limit of each git process: a repository can make git wait forever (a FIFO
    where git reads its configuration, `.mailmap` or attributes), and nothing a workspace holds
    may hang the tool. Generous, since reading a long history takes a while. Every git process
    the tool starts has this one limit (but the commit a person asks for, whose hooks run)."""
    return _timeout_setting()[0]


def git_timeout_warning() -> str | None:
    """What is wrong with VOYAGE_GIT_TIMEOUT, and which limit is used instead; None when it is
    unset or a usable number. The command line says it once on stderr."""
    return _timeout_setting()[1]


# --- a repository that made git wait --------------------------------------------------------------

STALL_MEMORY = 300.0
"""Seconds (at least; the limit if longer) for which a repository where a git process was
stopped at the limit gets no new git process: the rest of a command's run, so that a hang costs
`validate` one limit and not one per git call. The app tries again after it."""
_stalls: dict[str, float] = {}
"""The real git dir of each repository where a git process was stopped -> when (monotonic)."""
_stalls_lock = threading.Lock()


def _stall_key(location: Location) -> str:
    return os.path.realpath(location.git_dir)


def mark_stalled(location: Location) -> None:
    with _stalls_lock:
        _stalls[_stall_key(location)] = time.monotonic()


def stalled(location: Location) -> str | None:
    """Why no git process is started in `location` now (one was stopped at the limit a moment
    ago), as git's stderr would say it; None when git may run."""
    with _stalls_lock:
        when = _stalls.get(_stall_key(location))
        if when is None:
            return None
        if time.monotonic() - when > max(STALL_MEMORY, git_timeout()):
            del _stalls[_stall_key(location)]
            return None
    return (
        "fatal: not run: an earlier git process in this repository was stopped at the time "
        "limit during this run, so git was not started again (a file git reads may be a FIFO; "
        f"{TIMEOUT_VARIABLE} sets the limit in seconds)"
    )


def forget_stalls() -> None:
    """For tests: every repository may run git again."""
    with _stalls_lock:
        _stalls.clear()


def _stopped_message(limit: float) -> str:
    return (
        f"fatal: git did not finish within {limit:g} s and was stopped (a file it reads may be a "
        f"FIFO, or the history is very long; {TIMEOUT_VARIABLE} sets the limit in seconds)"
    )


class Running:
    """A started git process whose input is fed and output collected on a thread, so two git
    processes (the history log and the grep) can run at the same time."""

    def __init__(self, handle: Any, stdin: bytes | None, location: Location | None = None) -> None:
        self._handle = handle
        self._location = location
        self._result: Result | None = None
        self._thread: threading.Thread | None = None
        if handle is None:
            return  # not_run: the result is set, no process
        self.proc: subprocess.Popen[bytes] = handle.proc
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._collect, args=(stdin,), daemon=True)
        self._thread.start()

    @classmethod
    def not_run(cls, result: Result) -> Running:
        """A git process that was never started, with the result that says why."""
        running = cls(None, None)
        running._result = result
        return running

    def _collect(self, stdin: bytes | None) -> None:
        try:
            out, err = self.proc.communicate(stdin)
        except (OSError, ValueError) as exc:
            self._result = Result(-1, b"", str(exc))
            return
        self._result = Result(
            self.proc.returncode, out or b"", (err or b"").decode("utf-8", "replace")
        )

    def wait(self, timeout: float | None = -1.0) -> Result:
        """The result; a process still running `timeout` seconds after it started (default: the
        time limit, `git_timeout()`; None: no limit) is killed and reported as failed. Counted
        from the start, so two processes started together and waited for in turn (exposure's
        listing and log) take one limit in all when both hang, not one each."""
        if self._thread is None:
            assert self._result is not None
            return self._result
        limit = git_timeout() if timeout is not None and timeout < 0 else timeout
        left = None if limit is None else max(0.0, limit - (time.monotonic() - self._started))
        self._thread.join(left)
        if self._thread.is_alive():
            with contextlib.suppress(OSError):
                self.proc.kill()
            self._thread.join()
            if self._location is not None:
                mark_stalled(self._location)
            assert limit is not None
            return Result(-1, b"", _stopped_message(limit))
        assert self._result is not None
        return self._result


def open_repo(path: str, *, bare_ok: bool = False, workspace: str | None = None) -> GitRepo:
    """The repository for `path` (see `locate`). Raises GitUnavailable; runs no git yet."""
    return GitRepo(locate(path, bare_ok=bare_ok, workspace=workspace), path)


def run_plain(
    location: Location, args: list[str], stdin: bytes, timeout: float | None = None
) -> subprocess.CompletedProcess[bytes] | None:
    """One git command with the safe settings, without gitpython (for the workspace scan, which
    must not wait for gitpython's import); None when git could not be run. `timeout` may only
    shorten the limit every git process has (`git_timeout()`)."""
    return run_plain_result(location, args, stdin, timeout)[0]


def run_plain_result(
    location: Location, args: list[str], stdin: bytes, timeout: float | None = None
) -> tuple[subprocess.CompletedProcess[bytes] | None, str]:
    """run_plain, and when git could not be run or answer, why (as git's stderr would say it:
    not run after a stall, stopped at the limit, not started)."""
    why = stalled(location)
    if why is not None:
        return None, why
    limit = git_timeout() if timeout is None else min(timeout, git_timeout())
    env = dict(os.environ)
    env.update(safe_environment(location))
    try:
        return subprocess.run(
            ["git", "--no-pager", "--no-replace-objects", *args],
            input=stdin,
            capture_output=True,
            timeout=limit,
            check=False,
            cwd=location.work_tree or location.git_dir,
            env=env,
        ), ""
    except subprocess.TimeoutExpired:
        mark_stalled(location)
        return None, _stopped_message(limit)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"fatal: git could not be run: {exc}"
