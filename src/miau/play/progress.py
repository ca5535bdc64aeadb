"""The progress file: a player's unfinished games, best scores and library packs, as JSON.

The static site's Progress buttons write and read it (``GET
/api/progress/export``, ``POST /api/progress/import``), and ``miau progress``
moves it into and out of ``miau play``'s database: the same games (as
their log entries' text, :attr:`miau.play.log.LogEntry.text`), the same
scores.
"""

from __future__ import annotations

from typing import Any, Final

from miau.engine.vocabulary import MOVE_LETTER_STRING
from miau.play.log import LOG_ENTRY_TEXT

__all__ = ["PROGRESS_FORMAT", "ProgressFileError", "export_progress", "read_progress_file"]

PROGRESS_FORMAT: Final = "miau-progress"
"""The ``format`` field of a progress file (version 1)."""


class ProgressFileError(ValueError):
    """A progress file that is not one, with a sentence saying why."""


def export_progress(
    games: dict[tuple[str, str], list[str]],
    progress: dict[tuple[str, str], dict[str, Any]],
    library: dict[str, str],
) -> dict[str, Any]:
    """The progress file: unfinished games' intent logs, best scores and library packs."""
    return {
        "format": PROGRESS_FORMAT,
        "version": 1,
        "games": [
            {"pack": pack, "level": level, "intents": list(log)}
            for (pack, level), log in sorted(games.items())
        ],
        "progress": [
            {
                "pack": pack,
                "level": level,
                "bestMoves": int(entry["bestMoves"]),
                "bestSolution": entry.get("bestSolution"),
            }
            for (pack, level), entry in sorted(progress.items())
        ],
        "library": [{"id": pack_id, "text": text} for pack_id, text in sorted(library.items())],
    }


def read_progress_file(
    document: object,
) -> tuple[
    dict[tuple[str, str], list[str]],
    dict[tuple[str, str], dict[str, Any]],
    dict[str, str],
]:
    """The games, best scores and library packs of a progress file.

    :raises ProgressFileError: for anything that is not a version 1 progress
        file, naming the first wrong place.
    """
    if not isinstance(document, dict) or document.get("format") != PROGRESS_FORMAT:
        raise ProgressFileError(
            f'This is not a Miau progress file (no "format": "{PROGRESS_FORMAT}").'
        )
    if document.get("version") != 1:
        raise ProgressFileError(
            f"This progress file is version {document.get('version')!r}; this Miau reads version 1."
        )
    games: dict[tuple[str, str], list[str]] = {}
    for index, game in enumerate(_list(document, "games")):
        key = _place(game, f"games[{index}]")
        intents = game.get("intents")
        if not isinstance(intents, list) or not all(
            isinstance(entry, str) and LOG_ENTRY_TEXT.fullmatch(entry) for entry in intents
        ):
            raise ProgressFileError(f"games[{index}].intents must be a list of log entries.")
        games[key] = list(intents)
    progress: dict[tuple[str, str], dict[str, Any]] = {}
    for index, entry in enumerate(_list(document, "progress")):
        key = _place(entry, f"progress[{index}]")
        moves, solution = entry.get("bestMoves"), entry.get("bestSolution")
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise ProgressFileError(f"progress[{index}].bestMoves must be a whole number.")
        if solution is not None and not (
            isinstance(solution, str) and all(letter in MOVE_LETTER_STRING for letter in solution)
        ):
            raise ProgressFileError(f"progress[{index}].bestSolution must be a move string.")
        progress[key] = {"bestMoves": moves, "bestSolution": solution, "wins": 1}
    library: dict[str, str] = {}
    for index, pack in enumerate(_list(document, "library")):
        if not (
            isinstance(pack, dict)
            and isinstance(pack.get("id"), str)
            and isinstance(pack.get("text"), str)
        ):
            raise ProgressFileError(f"library[{index}] must be {{id, text}}.")
        library[pack["id"]] = pack["text"]
    return games, progress, library


def _list(document: dict[str, Any], name: str) -> list[Any]:
    value = document.get(name, [])
    if not isinstance(value, list):
        raise ProgressFileError(f"{name} must be a list.")
    return value


def _place(entry: object, where: str) -> tuple[str, str]:
    if not (
        isinstance(entry, dict)
        and isinstance(entry.get("pack"), str)
        and isinstance(entry.get("level"), str)
    ):
        raise ProgressFileError(f"{where} needs a string pack and level.")
    return entry["pack"], entry["level"]
