"""``miau play``: the browser game, served on this machine, with saved progress."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import os
import socket
import sqlite3
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from miau.server.limits import ConnectionLimits
    from miau.server.shares import AddressShare

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/miau/miau.db``, or ``~/.local/share/miau/miau.db``."""
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "miau" / "miau.db"


def add_parser(subparsers: Any) -> None:
    """Register ``miau play``."""
    parser = subparsers.add_parser(
        "play",
        help="play in the browser (starts the game server on this machine)",
        description=(
            "Start the Miau game server with the shipped worlds and open the game in the "
            "browser. Progress and games in progress are saved in a SQLite database, or in "
            "PostgreSQL (--db postgresql://...), which several server processes can share."
        ),
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--db",
        default=None,
        help=(
            "the SQLite database file (default: $XDG_DATA_HOME/miau/miau.db or "
            "~/.local/share/miau/miau.db), or a PostgreSQL URL "
            "(postgresql://user@host:port/dbname) shared by several server processes"
        ),
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser (headless machines)"
    )
    parser.add_argument(
        "--replace-damaged-db",
        action="store_true",
        help=(
            "when the SQLite database fails its check at start, rename it (kept, as "
            "NAME.damaged-TIME) and start a fresh one; without this a damaged database "
            "stops miau play and is left as it is"
        ),
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=None,
        metavar="N",
        help="open connections one address may hold (default 64; more behind a shared address)",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=None,
        metavar="N",
        help="open connections in all (default 512, at most the open-file limit less 64)",
    )
    parser.add_argument(
        "--idle-days",
        type=float,
        default=None,
        metavar="DAYS",
        help=(
            "how long a player must have stored nothing before a full server may evict their "
            "games, library and then the player to make room for others (default 30)"
        ),
    )
    parser.add_argument(
        "--expire-days",
        type=float,
        default=None,
        metavar="DAYS",
        help=(
            "how long a player may have stored nothing (no move, game, win or pack) before "
            "their games in progress, wins, library and the player are deleted, full server "
            "or not; swept at start and every 15 minutes (default 90; 0 keeps them for ever)"
        ),
    )
    parser.add_argument(
        "--players-per-address",
        type=int,
        default=None,
        metavar="N",
        help=(
            "new players one address may start in an hour (default 32, with 8 MiB of library "
            "packs); 0 turns the address shares off, for a server whose players all reach it "
            "through one address (a proxy that does not pass theirs on)"
        ),
    )
    parser.add_argument(
        "--requests-per-second",
        type=int,
        default=None,
        metavar="N",
        help=(
            "HTTP requests the whole server answers a second (default 400, bursts of three times "
            "that; the last quarter kept for addresses within their own share), and a quarter "
            "as many new WebSockets; 0 turns both bounds off"
        ),
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=(
            "a host name the server also answers for (a proxy's name); by default only the "
            "address it listens on (and localhost on loopback), against DNS rebinding"
        ),
    )
    parser.set_defaults(run=run)


def _address_share(players_per_address: int | None) -> AddressShare | str | None:
    """The shares ``--players-per-address`` asks for, or why the count is refused."""
    from miau.server.shares import ADDRESS_SHARE

    if players_per_address is None:
        return ADDRESS_SHARE
    if players_per_address < 0:
        return f"--players-per-address must be 0 or more, not {players_per_address}"
    if players_per_address == 0:
        return None
    return dataclasses.replace(
        ADDRESS_SHARE,
        new_players_per_hour=float(players_per_address),
        new_players_burst=players_per_address,
    )


def _play_limits(requests_per_second: int | None) -> ConnectionLimits | str:
    """The play limits with the request budget ``--requests-per-second`` asks for, or why not."""
    from miau.server.limits import PLAY_LIMITS

    if requests_per_second is None:
        return PLAY_LIMITS
    if requests_per_second < 0:
        return f"--requests-per-second must be 0 or more, not {requests_per_second}"
    if requests_per_second == 0:
        return dataclasses.replace(
            PLAY_LIMITS, server_requests_per_second=None, server_sockets_per_second=None
        )
    return dataclasses.replace(
        PLAY_LIMITS,
        server_requests_per_second=float(requests_per_second),
        server_requests_burst=3 * requests_per_second,
        # New WebSockets: a quarter as many (each costs several requests' work).
        server_sockets_per_second=max(1.0, requests_per_second / 4),
        server_sockets_burst=max(2, requests_per_second // 2),
    )


def run(args: argparse.Namespace) -> int:
    """Serve the game until interrupted; exit 0, or non-zero when it cannot start."""
    # Imported here so that the other subcommands start without the server stack.
    import uvicorn

    from miau.server.addresses import ServedAddresses
    from miau.server.app import create_app
    from miau.server.serving import (
        MAX_CONNECTIONS,
        MAX_CONNECTIONS_PER_ADDRESS,
        ConnectionGate,
        uvicorn_config,
    )
    from miau.server.store import (
        EXPIRE_AFTER_SECONDS,
        IDLE_AFTER_SECONDS,
        POSTGRES_SCHEMES,
        StoreError,
    )

    database: str | Path
    if args.db is not None and args.db.startswith(POSTGRES_SCHEMES):
        database = args.db
    else:
        database = Path(args.db) if args.db is not None else default_db_path()
    shown_db = _without_password(database)
    idle_after = IDLE_AFTER_SECONDS if args.idle_days is None else args.idle_days * 86_400
    if not idle_after >= 0:  # also refuses nan
        print(f"miau play: --idle-days must be 0 or more, not {args.idle_days}", file=sys.stderr)
        return 2
    expire_after = EXPIRE_AFTER_SECONDS if args.expire_days is None else args.expire_days * 86_400
    if not expire_after >= 0:  # also refuses nan
        print(
            f"miau play: --expire-days must be 0 or more, not {args.expire_days}", file=sys.stderr
        )
        return 2
    address_share = _address_share(args.players_per_address)
    if isinstance(address_share, str):
        print(f"miau play: {address_share}", file=sys.stderr)
        return 2
    limits = _play_limits(args.requests_per_second)
    if isinstance(limits, str):
        print(f"miau play: {limits}", file=sys.stderr)
        return 2
    if isinstance(database, Path) and not _database_checked(database, args.replace_damaged_db):
        return 2
    try:
        listener = _listen(args.host, args.port)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(
                f"miau play: port {args.port} is already in use (is Miau already running? "
                f"then open http://{args.host}:{args.port}/). "
                f"Choose another port with --port, e.g. --port {args.port + 1}.",
                file=sys.stderr,
            )
        else:
            print(f"miau play: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    served = ServedAddresses.of(args.host, listener.getsockname()[1], args.allow_host)
    try:
        gate = ConnectionGate(
            per_address=args.connections_per_address or MAX_CONNECTIONS_PER_ADDRESS,
            total=args.connections or MAX_CONNECTIONS,
        )
    except ValueError as error:
        listener.close()
        print(f"miau play: {error}", file=sys.stderr)
        return 2
    try:
        if isinstance(database, Path):
            database.parent.mkdir(parents=True, exist_ok=True)
        app = create_app(
            db_path=database,
            limits=limits,
            served=served,
            idle_after=idle_after,
            expire_after=expire_after,
            address_share=address_share,
        )
    except (OSError, StoreError, sqlite3.DatabaseError) as error:
        listener.close()
        print(f"miau play: cannot open the database {shown_db}: {error}", file=sys.stderr)
        return 2
    port = listener.getsockname()[1]
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown_host}:{port}/"
    server = uvicorn.Server(uvicorn_config(app, gate=gate))
    threading.Thread(
        target=_announce, args=(server, url, shown_db, not args.no_browser), daemon=True
    ).start()
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    return 0


def _database_checked(path: Path, replace_damaged: bool) -> bool:
    """Whether the SQLite file at ``path`` may be served from; says why not on standard error.

    A damaged file is left as it is, unless ``replace_damaged``: then it is
    renamed out of the way (kept) and a fresh database starts in its place.
    """
    from miau.server.store.check import DatabaseDamage, check_sqlite_file, set_aside

    try:
        check_sqlite_file(path)
    except DatabaseDamage as damage:
        if replace_damaged:
            kept = set_aside(path)
            print(
                f"miau play: {damage}; it was kept as {kept} and a fresh database starts.",
                file=sys.stderr,
            )
            return True
        print(
            f"miau play: {damage}. Nothing was changed: to start afresh, keep a copy of it "
            "and run miau play again with --replace-damaged-db, which moves the damaged file "
            "aside (it is kept) and starts a new database.",
            file=sys.stderr,
        )
        return False
    return True


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound before the server starts so "port taken" is reported plainly."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


def _without_password(database: str | Path) -> str:
    """The database as it may be printed: a URL's password is replaced by ``***``."""
    if isinstance(database, Path):
        return str(database)
    parts = urlsplit(database)
    if parts.password is None:
        return database
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def _announce(server: Any, url: str, db_path: str, open_browser: bool) -> None:
    """Once the server answers: print the address and open the browser."""
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or server.should_exit:
            return
        time.sleep(0.02)
    print(f"Miau is running at {url}", flush=True)
    print(f"Progress is saved in {db_path}. Press Ctrl+C to stop.", flush=True)
    if not open_browser:
        return
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print(f"No browser could be opened here; open {url} in one.", flush=True)
