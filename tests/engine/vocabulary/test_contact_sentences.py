"""The contact sentences players read (``vocabulary.CONTACTS``) are true of the engine, and complete.

Each sentence of every contact is played out on a small board: what it says is destroyed is
destroyed, what it says stays stays, and a thing holding both sides of a pair does what its
``itself`` sentence says. Then every property, met by every other (and held together with
every other by one thing alone), is played: whenever a meeting destroys anything, a contact
sentence names the words that did it, so no contact rule is left for players to guess.
"""

from __future__ import annotations

from itertools import product

import pytest

from miau.engine import Game
from miau.engine.vocabulary import (
    CONTACT_FLOAT,
    CONTACT_MEETING,
    CONTACTS,
    CORE_PROPERTIES,
    DEFEAT,
    HOT,
    MELT,
    OPEN,
    SHUT,
    SINK,
    TIER1_PROPERTIES,
    WEAK,
    pair_contact,
)
from tests.engine.vocabulary.grid import board_level, draw

CONTACT_OF = {contact.words: contact for contact in CONTACTS}


def drawn(game: Game) -> list[str]:
    """The board drawn as rows, without facing marks or the empty cells that end a row."""
    rows = []
    for row in draw(game):
        cells = row.replace(">", "").split()
        while cells and cells[-1] == ".":
            cells.pop()
        rows.append(" ".join(cells))
    return rows


def after_a_wait(rows: list[str], *, feature: bool = True) -> list[str]:
    """The board ``rows`` after one waited turn, drawn as :func:`drawn` does."""
    game = Game(board_level(rows, feature=feature))
    game.step("wait")
    return drawn(game)


def after_a_move_right(rows: list[str], **extra: object) -> list[str]:
    """The board ``rows`` (with ``extra`` level fields) after one step right, drawn as :func:`drawn` does."""
    data = board_level(rows, feature=not extra)
    data.update(extra)
    game = Game(data)
    game.step("right")
    return drawn(game)


def test_the_contacts_cover_the_pairs_and_properties_the_game_promises() -> None:
    assert set(CONTACT_OF) == {(OPEN, SHUT), (SINK,), (WEAK,), (HOT, MELT), (DEFEAT,)}
    for contact in CONTACTS:
        for sentence in (contact.meeting, contact.entering, contact.itself):
            assert sentence is None or sentence.endswith("."), contact
        assert (contact.both is None) == (contact.itself is None), contact


def test_open_and_shut_things_that_meet_destroy_each_other_one_for_one() -> None:
    assert CONTACT_OF[OPEN, SHUT].meeting.endswith("destroy each other, one for one.")
    rules = ["ROCK IS OPEN", "WALL IS SHUT"]
    assert after_a_wait([*rules, "rock+wall"])[2] == ""
    # One OPEN thing opens one SHUT thing: the second wall stays.
    assert after_a_wait([*rules, "rock+wall+wall"])[2] == "wall"


def test_open_and_shut_things_may_move_into_each_others_stop_cell() -> None:
    assert "even when it is STOP" in (CONTACT_OF[OPEN, SHUT].entering or "")
    opener = ["ROCK IS OPEN", "ROCK IS YOU", "WALL IS SHUT", "WALL IS STOP"]
    assert after_a_move_right([*opener, "rock wall ."])[4] == ""
    shutter = ["ROCK IS SHUT", "ROCK IS YOU", "WALL IS OPEN", "WALL IS STOP"]
    assert after_a_move_right([*shutter, "rock wall ."])[4] == ""


def test_a_thing_both_open_and_shut_destroys_itself() -> None:
    assert CONTACT_OF[OPEN, SHUT].itself == "A thing that is both OPEN and SHUT destroys itself."
    assert after_a_wait(["ROCK IS OPEN", "ROCK IS SHUT", "rock . wall"])[2] == ". . wall"


def test_a_sink_thing_that_meets_anything_sinks_with_everything_there() -> None:
    rules = ["ROCK IS SINK"]
    assert after_a_wait([*rules, "rock+wall+wall rock"])[1] == ". rock"


def test_a_weak_thing_that_meets_anything_breaks_and_only_weak_things_break() -> None:
    rules = ["ROCK IS WEAK"]
    assert after_a_wait([*rules, "rock+wall rock+rock rock"])[1] == "wall . rock"


def test_a_melt_thing_that_meets_a_hot_thing_melts_and_the_hot_thing_stays() -> None:
    rules = ["ROCK IS HOT", "WALL IS MELT"]
    assert after_a_wait([*rules, "rock+wall wall"])[2] == "rock wall"


def test_a_thing_both_hot_and_melt_melts_itself() -> None:
    assert CONTACT_OF[HOT, MELT].itself == "A thing that is both HOT and MELT melts itself."
    assert after_a_wait(["ROCK IS HOT", "ROCK IS MELT", "rock . wall"])[2] == ". . wall"


def test_a_you_thing_that_meets_a_defeat_thing_is_destroyed_and_the_defeat_thing_stays() -> None:
    rules = ["ROCK IS YOU", "WALL IS DEFEAT"]
    for feature in (True, False):
        assert after_a_wait([*rules, "rock+wall rock"], feature=feature)[2] == "wall rock"


def test_a_thing_both_you_and_defeat_destroys_itself() -> None:
    assert CONTACT_OF[(DEFEAT,)].itself == "A thing that is both YOU and DEFEAT destroys itself."
    for feature in (True, False):
        board = ["ROCK IS YOU", "ROCK IS DEFEAT", "rock . wall"]
        assert after_a_wait(board, feature=feature)[2] == ". . wall"


def test_things_meet_only_on_their_float_layer() -> None:
    assert CONTACT_MEETING.startswith("Things meet when they share a cell")
    assert CONTACT_FLOAT == "FLOAT things meet only things that float too."
    assert after_a_wait(["ROCK IS SINK", "WALL IS FLOAT", "rock+wall"])[2] == "rock+wall"
    assert after_a_wait(["ROCK IS SINK", "ROCK IS FLOAT", "WALL IS FLOAT", "rock+wall"])[3] == ""


PAIR = {"words": ["LOCK", "BOLT"], "effect": "destroy-both"}


def test_a_clockwork_pairs_things_destroy_each_other_one_for_one() -> None:
    contact = pair_contact("LOCK", "BOLT", enter=False)
    assert contact.meeting == "LOCK and BOLT things that meet destroy each other, one for one."
    rules = ["ROCK IS LOCK", "WALL IS BOLT", "KEY IS YOU"]
    data = board_level([*rules, "rock+wall+wall key"], feature=False)
    game = Game({**data, "pairs": [PAIR]})
    game.step("wait")
    assert drawn(game)[3] == "wall key"


def test_a_thing_both_sides_of_a_clockwork_pair_goes_only_with_another() -> None:
    contact = pair_contact("LOCK", "BOLT", enter=False)
    assert contact.itself is not None and contact.itself.startswith(
        "A thing that is both LOCK and BOLT is not destroyed alone"
    )
    rules = ["ROCK IS LOCK", "ROCK IS BOLT", "WALL IS BOLT", "KEY IS YOU"]
    data = board_level([*rules, "rock rock+wall key"], feature=False)
    game = Game({**data, "pairs": [PAIR]})
    game.step("wait")
    assert drawn(game)[4] == "rock . key"


def test_a_clockwork_pair_that_says_enter_lets_its_things_into_a_stop_cell() -> None:
    assert pair_contact("LOCK", "BOLT", enter=True).entering == CONTACT_OF[OPEN, SHUT].entering
    assert pair_contact("LOCK", "BOLT", enter=False).entering is None
    board = ["ROCK IS LOCK", "ROCK IS YOU", "WALL IS BOLT", "WALL IS STOP", "rock wall ."]
    entering = after_a_move_right(board, pairs=[{**PAIR, "enter": True}])
    assert entering[4] == ""
    blocked = after_a_move_right(board, pairs=[PAIR])
    assert blocked[4] == "rock wall"


PROPERTIES = (*CORE_PROPERTIES, *TIER1_PROPERTIES)


def _destroyed(rows: list[str]) -> list[dict[str, object]]:
    game = Game(board_level(rows))
    destroyed: list[dict[str, object]] = game.step("wait").to_json()["destroyed"]
    return destroyed


@pytest.mark.parametrize("first", PROPERTIES)
def test_every_meeting_that_destroys_is_stated_by_a_contact(first: str) -> None:
    stated = {word for contact in CONTACTS for word in contact.words}
    for second in (*PROPERTIES, None):
        rules = [f"ROCK IS {first}"] + ([f"WALL IS {second}"] if second else [])
        if _destroyed([*rules, "rock+wall"]):
            assert first in stated or second in stated, (first, second)


@pytest.mark.parametrize(
    ("first", "second"), [(a, b) for a, b in product(PROPERTIES, PROPERTIES) if a < b]
)
def test_a_thing_that_destroys_itself_alone_is_stated_by_a_contacts_itself(
    first: str, second: str
) -> None:
    alone = _destroyed([f"ROCK IS {first}", f"ROCK IS {second}", "rock"])
    stated = {frozenset(c.both) for c in CONTACTS if c.both is not None and c.itself is not None}
    assert bool(alone) == (frozenset((first, second)) in stated), (first, second)
