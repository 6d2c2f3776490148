"""The terminal size a browser asks `voyage-tui serve` for is bounded (issue 33, row 3).

One websocket `resize` to 30000x30000 cost an app 37 s of CPU and 4.5 GB of memory; a negative
or non-numeric size ended the session with a traceback. A size is clamped into 10..500 columns
and 5..200 rows; one that is not two whole numbers of at least 1 is ignored.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.sample import SAMPLE_ROOT
from tests.test_serve import TIMEOUT, _text, open_app, read_until, serving
from voyage_tui.cli import serve_web

BAD_SIZES: list[Any] = [
    {"width": -5, "height": 40},
    {"width": 120, "height": -1},
    {"width": 0, "height": 0},
    {"width": "abc", "height": "def"},
    {"width": "120", "height": "40"},
    {"width": 80.5, "height": 24},
    {"width": True, "height": True},
    {"width": None, "height": None},
    {"width": 120},
    {},
    "120x40",
    [120, 40],
    None,
]


async def pong(websocket: aiohttp.ClientWebSocketResponse, word: str) -> None:
    """Wait for the answer to a ping: every message sent before it has been handled."""
    await websocket.send_json(["ping", word])
    async with asyncio.timeout(TIMEOUT):
        while True:
            message = await websocket.receive()
            assert message.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY), message
            if message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data) == [
                "pong",
                word,
            ]:
                return


async def test_sizes_are_clamped_and_bad_ones_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a real websocket, with the sizes the app would be given recorded."""
    from aiohttp.test_utils import TestClient, TestServer
    from textual_serve.app_service import AppService

    sizes: list[tuple[object, object]] = []
    start = AppService.start

    async def recorded_start(service: AppService, width: int, height: int) -> None:
        sizes.append((width, height))
        await start(service, width, height)

    async def record(service: AppService, width: int, height: int) -> None:
        sizes.append((width, height))

    monkeypatch.setattr(AppService, "start", recorded_start)
    monkeypatch.setattr(AppService, "set_terminal_size", record)
    monkeypatch.setattr(serve_web, "APP_QUIT_SECONDS", 0.5)
    server = serve_web.AppServer(
        "exec sleep 60", host="127.0.0.1", port=8000, public_url=None, title="t", serving="w"
    )
    async with TestClient(TestServer(await server._make_app())) as client:
        path = f"/ws/{server.token}"
        websocket = await client.ws_connect(f"{path}?width=30000&height=30000")
        await websocket.send_json(["resize", {"width": 30000, "height": 30000}])
        await websocket.send_json(["resize", {"width": 3, "height": 2}])
        for size in BAD_SIZES:
            await websocket.send_json(["resize", size])
        await websocket.send_json(["resize"])
        await websocket.send_json(["resize", {"width": 120, "height": 40}])
        await pong(websocket, "after the sizes")  # the session is still there
        assert sizes == [(500, 200), (500, 200), (10, 5), (120, 40)]
        await websocket.close()
        # A size in the address that is not a number is the default one.
        second = await client.ws_connect(f"{path}?width=-4&height=lots")
        await pong(second, "opened")
        assert sizes[-1] == (80, 24)
        await second.close()


def test_a_bad_size_through_the_real_server_leaves_the_app_running() -> None:
    with serving(SAMPLE_ROOT / "fixtures", "--no-git", "--no-watch") as server:
        address = server.wait_for_address()

        async def scenario() -> None:
            _, _, session, websocket = await open_app(address, b"Fixtures")
            try:
                for size in BAD_SIZES:
                    await websocket.send_json(["resize", size])
                await pong(websocket, "after the sizes")
                # The app still takes keys: `/` opens the filter.
                await websocket.send_json(["resize", {"width": 120, "height": 40}])
                await websocket.send_json(["stdin", "/"])
                screen = await read_until(websocket, b"filter by id")
                assert b"filter by id" in _text(screen)
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        assert server.stop() == 0
    assert b"Traceback" not in server.output, server.output.decode(errors="replace")
