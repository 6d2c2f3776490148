"""Links in workspace Markdown never become browser arguments (issue 33, row 4): a rater-only
session opens no link at all, and elsewhere only an http(s) URL is given to the browser, as a
URL. A run's output holding `[x](--remote-debugging-port=9222)` or `[x](evil.desktop)` is
clicked, and the browser program is never run with it."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import pytest
import yaml
from textual.driver import Driver

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.links import RATER_SESSION, link_to_open
from voyage_tui.engine.workspace.model import Workspace

HOSTILE = [
    "--remote-debugging-port=9222",
    "evil.desktop",
    "-new-tab",
    "./evil.desktop",
    "/usr/share/applications/evil.desktop",
    "file:///etc/passwd",
    "mailto:a@example.com",
    "HTTP:--remote-debugging-port=9222",
    "http:///--remote-debugging-port=9222",
    "http://-evil/",
    "https://example.com/a b",
    "https://example.com/\x1b[2J",
    "https://example.com:port/",
    "http://[::1/",
    "",
]
"""Targets the browser must never be given (each refused with a reason)."""

SAFE = "https://example.com/docs?q=1#top"


@pytest.mark.parametrize("href", HOSTILE)
def test_only_http_urls_are_opened(href: str) -> None:
    decision = link_to_open(href, rater_only=False)
    assert decision.url is None
    assert decision.reason.startswith("link not opened: ")
    assert "\x1b" not in decision.reason


@pytest.mark.parametrize(
    ("href", "url"),
    [
        (SAFE, SAFE),
        ("HTTPS://Example.com/", "https://Example.com/"),
        ("http://127.0.0.1:8000/x", "http://127.0.0.1:8000/x"),
    ],
)
def test_an_http_url_is_opened_as_a_url(href: str, url: str) -> None:
    decision = link_to_open(href, rater_only=False)
    assert decision.url == url
    assert decision.url.startswith(("http://", "https://"))


@pytest.mark.parametrize("href", [SAFE, *HOSTILE])
def test_a_rater_session_opens_nothing(href: str) -> None:
    assert link_to_open(href, rater_only=True) == link_to_open(SAFE, rater_only=True)
    assert link_to_open(href, rater_only=True).url is None
    assert link_to_open(href, rater_only=True).reason == RATER_SESSION


@pytest.fixture
def opened_urls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every URL given to the driver or to `webbrowser` (neither runs a browser here)."""
    calls: list[str] = []

    def driver_open(self: Driver, url: str, new_tab: bool = True) -> None:
        calls.append(url)

    def browser_open(url: str, new: int = 0, autoraise: bool = True) -> bool:
        calls.append(url)
        return True

    monkeypatch.setattr(Driver, "open_url", driver_open)
    monkeypatch.setattr(webbrowser, "open", browser_open)
    monkeypatch.setattr(webbrowser, "open_new_tab", browser_open)
    return calls


def with_links(root: Path, hrefs: list[str]) -> None:
    """Every run's output begins with one paragraph per link: `[link N](href)`."""
    lines = "\n\n".join(f"[link {n}]({href})" for n, href in enumerate(hrefs))
    for path in root.glob("fixtures/*/*/runs/*.yaml"):
        data = yaml.safe_load(path.read_text())
        data["output"] = f"{lines}\n\n{data.get('output') or ''}"
        path.write_text(yaml.safe_dump(data, sort_keys=False))


def the_app(root: Path, *, rater_only: bool) -> VoyageApp:
    settings = AppSettings(
        use_git=False, watch=False, keymap={}, initial_rate=("me", True), rater_only=rater_only
    )
    return VoyageApp(Workspace.load(root), settings)


async def click_links(pilot, hrefs: list[str]) -> list[str]:
    """Click each `[link N]` paragraph of the run on screen (as a person would, with the
    mouse, on the link's first letters); the notifications said, in order."""
    app = pilot.app
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, RateScreen)
            and app.screen.state is not None
            and not app.screen.busy
        ),
    )
    await pilot.pause()
    links = [f"[link {n}]({href})" for n, href in enumerate(hrefs)]
    for n in range(len(hrefs)):
        [paragraph] = [
            p for p in app.screen.query("MarkdownParagraph") if (p.source or "").strip() == links[n]
        ]
        paragraph.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        assert await pilot.click(paragraph, offset=(1, 0)), f"link {n} was not clickable"
        await pilot.pause()
    return [n.message for n in app._notifications]


TARGETS = ["--remote-debugging-port=9222", "evil.desktop", SAFE]


async def test_a_rater_session_opens_no_link(tmp_path: Path, opened_urls: list[str]) -> None:
    root = copy_sample(tmp_path)
    with_links(root, TARGETS)
    app = the_app(root, rater_only=True)
    async with app.run_test(size=(120, 60)) as pilot:
        said = await click_links(pilot, TARGETS)
    assert opened_urls == []
    assert said.count(RATER_SESSION) == len(TARGETS)


async def test_the_app_opens_only_http_links(tmp_path: Path, opened_urls: list[str]) -> None:
    root = copy_sample(tmp_path)
    with_links(root, TARGETS)
    app = the_app(root, rater_only=False)
    async with app.run_test(size=(120, 60)) as pilot:
        said = await click_links(pilot, TARGETS)
    assert opened_urls == [SAFE]
    refused = [m for m in said if m.startswith("link not opened")]
    assert len(refused) == 2
    assert "--remote-debugging-port=9222" in refused[0]
    assert "evil.desktop" in refused[1]
