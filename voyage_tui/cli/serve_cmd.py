"""`voyage-tui serve [PATH] [--host H] [--port P] [--allow-remote] [--public-url URL]
[--max-sessions N] [--rate [--rater NAME | --raters A,B,C] [--no-blind]]`.

Serves the app in a browser with textual-serve: each browser connection runs its own
`python -m voyage_tui ... PATH` (or `... rate ...` with `--rate`) with Textual's web driver. Bound to loopback by default; the
address it prints carries a secret token that every page and websocket must present, since
anyone who can reach a loopback port includes every other user of the machine. A host beyond
loopback is refused without `--allow-remote`: the server speaks plain HTTP and has no user
accounts, so the token would cross the network in clear text.

With `--rate` every tab is a rater-only session (app/rater_only.py). `--raters ann,ben` prints
one address per rater, each with its own token: the token is the rater's identity, and a rater
has one live session at a time (serve_web.py). With `[rating] raters` set in voyage.toml, a
name of `--raters` outside that team is refused with the team listed.

Exit 0 when stopped with Ctrl+C (or SIGTERM); 2 for a usage error, no workspace, a host that
is not allowed, or an address it cannot listen on.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    no_workspace,
    say_outside_team,
    unreadable_workspace,
)
from voyage_tui.cli.render import shown
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
"""Apps running at once: each tab runs one, and 30 tabs loaded two cores to 16."""


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui serve",
        description="Serve the app in a browser (textual-serve): every browser tab runs its own "
        "app on the workspace. Listens on 127.0.0.1 only unless --allow-remote is given; the "
        "address it prints carries a secret token, and there are no user accounts.",
        epilog="To use it from another machine, keep the default host and forward the port "
        "over SSH: ssh -L 8000:127.0.0.1:8000 HOST, then open the printed address.",
    )
    parser.add_argument(
        "path", nargs="?", default=None, help="the workspace or a folder in it (default: here)"
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}); one that is not a loopback "
        "address needs --allow-remote",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="listen on a --host other machines can reach: plain HTTP, no user accounts",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when a proxy stands in front (https://eval.example/); "
        "the page's websocket address is built on it",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"at most N apps at once, one per browser tab (default {DEFAULT_MAX_SESSIONS}); "
        "a tab beyond them gets a page saying so, and a closed tab frees its place",
    )
    parser.add_argument(
        "--rate",
        action="store_true",
        help="open each tab on the rater session, as `voyage-tui rate` does",
    )
    parser.add_argument(
        "--rater",
        metavar="NAME",
        help="with --rate: rate as NAME (default: git's user.name, else the OS user)",
    )
    parser.add_argument(
        "--raters",
        metavar="A,B,C",
        help="with --rate: one address per rater, each with its own token, which opens that "
        "rater's session and no other; a rater has one live session at a time",
    )
    parser.add_argument(
        "--no-blind",
        action="store_true",
        help="with --rate: show the agent's label and the run's metadata",
    )
    add_app_switches(parser)
    return parser


def is_loopback(host: str) -> bool:
    """True when every address `host` stands for is a loopback one. A name is resolved, since
    the server listens on each address it resolves to; a name that does not resolve is not
    loopback (the server could not listen on it either)."""
    if not host.strip():
        return False  # an empty host listens on every interface
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(
        ipaddress.ip_address(str(address).split("%", 1)[0]).is_loopback for address in addresses
    )


def app_argv(root: Path, options: Sequence[str] = (), command: str | None = None) -> list[str]:
    """The app each browser connection runs: this very interpreter, on the workspace's root
    (`command` a subcommand that opens the app on a screen of its own, such as `rate`).
    `--` keeps a root that starts with `-` or is named like a command (`validate`) a path."""
    subcommand = [command] if command else []
    return [sys.executable, "-m", "voyage_tui", *subcommand, *options, "--", os.fspath(root)]


def shell_command(argv: list[str]) -> str:
    """textual-serve hands its command to a shell: every word quoted, so a path with spaces,
    quotes, `$(...)` or bytes that are not UTF-8 reaches the app as the one argument it was.
    `exec` leaves no shell between the server and the app, so the app gets its signals."""
    return "exec " + " ".join(shlex.quote(word) for word in argv)


def _printable(text: str) -> str:
    """A path or a name as a person can read it, on one line: bytes that are not UTF-8 and
    control characters shown as escapes (`\\xff`, `\\x1b`), as every command prints them."""
    return shown(text)


def check_public_url(url: str) -> str | None:
    """The reason a --public-url cannot be used, or None."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return str(exc)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "it must be an http:// or https:// address with a host"
    if parts.query or parts.fragment:
        return "it must have no ?query or #fragment"
    return None


def listening_url(host: str, port: int) -> str:
    """The address the server listens on, as a browser writes it (`http://[::1]:8000`)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must be between 1 and 65535, not {args.port}")
    if args.max_sessions < 1:
        parser.error(f"--max-sessions must be at least 1, not {args.max_sessions}")
    if not args.rate and (args.rater is not None or args.raters is not None or args.no_blind):
        parser.error("--rater, --raters and --no-blind go with --rate")
    if args.rater is not None and args.raters is not None:
        parser.error("give --rater (one rater, one address) or --raters (an address each)")
    if args.public_url is not None and (reason := check_public_url(args.public_url)):
        parser.error(f"--public-url {args.public_url!r}: {reason}")
    host = args.host.strip()
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address as URLs write it
        host = host[1:-1]
    local = is_loopback(host)
    if not local and not args.allow_remote:
        print(
            f"voyage-tui serve: --host {args.host!r} is not a loopback address, so other "
            "machines could reach the app. The server speaks plain HTTP and has no user "
            "accounts: anyone who sees its address can edit the workspace as you. Keep the "
            "default host and forward the port over SSH (ssh -L 8000:127.0.0.1:8000 HOST), or "
            "give --allow-remote behind a proxy that adds TLS and a login.",
            file=sys.stderr,
        )
        return 2
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    root = Path(os.path.abspath(ws.root))
    switches = {"--no-git": args.no_git, "--no-watch": args.no_watch, "--no-cache": args.no_cache}
    options = [flag for flag, on in switches.items() if on]
    serving = f"the workspace {_printable(str(root))}"
    subcommand = None
    links: dict[str, str] | None = None
    if args.raters is not None:
        team = _team_links(ws, args.raters, use_git=not args.no_git)
        if isinstance(team, int):
            return team
        blind_flag = ["--no-blind"] if args.no_blind else []
        links = {
            rater: shell_command(
                app_argv(root, [f"--rater={rater}", *blind_flag, "--in-browser", *options], "rate")
            )
            for rater in team
        }
        blind = "not blind" if args.no_blind else "blind"
        names = ", ".join(_printable(rater) for rater in team)
        serving = f"the rater sessions of {names} ({blind}) on {serving}"
    elif args.rate:
        # Settled once, here, as `rate` would settle it: every tab rates as the same person, and
        # a name that cannot be a file name is refused before anything listens.
        from voyage_tui.engine.ratings.names import RaterNameError, resolve_rater

        try:
            rater = resolve_rater(ws, args.rater, use_git=not args.no_git)
        except RaterNameError as exc:
            print(f"voyage-tui serve: {shown(str(exc))}", file=sys.stderr)
            return 2
        say_outside_team(ws, rater, "serve")
        subcommand = "rate"
        # --in-browser: a tab whose session cannot start (the rater is rating in another tab
        # or terminal) opens all the same, and its screen says why; a tab has no stderr.
        blind_flag = ["--no-blind"] if args.no_blind else []
        options = [f"--rater={rater}", *blind_flag, "--in-browser", *options]
        blind = "not blind" if args.no_blind else "blind"
        serving = f"the rater session of {_printable(rater)} ({blind}) on {serving}"
    command = shell_command(app_argv(root, options, subcommand))
    if not local:
        print(
            f"voyage-tui serve: warning: listening on {host!r}, beyond this machine. "
            "Plain HTTP, no user accounts: the token in the address is the only lock, and it "
            "crosses the network in clear text unless a TLS proxy stands in front.",
            file=sys.stderr,
        )
    # textual-serve and aiohttp load only now, so `serve --help` and the refusals above are quick
    from voyage_tui.cli.serve_web import AppServer

    server = AppServer(
        command,
        host=host,
        port=args.port,
        public_url=args.public_url,
        title=f"voyage-tui{' rate' if args.rate else ''}: {_printable(root.name or str(root))}",
        serving=serving,
        max_sessions=args.max_sessions,
        raters=links,
    )
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the host is not an address of this machine
        reason = exc.strerror or str(exc)
        where = listening_url(host, args.port)
        print(
            f"voyage-tui serve: cannot listen on {shown(where)}: {shown(reason)}", file=sys.stderr
        )
        return 2
    return 0


def _team_links(ws: Workspace, given: str, *, use_git: bool) -> list[str] | int:
    """The raters of `--raters a,b,c`, each a usable name (as `rate --rater` takes it), none
    twice, and with `[rating] raters` set each in that team; else the exit code 2, said why."""
    from voyage_tui.engine.ratings.names import (
        RaterNameError,
        outside_team,
        rater_key,
        resolve_rater,
    )

    names = [name.strip() for name in given.split(",")]
    if not any(names) or not all(names):
        return _refuse("--raters wants names separated by commas (ann,ben,cat), none empty")
    # One address per rater key: two names of one key would be one ratings file and one lock.
    by_key: dict[str, str] = {}
    for name in names:
        try:
            rater = resolve_rater(ws, name, use_git=use_git)
        except RaterNameError as exc:
            reason = str(exc)
            if reason.startswith("--rater "):
                reason = "--raters: " + reason.removeprefix("--rater ")
            return _refuse(reason)
        key = rater_key(rater)
        earlier = by_key.get(key)
        if earlier is not None:
            if earlier == rater:
                return _refuse(f"--raters names {rater!r} twice; each rater gets one address")
            return _refuse(
                f"--raters names {earlier!r} and {rater!r}, which are one rater named twice "
                f"(one rater key, {key!r}: one ratings file and one session lock); each rater "
                "gets one address, so give one of the two names"
            )
        by_key[key] = rater
    raters = list(by_key.values())
    outside = outside_team(ws, raters)
    if outside:
        team = ", ".join(ws.config.rating.raters)
        who = ", ".join(outside)
        return _refuse(
            f"--raters: {who} {'is' if len(outside) == 1 else 'are'} not in the team of "
            f"voyage.toml ([rating] raters: {team}); add them there first, or leave them out"
        )
    return raters


def _refuse(reason: str) -> int:
    print(f"voyage-tui serve: {shown(reason)}", file=sys.stderr)
    return 2
