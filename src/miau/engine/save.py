"""The compact save: a level and the move string of its history.

The engine is deterministic, so a game is fully described by its level and
the moves that can be undone (``Game.moves``): replaying them on a fresh game
gives the same board, counters and undo history. A save therefore weighs a
few hundred bytes whatever the length of play, where a state with full
history snapshots grows with turns times entities.

A history that came from ``restore`` has no move letters; its save carries
the state itself, history included, instead of the moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from miau.engine.game import Game, MoveStringError, parse_moves
from miau.engine.level import Level, LevelError
from miau.engine.vocabulary import FACINGS, MOVE_ALPHABET

SAVE_FORMAT: Final = "miau-save"
SAVE_VERSION: Final = 1

_STEP_LETTER: Final = {d.vector: d.letter for d in MOVE_ALPHABET if d.vector is not None}


class SaveError(ValueError):
    """A save that cannot be read back; the message says which part is wrong."""


def level_to_dict(level: Level) -> dict[str, Any]:
    """The engine-level dict of ``level``: ``Level.from_dict`` reads it back to an equal level."""
    objects: list[dict[str, Any]] = []
    for ident, text in enumerate(level.texts[: level.object_count]):
        x, y = level.xy(level.start_positions[ident])
        entity: dict[str, Any] = (
            {"kind": "word", "text": text}
            if level.is_word[ident]
            else {"kind": "object", "noun": text}
        )
        entity.update(x=x, y=y)
        if level.start_facings[ident]:
            entity["facing"] = FACINGS[level.start_facings[ident]]
        objects.append(entity)
    out: dict[str, Any] = {"width": level.width, "height": level.height, "objects": objects}
    if level.features:
        # Without it a vocabulary-1 level would load back as a core level and play otherwise.
        out["features"] = list(level.features)
    if level.automata:
        out["automata"] = [
            {
                "id": record.id,
                "subject": record.subject,
                "property": record.property,
                "phase": record.phase,
                "pattern": [_STEP_LETTER.get(step, "W") for step in record.pattern],
            }
            for record in level.automata
        ]
    if level.pairs:
        out["pairs"] = [
            {"words": list(pair.words), "effect": pair.effect, "enter": pair.enter}
            for pair in level.pairs
        ]
    return out


def save_game(game: Game) -> dict[str, Any]:
    """The compact save of ``game``: ``{format, version, level, moves}`` (or ``state``)."""
    out: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "level": level_to_dict(game.level),
    }
    moves = game.moves
    if moves is None:
        out["state"] = game.state.to_json(history=True)
    else:
        out["moves"] = moves
    return out


def load_game(data: Mapping[str, Any]) -> Game:
    """The game a save describes, with its undo history.

    :raises SaveError: when the save is not one, its level cannot run, its
        moves are not a move string, or its state does not fit the level.
    """
    if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a Miau save (format must be {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"this Miau reads save version {SAVE_VERSION}, not {data.get('version')!r}")
    try:
        game = Game(data.get("level", {}))
    except LevelError as error:
        raise SaveError(f"level: {error}") from error
    if "state" in data:
        state = data["state"]
        event = game.restore(state if isinstance(state, Mapping) else {})
        if not event.accepted:
            raise SaveError(f"state: {event.reason}")
        return game
    moves = data.get("moves")
    if not isinstance(moves, str):
        raise SaveError("moves must be a move string such as 'RRUL'")
    try:
        intents = parse_moves(moves)
    except MoveStringError as bad_moves:
        # A name of its own: mypyc types an ``except`` name by its first binding in the function.
        raise SaveError(str(bad_moves)) from bad_moves
    for number, intent in enumerate(intents, start=1):
        if not game.step(intent).accepted:
            raise SaveError(f"move {number} ({intent}) is not accepted in this level")
    return game
