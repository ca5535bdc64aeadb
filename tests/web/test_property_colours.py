"""Every property colour is its own: apart from the others, visible on the board, readable ink.

The colours are miau.css's custom properties, one per accent of
``miau.engine.vocabulary.ACCENTS``. Distinct means a CIEDE2000 difference
of at least ``MIN_DIFFERENCE`` between every two (about 2.3 is the smallest
difference people notice side by side; 10 and more reads as another colour
at a glance). A tile must stand out from the board (WCAG's 3:1 for a
graphic) and carry its dark word (4.5:1 for text).
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from miau.engine.vocabulary import ACCENTS

CSS = (Path(__file__).resolve().parents[2] / "src" / "miau" / "web" / "miau.css").read_text(
    encoding="utf-8"
)
BOARD_BACKGROUND = "#0c1221"
"""The board's own colour (``.board`` in miau.css)."""
TILE_INK = "#120d12"
"""The colour of a property tile's word (miau.css)."""
MIN_DIFFERENCE = 12.0


def colour_of(name: str) -> str:
    found = re.search(rf"--{re.escape(name)}:\s*(#[0-9a-fA-F]{{6}});", CSS)
    assert found, f"miau.css has no --{name} colour"
    return found.group(1)


def linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def rgb(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    red, green, blue = (linear(int(value[i : i + 2], 16) / 255) for i in (0, 2, 4))
    return red, green, blue


def luminance(hex_colour: str) -> float:
    red, green, blue = rgb(hex_colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def lab(hex_colour: str) -> tuple[float, float, float]:
    red, green, blue = rgb(hex_colour)
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(first: str, second: str) -> float:
    """The CIEDE2000 difference of two sRGB colours."""
    return ciede2000_lab(lab(first), lab(second))


def ciede2000_lab(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh_angle = 0.0
    elif abs(h2p - h1p) <= 180:
        dh_angle = h2p - h1p
    else:
        dh_angle = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh_angle / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    rotation = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh / sh) ** 2 + rt * (dc / sc) * (dh / sh))


@pytest.mark.parametrize(
    "first,second,expected",
    [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ],
)
def test_the_colour_difference_matches_sharma_wu_and_dalals_test_data(
    first: tuple[float, float, float], second: tuple[float, float, float], expected: float
) -> None:
    assert ciede2000_lab(first, second) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("accent", ACCENTS)
def test_every_accent_has_a_colour_and_a_tile_rule(accent: str) -> None:
    colour_of(accent)
    assert f'.word-tile[data-accent="{accent}"] > .face {{\n  --accent: var(--{accent});' in CSS


@pytest.mark.parametrize("first,second", list(itertools.combinations(ACCENTS, 2)))
def test_every_two_property_colours_are_told_apart_at_a_glance(first: str, second: str) -> None:
    difference = ciede2000(colour_of(first), colour_of(second))
    assert difference >= MIN_DIFFERENCE, f"{first} and {second} differ by only {difference:.1f}"


@pytest.mark.parametrize("accent", ACCENTS)
def test_every_property_tile_stands_out_on_the_board_and_carries_its_word(accent: str) -> None:
    colour = colour_of(accent)
    assert contrast(colour, BOARD_BACKGROUND) >= 3.0
    assert contrast(colour, TILE_INK) >= 4.5
