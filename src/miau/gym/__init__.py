"""Miau for agents: Gymnasium environments and the agent benchmark (``pip install 'miau-puzzle[gym]'``).

Importing this package registers these environments:

- ``miau/Level-v0``: one level,
  ``gymnasium.make("miau/Level-v0", pack="tutorial", level="first-steps")``
  (a pack path or id, a share link, a pack or level dict, a list of them,
  or a callable drawing one per episode);
- ``miau/Levels-v0``: the levels of a pack or of a list of packs, cycled or
  sampled (``gymnasium.make("miau/Levels-v0", packs=["tutorial"], order="sample")``);
- ``miau/Family-v0`` (``family="goto-win"``, ``"make-win"`` or
  ``"break-stop"``) and ``miau/GotoWin-v0``, ``miau/MakeWin-v0``,
  ``miau/BreakStop-v0``: a procedural task family, a fresh winnable level
  per episode (``miau.gym.families``).

Action ``i`` is ``ACTIONS[i]``. Observations, rewards and the ends of an
episode are specified in ``docs/gym.md``.
"""

from typing import Any, Final

from gymnasium.envs.registration import WrapperSpec, register, registry

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
from miau.gym.families import (
    FAMILIES,
    FAMILY_IDS,
    FamilyError,
    FamilyParameters,
    MiauFamilyEnv,
    draw_level,
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
    "FAMILIES",
    "FAMILY_IDS",
    "GLOBAL_NOUNS",
    "OBSERVATIONS",
    "UNDO_ACTIONS",
    "ChannelLayout",
    "EnvSnapshot",
    "FamilyError",
    "FamilyParameters",
    "LevelEntry",
    "MiauFamilyEnv",
    "MiauLevelEnv",
    "MiauLevelsEnv",
    "ObservationArray",
    "ObservationBuilder",
    "Reward",
    "TileRenderer",
    "UnsupportedRenderMode",
    "describe",
    "draw_level",
    "entries_from",
    "level_entries",
    "parse_level_spec",
    "render_text",
    "resolve_pack",
    "rule_texts",
    "share_code_from_link",
]

# Every id carries Gymnasium's episode limit, so gymnasium.make wraps it in TimeLimit as
# Gymnasium expects; agree_with_time_limit then gives the environment's own limit (which
# the loss payment needs, see Reward) the same number, so the two truncate together.
_AGREE: Final = WrapperSpec(
    name="AgreeWithTimeLimit", entry_point="miau.gym.env:agree_with_time_limit", kwargs={}
)
_REGISTERED: Final[list[tuple[str, str, dict[str, Any]]]] = [
    ("miau/Level-v0", "miau.gym.env:MiauLevelEnv", {}),
    ("miau/Levels-v0", "miau.gym.env:MiauLevelsEnv", {}),
    ("miau/Family-v0", "miau.gym.families:MiauFamilyEnv", {}),
    *(
        (_name, "miau.gym.families:MiauFamilyEnv", {"family": _family})
        for _name, _family in FAMILY_IDS.items()
    ),
]
for _name, _entry_point, _kwargs in _REGISTERED:
    if _name not in registry:
        register(
            id=_name,
            entry_point=_entry_point,
            kwargs=_kwargs,
            max_episode_steps=DEFAULT_MAX_STEPS,
            additional_wrappers=(_AGREE,),
        )
