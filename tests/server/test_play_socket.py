"""Playing over the WebSocket: open, intents, persistence, resume, wins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from miau.server.app import create_app
from tests.server.conftest import Player, TestClient, count_rows, pack_json


def positions(state: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(entity["id"], entity["x"], entity["y"]) for entity in state["entities"]]


def test_open_starts_a_fresh_game_whose_state_carries_a_history_count_not_snapshots(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert (opened["pack"], opened["level"], opened["resumed"]) == (
        "tutorial",
        "first-steps",
        False,
    )
    state = opened["state"]
    assert "history" not in state
    assert state["historyLength"] == 0
    assert state["moveCount"] == 0
    assert {"width", "height", "entities", "rules", "sentences", "won", "controlLost"} <= set(state)


def test_step_wait_undo_and_reset_answer_with_event_and_settled_state(
    client: TestClient, db_path: Path
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        start = player.open("tutorial", "first-steps")["state"]
        step = player.step("right")
        assert step["event"]["kind"] == "step"
        assert step["event"]["accepted"] is True
        assert step["event"]["moved"][0]["to"] == [2, 2]
        assert step["state"]["moveCount"] == 1
        assert step["state"]["historyLength"] == 1
        assert step["event"]["historyLength"] == 1
        assert step["progress"] is None
        wait = player.intent("wait")
        assert wait["event"]["accepted"] is True
        assert wait["state"]["moveCount"] == 2
        undo = player.intent("undo")
        assert undo["event"]["kind"] == "undo"
        assert undo["state"]["moveCount"] == 1
        assert undo["state"]["historyLength"] == 1
        player.moves("DR")
        reset = player.intent("reset")
        assert reset["event"]["kind"] == "reset"
        assert positions(reset["state"]) == positions(start)
        assert reset["state"]["historyLength"] == 0
    # A reset starts a new stored game: its log holds only the reset, and the finished
    # game's log is deleted (its row goes at the next prune, once it is not the newest).
    assert count_rows(db_path, "games") == 2
    assert count_rows(db_path, "intents") == 1


def test_a_step_given_as_wait_is_a_wait(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("clockwork", "mouse-keeps-time")
        reply = player.step("wait")
    assert reply["event"]["accepted"] is True
    assert reply["state"]["moveCount"] == 1


def test_rejected_actions_are_answered_normally_and_not_stored(
    client: TestClient, db_path: Path
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        no_history = player.intent("undo")
        assert no_history["event"]["accepted"] is False
        assert count_rows(db_path, "intents") == 0
        player.step("up")
        blocked = player.step("up")
        assert blocked["event"]["accepted"] is False
        assert blocked["event"]["blocked"]
        assert blocked["state"]["moveCount"] == 1
        diagonal = player.step("up-left")
        assert diagonal["event"]["accepted"] is False
    assert count_rows(db_path, "intents") == 1


def test_winning_first_steps_with_its_solution_records_progress_and_best_moves(
    client: TestClient,
) -> None:
    solution = next(
        level["solution"]
        for level in pack_json("tutorial")["levels"]
        if level["id"] == "first-steps"
    )
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        replies = player.moves(solution)
    assert all(reply["progress"] is None for reply in replies[:-1])
    last = replies[-1]
    assert last["state"]["won"] is True
    assert last["event"]["won"] is True
    assert last["progress"] == {"won": True, "bestMoves": len(solution)}
    progress = client.get("/api/progress").json()["levels"]
    assert progress == [
        {
            "pack": "tutorial",
            "level": "first-steps",
            "won": True,
            "bestMoves": len(solution),
            "bestSolution": solution,
        }
    ]
    world = client.get("/api/worlds/tutorial").json()
    first = world["levels"][0]
    assert (first["won"], first["bestMoves"]) == (True, len(solution))
    assert world["levels"][2]["locked"] is False  # the third opens with the first won
    assert client.get("/api/worlds").json()["worlds"][0]["won"] == 1


def test_a_longer_win_keeps_the_best_moves_and_a_shorter_one_replaces_them(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        assert player.moves("RRRRRR")[-1]["progress"] == {"won": True, "bestMoves": 6}
        player.open("tutorial", "first-steps")
        longer = player.moves("URRRRRRD")[-1]
        assert longer["progress"] == {"won": True, "bestMoves": 6}
    (entry,) = client.get("/api/progress").json()["levels"]
    assert (entry["bestMoves"], entry["bestSolution"]) == (6, "RRRRRR")


def test_the_winning_moves_skip_what_was_undone(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RD")
        player.intent("undo")
        player.intent("undo")
        player.moves("RRR")
        player.intent("reset")
        assert player.moves("RRRRRR")[-1]["progress"] == {"won": True, "bestMoves": 6}
    (entry,) = client.get("/api/progress").json()["levels"]
    assert entry["bestSolution"] == "RRRRRR"


def test_after_a_win_the_next_open_starts_a_fresh_game(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RRRRRR")
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert opened["resumed"] is False
    assert opened["state"]["moveCount"] == 0
    assert opened["state"]["won"] is False


def test_undo_right_after_a_win_goes_on_playing_and_is_kept(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RRRRRR")
        after_win = player.step("up")
        assert after_win["event"]["accepted"] is False
        undone = player.intent("undo")
        assert undone["event"]["accepted"] is True
        assert undone["state"]["won"] is False
        assert undone["state"]["moveCount"] == 5
    with client.websocket_connect("/ws") as socket:
        resumed = Player(socket).open("tutorial", "first-steps")
    assert resumed["resumed"] is True
    assert resumed["state"]["moveCount"] == 5
    assert resumed["state"]["historyLength"] == 5


def test_a_new_connection_resumes_the_same_board_and_undo_works(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "be-the-rock")
        replies = player.moves("ULU")
        player.intent("undo")
        before_reload = player.moves("U")[-1]["state"]
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.open("tutorial", "be-the-rock")
        assert opened["resumed"] is True
        assert opened["state"] == before_reload
        undone = player.intent("undo")
        assert undone["event"]["accepted"] is True
        assert positions(undone["state"]) == positions(replies[1]["state"])


def test_a_server_restart_on_the_same_database_keeps_the_game_and_progress(
    db_path: Path,
) -> None:
    with TestClient(create_app(db_path=db_path)) as first:
        first.get("/")
        with first.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.moves("RRRRRR")
            player.open("tutorial", "walls")
            before = player.moves("RRD")[-1]["state"]
        cookies = dict(first.cookies)
    with TestClient(create_app(db_path=db_path), cookies=cookies) as second:
        with second.websocket_connect("/ws") as socket:
            player = Player(socket)
            opened = player.open("tutorial", "walls")
            assert opened["resumed"] is True
            assert opened["state"] == before
            undone = player.intent("undo")
            assert undone["state"]["moveCount"] == 2
            assert undone["state"]["historyLength"] == 2
        progress = second.get("/api/progress").json()["levels"]
    assert [(entry["level"], entry["bestMoves"]) for entry in progress] == [("first-steps", 6)]


def test_opening_another_level_keeps_the_first_one_to_resume(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RD")
        player.open("tutorial", "walls")
        player.moves("R")
        back = player.open("tutorial", "first-steps")
    assert back["resumed"] is True
    assert back["state"]["moveCount"] == 2


def test_two_pages_of_one_player_on_one_level_stay_consistent(client: TestClient) -> None:
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        page_a, page_b = Player(first), Player(second)
        page_a.open("tutorial", "first-steps")
        page_b.open("tutorial", "first-steps")
        page_a.moves("R")
        # Page B has not seen page A's move; its move lands after it.
        reply = page_b.step("right")
        assert reply["state"]["moveCount"] == 2
        assert page_a.step("right")["state"]["moveCount"] == 3
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert opened["state"]["moveCount"] == 3
    assert opened["state"]["historyLength"] == 3


def test_restore_continues_from_a_state_and_survives_a_reload(
    client: TestClient, db_path: Path
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        saved = player.moves("RRD")[-1]["state"]
        player.intent("reset")
        restored = player.intent("restore", state=saved)
        assert restored["event"]["kind"] == "restore"
        assert restored["event"]["accepted"] is True
        assert positions(restored["state"]) == positions(saved)
        bad = player.intent("restore", state={"entities": "no"})
        assert bad["event"]["accepted"] is False
    with client.websocket_connect("/ws") as socket:
        opened = Player(socket).open("tutorial", "first-steps")
    assert positions(opened["state"]) == positions(saved)
    assert opened["state"]["moveCount"] == 3


def test_an_open_may_carry_a_seq_that_the_reply_echoes(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        reply = Player(socket).send(
            {"type": "open", "pack": "tutorial", "level": "first-steps", "seq": 7}
        )
    assert (reply["type"], reply["seq"]) == ("opened", 7)


def test_a_win_stored_but_not_recorded_is_recorded_on_the_next_open(
    app: Starlette, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stopped(*args: object) -> None:
        raise OSError("the server stopped here")

    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.moves("RRRRR")
        monkeypatch.setattr(app.state.store, "record_win", stopped)
        failed = player.send({"type": "intent", "seq": 50, "intent": "step", "direction": "right"})
        assert failed["code"] == "server-error"
        monkeypatch.undo()
        assert client.get("/api/progress").json() == {"levels": []}
        reopened = player.open("tutorial", "first-steps")
    assert reopened["resumed"] is False
    assert reopened["state"]["moveCount"] == 0
    (entry,) = client.get("/api/progress").json()["levels"]
    assert (entry["level"], entry["bestMoves"], entry["bestSolution"]) == (
        "first-steps",
        6,
        "RRRRRR",
    )


def test_a_board_restored_as_won_is_no_win(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        won = player.moves("RRRRRR")[-1]["state"]
        player.open("tutorial", "first-steps")
        restored = player.intent("restore", state=won)
        assert restored["progress"] is None
        player.open("tutorial", "first-steps")
    (entry,) = client.get("/api/progress").json()["levels"]
    assert entry["bestSolution"] == "RRRRRR"
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.intent("restore", state={**won, "moveCount": 1})
        player.open("tutorial", "first-steps")
    (entry,) = client.get("/api/progress").json()["levels"]
    assert entry["bestMoves"] == 6
