"""Pictures of a state in numpy: one square tile per cell, for ``render_mode="rgb_array"``.

A thing is a rounded square in its noun's colour with the noun's first
letter in dark ink; a word tile is a dark square with the word's first two
letters in the colour of what it names (a property's own colour, a noun's
colour, light grey for operators). Words are drawn over things that share
their cell. Colours come from a fixed table for the nouns and properties
Miau ships and, for any other noun, from a hash of its name, so a noun has
the same colour in every level, run and process.

The letters come from a 3x5 pixel font scaled to the tile; a tile of 8
pixels or more shows them, a smaller one shows only the colours.
"""

from __future__ import annotations

import zlib
from typing import Final

import numpy as np
from numpy.typing import NDArray

from miau.engine import State

RgbFrame = NDArray[np.uint8]
"""A picture: ``(height * tile, width * tile, 3)`` of 0 to 255."""

DEFAULT_TILE: Final = 16
"""Pixels per cell side unless ``tile`` says otherwise."""

BACKGROUND: Final = (24, 24, 32)
PADDING: Final = (0, 0, 0)
WORD_BACKGROUND: Final = (48, 44, 56)
INK: Final = (16, 16, 20)

COLOURS: Final[dict[str, tuple[int, int, int]]] = {
    # Properties: the colours the browser client gives their word tiles, roughly.
    "YOU": (236, 72, 153),
    "WIN": (250, 204, 21),
    "STOP": (74, 222, 128),
    "PUSH": (180, 130, 70),
    "SINK": (56, 189, 248),
    "DEFEAT": (239, 68, 68),
    "MOVE": (163, 230, 53),
    "PULL": (251, 146, 60),
    "SHIFT": (45, 212, 191),
    "FLOAT": (186, 230, 253),
    "HOT": (249, 115, 22),
    "MELT": (125, 211, 252),
    "OPEN": (253, 224, 71),
    "SHUT": (185, 28, 28),
    "WEAK": (203, 213, 225),
    # Nouns Miau's worlds and Keke's levels use.
    "MIAU": (255, 255, 255),
    "BABA": (255, 255, 255),
    "KEKE": (248, 113, 113),
    "FLAG": (250, 204, 21),
    "WALL": (100, 116, 139),
    "ROCK": (161, 98, 7),
    "WATER": (59, 130, 246),
    "SKULL": (220, 38, 38),
    "LAVA": (234, 88, 12),
    "GRASS": (34, 197, 94),
    "KEY": (234, 179, 8),
    "DOOR": (190, 18, 60),
    "BOX": (146, 64, 14),
    "LOVE": (244, 114, 182),
    "ICE": (165, 243, 252),
    "FIRE": (249, 115, 22),
    "MOUSE": (209, 213, 219),
    "COG": (148, 163, 184),
    "BELL": (253, 230, 138),
    "BELT": (120, 113, 108),
    "GOOP": (132, 204, 22),
    "FLOOR": (68, 64, 60),
    "BALL": (96, 165, 250),
    "GEM": (167, 139, 250),
}
OPERATOR_COLOUR: Final = (226, 232, 240)
OPERATORS: Final = frozenset({"IS", "AND", "NOT", "HAS", "ON", "NEAR", "FACING", "LONELY"})

_FONT_ROWS: Final[dict[str, str]] = {
    # Each glyph: five rows of three pixels, "#" lit.
    "A": ".#. #.# ### #.# #.#",
    "B": "##. #.# ##. #.# ##.",
    "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.",
    "E": "### #.. ##. #.. ###",
    "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##",
    "H": "#.# #.# ### #.# #.#",
    "I": "### .#. .#. .#. ###",
    "J": "..# ..# ..# #.# .#.",
    "K": "#.# #.# ##. #.# #.#",
    "L": "#.. #.. #.. #.. ###",
    "M": "#.# ### ### #.# #.#",
    "N": "#.# ### ### ### #.#",
    "O": ".#. #.# #.# #.# .#.",
    "P": "##. #.# ##. #.. #..",
    "Q": ".#. #.# #.# ##. .##",
    "R": "##. #.# ##. #.# #.#",
    "S": ".## #.. .#. ..# ##.",
    "T": "### .#. .#. .#. .#.",
    "U": "#.# #.# #.# #.# ###",
    "V": "#.# #.# #.# #.# .#.",
    "W": "#.# #.# ### ### #.#",
    "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.",
    "Z": "### ..# .#. #.. ###",
    "0": "### #.# #.# #.# ###",
    "1": ".#. ##. .#. .#. ###",
    "2": "##. ..# .#. #.. ###",
    "3": "##. ..# .#. ..# ##.",
    "4": "#.# #.# ### ..# ..#",
    "5": "### #.. ##. ..# ##.",
    "6": ".## #.. ### #.# ###",
    "7": "### ..# .#. .#. .#.",
    "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ##.",
    "-": "... ... ### ... ...",
    "_": "... ... ... ... ###",
}
FONT: Final[dict[str, NDArray[np.bool_]]] = {
    char: np.array([[pixel == "#" for pixel in row] for row in rows.split()], dtype=np.bool_)
    for char, rows in _FONT_ROWS.items()
}
"""Each letter's 5x3 pixel mask."""


def colour_of(name: str) -> tuple[int, int, int]:
    """The colour of a noun or property: the table's, else one derived from the name's hash."""
    known = COLOURS.get(name)
    if known is not None:
        return known
    digest = zlib.crc32(name.encode("utf-8"))
    # Keep every channel in 80..239, so a hashed colour is never lost on the dark background.
    return (80 + digest % 160, 80 + (digest >> 8) % 160, 80 + (digest >> 16) % 160)


def _letters(text: str, count: int) -> str:
    return "".join(char for char in text.upper() if char in FONT)[:count]


def _stamp(
    tile: NDArray[np.uint8], letters: str, colour: tuple[int, int, int], largest: int
) -> None:
    """Draw ``letters`` centred on ``tile`` at the largest whole scale that fits, up to ``largest``."""
    size = tile.shape[0]
    if not letters or size < 8:
        return
    columns = 4 * len(letters) - 1
    scale = max(1, min((size - 2) // columns, (size - 2) // 6, largest))
    if columns * scale > size:
        return
    top = (size - 5 * scale) // 2
    left = (size - columns * scale) // 2
    for index, char in enumerate(letters):
        mask = np.kron(FONT[char], np.ones((scale, scale), dtype=np.bool_))
        x = left + index * 4 * scale
        tile[top : top + 5 * scale, x : x + 3 * scale][mask] = colour


class TileRenderer:
    """Draws states at ``tile`` pixels per cell; each noun's and word's tile is drawn once."""

    def __init__(self, tile: int = DEFAULT_TILE) -> None:
        """Prepare an empty sprite cache.

        :raises ValueError: when ``tile`` is not a whole number from 1 to 256.
        """
        if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= 256:
            raise ValueError(f"tile must be a whole number of pixels from 1 to 256, not {tile!r}")
        self.tile = tile
        self._sprites: dict[tuple[str, bool], tuple[NDArray[np.uint8], NDArray[np.bool_]]] = {}

    def sprite(self, text: str, is_word: bool) -> tuple[NDArray[np.uint8], NDArray[np.bool_]]:
        """The tile of a thing (``is_word`` false) or a word, and the mask of its drawn pixels."""
        key = (text, is_word)
        cached = self._sprites.get(key)
        if cached is not None:
            return cached
        size = self.tile
        image = np.zeros((size, size, 3), dtype=np.uint8)
        inset = size // 8
        mask = np.zeros((size, size), dtype=np.bool_)
        mask[inset : size - inset, inset : size - inset] = True
        if size >= 4 and inset:
            for y, x in ((inset, inset), (inset, size - inset - 1)):
                mask[y, x] = mask[size - 1 - y, x] = False  # rounded corners
        if is_word:
            image[mask] = WORD_BACKGROUND
            ink = OPERATOR_COLOUR if text in OPERATORS else colour_of(text)
            _stamp(image, _letters(text, 2), ink, size // 8)
            if size < 8:
                image[mask] = ink
        else:
            image[mask] = colour_of(text)
            # A small mark, so that the thing's colour stays what the eye sees first.
            _stamp(image, _letters(text, 1), INK, size // 10)
        self._sprites[key] = (image, mask)
        return image, mask

    def frame(self, state: State, height: int | None = None, width: int | None = None) -> RgbFrame:
        """The picture of ``state``, on a board of ``height`` x ``width`` cells (default the level's).

        Cells beyond the level (when the frame is larger) are black.
        """
        level, now = state.level, state.now
        tile = self.tile
        rows = level.height if height is None else height
        columns = level.width if width is None else width
        image = np.empty((rows * tile, columns * tile, 3), dtype=np.uint8)
        image[...] = PADDING
        image[: level.height * tile, : level.width * tile] = BACKGROUND
        order = sorted(range(level.entity_count), key=lambda ident: now.kinds[ident])
        for ident in order:
            position = now.positions[ident]
            if position < 0:
                continue
            y, x = divmod(position, level.width)
            sprite, mask = self.sprite(now.nouns[ident], now.kinds[ident])
            cell = image[y * tile : (y + 1) * tile, x * tile : (x + 1) * tile]
            cell[mask] = sprite[mask]
        return image
