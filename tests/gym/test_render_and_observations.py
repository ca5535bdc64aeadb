"""Pictures (``rgb_array``), the pixel and text observations, and the global channel layout."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import UnsupportedMode
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import RecordVideo

from miau.gym import ACTIONS, GLOBAL_NOUNS, MiauLevelEnv, MiauLevelsEnv, UnsupportedRenderMode
from miau.gym.render import TileRenderer, colour_of

ROOT = Path(__file__).resolve().parents[2]
KEKE_SAMPLE = ROOT / "tests" / "keke" / "sample.miau.json"


@pytest.mark.parametrize("tile", [1, 5, 16, 24])
def test_rgb_array_is_the_board_at_tile_pixels_a_cell(tile: int) -> None:
    env = gymnasium.make(
        "miau/Level-v0", pack="tutorial", level="first-steps", render_mode="rgb_array", tile=tile
    )
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.dtype == np.uint8 and frame.shape == (5 * tile, 9 * tile, 3)


def test_the_picture_follows_the_cat_when_it_moves() -> None:
    env = MiauLevelEnv("tutorial", "first-steps", render_mode="rgb_array", tile=8)
    env.reset(seed=0)
    before = env.render()
    env.step(ACTIONS.index("right"))
    after = env.render()
    assert isinstance(before, np.ndarray) and isinstance(after, np.ndarray)
    changed = np.argwhere((before != after).any(axis=2))
    # The cat went from cell (1, 2) to (2, 2): only those two cells' pixels changed.
    cells = {(int(y) // 8, int(x) // 8) for y, x in changed}
    assert cells == {(2, 1), (2, 2)}


def test_things_of_different_nouns_and_words_are_drawn_differently() -> None:
    renderer = TileRenderer(16)
    sprites = [renderer.sprite(noun, False)[0] for noun in GLOBAL_NOUNS]
    sprites += [renderer.sprite(noun, True)[0] for noun in ("IS", "YOU", "WIN", "FLAG")]
    distinct = {sprite.tobytes() for sprite in sprites}
    assert len(distinct) == len(sprites)


def test_an_unknown_nouns_colour_is_stable_and_visible() -> None:
    colour = colour_of("QUOKKA")
    assert colour == colour_of("QUOKKA")
    assert all(80 <= channel < 240 for channel in colour)


@pytest.mark.parametrize("mode", ["human_list", "rgb", "video"])
def test_an_unknown_render_mode_raises_gymnasiums_unsupported_mode(mode: str) -> None:
    with pytest.raises(UnsupportedRenderMode) as raised:
        MiauLevelEnv("tutorial", render_mode=mode)
    assert isinstance(raised.value, UnsupportedMode) and isinstance(raised.value, ValueError)


def test_a_bad_tile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="tile must be a whole number"):
        MiauLevelEnv("tutorial", tile=0)


@pytest.mark.skipif(
    importlib.util.find_spec("moviepy") is None,
    reason="RecordVideo needs MoviePy (pip install 'miau-puzzle[video]'); .ci/run installs it",
)
def test_record_video_writes_an_episode_from_rgb_array(tmp_path: Path) -> None:
    env = gymnasium.make(
        "miau/Level-v0", pack="tutorial", level="first-steps", render_mode="rgb_array"
    )
    folder = tmp_path / "videos"
    recorder = RecordVideo(
        env, str(folder), episode_trigger=lambda episode: True, disable_logger=True
    )
    recorder.reset(seed=0)
    for _ in range(6):
        *_, terminated, truncated, _ = recorder.step(ACTIONS.index("right"))
        if terminated or truncated:
            break
    recorder.close()  # type: ignore[no-untyped-call]
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


def test_the_pixel_observation_is_a_channels_last_image_of_at_least_36_pixels() -> None:
    env = gymnasium.make(
        "miau/Level-v0", pack="tutorial", level="first-steps", observation="pixels"
    )
    observation, _ = env.reset(seed=0)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    assert space.dtype == np.uint8 and int(space.low.min()) == 0 and int(space.high.max()) == 255
    assert observation.shape[2] == 3 and min(observation.shape[:2]) >= 36
    assert observation in space
    check_env(env.unwrapped)


def test_the_text_observation_lists_the_rules_and_things_relative_to_you() -> None:
    env = gymnasium.make("miau/Level-v0", pack="tutorial", level="first-steps", observation="text")
    text, _ = env.reset(seed=0)
    assert text.splitlines()[:3] == ["Active rules:", "miau is you", "flag is win"]
    assert "relative to the miau you control at column 1, row 2:" in text
    assert "flag 6 steps to the right" in text
    assert "word `miau` 1 step to the left and 2 steps up" in text
    assert text in env.observation_space
    text, *_ = env.step(ACTIONS.index("right"))
    assert "flag 5 steps to the right" in text


def test_the_text_observation_without_you_gives_places() -> None:
    env = MiauLevelEnv(
        {"width": 3, "height": 1, "objects": [{"kind": "object", "noun": "ROCK", "x": 2, "y": 0}]},
        observation="text",
    )
    text, _ = env.reset(seed=0)
    assert text.endswith(
        "Nothing is you. Objects on the map, by column and row:\nrock at column 2, row 0"
    )


@pytest.mark.parametrize("observation", ["text", "pixels"])
def test_every_observation_form_passes_the_checker_on_a_level_set(observation: str) -> None:
    env = gymnasium.make("miau/Levels-v0", packs=["tutorial"], observation=observation)
    check_env(env.unwrapped)


def test_the_global_layout_is_the_same_for_every_level_set_of_one_size() -> None:
    layouts = [
        MiauLevelsEnv(packs, channels="global", size=(18, 18)).layout
        for packs in (["tutorial"], ["lexicon"], [str(KEKE_SAMPLE)], ["clockwork"])
    ]
    assert all(layout == layouts[0] for layout in layouts)
    names = layouts[0].names
    assert names[0] == "level" and names[1] == "noun:BABA" and "noun:*" in names
    assert names.index("property:YOU") < names.index("property:MOVE") < names.index("property:*")


def test_the_global_layout_marks_unknown_nouns_and_properties_in_the_catch_all() -> None:
    level: dict[str, Any] = {
        "width": 4,
        "height": 1,
        "objects": [
            {"kind": "word", "text": "QUOKKA", "x": 0, "y": 0},
            {"kind": "word", "text": "IS", "x": 1, "y": 0},
            {"kind": "word", "text": "YOU", "x": 2, "y": 0},
            {"kind": "object", "noun": "QUOKKA", "x": 3, "y": 0},
        ],
    }
    env = gymnasium.make("miau/Level-v0", pack=level, channels="global")
    observation, _ = env.reset(seed=0)
    layout = env.unwrapped.layout  # type: ignore[attr-defined]
    assert observation[layout.channel("noun:*"), 0, 3] == 1
    assert observation[layout.channel("word:*"), 0, 0] == 1
    assert observation[layout.channel("property:YOU"), 0, 3] == 1
    check_env(env.unwrapped)
