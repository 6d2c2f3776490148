"""`voyage-tui serve`: the app in a browser, on loopback, behind a token.

The end-to-end tests start the real server in its own session on a free loopback port, read the
address it prints, fetch the page, open the websocket the page names and wait for the app's
screen; then stop the server and check that no process of its session is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.conftest import REPO, task_yaml
from tests.sample import SAMPLE_ROOT
from voyage_tui.cli import main, serve_cmd, serve_web

TIMEOUT = 60.0
"""Bound on each wait below: the server's start, the app's first screen, the server's stop."""


# --- the host rules, without starting a server -------------------------------------------------


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Records each server the command would have started, instead of starting it."""
    started: list[dict[str, object]] = []

    def record(self: serve_web.AppServer, debug: bool = False) -> None:
        started.append(
            {
                "host": self.host,
                "port": self.port,
                "command": self.command,
                "max_sessions": self.max_sessions,
            }
        )

    monkeypatch.setattr(serve_web.AppServer, "serve", record)
    return started


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "", "[::]"])
def test_a_host_beyond_loopback_is_refused_without_allow_remote(
    host: str, make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace()
    assert main(["serve", str(root), "--host", host]) == 2
    err = capsys.readouterr().err
    assert "--allow-remote" in err
    assert "no user accounts" in err
    assert served == []


def test_allow_remote_serves_beyond_loopback_with_a_warning(
    make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace()
    assert main(["serve", str(root), "--host", "0.0.0.0", "--allow-remote"]) == 0
    assert [s["host"] for s in served] == ["0.0.0.0"]
    err = capsys.readouterr().err
    assert "warning" in err
    assert "no user accounts" in err
    assert "clear text" in err


@pytest.mark.parametrize(
    ("host", "listens_on"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("127.8.9.10", "127.8.9.10"),
        ("::1", "::1"),
        ("[::1]", "::1"),
        ("localhost", "localhost"),
    ],
)
def test_loopback_hosts_need_no_flag(host: str, listens_on: str, make_workspace, served) -> None:
    root = make_workspace()
    assert main(["serve", str(root), "--host", host]) == 0
    assert [s["host"] for s in served] == [listens_on]


def test_an_ipv6_address_is_printed_in_brackets() -> None:
    server = serve_web.AppServer(
        "exec false", host="::1", port=8123, public_url=None, title="t", serving="w"
    )
    assert server.address == f"http://[::1]:8123/?token={server.token}"


def test_the_default_host_is_loopback(make_workspace, served) -> None:
    root = make_workspace()
    assert main(["serve", str(root)]) == 0
    assert served[0]["host"] == "127.0.0.1"
    assert serve_cmd.is_loopback(str(served[0]["host"]))


def test_a_name_that_resolves_beyond_loopback_is_not_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A name counts as loopback only when every address it resolves to is one."""

    def resolve(host: str, *args: object, **kwargs: object) -> list[tuple[object, ...]]:
        return [(0, 0, 0, "", ("127.0.0.1", 0)), (0, 0, 0, "", ("192.0.2.7", 0))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    assert not serve_cmd.is_loopback("sneaky.example")


def test_a_name_that_does_not_resolve_is_not_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    assert not serve_cmd.is_loopback("nowhere.invalid")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port must be between 1 and 65535"),
        (["--port", "70000"], "--port must be between 1 and 65535"),
        (["--public-url", "ftp://x/"], "--public-url"),
        (["--public-url", "https://x/?a=1"], "no ?query"),
        (["--bogus"], "unknown option --bogus"),
        (["--max-sessions", "0"], "--max-sessions must be at least 1"),
        (["--max-sessions", "-3"], "--max-sessions must be at least 1"),
        (["--max-sessions", "many"], "--max-sessions"),
    ],
)
def test_usage_errors_exit_2(
    args: list[str], message: str, make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace()
    with pytest.raises(SystemExit) as exit_:
        main(["serve", str(root), *args])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert served == []


def test_sessions_are_capped_at_8_unless_max_sessions_says(make_workspace, served) -> None:
    root = make_workspace()
    assert main(["serve", str(root)]) == 0
    assert main(["serve", str(root), "--max-sessions", "2"]) == 0
    assert [s["max_sessions"] for s in served] == [8, 2]


def test_no_workspace_exits_2(tmp_path: Path, served, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert served == []


# --- the web app, in this process (no app is started) ------------------------------------------


def web_server(public_url: str | None = None) -> serve_web.AppServer:
    return serve_web.AppServer(
        "exec false",
        host="127.0.0.1",
        port=8000,
        public_url=public_url,
        title="voyage-tui: <ws> & co",
        serving="the workspace /tmp/ws",
    )


async def page_of(server: serve_web.AppServer, url: str, **headers: str) -> tuple[int, str]:
    from aiohttp.test_utils import TestClient, TestServer

    async with TestClient(TestServer(await server._make_app())) as client:
        response = await client.get(url, headers=headers)
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["Cache-Control"] == "no-store"
        return response.status, await response.text()


def websocket_url_in(page: str) -> str:
    found = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert found, page
    return found.group(1)


async def test_the_page_wants_the_token() -> None:
    server = web_server()
    wrong = ("/?token=", f"/?token={server.token[:-1]}", f"/?token={server.token}x")
    for url in ("/", *wrong, "/?token=%ff%fe", "/?token=%ed%b3%bf", "/?token=\u00e9"):
        status, text = await page_of(server, url)
        assert status == 403, url
        assert server.token not in text
    status, page = await page_of(server, f"/?token={server.token}")
    assert status == 200
    assert "textual-terminal" in page


async def test_the_terminal_takes_the_focus_when_the_page_loads() -> None:
    """Keys typed before a click reach the app: once textual-serve's page has loaded (and its
    own `window.onload` has opened the terminal), a script of ours focuses the terminal's
    input, xterm's helper textarea. It adds a listener, never replaces textual.js's handler,
    and the rest of the page is textual-serve's."""
    server = web_server()
    _, page = await page_of(server, f"/?token={server.token}")
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    focusing = [s for s in scripts if ".focus()" in s]
    assert len(focusing) == 1, scripts
    script = focusing[0]
    assert '"#terminal .xterm-helper-textarea"' in script
    assert 'addEventListener("load"' in script and "window.onload =" not in script
    # after the terminal's element, so the element it looks for is in the page when it runs
    assert page.index('id="terminal"') < page.index(script) < page.index("</body>")
    assert "js/textual.js" in page


async def test_the_page_shows_why_the_server_closed_its_socket() -> None:
    """A socket closed with a reason (a rater's session taken over by a newer tab, a server at
    its limit): the page's "Session ended" dialog says the reason, as text. The script wraps
    the WebSocket class before textual.js makes its socket (in window.onload)."""
    server = web_server()
    _, page = await page_of(server, f"/?token={server.token}")
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    [script] = [s for s in scripts if "event.reason" in s]
    assert "window.WebSocket = Socket" in script
    assert 'addEventListener("close"' in script
    assert ".textContent = event.reason" in script and "innerHTML" not in script
    assert '".closed-dialog .message"' in script
    assert page.index('class="dialog-container closed-dialog"') < page.index(script)
    assert "window.onload =" not in script


async def test_the_tokens_of_two_servers_differ() -> None:
    assert web_server().token != web_server().token


async def test_the_websocket_is_where_the_page_was_asked_for() -> None:
    """Through `ssh -L 9000:127.0.0.1:8000`, the browser asks for localhost:9000: the page's
    websocket must be there too, not at the port the server listens on."""
    server = web_server()
    _, page = await page_of(server, f"/?token={server.token}", Host="localhost:9000")
    assert websocket_url_in(page) == f"ws://localhost:9000/ws/{server.token}"
    assert 'href="http://localhost:9000/static/css/xterm.css"' in page


async def test_a_public_url_names_the_websocket_behind_a_proxy() -> None:
    server = web_server("https://eval.example/voyage/")
    assert server.address == f"https://eval.example/voyage/?token={server.token}"
    _, page = await page_of(server, f"/?token={server.token}", Host="127.0.0.1:8000")
    assert websocket_url_in(page) == f"wss://eval.example/voyage/ws/{server.token}"


async def test_the_title_is_escaped_in_the_page() -> None:
    server = web_server()
    _, page = await page_of(server, f"/?token={server.token}")
    assert "voyage-tui: &lt;ws&gt; &amp; co" in page
    assert "<ws>" not in page


async def test_the_websocket_wants_the_token() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    server = web_server()
    async with TestClient(TestServer(await server._make_app())) as client:
        for path in ("/ws", "/ws/", "/ws/nope", f"/ws/{server.token}x", "/ws/%ff", "/ws/%ed%b3%bf"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(path)
            assert refused.value.status in (403, 404), path


class CountedApps:
    """Every AppService the server starts, and how many of them still run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from textual_serve.app_service import AppService

        self.started: list[AppService] = []
        original = AppService.start

        async def start(service: AppService, width: int, height: int) -> None:
            self.started.append(service)
            await original(service, width, height)

        monkeypatch.setattr(AppService, "start", start)

    @property
    def running(self) -> int:
        return sum(
            1 for s in self.started if s._process is not None and s._process.returncode is None
        )


def slots_given_back_late(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session's slot is given back a step after its app has ended (serve_web's
    `_end_session`); here that step is as wide as on a loaded machine, so a test that read the
    slots as soon as the apps had ended fails every time, not now and then."""
    from textual_serve.app_service import AppService

    stop = serve_web._stop

    async def stop_then_pause(service: AppService) -> None:
        await stop(service)
        await asyncio.sleep(0.3)

    monkeypatch.setattr(serve_web, "_stop", stop_then_pause)


async def eventually(condition, what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.02)


async def test_a_connection_beyond_the_cap_is_told_so_and_a_closed_session_frees_its_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """30 tabs started 30 apps (a load of 16 on two cores). With `--max-sessions 2`, a third
    tab gets a page saying the server is at its limit and to close a tab; no app is started
    for it. Once a tab closes and its app has ended, the next one gets an app again."""
    from aiohttp.test_utils import TestClient, TestServer

    monkeypatch.setattr(serve_web, "APP_QUIT_SECONDS", 0.5)
    apps = CountedApps(monkeypatch)
    slots_given_back_late(monkeypatch)
    server = serve_web.AppServer(
        "exec sleep 60",  # an app that starts at once and prints nothing
        host="127.0.0.1",
        port=8000,
        public_url=None,
        title="t",
        serving="w",
        max_sessions=2,
    )
    page = f"/?token={server.token}"
    socket_path = f"/ws/{server.token}"
    async with TestClient(TestServer(await server._make_app())) as client:
        first = await client.ws_connect(socket_path)
        second = await client.ws_connect(socket_path)
        await eventually(lambda: apps.running == 2, "two apps")

        response = await client.get(page)
        assert response.status == 503
        assert response.headers["Content-Type"].startswith("text/html")
        assert response.headers["Cache-Control"] == "no-store"
        text = await response.text()
        assert "at its limit of 2 sessions" in text
        assert "close a tab" in text.lower()
        assert server.token not in text

        # A page loaded just before the cap was reached still opens its websocket: it is told
        # the same in its terminal, and no app starts for it.
        third = await client.ws_connect(socket_path)
        message = await third.receive(timeout=TIMEOUT)
        assert message.type == aiohttp.WSMsgType.BINARY
        assert b"at its limit of 2 sessions" in message.data
        await asyncio.sleep(0.2)
        assert len(apps.started) == 2
        await third.close()

        await first.close()
        await eventually(lambda: apps.running == 1, "the closed tab's app to end")
        await eventually(lambda: server.live_sessions == 1, "its slot to be free")
        response = await client.get(page)
        assert response.status == 200
        fourth = await client.ws_connect(socket_path)
        await eventually(lambda: apps.running == 2, "an app for the next tab")
        assert len(apps.started) == 3
        for websocket in (second, fourth):
            await websocket.close()
        await eventually(lambda: apps.running == 0, "every app to end")
        await eventually(lambda: server.live_sessions == 0, "every slot to be free")


# --- the command each connection runs ----------------------------------------------------------

NASTY_NAMES = [
    "with space",
    'it\'s "quoted"',
    "$(touch pwned)",
    "`touch pwned`; touch pwned",
    "-starts-with-a-dash",
    "validate",
    "new\nline",
    os.fsdecode(b"not-utf8-\xff\xfe"),
]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_the_shell_hands_the_app_exactly_the_workspace_path(name: str, tmp_path: Path) -> None:
    """The command goes through /bin/sh: whatever the path holds arrives as one argument."""
    root = tmp_path / name
    argv = serve_cmd.app_argv(root, ["--no-git"])
    assert argv[:4] == [sys.executable, "-m", "voyage_tui", "--no-git"]
    assert argv[-2:] == ["--", os.fspath(root)]
    # The same words, with a probe that prints its arguments in place of the app.
    probe = "import os, sys; sys.stdout.buffer.write(b'\\0'.join(map(os.fsencode, sys.argv[1:])))"
    command = serve_cmd.shell_command([sys.executable, "-c", probe, *argv[3:]])
    out = subprocess.run(
        ["/bin/sh", "-c", command], cwd=tmp_path, capture_output=True, timeout=TIMEOUT, check=True
    ).stdout
    assert out.split(b"\0") == [os.fsencode(word) for word in argv[3:]]
    assert not (tmp_path / "pwned").exists()


def test_the_command_runs_this_interpreter_on_the_workspace_root(make_workspace, served) -> None:
    root = make_workspace()
    sub = root / "fixtures"
    assert main(["serve", str(sub), "--no-git", "--no-cache"]) == 0
    command = str(served[0]["command"])
    assert command.startswith("exec ")
    words = shlex.split(command)[1:]
    assert words == [sys.executable, "-m", "voyage_tui", "--no-git", "--no-cache", "--", str(root)]


def test_rater_options_go_with_rate(
    make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace()
    for extra in (["--rater", "alice"], ["--no-blind"]):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", str(root), *extra])
        assert exit_.value.code == 2
        assert "go with --rate" in capsys.readouterr().err
    assert served == []


def test_rate_serves_the_rater_session_of_the_rater_named(make_workspace, served) -> None:
    root = make_workspace()
    assert main(["serve", str(root), "--rate", "--rater", "alice", "--no-blind", "--no-git"]) == 0
    words = shlex.split(str(served[0]["command"]))[1:]
    assert words == [
        sys.executable,
        *("-m", "voyage_tui", "rate", "--rater=alice", "--no-blind", "--in-browser"),
        *("--no-git", "--"),
        str(root),
    ]


def test_rate_settles_the_rater_once_for_every_tab(make_workspace, served, monkeypatch) -> None:
    """Without --rater, the name is the one `rate` would take (git's, else the OS user's),
    settled by the server and given to each tab."""
    monkeypatch.setenv("USER", "Dana Scully")
    monkeypatch.setenv("LOGNAME", "Dana Scully")
    root = make_workspace()
    assert main(["serve", str(root), "--rate", "--no-git"]) == 0
    assert "--rater=Dana Scully" in shlex.split(str(served[0]["command"]))


def test_a_rater_name_that_cannot_be_a_file_name_is_refused(
    make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace()
    assert main(["serve", str(root), "--rate", "--rater", "../bob"]) == 2
    assert "voyage-tui serve:" in capsys.readouterr().err
    assert served == []


# --- the real server ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def session_members(session: int) -> list[int]:
    """Every live process whose session is `session` (the server started one of its own)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text(errors="replace")
        except OSError:
            continue  # it ended while we looked
        fields = stat.rsplit(")", 1)[1].split()
        state, sid = fields[0], int(fields[3])
        if sid == session and state != "Z":
            members.append(int(entry))
    return members


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], port: int) -> None:
        self.proc = proc
        self.port = port
        self.address = ""
        self.output = b""

    def wait_for_address(self) -> str:
        """Read the server's stdout until it prints the address to open, then wait until the
        port accepts connections."""
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            chunk = self.proc.stdout.read()
            if chunk:
                self.output += chunk
            found = re.search(rb"Open (http://\S+)", self.output)
            if found and _listens(self.port):
                self.address = found.group(1).decode()
                return self.address
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.output!r}")

    def stop(self) -> int:
        """SIGTERM, as Ctrl+C would; the exit code. Keeps what it printed until then."""
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=TIMEOUT)
        assert self.proc.stdout is not None
        self.output += self.proc.stdout.read() or b""
        return code


def _listens(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def serving(path: Path, *args: str, cwd: Path = REPO) -> Iterator[Served]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "voyage_tui", "serve", os.fspath(path), "--port", str(port), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield Served(proc, port)
    finally:
        # Whatever the test found, nothing of the session outlives it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        if proc.stdout is not None:
            proc.stdout.close()


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def open_app(
    address: str, expected: bytes
) -> tuple[str, bytes, aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    """Fetch the page, open the websocket it names, read until the screen shows `expected`."""
    session = aiohttp.ClientSession()
    try:
        async with session.get(address) as response:
            assert response.status == 200
            assert response.headers["Referrer-Policy"] == "no-referrer"
            page = await response.text()
        assert "textual-terminal" in page
        found = re.search(r'data-session-websocket-url="([^"]+)"', page)
        assert found, page
        websocket_url = found.group(1)
        websocket = await session.ws_connect(websocket_url + "?width=100&height=30")
        screen = await read_until(websocket, expected)
        return websocket_url, screen, session, websocket
    except BaseException:
        await session.close()
        raise


async def read_until(websocket: aiohttp.ClientWebSocketResponse, expected: bytes) -> bytes:
    """What the app sends until the screen shows `expected`."""
    screen = b""
    async with asyncio.timeout(TIMEOUT):
        while expected not in _text(screen):
            message = await websocket.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, (message, _text(screen))
            screen += message.data
    return screen


def _text(screen: bytes) -> bytes:
    """The characters on screen, without the escape sequences between them."""
    return re.sub(rb"\x1b(\[[0-9;?$]*[a-zA-Z]|\][^\x07]*\x07)", b"", screen)


def test_the_browser_gets_the_page_and_the_app_behind_the_token() -> None:
    with serving(SAMPLE_ROOT / "fixtures", "--no-git") as server:
        address = server.wait_for_address()
        port = server.port
        assert address.startswith(f"http://127.0.0.1:{port}/?token=")
        token = address.split("token=", 1)[1]
        assert len(token) >= 40

        async def scenario() -> None:
            async with aiohttp.ClientSession() as session:
                for url in (f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/?token=x"):
                    async with session.get(url) as response:
                        assert response.status == 403
                for path in ("/ws", "/ws/x"):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await session.ws_connect(f"ws://127.0.0.1:{port}{path}")
                    assert refused.value.status in (403, 404)
            websocket_url, screen, session, websocket = await open_app(address, b"Fixtures")
            try:
                assert websocket_url == f"ws://127.0.0.1:{port}/ws/{token}"
                assert b"fixtures" in _text(screen)  # the header's counts: the suite was loaded
                # Keys typed in the page reach the app: `/` opens the filter.
                await websocket.send_json(["resize", {"width": 120, "height": 40}])
                await websocket.send_json(["stdin", "/"])
                await read_until(websocket, b"filter by id")
                # ctrl+q quits the app as in a terminal, and the page's websocket closes.
                await websocket.send_json(["stdin", "\x11"])
                async with asyncio.timeout(TIMEOUT):
                    while (await websocket.receive()).type == aiohttp.WSMsgType.BINARY:
                        pass
                assert websocket.closed
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        # The app has quit; the server alone is left in the session.
        wait_until(lambda: session_members(server.proc.pid) == [server.proc.pid], "the app to quit")
        assert server.stop() == 0
        assert session_members(server.proc.pid) == []
        # The address is printed once; no log line repeats the token.
        assert server.output.count(token.encode()) == 1, server.output


def test_stopping_the_server_stops_the_apps_still_open() -> None:
    with serving(SAMPLE_ROOT / "fixtures", "--no-git") as server:
        address = server.wait_for_address()

        async def scenario() -> None:
            _, _, session, websocket = await open_app(address, b"Fixtures")
            try:
                assert len(session_members(server.proc.pid)) >= 2  # the server and its app
                started = time.monotonic()
                assert await asyncio.to_thread(server.stop) == 0
                # Open apps are told to quit at once, not after the shutdown's time limit.
                assert time.monotonic() - started < serve_web.SHUTDOWN_SECONDS
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        wait_until(lambda: session_members(server.proc.pid) == [], "every app to end")


async def test_an_app_that_does_not_quit_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app is asked to quit when its browser leaves; one that does not is killed, so no app
    outlives its connection."""
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    async def ignore(data: object) -> None:
        return None

    monkeypatch.setattr(serve_web, "APP_QUIT_SECONDS", 0.5)
    service = AppService(
        "exec sleep 60",  # prints nothing and ignores the quit message
        write_bytes=ignore,
        write_str=ignore,
        close=lambda: ignore(None),
        download_manager=DownloadManager(),
    )
    await service.start(80, 24)
    process = service._process
    assert process is not None
    try:
        await serve_web._stop(service)
        assert process.returncode is not None
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_an_app_that_quits_is_waited_for_not_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    """An app that has quit closes its output a moment before its process exits. Killing it in
    that moment (asyncio's kill polls the process first) reaped it behind asyncio's back, and
    Ctrl+C or a reload printed `WARNING Unknown child process pid N, will report returncode
    255`: the app is waited for, and only one that has not exited in time is killed."""
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    async def ignore(data: object) -> None:
        return None

    killed: list[int] = []
    real_kill = os.kill

    def recording_kill(pid: int, signum: int) -> None:
        killed.append(pid)
        real_kill(pid, signum)

    monkeypatch.setattr(os, "kill", recording_kill)
    service = AppService(
        "exec sh -c 'sleep 0.2; exec >&-; sleep 0.3'",  # closes its output, then exits
        write_bytes=ignore,
        write_str=ignore,
        close=lambda: ignore(None),
        download_manager=DownloadManager(),
    )
    await service.start(80, 24)
    process = service._process
    assert process is not None
    try:
        await serve_web._stop(service)
        assert process.returncode == 0
        assert killed == []
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_a_workspace_path_of_quotes_spaces_and_odd_bytes_reaches_the_app(
    tmp_path: Path,
) -> None:
    name = os.fsdecode(b'it\'s a "ws" $(touch pwned) `touch pwned` \xff')
    root = tmp_path / name
    (root / "fixtures/bug-diagnosis/t1").mkdir(parents=True)
    (root / "fixtures/bug-diagnosis/t1/task.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"  # no workspace here: the app can only find it by the path
    elsewhere.mkdir()
    with serving(root, "--no-git", cwd=elsewhere) as server:
        address = server.wait_for_address()

        async def scenario() -> None:
            _, screen, session, websocket = await open_app(address, b"1 fixture")
            try:
                # The name's byte that is not UTF-8 shows as its escape; it used to stop the app
                # whenever the header drew it (the web driver encoded strictly).
                assert b"\\udcff" in _text(screen)
                # A message the server cannot read ends this connection and its app; the
                # traceback it logs does not show the token (in a request's path).
                await websocket.send_str("not json")
                async with asyncio.timeout(TIMEOUT):
                    while (await websocket.receive()).type == aiohttp.WSMsgType.BINARY:
                        pass
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        assert server.stop() == 0
        assert b"Traceback" in server.output or b"JSONDecodeError" in server.output
        token = address.split("token=", 1)[1].encode()
        assert server.output.count(token) == 1, server.output.decode(errors="replace")
    assert not list(tmp_path.rglob("pwned"))
    assert not (REPO / "pwned").exists()


def test_a_port_in_use_is_an_error_that_names_it(sample_copy: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "voyage_tui", "serve", str(sample_copy), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"cannot listen on http://127.0.0.1:{port}" in proc.stderr
    assert "Open" not in proc.stdout  # the address is printed once it listens, never before


def test_serving_loads_no_textual_module() -> None:
    """The server itself is aiohttp; only the apps it starts load Textual."""
    probe = (
        "import sys, voyage_tui.cli.serve_cmd, voyage_tui.cli.serve_web\n"
        "print([m for m in sys.modules if m == 'textual' or m.startswith('textual.')])"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert out.stdout.strip() == "[]", out.stderr


def test_an_app_that_cannot_start_closes_its_page(make_workspace) -> None:
    """The workspace is gone when the browser connects: the app exits at once, and the page's
    websocket is closed (the page then offers a restart) instead of staying blank."""
    root = make_workspace()
    with serving(root, "--no-git") as server:
        address = server.wait_for_address()
        root.rename(root.with_name("moved"))

        async def scenario() -> None:
            async with aiohttp.ClientSession() as session:
                async with session.get(address) as response:
                    page = await response.text()
                found = re.search(r'data-session-websocket-url="([^"]+)"', page)
                assert found
                async with session.ws_connect(found.group(1)) as websocket:
                    async with asyncio.timeout(TIMEOUT):
                        message = await websocket.receive()
                    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)

        asyncio.run(scenario())
        assert server.stop() == 0
        assert b"no such file" in server.output  # the app's own message, on the server's output


def test_a_rater_rates_in_the_browser_and_the_rating_is_on_disk(sample_copy: Path) -> None:
    """`serve --rate`: the rater session in the page takes one key per dimension, and the rating
    is written to the rater's file as in a terminal."""
    with serving(sample_copy, "--rate", "--rater", "tester", "--no-git") as server:
        address = server.wait_for_address()
        assert b"the rater session of tester (blind)" in server.output

        async def scenario() -> None:
            _, _, session, websocket = await open_app(address, b"correctness")
            try:
                await websocket.send_json(["stdin", "33333"])  # five dimensions, 3 each
                await asyncio.to_thread(wait_until, lambda: rated(sample_copy), "the rating")
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        assert server.stop() == 0
    (record,) = rated(sample_copy)
    assert record["rater"] == "tester"
    assert record["blind"] is True
    assert set(record["scores"].values()) == {3}


def rated(root: Path) -> list[dict[str, Any]]:
    files = list(root.rglob("tester.jsonl"))
    if not files:
        return []
    return [json.loads(line) for line in files[0].read_text().splitlines() if line.strip()]


def test_serve_runs_at_most_max_sessions_apps_and_says_so_to_the_next_tab(make_workspace) -> None:
    root = make_workspace()
    with serving(root, "--no-git", "--max-sessions", "1") as server:
        address = server.wait_for_address()

        async def status_of_page() -> tuple[int, str]:
            async with aiohttp.ClientSession() as other, other.get(address) as response:
                return response.status, await response.text()

        async def scenario() -> None:
            _, _, session, websocket = await open_app(address, b"fixtures")
            try:
                status, text = await status_of_page()
                assert status == 503
                assert "at its limit of 1 session" in text
                assert len(session_members(server.proc.pid)) == 2  # the server and one app
                await websocket.close()
                # The closed tab's app ends, and its slot is free for the next tab.
                async with asyncio.timeout(TIMEOUT):
                    while (await status_of_page())[0] != 200:
                        await asyncio.sleep(0.1)
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        wait_until(lambda: session_members(server.proc.pid) == [server.proc.pid], "the app to end")
        assert server.stop() == 0
