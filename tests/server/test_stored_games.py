"""Stored games kept in bounds: what a restore stores, pruning, quotas, unreplayable logs, two pages.

The store-level tests run on SQLite and on a real PostgreSQL; the socket
tests on the app over a SQLite file.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from miau.engine import Event, Game
from miau.packs import load_pack
from miau.play import log as play_log
from miau.play.log import MAX_MOVE_COUNT, RESTORE_FIELDS
from miau.play.worlds import Worlds
from miau.server import session as session_module
from miau.server.limits import UNTHROTTLED
from miau.server.session import UNREPLAYABLE_NOTICE, PlaySession
from miau.server.store import (
    LogEntry,
    SqliteStore,
    StaleGameError,
    Store,
    StoredGame,
    StoreQuotaError,
    StoreRunner,
    open_store,
)
from miau.server.store.sql import SqlStore
from tests.server.conftest import UNDO_VERSION_4, Player, TestClient, count_rows, pack_json
from tests.support.loops import run_alone

R, W = LogEntry("R"), LogEntry("W")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """One fresh database of the backend: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "store.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(location: str | Path) -> Iterator[SqlStore]:
    opened = open_store(location)
    assert isinstance(opened, SqlStore)
    yield opened
    opened.close()


def rows_in(location: str | Path, table: str) -> int:
    """How many rows ``table`` holds, read straight from the database."""
    query = f"SELECT count(*) FROM {table}"
    if isinstance(location, Path):
        with contextlib.closing(sqlite3.connect(location)) as db:
            (count,) = db.execute(query).fetchone()
    else:
        with psycopg.connect(location) as db:
            row = db.execute(query).fetchone()
            assert row is not None
            (count,) = row
    return int(count)


# --- the store: pruning, quotas, the tail of a game -------------------------------------------


def test_a_won_or_replaced_game_is_deleted_with_its_log(
    store: SqlStore, location: str | Path
) -> None:
    won = store.start_game("p", "tutorial", "walls", (R, R, R))
    store.record_win(won, "p", "tutorial", "walls", 3, "RRR")
    first = store.start_game("p", "tutorial", "first-steps", (R, W))
    for _ in range(5):
        store.start_game("p", "tutorial", "first-steps", (LogEntry("X"),), replace=True)
    # Only the last game's one entry is left of eight games' logs; of their rows, the one
    # in progress and at most the newest finished one (ids never come back).
    assert rows_in(location, "intents") == 1
    assert rows_in(location, "games") <= 2
    with pytest.raises(StaleGameError):
        store.append_intent(first, 2, R)
    assert store.progress("p")[0].best_moves == 3


def test_a_player_keeps_their_quota_of_games_in_progress_and_the_oldest_go_first(
    store: SqlStore,
) -> None:
    store.max_player_games = 3
    for level in ("a", "b", "c", "d", "e"):
        store.start_game("p", "pack", level, (R,))
    store.start_game("q", "pack", "a", (R,))
    kept = [level for level in "abcde" if store.current_game("p", "pack", level) is not None]
    assert kept == ["c", "d", "e"]
    assert store.current_game("q", "pack", "a") is not None  # another player's are their own


def test_past_the_quota_in_all_a_new_game_is_refused_and_nothing_is_stored(
    store: SqlStore, location: str | Path
) -> None:
    store.max_games = 2
    store.start_game("p", "pack", "a", (R,))
    store.start_game("q", "pack", "a", (R,))
    with pytest.raises(StoreQuotaError):
        store.start_game("r", "pack", "a", (R, R))
    assert store.current_game("r", "pack", "a") is None
    assert rows_in(location, "intents") == 2
    # A game replacing one of the player's own makes no more games in progress.
    store.start_game("p", "pack", "a", (LogEntry("X"),), replace=True)


def test_past_the_player_bound_idle_players_make_room_and_players_who_hold_something_stay(
    store: SqlStore, location: str | Path
) -> None:
    store.max_players = 4
    store.start_game("playing", "pack", "a", (R,))
    won = store.start_game("winner", "pack", "a", (R,))
    store.record_win(won, "winner", "pack", "a", 1, "R")
    store.save_library_pack("maker", "mine", "1.0.0", "Mine", "{}")
    store.ensure_player("visitor")
    assert rows_in(location, "players") == 4
    store.start_game("newcomer", "pack", "a", (R,))  # the visitor, who holds nothing, goes
    assert sorted(store.players()) == ["maker", "newcomer", "playing", "winner"]
    with pytest.raises(StoreQuotaError):  # everyone holds something now: nothing is stored
        store.start_game("late", "pack", "a", (R,))
    with pytest.raises(StoreQuotaError):
        store.save_library_pack("late", "mine", "1.0.0", "Mine", "{}")
    assert rows_in(location, "players") == 4
    assert store.current_game("late", "pack", "a") is None
    # A player already kept goes on saving.
    assert store.start_game("playing", "pack", "b", (R,)) > 0


def test_the_tail_of_a_game_is_the_entries_since_and_none_once_it_is_not_the_current_one(
    store: Store,
) -> None:
    game = store.start_game("p", "pack", "a", (R, W, R))
    assert store.game_tail("p", "pack", "a", game, 1) == (W, R)
    assert store.game_tail("p", "pack", "a", game, 3) == ()
    store.start_game("p", "pack", "a", (LogEntry("X"),), replace=True)
    assert store.game_tail("p", "pack", "a", game, 1) is None
    assert store.game_tail("p", "pack", "b", game, 0) is None


def test_a_version_2_database_gains_summaries_and_drops_its_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SqliteStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        # Back to version 2: no summary columns; finished games kept with their logs.
        db.execute("ALTER TABLE library DROP COLUMN summary")
        db.execute("ALTER TABLE library DROP COLUMN size")
        db.execute("UPDATE schema_version SET version = 2")
        for statement in UNDO_VERSION_4:
            db.execute(statement)
        db.execute("INSERT INTO players VALUES ('p', 'then')")
        for game_id, finished in ((1, "then"), (2, "then"), (3, None)):
            db.execute(
                "INSERT INTO games VALUES (?, 'p', 'pack', 'a', 'then', ?)", (game_id, finished)
            )
            db.execute("INSERT INTO intents VALUES (?, 0, 'R', NULL)", (game_id,))
        db.execute(
            "INSERT INTO library (player, pack, version, name, text, digest, saved_at) "
            "VALUES ('p', 'mine', '1.0.0', 'Mine', 'abc', 'd', 'then')"
        )
        db.commit()
    store = SqliteStore(path)
    try:
        assert store.current_game("p", "pack", "a") is not None
        assert [(entry.size, entry.summary) for entry in store.library_packs("p")] == [(3, "")]
    finally:
        store.close()
    assert count_rows(path, "intents") == 1


# --- the play socket ----------------------------------------------------------------------------


def stored_payloads(db_path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        rows = db.execute("SELECT payload FROM intents WHERE letter = 'S'").fetchall()
    return [payload for (payload,) in rows]


def test_a_restore_stores_only_the_fields_the_engine_reads(
    client: TestClient, db_path: Path
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        earlier = player.moves("R")[-1]["state"]
        saved = player.moves("RD")[-1]["state"]
        padded = {**saved, "padding": "x" * 60_000, "history": [earlier]}
        restored = player.intent("restore", state=padded)
        assert restored["event"]["accepted"] is True
        # history is not read: a restore has nothing to undo, as docs/protocol.md says.
        assert restored["state"]["historyLength"] == 0
    (payload,) = stored_payloads(db_path)
    assert sorted(json.loads(payload)) == sorted(RESTORE_FIELDS)
    assert len(payload) < 2_000
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert opened["state"]["entities"] == saved["entities"]
    assert opened["state"]["historyLength"] == 0


@pytest.mark.parametrize("move_count", [2**63 - 1, 2**64, MAX_MOVE_COUNT + 1])
def test_a_restore_past_the_move_count_bound_is_refused_and_the_level_plays_on(
    client: TestClient, db_path: Path, move_count: int
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        saved = player.moves("R")[-1]["state"]
        reply = player.send(
            {
                "type": "intent",
                "seq": 9,
                "intent": "restore",
                "state": {**saved, "moveCount": move_count},
            }
        )
        assert reply["type"] == "error" and reply["code"] == "bad-message", reply
        assert "moveCount" in reply["message"]
        assert player.step("right")["state"]["moveCount"] == 2
    assert stored_payloads(db_path) == []
    with client.websocket_connect("/ws") as socket:
        assert Player(socket).open("tutorial", "first-steps")["state"]["moveCount"] == 2


def test_a_restore_at_the_move_count_bound_is_taken_and_wins_are_stored(client: TestClient) -> None:
    solution = next(
        level["solution"]
        for level in pack_json("tutorial")["levels"]
        if level["id"] == "first-steps"
    )
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        start = player.open("tutorial", "first-steps")["state"]
        player.intent("restore", state={**start, "moveCount": MAX_MOVE_COUNT})
        replies = player.moves(solution)
        assert replies[-1]["progress"]["won"] is True
        assert replies[-1]["state"]["moveCount"] == MAX_MOVE_COUNT + len(solution)


def plant_game(db_path: Path, player: str, payload: str) -> None:
    """A stored game on tutorial/first-steps whose log is a restore of ``payload`` and a step."""
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        db.execute(
            "INSERT INTO players (token, created_at) VALUES (?, 'then') ON CONFLICT DO NOTHING",
            (player,),
        )
        (game_id,) = db.execute(
            "INSERT INTO games (player, pack, level, started_at) "
            "VALUES (?, 'tutorial', 'first-steps', 'then') RETURNING id",
            (player,),
        ).fetchone()
        db.execute("INSERT INTO intents VALUES (?, 0, 'S', ?)", (game_id, payload))
        db.execute("INSERT INTO intents VALUES (?, 1, 'R', NULL)", (game_id,))
        db.commit()


@pytest.mark.parametrize(
    "damage",
    ["a move count past the bound", "a payload that is not JSON", "a state that does not fit"],
)
def test_a_stored_game_that_cannot_be_replayed_starts_again_with_a_notice(
    client: TestClient, db_path: Path, damage: str
) -> None:
    token = client.cookies["miau_player"]
    start = Game(pack_json_level("first-steps")).state.to_json()
    payload = {
        "a move count past the bound": json.dumps({**start, "moveCount": 2**63 - 1}),
        "a payload that is not JSON": "{not json",
        "a state that does not fit": json.dumps({**start, "entities": [{"id": 999}]}),
    }[damage]
    plant_game(db_path, token, payload)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.open("tutorial", "first-steps")
        assert opened["notice"] == UNREPLAYABLE_NOTICE
        assert opened["resumed"] is False
        assert opened["state"]["moveCount"] == 0
        assert player.step("right")["state"]["moveCount"] == 1
    with client.websocket_connect("/ws") as socket:
        again = Player(socket).open("tutorial", "first-steps")
    assert "notice" not in again
    assert again["resumed"] is True and again["state"]["moveCount"] == 1


def pack_json_level(level_id: str) -> Mapping[str, Any]:
    """The engine-level data of a tutorial level (through the pack loader)."""
    pack = load_pack(pack_json("tutorial"))
    return next(level.data for level in pack.levels if level.id == level_id)


def test_two_pages_taking_turns_apply_each_others_new_moves_without_replaying_the_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    applied = 0
    original = play_log.apply_entry

    def counting(game: Game, intent: LogEntry) -> Event:
        nonlocal applied
        applied += 1
        return original(game, intent)

    monkeypatch.setattr(play_log, "apply_entry", counting)
    turns = 40
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        page_a, page_b = Player(first), Player(second)
        page_a.open("tutorial", "first-steps")
        page_b.open("tutorial", "first-steps")
        applied = 0
        for turn in range(turns):
            page = page_a if turn % 2 == 0 else page_b
            assert page.intent("wait")["state"]["moveCount"] == turn + 1
    # Each turn: the intent, taken back and applied again after the other page's one move.
    # Replaying the stored game on every turn would apply about turns squared / 2 entries.
    assert applied <= 3 * turns
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert opened["state"]["moveCount"] == turns
    assert opened["state"]["historyLength"] == turns


def test_a_visitor_who_stores_nothing_leaves_no_player_row(
    client: TestClient, db_path: Path
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        assert count_rows(db_path, "players") == 0
        player.step("right")
    assert count_rows(db_path, "players") == 1


def test_past_the_servers_game_quota_a_move_is_refused_with_quota_and_not_kept(
    client: TestClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SqlStore, "max_games", 1)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("R")
        player.open("tutorial", "walls")
        reply = player.send({"type": "intent", "seq": 5, "intent": "wait"})
        assert reply["type"] == "error" and reply["code"] == "quota", reply
        assert reply["seq"] == 5
        # The game in progress goes on.
        player.open("tutorial", "first-steps")
        assert player.intent("wait")["state"]["moveCount"] == 2
    assert count_rows(db_path, "intents") == 2


# --- compaction ----------------------------------------------------------------------------------


def test_compacting_replaces_the_log_only_if_no_other_page_moved_the_game_on(
    store: SqlStore, location: str | Path
) -> None:
    game = store.start_game("p", "pack", "a", (R, LogEntry("Z"), R, W))
    assert store.compact_game("p", "pack", "a", game, 3, (R, W)) is None  # it has 4 entries
    assert store.current_game("p", "pack", "a") == StoredGame(game, (R, LogEntry("Z"), R, W))
    store.append_intent(game, 4, R)
    compacted = store.compact_game("p", "pack", "a", game, 5, (R, W, R))
    assert compacted is not None and compacted != game
    assert store.current_game("p", "pack", "a") == StoredGame(compacted, (R, W, R))
    assert rows_in(location, "intents") == 3
    with pytest.raises(StaleGameError):
        store.append_intent(game, 5, R)  # a page on the old game is told, and reloads


def test_a_long_log_of_undone_moves_is_compacted_and_resumes_exactly_with_its_undo_history(
    client: TestClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "COMPACT_AT", 32)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RRD")
        for _ in range(30):  # a player trying things out: a move, then undo
            player.step("up")
            player.intent("undo")
        before = player.moves("R")[-1]["state"]
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        letters = "".join(
            letter for (letter,) in db.execute("SELECT letter FROM intents ORDER BY seq")
        )
    # 64 intents were stored; compacting to the undoable moves whenever the log reached 32
    # leaves those moves and what came after the last compaction.
    assert letters.startswith("RRD") and len(letters) < 32
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.open("tutorial", "first-steps")
        assert opened["state"] == before
        # Undo goes back through the same boards a replay of the whole log gives.
        reference = Game(pack_json_level("first-steps"))
        reference.play("RRD")
        for _ in range(30):
            reference.step("up")
            reference.undo()
        reference.play("R")
        for _ in range(4):
            reference.undo()
            assert player.intent("undo")["state"] == json.loads(
                json.dumps(reference.state.to_json())
            )


def as_sent(game: Game) -> dict[str, Any]:
    """The game's state as the wire carries it."""
    sent: dict[str, Any] = json.loads(json.dumps(game.state.to_json()))
    return sent


INTENTS = st.sampled_from(["up", "down", "left", "right", "wait", "undo", "undo", "reset"])


def _play_then_undo(
    intents: list[str], compact_at: int, undo_kept: int, *, resume: bool
) -> tuple[Game | None, dict[str, Any] | None, list[dict[str, Any]]]:
    """Play ``intents`` in a session on a fresh store, then undo four times.

    With ``resume``, the undos come from a second session that opened the
    stored game (its ``opened`` reply is returned); without, from the same
    session that played. Returns the played game before the undos, the
    opened reply, and the state of each undo's reply.
    """
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "COMPACT_AT", compact_at)
        patch.setattr(play_log, "UNDO_KEPT", undo_kept)
        store = SqliteStore(Path(folder) / "miau.db")
        worlds = Worlds.load(None)
        runner = StoreRunner(store)
        opening = json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"})
        undo = json.dumps({"type": "intent", "seq": 0, "intent": "undo"})

        async def play() -> tuple[Game | None, dict[str, Any] | None, list[dict[str, Any]]]:
            session = PlaySession("p", worlds, runner, UNTHROTTLED)
            await session.handle(opening)
            for seq, intent in enumerate(intents):
                message: dict[str, Any] = {"type": "intent", "seq": seq}
                if intent in ("undo", "reset", "wait"):
                    message["intent"] = intent
                else:
                    message.update(intent="step", direction=intent)
                reply = await session.handle(json.dumps(message))
                assert reply["type"] == "result", reply
            live = None if session.current is None else session.current.game
            opened = None
            if resume:
                session = PlaySession("p", worlds, runner, UNTHROTTLED)
                opened = await session.handle(opening)
            undos = [(await session.handle(undo))["state"] for _ in range(4)]
            return live, opened, undos

        try:
            live, opened, undos = run_alone(play())
        finally:
            store.close()
    return live, opened, undos


@settings(max_examples=30, deadline=None)
@given(
    intents=st.lists(INTENTS, min_size=1, max_size=80),
    compact_at=st.integers(2, 24),
    undo_kept=st.integers(3, 100),
)
# The resumed game's first undo brings its log to compact_at: that compaction keeps
# undo_kept turns, as it would have in the session that played.
@example(intents=["up", "down", "up", "down", "up"], compact_at=6, undo_kept=3)
def test_a_resumed_game_is_the_live_game_whatever_the_compaction_and_its_cap(
    intents: list[str], compact_at: int, undo_kept: int
) -> None:
    # Undoing after a resume must give what undoing in the session that played gives,
    # compactions (and the cap they apply) included: resuming changes nothing.
    live, opened, resumed_undos = _play_then_undo(intents, compact_at, undo_kept, resume=True)
    assert live is not None
    if live.won:
        return  # a won game is finished: the level opens fresh
    assert opened is not None and opened["state"] == as_sent(live)
    _, _, continued_undos = _play_then_undo(intents, compact_at, undo_kept, resume=False)
    assert resumed_undos == continued_undos
    if undo_kept >= len(intents):  # nothing was capped: the live game is the plain replay
        level = pack_json_level("first-steps")
        reference = Game(level)
        for intent in intents:
            if intent == "undo":
                reference.undo()
            elif intent == "reset":
                reference.reset()
            else:
                reference.step(intent)
        for state in resumed_undos:
            reference.undo()
            assert state == as_sent(reference)


def test_a_game_past_the_undo_cap_resumes_exactly_with_the_kept_turns_of_undo(
    client: TestClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "COMPACT_AT", 40)
    monkeypatch.setattr(play_log, "UNDO_KEPT", 10)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        states = [reply["state"] for reply in player.moves("D" + "RL" * 30)]
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        (entries,) = db.execute("SELECT COUNT(*) FROM intents").fetchone()
    assert entries < 40
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.open("tutorial", "first-steps")
        assert opened["state"] == states[-1]
        assert opened["state"]["moveCount"] == 61
        undone: list[dict[str, Any]] = []
        while len(undone) < len(states):
            reply = player.intent("undo")
            if not reply["event"]["accepted"]:
                break
            undone.append(reply["state"])
    # Undo walks back through the very boards the first session saw, at least the kept
    # turns (the undos themselves are stored, so the log is compacted again meanwhile).
    assert len(undone) >= 10
    for back, state in enumerate(undone, start=2):
        assert state["entities"] == states[-back]["entities"]
        assert state["moveCount"] == states[-back]["moveCount"]
