"""`voyage-tui serve` survives floods of connections (issue 33, rows 1 and 2).

Anyone who can reach a loopback port can connect, token or not: 1,100 idle connections (or
keep-alive 403s) used to take every file descriptor of the default 1,024, and the server exited;
a rater's token opening 300 websockets that were turned away (409) held them all, with the same
end. Here the server runs with a small descriptor limit of its own (so a flood of a few hundred
connections is enough, and quick), is flooded on 127.0.0.1 only, with a bounded count and time,
and must then still serve a rater.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.test_serve import TIMEOUT, Served, _listens, free_port, open_app
from tests.test_serve_raters import rater_links
from voyage_tui.cli import serve_doors, serve_web

FILE_LIMIT = 160
"""The served process's descriptors (soft and hard): an app session and the caps fit well."""

FLOOD = 2 * FILE_LIMIT
"""Connections in a flood: twice what the server could hold open."""

FLOOD_SECONDS = 20.0
"""Bound on the time a flood may take to open (it stops early when the port refuses)."""

pytestmark = pytest.mark.waits


@contextlib.contextmanager
def serving_limited(path: Path, *args: str, cwd: Path, limit: int = FILE_LIMIT) -> Iterator[Served]:
    """The real server, in its own session, with at most `limit` open files."""
    port = free_port()
    start = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit}))\n"
        "from voyage_tui.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", start, "serve", os.fspath(path), "--port", str(port), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield Served(proc, port)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        if proc.stdout is not None:
            proc.stdout.close()


def flood(port: int, count: int, request: bytes | None) -> list[socket.socket]:
    """Up to `count` connections to the port, held open; each sends `request` (if any) and
    reads nothing. Stops at the first one refused or after FLOOD_SECONDS."""
    held: list[socket.socket] = []
    deadline = time.monotonic() + FLOOD_SECONDS
    while len(held) < count and time.monotonic() < deadline:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
        except OSError:
            break  # the server is gone, or its queue is full: enough
        held.append(sock)
        if request is not None:
            with contextlib.suppress(OSError):
                sock.sendall(request)
    return held


def still_serves(server: Served, link: str) -> None:
    """The server runs, and a rater's address opens the rater's screen."""
    assert server.proc.poll() is None, server.output

    async def scenario() -> None:
        _, _, session, websocket = await open_app(link, b"correctness")
        await websocket.close()
        await session.close()

    asyncio.run(scenario())
    assert server.proc.poll() is None


def test_a_flood_of_idle_connections_and_keep_alive_refusals_does_not_stop_the_server(
    sample_copy: Path, tmp_path: Path
) -> None:
    with serving_limited(
        sample_copy, "--rate", "--raters", "ann,ben", "--no-git", "--no-watch", cwd=tmp_path
    ) as server:
        links = rater_links(server, ("ann", "ben"))
        idle = flood(server.port, FLOOD // 2, None)
        # 403s on connections kept alive: a request without a token, the answer never read.
        refused = flood(server.port, FLOOD // 2, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            time.sleep(1.0)  # what the flood did to the server has happened by now
            # Beyond the limit of open files: a server that held every connection is out of
            # descriptors by now (it used to exit: "cannot listen ...: Too many open files").
            assert len(idle) + len(refused) > FILE_LIMIT
            # The flood is still open: a rater gets in all the same.
            still_serves(server, links["ann"])
        finally:
            for sock in idle + refused:
                sock.close()
        still_serves(server, links["ben"])
        assert server.stop() == 0, server.output
        assert b"Traceback" not in server.output, server.output.decode(errors="replace")


def test_a_server_out_of_descriptors_waits_and_goes_on(sample_copy: Path, tmp_path: Path) -> None:
    """With fewer descriptors than the cap of waiting connections, a flood takes them all:
    `accept()` fails ("Too many open files"). The server says so once, stops accepting for a
    moment and goes on (it used to exit); once the flood has gone, a rater gets in."""
    with serving_limited(
        sample_copy, "--rate", "--raters", "ann", "--no-git", "--no-watch", cwd=tmp_path, limit=48
    ) as server:
        links = rater_links(server, ("ann",))
        held = flood(server.port, 200, None)
        try:
            time.sleep(2.0)  # accept() has failed, and been tried again, by now
            assert server.proc.poll() is None, server.output
        finally:
            for sock in held:
                sock.close()
        still_serves(server, links["ann"])
        assert server.stop() == 0, server.output
    said = server.output.decode(errors="replace")
    assert said.count("Too many open files") >= 1, said
    assert "Traceback" not in said, said


def test_a_flood_of_websockets_of_one_token_does_not_stop_the_server(
    sample_copy: Path, tmp_path: Path
) -> None:
    """ann rates in one tab; her token then opens FLOOD websockets, none read or closed by the
    client. They used to be turned away (her session was open elsewhere) and held, until the
    descriptors ran out. Now a few at a time take her session over, one after the other (each
    waits for the one before to end), the rest are refused before they are websockets; ben
    still gets in, and ann's address opens her session once the flood is gone."""
    with serving_limited(
        sample_copy, "--rate", "--raters", "ann,ben", "--no-git", "--no-watch", cwd=tmp_path
    ) as server:
        links = rater_links(server, ("ann", "ben"))
        token = links["ann"].split("token=", 1)[1]

        async def scenario() -> None:
            _, _, session, live = await open_app(links["ann"], b"correctness")
            # ann's tab reads on, as a browser does (it answers the server's heartbeat).
            reading = asyncio.ensure_future(read_on(live))
            flooding = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
            opened: list[asyncio.Future[aiohttp.ClientWebSocketResponse]] = []
            url = f"ws://127.0.0.1:{server.port}/ws/{token}"
            try:
                # All at once, as a script would: none waits for the one before.
                for _ in range(FLOOD):
                    opened.append(asyncio.ensure_future(flooding.ws_connect(url, autoclose=False)))
                    await asyncio.sleep(0.005)
                await asyncio.sleep(1.0)
                assert server.proc.poll() is None, server.output
                # ben's address opens ben's session while ann's flood is still open.
                _, _, other, websocket = await open_app(links["ben"], b"correctness")
                await websocket.close()
                await other.close()
                # ann's first tab was taken over by the flood, and told so.
                async with asyncio.timeout(TIMEOUT):
                    await reading
                assert live.close_code == serve_web.TAKEN_OVER
            finally:
                for attempt in opened:
                    attempt.cancel()
                for attempt in opened:
                    with contextlib.suppress(BaseException):
                        await (await attempt).close()
                await flooding.close()
                await live.close()
                reading.cancel()
                await session.close()
            assert server.proc.poll() is None, server.output
            # The flood gone, ann's address opens her session again.
            _, _, session, websocket = await open_app(links["ann"], b"correctness")
            await websocket.close()
            await session.close()

        asyncio.run(scenario())
        assert server.proc.poll() is None, server.output
        assert server.stop() == 0, server.output
        assert b"Traceback" not in server.output, server.output.decode(errors="replace")


async def read_on(websocket: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in websocket:
        pass


# --- the rules, in this process (no app is started) ------------------------------------------


@contextlib.asynccontextmanager
async def listening(
    monkeypatch: pytest.MonkeyPatch, *, cap: int, idle: float, lifetime: float
) -> AsyncIterator[serve_web.AppServer]:
    """The server's own listener (serve_doors.py) in this process, with the limits given."""
    monkeypatch.setattr(serve_doors, "WAITING_CAP", cap)
    monkeypatch.setattr(serve_doors, "WAITING_SECONDS", lifetime)
    monkeypatch.setattr(serve_web, "IDLE_SECONDS", idle)
    port = free_port()
    server = serve_web.AppServer(
        "exec false", host="127.0.0.1", port=port, public_url=None, title="t", serving="w"
    )
    task = asyncio.ensure_future(server._listen())
    try:
        async with asyncio.timeout(TIMEOUT):
            while server.doors is None or not _listens(port):
                await asyncio.sleep(0.05)
            while server.doors.waiting:  # the probe's connection, gone
                await asyncio.sleep(0.05)
        yield server
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """True when the server closes the connection within `seconds` (what it sends is read)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(1024):
                pass
    except TimeoutError:
        return False
    return True


async def test_waiting_connections_are_capped_the_oldest_closed_and_idle_ones_timed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At most WAITING_CAP connections that are not websockets: one more closes the oldest
    (a flood pushes out its own connections, not a request of a moment ago); one that sends
    nothing is closed after IDLE_SECONDS."""
    async with listening(monkeypatch, cap=4, idle=1.0, lifetime=30.0) as server:
        port = server.port
        opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(6)]
        # The two oldest made room for the last two; the other four are open.
        assert [await closed_within(r, 0.3) for r, _ in opened[:2]] == [True, True]
        assert [await closed_within(r, 0.2) for r, _ in opened[2:]] == [False] * 4
        assert server.doors is not None and len(server.doors.waiting) == 4
        # Nothing sent: closed once idle for a second.
        assert all([await closed_within(r, 3.0) for r, _ in opened[2:]])
        for _, writer in opened:
            writer.close()
        async with asyncio.timeout(TIMEOUT):
            while server.doors.waiting:
                await asyncio.sleep(0.05)


async def test_a_connection_that_trickles_its_request_is_closed_all_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request's headers sent a byte every tenth of a second are not an idle connection, but
    a connection that has not become a websocket is closed WAITING_SECONDS after it opened."""
    async with listening(monkeypatch, cap=4, idle=30.0, lifetime=2.0) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        started = time.monotonic()
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        async with asyncio.timeout(TIMEOUT):
            while not await closed_within(reader, 0.1):
                writer.write(b"a")
                with contextlib.suppress(ConnectionError):
                    await writer.drain()
        assert 1.5 < time.monotonic() - started < 10.0
        writer.close()


async def test_a_token_may_hold_only_a_few_websockets_beyond_its_sessions() -> None:
    """The address of a server at its limit: its sessions, EXTRA_SOCKETS_PER_TOKEN being turned
    away; one more is refused (429) before it is a websocket."""
    from aiohttp.test_utils import TestClient, TestServer

    server = serve_web.AppServer(
        "exec false",
        host="127.0.0.1",
        port=8000,
        public_url=None,
        title="t",
        serving="w",
        max_sessions=1,
    )
    [seat] = server.seats
    server.live_sessions = 1  # the one session runs in another tab
    seat.sockets = 1 + serve_web.EXTRA_SOCKETS_PER_TOKEN - 1
    async with TestClient(TestServer(await server._make_app())) as client:
        # The last place: turned away, told why, and closed by the server at once.
        websocket = await client.ws_connect(f"/ws/{seat.token}")
        message = await websocket.receive(timeout=TIMEOUT)
        assert b"at its limit of 1 session" in message.data
        closing = await websocket.receive(timeout=TIMEOUT)
        assert closing.type == aiohttp.WSMsgType.CLOSE
        assert closing.data == serve_web.TURNED_AWAY
        assert "at its limit of 1 session" in closing.extra  # what the page then shows
        await websocket.close()
        async with asyncio.timeout(TIMEOUT):
            while seat.sockets != serve_web.EXTRA_SOCKETS_PER_TOKEN:
                await asyncio.sleep(0.02)  # its handler ends a step after the close
        seat.sockets += 1  # every place taken
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(f"/ws/{seat.token}")
        assert refused.value.status == 429
