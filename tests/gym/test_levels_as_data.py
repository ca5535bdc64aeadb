"""Levels given as data: dicts, share links, lists and per-episode callables, at make and at reset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import miau.gym
from miau.engine import LevelError
from miau.gym import MiauLevelEnv, MiauLevelsEnv, share_code_from_link
from miau.packs import PackError, load_pack
from miau.packs.share import ShareLinkError, share_code_for, share_link
from miau.worlds import shipped_pack_path

TUTORIAL = json.loads(shipped_pack_path("tutorial").read_text(encoding="utf-8"))
FIRST_STEPS: dict[str, Any] = TUTORIAL["levels"][0]
ENGINE_DICT = load_pack(shipped_pack_path("tutorial")).level("first-steps").data


def start(env: gymnasium.Env[Any, Any], **options: Any) -> tuple[Any, dict[str, Any]]:
    return env.reset(seed=0, options=options or None)


def test_a_pack_dict_a_level_dict_an_engine_dict_and_a_share_link_play_the_same_level() -> None:
    code = share_code_for(load_pack(shipped_pack_path("tutorial")), "first-steps")
    link = share_link(code)
    expected, _ = start(MiauLevelEnv("tutorial", "first-steps"))
    for source in (TUTORIAL, FIRST_STEPS, ENGINE_DICT, link, code):
        observation, info = start(MiauLevelEnv(source))
        assert np.array_equal(observation, expected), str(source)[:40]
        assert info["rules"] == ("MIAU IS YOU", "FLAG IS WIN")


def test_share_code_from_link_is_exported_and_reads_the_code_out_of_a_link() -> None:
    code = share_code_for(load_pack(shipped_pack_path("tutorial")), "walls")
    assert share_code_from_link(share_link(code, "https://example.org/miau/")) == code
    assert miau.gym.share_code_from_link is share_code_from_link


def test_a_level_dict_gets_the_data_pack_id_and_its_own_level_id() -> None:
    _, info = start(MiauLevelEnv(FIRST_STEPS))
    assert info["level"] == "data/first-steps"
    _, info = start(MiauLevelEnv(ENGINE_DICT))
    assert info["level"] == "data/level"


def test_a_list_of_sources_plays_each_level_in_turn() -> None:
    env = MiauLevelEnv([FIRST_STEPS, "tutorial"], None)
    tutorial = [f"tutorial/{level['id']}" for level in TUTORIAL["levels"]]
    names = [env.reset(seed=0 if i == 0 else None)[1]["level"] for i in range(len(tutorial) + 2)]
    assert names == ["data/first-steps", *tutorial, "data/first-steps"]


def test_a_callable_draws_each_episodes_level_from_the_seeded_generator() -> None:
    ids = [level["id"] for level in TUTORIAL["levels"][:4]]

    def draw(generator: np.random.Generator) -> dict[str, Any]:
        return dict(TUTORIAL, levels=[TUTORIAL["levels"][int(generator.integers(len(ids)))]])

    first = gymnasium.make("miau/Level-v0", pack=draw, size=(12, 12))
    second = gymnasium.make("miau/Level-v0", pack=draw, size=(12, 12))
    runs = []
    for env in (first, second):
        env.reset(seed=7)
        runs.append([env.reset()[1]["level"] for _ in range(12)])
    assert runs[0] == runs[1]
    assert len(set(runs[0])) > 1
    assert {name.split("/")[1] for name in runs[0]} <= set(ids)


def test_a_callable_without_a_size_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="size=\\(height, width\\)"):
        MiauLevelEnv(lambda generator: FIRST_STEPS)


def test_an_environment_made_with_a_callable_passes_the_checker() -> None:
    env = gymnasium.make("miau/Level-v0", pack=lambda generator: FIRST_STEPS, size=(6, 10))
    check_env(env.unwrapped)


def test_reset_into_a_level_given_as_data_plays_it() -> None:
    env = MiauLevelsEnv("tutorial", channels="global")
    _, info = env.reset(options={"level": FIRST_STEPS})
    assert info["level"] == "data/first-steps"
    *_, info = env.step(miau.gym.ACTIONS.index("right"))
    assert info["moves"] == 1
    _, info = env.reset()
    assert info["level"].startswith("tutorial/")


def test_reset_into_a_level_larger_than_the_observation_says_what_to_do() -> None:
    env = MiauLevelEnv("tutorial", "first-steps")
    big = next(level for level in TUTORIAL["levels"] if level["width"] > 9)
    with pytest.raises(ValueError, match="channels='global' and a size that fits"):
        env.reset(options={"level": big})


def test_reset_into_a_level_with_channels_the_set_lacks_is_refused() -> None:
    env = MiauLevelEnv("tutorial", "first-steps", size=(20, 20))
    rocks = next(level for level in TUTORIAL["levels"] if "ROCK" in json.dumps(level))
    with pytest.raises(ValueError, match="does not fit"):
        env.reset(options={"level": rocks})


def test_bad_level_data_is_a_clear_error_not_a_dump_of_the_dict(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="width"):
        MiauLevelEnv({"id": "x", "map": ["c"], "legend": {"c": "MIAU"}})
    with pytest.raises(LevelError, match="this level dict cannot be played"):
        MiauLevelEnv({"width": 2, "height": 2, "objects": "nope"})
    with pytest.raises(ShareLinkError):
        MiauLevelEnv("https://example.org/#/shared/1AAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    with pytest.raises(TypeError, match="options\\['level'\\] is a level id"):
        MiauLevelEnv("tutorial").reset(options={"level": 42})
    with pytest.raises(ValueError, match="reset has no option colour"):
        MiauLevelEnv("tutorial").reset(options={"colour": "red"})
