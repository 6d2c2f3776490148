"""`voyage-tui serve --rate --raters ann,ben,cat`: one address per rater, each with its own
token; the token is the rater's identity; one live session per rater; each rater writes only
their own ratings file. And `serve --rate` (like `rate`) opens a rater-only session."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from tests.app.support import wait_until
from tests.fake_app import record_openings
from tests.test_serve import (
    CountedApps,
    _listens,
    _text,
    eventually,
    open_app,
    serving,
    session_members,
    slots_given_back_late,
    websocket_url_in,
)
from tests.test_serve import wait_until as wait_for
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import main, serve_web
from voyage_tui.engine.workspace.model import Workspace

TEAM = '[rating]\nraters = ["ann", "ben", "cat"]\n'


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[serve_web.AppServer]:
    """Each server the command would have started, instead of starting it."""
    started: list[serve_web.AppServer] = []

    def record(self: serve_web.AppServer, debug: bool = False) -> None:
        started.append(self)

    monkeypatch.setattr(serve_web.AppServer, "serve", record)
    return started


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["token"][0]


def server_of(raters: dict[str, str], **kwargs: Any) -> serve_web.AppServer:
    return serve_web.AppServer(
        "exec false",
        host="127.0.0.1",
        port=8000,
        public_url=None,
        title="t",
        serving="w",
        raters=raters,
        **kwargs,
    )


# --- the command line ------------------------------------------------------------------------


def test_one_url_per_rater_each_with_its_own_token(
    make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace({"voyage.toml": TEAM})
    code, _, err = cli(
        ["serve", str(root), "--rate", "--raters", "ann, ben,cat", "--no-git"], capsys
    )
    assert (code, err) == (0, "")
    [server] = served
    links = server.links
    assert list(links) == ["ann", "ben", "cat"]
    tokens = [token_of(url) for url in links.values()]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    for url in links.values():
        assert url.startswith("http://127.0.0.1:8000/?token=")
    # Each token runs its own rater's session, and no other.
    for rater, url in links.items():
        seat = server._check_token(token_of(url))
        assert seat.rater == rater
        words = shlex.split(seat.command)[1:]
        assert words[3:] == [
            "rate",
            f"--rater={rater}",
            "--in-browser",
            "--no-git",
            "--",
            str(root),
        ]
    # What it prints: every rater's address, once, and a word on what they are.
    server._announce()
    out = capsys.readouterr().out
    assert "the rater sessions of ann, ben, cat (blind)" in out
    for rater, url in links.items():
        assert out.count(token_of(url)) == 1
        assert any(line.split() == [rater, url] for line in out.splitlines()), out
    assert "one live session" in out


def test_the_tokens_change_with_every_server(make_workspace, served, capsys) -> None:
    root = make_workspace()
    for _ in range(2):
        assert cli(["serve", str(root), "--rate", "--raters", "ann", "--no-git"], capsys)[0] == 0
    first, second = (token_of(s.links["ann"]) for s in served)
    assert first != second


def test_a_name_outside_the_team_is_refused_with_the_team_listed(
    make_workspace, served, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_workspace({"voyage.toml": TEAM})
    code, out, err = cli(["serve", str(root), "--rate", "--raters", "ann,dan", "--no-git"], capsys)
    assert code == 2 and out == ""
    assert "dan is not in the team" in err and "ann, ben, cat" in err
    assert served == []


def test_without_a_team_any_usable_name_is_served(make_workspace, served, capsys) -> None:
    root = make_workspace()
    assert cli(["serve", str(root), "--rate", "--raters", "zoe,yan", "--no-git"], capsys)[0] == 0
    assert list(served[0].links) == ["zoe", "yan"]


@pytest.mark.parametrize(
    ("raters", "message"),
    [
        ("ann,,ben", "none empty"),
        (",", "none empty"),
        ("ann,../x", "cannot be used"),
        ("ann,Ann", "twice"),
    ],
)
def test_bad_rater_lists_exit_2(make_workspace, served, capsys, raters, message) -> None:
    root = make_workspace()
    code, _, err = cli(["serve", str(root), "--rate", "--raters", raters, "--no-git"], capsys)
    assert code == 2 and message in err
    assert served == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--raters", "ann"], "go with --rate"),
        (["--rate", "--rater", "ann", "--raters", "ann,ben"], "give --rater"),
    ],
)
def test_raters_go_with_rate_and_not_with_rater(make_workspace, served, capsys, args, message):
    root = make_workspace()
    code, _, err = cli(["serve", str(root), *args], capsys)
    assert code == 2 and message in err
    assert served == []


def test_serve_rate_runs_a_rater_only_session(
    make_workspace, served, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The command a tab of `serve --rate` runs opens the app as a rater-only session."""
    root = make_workspace()
    assert cli(["serve", str(root), "--rate", "--rater", "ann", "--no-git"], capsys)[0] == 0
    [server] = served
    opened = record_openings(monkeypatch)
    words = shlex.split(server.command)[1:]
    assert words[1:3] == ["-m", "voyage_tui"]
    assert main(words[3:]) == 0
    [call] = opened
    assert call["rater_only"] is True
    assert call["initial_rate"] == ("ann", True)


def test_rate_opens_a_rater_only_session(make_workspace, monkeypatch, capsys) -> None:
    root = make_workspace()
    opened = record_openings(monkeypatch)
    assert cli(["rate", str(root), "--rater", "ann", "--no-git"], capsys)[0] == 0
    assert opened[0]["rater_only"] is True


def test_a_rater_outside_the_team_still_rates_and_is_told_once(
    make_workspace, monkeypatch, capsys
) -> None:
    root = make_workspace({"voyage.toml": TEAM})
    opened = record_openings(monkeypatch)
    code, _, err = cli(["rate", str(root), "--rater", "dan", "--no-git"], capsys)
    assert code == 0 and opened[0]["initial_rate"] == ("dan", True)
    assert err.count("is not one of [rating] raters") == 1 and "ann, ben, cat" in err
    # A member is not told anything; under `serve` (each tab) the server said it already.
    for argv in (["--rater", "ann"], ["--rater", "dan", "--in-browser"]):
        code, _, err = cli(["rate", str(root), *argv, "--no-git"], capsys)
        assert (code, err) == (0, "")


def test_serve_rate_with_a_rater_outside_the_team_says_so_once(
    make_workspace, served, capsys
) -> None:
    root = make_workspace({"voyage.toml": TEAM})
    code, _, err = cli(["serve", str(root), "--rate", "--rater", "dan", "--no-git"], capsys)
    assert code == 0 and err.count("is not one of [rating] raters") == 1
    assert "--rater=dan" in served[0].command


# --- the web app, in this process --------------------------------------------------------------


async def test_each_token_opens_its_own_page_and_any_other_is_refused() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    server = server_of({"ann": "exec false", "ben": "exec false"})
    with pytest.raises(ValueError):
        _ = server.token  # there is no one token to give
    ann, ben = (token_of(server.links[r]) for r in ("ann", "ben"))
    async with TestClient(TestServer(await server._make_app())) as client:
        for token in (ann, ben):
            response = await client.get(f"/?token={token}")
            assert response.status == 200
            assert websocket_url_in(await response.text()).endswith(f"/ws/{token}")
        for wrong in ("", "x", ann[:-1], ann + ben, ann + "x"):
            response = await client.get(f"/?token={wrong}")
            assert response.status == 403, wrong
            text = await response.text()
            assert ann not in text and ben not in text
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await client.ws_connect(f"/ws/{wrong}")


async def test_the_newest_tab_of_a_rater_takes_the_session_and_the_old_one_is_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reload (F5) of ann's tab, or a second tab of her address, used to get "open
    elsewhere" (409) while the first tab's app was ending. The newest connection of a token
    takes the session: the old tab's socket is closed with the reason (the page shows it), its
    app ends, and only then does the new tab's app start (the rater's lock is free by then)."""
    from aiohttp.test_utils import TestClient, TestServer
    from textual_serve.app_service import AppService

    monkeypatch.setattr(serve_web, "APP_QUIT_SECONDS", 0.5)
    apps = CountedApps(monkeypatch)
    slots_given_back_late(monkeypatch)
    running_at_start: list[int] = []
    start = AppService.start

    async def counted_start(service: AppService, width: int, height: int) -> None:
        running_at_start.append(apps.running)
        await start(service, width, height)

    monkeypatch.setattr(AppService, "start", counted_start)
    server = server_of({"ann": "exec sleep 60", "ben": "exec sleep 60"})
    ann, ben = (token_of(server.links[r]) for r in ("ann", "ben"))
    async with TestClient(TestServer(await server._make_app())) as client:
        first = await client.ws_connect(f"/ws/{ann}")
        await eventually(lambda: apps.running == 1, "ann's app")

        # A second tab (or a reload that has not closed the first socket yet): the page opens.
        response = await client.get(f"/?token={ann}")
        assert response.status == 200
        second = await client.ws_connect(f"/ws/{ann}")
        # The old tab is told, by the reason of its socket's closing.
        async with asyncio.timeout(30):
            while (message := await first.receive()).type == aiohttp.WSMsgType.BINARY:
                pass
        assert message.type == aiohttp.WSMsgType.CLOSE, message
        assert message.data == serve_web.TAKEN_OVER
        assert "Taken over" in message.extra and "session of ann" in message.extra
        assert ann not in message.extra
        await eventually(lambda: len(apps.started) == 2 and apps.running == 1, "the new app")
        assert apps.started[0]._process is not None
        assert apps.started[0]._process.returncode is not None  # the old app has ended
        assert server.live_sessions == 1

        # Another rater is not held up, nor taken over.
        other = await client.ws_connect(f"/ws/{ben}")
        await eventually(lambda: apps.running == 2, "ben's app")

        # A reload: the tab's socket closes and the new one opens at once; it resumes.
        await second.close()
        third = await client.ws_connect(f"/ws/{ann}")
        await eventually(lambda: len(apps.started) == 4 and apps.running == 2, "ann's new app")
        # No app of ann started while another of hers ran.
        assert running_at_start == [0, 0, 1, 1], running_at_start
        for websocket in (third, other):
            await websocket.close()
        await eventually(lambda: apps.running == 0, "every app to end")
        await eventually(lambda: server.live_sessions == 0, "every slot to be free")


def test_a_reload_of_a_raters_tab_resumes_the_session_through_the_real_server(
    sample_copy: Path, tmp_path: Path
) -> None:
    """The real rater app holds the rater's lock: the reloaded tab's app starts once the old one
    has let it go, and shows the rating screen, not the lock's refusal."""
    with serving(sample_copy, "--rate", "--raters", "ann", "--no-git", cwd=tmp_path) as server:
        link = rater_links(server, ("ann",))["ann"]

        async def scenario() -> None:
            _, _, session, websocket = await open_app(link, b"correctness")
            await websocket.close()  # F5: the page unloads, its socket closes...
            await session.close()
            # ...and loads again at once.
            _, screen, session, websocket = await open_app(link, b"correctness")
            try:
                # Not the lock's refusal ("ann is already rating in another session").
                assert b"already rating" not in _text(screen)
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        assert server.stop() == 0
    said = re.findall(rb"^voyage-tui serve: \d\d:\d\d:\d\d (.*)$", server.output, re.M)
    assert said == [
        b"ann connected (1 of 8 sessions)",
        b"ann disconnected",
        b"ann connected (1 of 8 sessions)",
        b"ann disconnected",
    ], server.output


def test_ctrl_c_with_a_raters_session_open_stops_everything_and_says_nothing_more(
    sample_copy: Path, tmp_path: Path
) -> None:
    """Ctrl+C in a terminal signals the whole process group, the apps as well as the server:
    exit 0, every app gone, and no warning (it printed `WARNING Unknown child process pid N`)."""
    with serving(sample_copy, "--rate", "--raters", "ann", "--no-git", cwd=tmp_path) as server:
        link = rater_links(server, ("ann",))["ann"]

        async def scenario() -> None:
            _, _, session, websocket = await open_app(link, b"correctness")
            try:
                os.killpg(server.proc.pid, signal.SIGINT)
                async with asyncio.timeout(60):
                    while (await websocket.receive()).type == aiohttp.WSMsgType.BINARY:
                        pass
            finally:
                await websocket.close()
                await session.close()

        asyncio.run(scenario())
        assert server.proc.wait(timeout=60) == 0
        assert server.proc.stdout is not None
        server.output += server.proc.stdout.read() or b""
        wait_for(lambda: session_members(server.proc.pid) == [], "every app to end")
    assert b"WARNING" not in server.output and b"Traceback" not in server.output, server.output


def rater_links(server: Any, raters: tuple[str, ...]) -> dict[str, str]:
    """The address of each rater, as the server prints them, once the port listens."""
    assert server.proc.stdout is not None
    os.set_blocking(server.proc.stdout.fileno(), False)
    deadline = time.monotonic() + 60
    names = "|".join(raters).encode()
    while time.monotonic() < deadline:
        server.output += server.proc.stdout.read() or b""
        found = dict(re.findall(rb"^  (" + names + rb")  (http://\S+)$", server.output, re.M))
        if len(found) == len(raters) and _listens(server.port):
            return {k.decode(): v.decode() for k, v in found.items()}
        if server.proc.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"the server did not start: {server.output!r}")


async def test_each_raters_tab_is_titled_with_the_rater() -> None:
    """A rater with several tabs (or the lead with everyone's) tells them apart by the title:
    "Rating · ann". The name is escaped; the shared address keeps the server's title."""
    from aiohttp.test_utils import TestClient, TestServer

    server = server_of({"ann": "exec false", "<b>&co": "exec false"})
    async with TestClient(TestServer(await server._make_app())) as client:
        for rater, title in (("ann", "Rating · ann"), ("<b>&co", "Rating · &lt;b&gt;&amp;co")):
            response = await client.get(f"/?token={token_of(server.links[rater])}")
            page = await response.text()
            assert re.findall(r"<title>(.*?)</title>", page) == [title], page[:300]
            assert page.index("<title>") < page.index("</head>")
    shared = serve_web.AppServer(
        "exec false",
        host="127.0.0.1",
        port=8000,
        public_url=None,
        title="voyage-tui: <ws>",
        serving="w",
    )
    async with TestClient(TestServer(await shared._make_app())) as client:
        page = await (await client.get(f"/?token={shared.token}")).text()
        assert re.findall(r"<title>(.*?)</title>", page) == ["voyage-tui: &lt;ws&gt;"]


async def test_the_server_says_who_connected_and_who_left_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    monkeypatch.setattr(serve_web, "APP_QUIT_SECONDS", 0.5)
    apps = CountedApps(monkeypatch)
    server = server_of({"ann": "exec sleep 60", "ben": "exec sleep 60"})
    ann = token_of(server.links["ann"])
    async with TestClient(TestServer(await server._make_app())) as client:
        first = await client.ws_connect(f"/ws/{ann}")
        await eventually(lambda: apps.running == 1, "ann's app")
        second = await client.ws_connect(f"/ws/{ann}")  # takes the session over
        await eventually(lambda: len(apps.started) == 2 and apps.running == 1, "the new app")
        await second.close()
        await first.close()
        await eventually(lambda: server.live_sessions == 0, "every slot to be free")
    out = capsys.readouterr().out
    lines = [re.sub(r"^voyage-tui serve: \d\d:\d\d:\d\d ", "", x) for x in out.splitlines()]
    assert lines == [
        "ann connected (1 of 8 sessions)",
        "ann taken over by a newer tab",
        "ann disconnected",
        "ann connected (1 of 8 sessions)",
        "ann disconnected",
    ], out
    assert ann not in out


# --- two raters, each in their own app, as the server starts them ---------------------------


def settings_of(command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, AppSettings]:
    """What the app a tab runs is opened with: the tab's command, run up to the app."""
    words = shlex.split(command)[1:]
    with monkeypatch.context() as patch:
        opened = record_openings(patch)
        assert main(words[3:]) == 0
    [call] = opened
    fields = {k: v for k, v in call.items() if k not in ("root", "watcher", "start")}
    return call["root"], AppSettings(**{**fields, "keymap": {}, "watch": False})


async def test_two_raters_each_write_only_their_own_file(
    sample_copy: Path, served, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    ratings = sample_copy / "fixtures/ratings"
    before = {p.name: p.read_bytes() for p in ratings.iterdir()}
    code, _, _ = cli(
        ["serve", str(sample_copy), "--rate", "--raters", "ann,ben", "--no-git"], capsys
    )
    assert code == 0
    [server] = served
    for rater in ("ann", "ben"):
        seat = server._check_token(token_of(server.links[rater]))
        root, settings = settings_of(seat.command, monkeypatch)
        assert settings.rater_only and settings.initial_rate == (rater, True)
        app = VoyageApp(Workspace.load(root), settings)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(
                pilot,
                lambda app=app: isinstance(app.screen, RateScreen) and app.screen.state is not None,
                timeout=30,
            )
            screen = app.screen
            assert isinstance(screen, RateScreen) and screen.rater == rater
            state = screen.state
            await pilot.press(*"44444")
            await wait_until(
                pilot,
                lambda screen=screen, state=state: screen.state is not state and not screen.busy,
            )
    after = {p.name: p.read_bytes() for p in ratings.iterdir()}
    assert {k: v for k, v in after.items() if k in before} == before  # no other file touched
    assert sorted(set(after) - set(before)) == ["ann.jsonl", "ben.jsonl"]
    for rater in ("ann", "ben"):
        records = [
            json.loads(line) for line in (ratings / f"{rater}.jsonl").read_text().splitlines()
        ]
        assert len(records) == 1 and records[0]["rater"] == rater


def test_two_raters_rate_through_the_real_server_each_in_their_own_file(
    sample_copy: Path,
) -> None:
    """The printed addresses, opened in two browsers: each rater's keys land in their own file
    only, and each app is a rater-only session of the rater its token names."""
    ratings = sample_copy / "fixtures/ratings"
    before = {p.name: p.read_bytes() for p in ratings.iterdir()}
    with serving(sample_copy, "--rate", "--raters", "ann,ben", "--no-git") as server:
        assert server.proc.stdout is not None
        os.set_blocking(server.proc.stdout.fileno(), False)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            server.output += server.proc.stdout.read() or b""
            found = dict(re.findall(rb"^  (ann|ben)  (http://\S+)$", server.output, re.M))
            if len(found) == 2 and _listens(server.port):
                break
            time.sleep(0.05)
        links = {k.decode(): v.decode() for k, v in found.items()}
        assert set(links) == {"ann", "ben"}, server.output

        def lines_of(rater: str) -> list[dict[str, Any]]:
            path = ratings / f"{rater}.jsonl"
            return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []

        async def scenario() -> None:
            for rater, keys in (("ann", "22222"), ("ben", "44444")):
                _, screen, session, websocket = await open_app(links[rater], b"correctness")
                try:
                    assert rater.encode() in _text(screen)  # the header names the rater
                    await websocket.send_json(["stdin", keys])
                    await asyncio.to_thread(
                        wait_for, lambda rater=rater: lines_of(rater), f"{rater}'s rating"
                    )
                finally:
                    await websocket.close()
                    await session.close()

        asyncio.run(scenario())
        assert server.stop() == 0
    after = {p.name: p.read_bytes() for p in ratings.iterdir()}
    assert {k: v for k, v in after.items() if k in before} == before
    for rater, score in (("ann", 2), ("ben", 4)):
        [record] = lines_of(rater)
        assert record["rater"] == rater and set(record["scores"].values()) == {score}
