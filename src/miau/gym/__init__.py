"""Miau for agents: Gymnasium environments and the agent benchmark (``pip install 'miau-puzzle[gym]'``).

Importing this package registers two environments:

- ``miau/Level-v0``: one level,
  ``gymnasium.make("miau/Level-v0", pack="packs/tutorial.json", level="first-steps")``;
- ``miau/Levels-v0``: the levels of a pack or of a list of packs, cycled or
  sampled (``gymnasium.make("miau/Levels-v0", packs=["tutorial"], order="sample")``).

Action ``i`` is ``ACTIONS[i]``. Observations, rewards and the ends of an
episode are specified in ``docs/gym.md``.
"""

from gymnasium.envs.registration import register, registry

from miau.gym.env import (
    ACTIONS,
    DEFAULT_MAX_STEPS,
    OBSERVATIONS,
    UNDO_ACTIONS,
    EnvSnapshot,
    MiauLevelEnv,
    MiauLevelsEnv,
    Reward,
    UnsupportedRenderMode,
    render_text,
)
from miau.gym.levels import (
    LevelEntry,
    entries_from,
    level_entries,
    parse_level_spec,
    resolve_pack,
)
from miau.gym.observation import (
    GLOBAL_NOUNS,
    ChannelLayout,
    ObservationArray,
    ObservationBuilder,
)
from miau.gym.render import TileRenderer
from miau.gym.text import describe, rule_texts
from miau.packs.share import share_code_from_link

__all__ = [
    "ACTIONS",
    "DEFAULT_MAX_STEPS",
    "GLOBAL_NOUNS",
    "OBSERVATIONS",
    "UNDO_ACTIONS",
    "ChannelLayout",
    "EnvSnapshot",
    "LevelEntry",
    "MiauLevelEnv",
    "MiauLevelsEnv",
    "ObservationArray",
    "ObservationBuilder",
    "Reward",
    "TileRenderer",
    "UnsupportedRenderMode",
    "describe",
    "entries_from",
    "level_entries",
    "parse_level_spec",
    "render_text",
    "resolve_pack",
    "rule_texts",
    "share_code_from_link",
]

for _name, _entry_point in (
    ("miau/Level-v0", "miau.gym.env:MiauLevelEnv"),
    ("miau/Levels-v0", "miau.gym.env:MiauLevelsEnv"),
):
    if _name not in registry:
        register(id=_name, entry_point=_entry_point)
