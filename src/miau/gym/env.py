"""The Gymnasium environments: one level (``miau/Level-v0``) and a level set (``miau/Levels-v0``).

Each step takes one action of :data:`ACTIONS` (the move alphabet's five
intents, then ``undo`` and ``reset`` when ``undo_actions`` is on) and plays
it on a ``miau.engine.Game``. The observation is described in
``miau.gym.observation``; the reward by :class:`Reward`. An episode is
*terminated* when the level is won, or when nothing is YOU and no number of
waits can make anything YOU again; it is *truncated* after ``max_steps``
steps. The engine has no randomness, so an episode depends only on the
actions (and, for the level set, on the seed that picks the levels).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from miau.engine import Event, Game, RuleSet, State
from miau.engine.state import Snapshot
from miau.engine.vocabulary import MOVE_ALPHABET, YOU
from miau.gym.levels import LevelEntry, PackSource, level_entries, pack_entries, resolve_pack
from miau.gym.observation import ChannelLayout, ObservationArray, ObservationBuilder

ACTIONS: Final[tuple[str, ...]] = tuple(direction.name for direction in MOVE_ALPHABET)
"""Action ``i`` is ``ACTIONS[i]``: ``up``, ``down``, ``left``, ``right``, ``wait``."""

UNDO_ACTIONS: Final[tuple[str, ...]] = (*ACTIONS, "undo", "reset")
"""The actions with ``undo_actions=True``: the five moves, then ``undo`` and ``reset``."""

DEFAULT_MAX_STEPS: Final = 200
"""Steps before an episode is truncated, unless ``max_steps`` says otherwise."""

_INTEGERS: Final = (int, np.integer)

MAX_WAITS_FOR_CONTROL: Final = 1024
"""How many waits the check for a returning YOU simulates before it gives up (and plays on)."""


@dataclass(frozen=True, slots=True)
class Reward:
    """What each step earns. The default: +1 for a win, -1 for a loss, -0.01 a step.

    ``step`` is paid on every step, blocked moves included; ``loss`` when
    the step leaves nothing YOU (with ``undo_actions``, each time control
    is lost, since undo can bring it back); ``rule_formed`` and
    ``rule_broken`` (0 by default) for each rule that enters or leaves the
    table on that step: a shaping term for agents that must learn to
    rewrite rules.
    """

    win: float = 1.0
    loss: float = -1.0
    step: float = -0.01
    rule_formed: float = 0.0
    rule_broken: float = 0.0

    @classmethod
    def of(cls, value: Reward | Mapping[str, float] | None) -> Reward:
        """A ``Reward`` from itself, a mapping of some of its fields, or None (the default).

        :raises ValueError: for a key that is not a field.
        """
        if value is None:
            return cls()
        if isinstance(value, Reward):
            return value
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise ValueError(
                f"reward has no {', '.join(unknown)}; it takes {', '.join(sorted(known))}"
            )
        return cls(**{key: float(number) for key, number in value.items()})


def rule_texts(rules: RuleSet) -> tuple[str, ...]:
    """A rule table as words, in table order (``MIAU IS YOU``, ``NOT ROCK IS STOP``...)."""
    texts = []
    for rule in rules.rules:
        text = getattr(rule, "text", None)
        texts.append(str(text()) if callable(text) else f"{rule.subject} IS {rule.predicate}")
    return tuple(texts)


def render_text(state: State) -> str:
    """The board as text, one row a line: words in capitals (3 letters), objects in lower case."""
    level = state.level
    rows = [["."] * level.width for _ in range(level.height)]
    you: Collection[str] = state.rules_table.holders.get(YOU, ())
    for ident in range(level.entity_count):
        where = state.position(ident)
        if where is None:
            continue
        x, y = where
        noun = state.noun(ident)
        label = noun[:3] if state.is_word(ident) else noun[:3].lower()
        if not state.is_word(ident) and noun in you:
            label = label.upper() + "*"
        rows[y][x] = label
    return "\n".join(" ".join(f"{cell:<4}" for cell in row).rstrip() for row in rows)


def control_can_return(game: Game) -> bool:
    """Whether waiting can make something YOU again (automata, pending transformations).

    For a game in which nothing is YOU: plays waits until something is YOU,
    or a state repeats (then nothing ever will), then undoes them all, so
    the game is as it was. Gives the benefit of the doubt after
    ``MAX_WAITS_FOR_CONTROL`` waits.
    """
    seen = set()
    waits = 0
    returned = True
    while waits < MAX_WAITS_FOR_CONTROL:
        now = game.state.now
        key = (now.positions, now.nouns, now.kinds, now.facings, now.phases)
        if key in seen:
            returned = False
            break
        seen.add(key)
        event = game.wait()
        if not event.accepted:
            returned = False
            break
        waits += 1
        if not event.control_lost:
            break
    for _ in range(waits):
        game.undo()
    return returned


class _MiauEnv(gymnasium.Env[ObservationArray, np.int64]):
    """What both environments share: the game, the observation, the reward and the ends."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        entries: Sequence[LevelEntry],
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        size: tuple[int, int] | None = None,
        render_mode: str | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.entries = tuple(entries)
        self.layout = ChannelLayout.from_levels((entry.level for entry in self.entries), size)
        self.actions = UNDO_ACTIONS if undo_actions else ACTIONS
        self.action_space = spaces.Discrete(len(self.actions))
        self.observation_space = spaces.Box(0, 1, self.layout.shape, dtype=np.uint8)
        self.reward = Reward.of(reward)
        self.max_steps = max_steps
        self.undo_actions = undo_actions
        self.render_mode = render_mode
        self._builders: dict[int, ObservationBuilder] = {}
        self._games: dict[int, Game] = {}
        self._index = 0
        self._steps = 0
        self._builder: ObservationBuilder | None = None
        """The observation builder of the level being played; None before the first reset."""
        self._control_lost = False
        self._rules_seen: RuleSet | None = None
        self._rules_text: tuple[str, ...] = ()

    @property
    def entry(self) -> LevelEntry:
        """The level being played."""
        return self.entries[self._index]

    @property
    def game(self) -> Game:
        """The engine's game of the level being played (read it; play through ``step``)."""
        return self._games[self._index]

    def _choose_level(self, seeded: bool, options: dict[str, Any] | None) -> int:
        """The index of the level the next episode plays."""
        raise NotImplementedError

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObservationArray, dict[str, Any]]:
        """Start an episode: the level's start state and its ``info``.

        ``options={"level": "LEVEL_ID"}`` (or ``"PACK/LEVEL_ID"``) chooses the level.
        """
        super().reset(seed=seed)
        index = self._choose_level(seed is not None, options)
        self._index = index
        game = self._games.get(index)
        if game is None:
            game = self._games[index] = Game(self.entries[index].level)
            self._builders[index] = ObservationBuilder(self.layout, game.level)
        elif game.history_length or game.state.move_count:
            game.reset()
        self._steps = 0
        state = game.state
        self._builder = builder = self._builders[index]
        self._control_lost = state.control_lost
        return builder.build(state), self._info(state.rules_table, state.now, accepted=True)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[ObservationArray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one action; return observation, reward, terminated, truncated and info.

        :raises ValueError: for an action outside the action space.
        :raises RuntimeError: when called before ``reset``.
        """
        builder = self._builder
        if builder is None:
            raise RuntimeError("call reset() before step()")
        if not (isinstance(action, _INTEGERS) and 0 <= action < len(self.actions)):
            raise ValueError(f"action must be an integer from 0 to {len(self.actions) - 1}")
        name = self.actions[action]
        game = self.game
        lost_before = self._control_lost
        if name == "undo":
            event = game.undo()
        elif name == "reset":
            event = game.reset()
        else:
            event = game.step(name)
        self._steps += 1
        if event.accepted:
            observation = builder.update(event, lambda: game.state)
            self._control_lost = event.control_lost
        else:
            observation = builder.current()
        reward = self._reward(event, lost_before)
        terminated = event.won or (
            event.control_lost and not self.undo_actions and not control_can_return(game)
        )
        truncated = not terminated and self._steps >= self.max_steps
        return (
            observation,
            reward,
            terminated,
            truncated,
            self._info(event.rules_after, event, accepted=event.accepted),
        )

    def _reward(self, event: Event, lost_before: bool) -> float:
        reward = self.reward
        total = reward.step
        if event.won:
            total += reward.win
        elif event.control_lost and not lost_before:
            total += reward.loss
        if event.rules_before is not event.rules_after and (
            reward.rule_formed or reward.rule_broken
        ):
            total += reward.rule_formed * len(event.rules_added)
            total += reward.rule_broken * len(event.rules_removed)
        return total

    def _info(self, rules: RuleSet, now: Event | Snapshot, *, accepted: bool) -> dict[str, Any]:
        """``level``, ``rules`` (text), ``won``, ``control_lost``, ``accepted``, ``moves``, ``steps``."""
        if rules is not self._rules_seen:
            self._rules_seen = rules
            self._rules_text = rule_texts(rules)
        return {
            "level": self.entry.name,
            "rules": self._rules_text,
            "won": now.won,
            "control_lost": now.control_lost,
            "accepted": accepted,
            "moves": now.move_count,
            "steps": self._steps,
        }

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the board as text; otherwise nothing."""
        if self.render_mode != "ansi" or not self._games:
            return None
        return render_text(self.game.state)


class MiauLevelEnv(_MiauEnv):
    """One level of a pack: ``gymnasium.make("miau/Level-v0", pack=..., level=...)``.

    ``pack`` is a pack file, a shipped pack's id (``tutorial``) or a loaded
    ``Pack``; ``level`` a level id (default: the pack's first level).
    ``max_steps`` (default 200) truncates an episode; ``reward`` is a
    :class:`Reward` or a mapping of some of its fields; ``undo_actions``
    adds ``undo`` and ``reset`` as actions 5 and 6; ``size`` (height,
    width) pads observations to a larger grid.
    """

    def __init__(
        self,
        pack: PackSource = "tutorial",
        level: str | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        size: tuple[int, int] | None = None,
        render_mode: str | None = None,
    ) -> None:
        """Load the level; see the class docstring for the arguments.

        :raises LookupError: when the pack or the level cannot be found.
        :raises ValueError: for a pack with errors or an argument out of range.
        """
        loaded = resolve_pack(pack)
        entries = pack_entries(loaded, None if level is None else [level])[:1]
        super().__init__(
            entries,
            max_steps=max_steps,
            reward=reward,
            undo_actions=undo_actions,
            size=size,
            render_mode=render_mode,
        )

    def _choose_level(self, seeded: bool, options: dict[str, Any] | None) -> int:
        wanted = None if options is None else options.get("level")
        entry = self.entries[0]
        if wanted is not None and wanted not in (entry.level_id, entry.name):
            raise LookupError(f"this environment plays {entry.name} only, not {wanted!r}")
        return 0


class MiauLevelsEnv(_MiauEnv):
    """Levels of one pack or of several: each episode plays one of them.

    ``gymnasium.make("miau/Levels-v0", packs=["tutorial", "proofs"])``.
    ``levels`` keeps only those ids. ``order="cycle"`` plays them in
    order, one per episode, and a reset with a seed starts over at the first;
    ``order="sample"`` draws each episode's level from the environment's
    seeded random generator. ``options={"level": ...}`` on reset picks one.
    The observation layout covers every level of the set (see
    ``miau.gym.observation``). Other arguments as for :class:`MiauLevelEnv`.
    """

    def __init__(
        self,
        packs: PackSource | Sequence[PackSource] = "tutorial",
        levels: Sequence[str] | None = None,
        *,
        order: Literal["cycle", "sample"] = "cycle",
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        size: tuple[int, int] | None = None,
        render_mode: str | None = None,
    ) -> None:
        """Load the levels; see the class docstring for the arguments.

        :raises LookupError: when a pack or a level cannot be found.
        :raises ValueError: for a pack with errors or an argument out of range.
        """
        if order not in ("cycle", "sample"):
            raise ValueError(f"order must be 'cycle' or 'sample', not {order!r}")
        super().__init__(
            level_entries(packs, levels),
            max_steps=max_steps,
            reward=reward,
            undo_actions=undo_actions,
            size=size,
            render_mode=render_mode,
        )
        self.order = order
        self._next = 0

    def _choose_level(self, seeded: bool, options: dict[str, Any] | None) -> int:
        wanted = None if options is None else options.get("level")
        if wanted is not None:
            for index, entry in enumerate(self.entries):
                if wanted in (entry.level_id, entry.name):
                    return index
            raise LookupError(f"no level {wanted!r} in this environment's set")
        if self.order == "sample":
            return int(self.np_random.integers(len(self.entries)))
        if seeded:
            self._next = 0
        index = self._next
        self._next = (index + 1) % len(self.entries)
        return index
