"""The Gymnasium environments: one level (``miau/Level-v0``) and a level set (``miau/Levels-v0``).

Each step takes one action of :data:`ACTIONS` (the move alphabet's five
intents, then ``undo`` and ``reset`` when ``undo_actions`` is on) and plays
it on a ``miau.engine.Game``. The observation is one of
:data:`OBSERVATIONS` (channel planes by default, see
``miau.gym.observation``); the reward is described by :class:`Reward`. An
episode is *terminated* when the level is won, or when nothing is YOU and
no number of waits can make anything YOU again; it is *truncated* after
``max_steps`` steps. A step after termination changes nothing: it returns
the terminal observation again, reward 0 and ``terminated=True``. The
engine has no randomness, so an episode depends only on the actions (and,
for a level set or a family, on the seed that picks or draws the levels).

A ``vocabulary-1`` level whose words are all core words (every Keke
import) is played as its core twin (``miau.solver.reduction``), which
moves, transforms, destroys and wins alike, so its observation is kept
incrementally as a core level's is.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import UnsupportedMode
from gymnasium.wrappers import TimeLimit

from miau.engine import Game, State
from miau.engine.vocabulary import MAX_LEVEL_OBJECTS, MOVE_ALPHABET, YOU
from miau.gym.levels import LevelEntry, PackSource, entries_from, level_entries
from miau.gym.observation import ChannelLayout, ObservationBuilder
from miau.gym.render import DEFAULT_TILE, RgbFrame, TileRenderer
from miau.gym.stepping import Episode
from miau.gym.stepping import control_can_return as control_can_return  # re-exported
from miau.gym.text import TEXT_CHARSET, describe, text_bound
from miau.packs import Pack
from miau.solver.reduction import search_level

ACTIONS: Final[tuple[str, ...]] = tuple(direction.name for direction in MOVE_ALPHABET)
"""Action ``i`` is ``ACTIONS[i]``: ``up``, ``down``, ``left``, ``right``, ``wait``."""

UNDO_ACTIONS: Final[tuple[str, ...]] = (*ACTIONS, "undo", "reset")
"""The actions with ``undo_actions=True``: the five moves, then ``undo`` and ``reset``."""

DEFAULT_MAX_STEPS: Final = 200
"""Steps before an episode is truncated, unless ``max_steps`` says otherwise."""

OBSERVATIONS: Final = ("channels", "pixels", "text")
"""The observation forms: channel planes (the default), an RGB picture, or text."""

MIN_IMAGE_SIDE: Final = 36
"""The smallest side of a ``pixels`` observation: Stable-Baselines3's ``CnnPolicy`` needs 36."""

RENDER_MODES: Final = ("ansi", "rgb_array")

LevelDraw = Callable[[np.random.Generator], PackSource]
"""A level per episode: called at each reset with the environment's seeded generator."""

LevelChoice = PackSource | Sequence[PackSource] | LevelDraw
"""What ``pack=`` and ``packs=`` take: a level source, a list of them, or a per-episode draw."""


class UnsupportedRenderMode(UnsupportedMode, ValueError):
    """A ``render_mode`` the environments do not draw: Gymnasium's ``UnsupportedMode``, a ``ValueError``."""


@dataclass(frozen=True, slots=True)
class EnvSnapshot:
    """An episode's position, from ``env.unwrapped.snapshot()``; resume it with ``reset(options={"state": it})``.

    It holds the level, the engine's state as JSON (with the undo history
    when ``undo_actions`` is on), the steps taken and whether the episode
    had ended. It is immutable and picklable, so a search can keep many.
    """

    entry: LevelEntry
    index: int | None
    """The level's index in the environment's fixed set; None for a drawn or given level."""
    state: Mapping[str, Any]
    steps: int
    control_lost: bool
    terminated: bool


@dataclass(frozen=True, slots=True)
class Reward:
    """What each step earns. The default: +1 for a win, -1 for a loss, -0.01 a step.

    ``step`` is paid on every step, blocked moves included; ``loss`` when
    the step leaves nothing YOU (with ``undo_actions``, each time control
    is lost, since undo can bring it back); ``rule_formed`` and
    ``rule_broken`` (0 by default) for each rule that enters or leaves the
    table on that step: a shaping term for agents that must learn to
    rewrite rules. A loss that ends the episode also pays, at once, ``step``
    for every step left before ``max_steps``: an episode lost at any step
    earns ``max_steps * step + loss``, a time-out ``max_steps * step``, so
    losing on purpose never pays more than waiting until the limit.
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

    def terms(self) -> tuple[float, float, float, float, float]:
        """``(win, loss, step, rule_formed, rule_broken)``."""
        return (self.win, self.loss, self.step, self.rule_formed, self.rule_broken)


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


def _is_draw(source: object) -> bool:
    """Whether ``source`` is a per-episode draw (a callable) rather than a level source."""
    return callable(source) and not isinstance(source, Pack | str | os.PathLike | Mapping)


def _sources(choice: PackSource | Sequence[PackSource]) -> list[PackSource]:
    if isinstance(choice, str | os.PathLike | Pack | Mapping):
        return [choice]
    return list(choice)


def agree_with_time_limit(env: gymnasium.Env[Any, Any]) -> gymnasium.Env[Any, Any]:
    """Make the ``TimeLimit`` that ``gymnasium.make`` adds and the environment's own limit one number.

    Every id is registered with ``max_episode_steps`` (Gymnasium's convention),
    so ``gymnasium.make`` wraps the environment in ``TimeLimit``; this runs
    right after that (the ids' ``additional_wrappers``). The limit is
    ``max_steps`` when it was given to ``make``, else the ``TimeLimit``'s
    (``max_episode_steps``, 200 unless ``make`` was given another). Both
    the environment and a fresh ``TimeLimit`` get it, and the environment's
    spec records it, so both truncate on the same step (one
    ``truncated=True``) and a loss pays the steps up to the right limit.
    With ``max_episode_steps=-1`` there is no ``TimeLimit``, and the
    environment's own limit is the only one.
    """
    base = env.unwrapped
    spec = base.spec
    if not isinstance(env, TimeLimit) or not isinstance(base, _MiauEnv) or spec is None:
        return env
    given = spec.kwargs.get("max_steps")
    limit = given if given is not None else env.spec.max_episode_steps if env.spec else None
    if not isinstance(limit, int):
        return env
    base.max_steps = limit
    # Recorded so that env.spec, and an environment made again from it (gymnasium.make(env.spec)),
    # have the same limit. The wrappers below keep copies of the spec made before this ran
    # (Gymnasium caches each wrapper's spec), so those copies are dropped to be made again.
    spec.kwargs["max_steps"] = limit
    inner = env.env
    while isinstance(inner, gymnasium.Wrapper):
        inner._cached_spec = None
        inner = inner.env
    return TimeLimit(env.env, limit)


class _MiauEnv(gymnasium.Env[Any, np.int64]):
    """What every environment shares: the game, the observation, the reward and the ends."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        entries: Sequence[LevelEntry],
        *,
        draw: Callable[[np.random.Generator], LevelEntry] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        size: tuple[int, int] | None = None,
        render_mode: str | None = None,
        observation: str = "channels",
        channels: str | None = None,
        tile: int = DEFAULT_TILE,
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UnsupportedRenderMode(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r} "
                "('human' works through gymnasium.make, which wraps 'rgb_array')"
            )
        if observation not in OBSERVATIONS:
            raise ValueError(
                f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}"
            )
        if channels is None:
            channels = "global" if draw is not None else "set"
        if channels not in ("set", "global"):
            raise ValueError(f"channels must be 'set' or 'global', not {channels!r}")
        self.entries = tuple(entries)
        self._draw = draw
        if channels == "global":
            if size is None:
                if not self.entries:
                    raise ValueError("levels drawn per episode need size=(height, width)")
                size = (
                    max(entry.level.height for entry in self.entries),
                    max(entry.level.width for entry in self.entries),
                )
            self.layout = ChannelLayout.global_layout(size)
            for entry in self.entries:
                if not self.layout.shows(entry.level):
                    raise ValueError(f"{entry.name} does not fit the observation size {size}")
        elif draw is not None:
            raise ValueError("levels drawn per episode need channels='global'")
        else:
            self.layout = ChannelLayout.from_levels((entry.level for entry in self.entries), size)
        self.channels = channels
        self.observation = observation
        self.renderer = TileRenderer(tile)
        self.actions = UNDO_ACTIONS if undo_actions else ACTIONS
        self.action_space = spaces.Discrete(len(self.actions))
        height, width = self.layout.height, self.layout.width
        self.observation_space: spaces.Space[Any]
        if observation == "channels":
            self.observation_space = spaces.Box(0, 1, self.layout.shape, dtype=np.uint8)
        elif observation == "pixels":
            self._pixel_renderer = TileRenderer(
                max(tile, math.ceil(MIN_IMAGE_SIDE / min(height, width)))
            )
            side = self._pixel_renderer.tile
            self.observation_space = spaces.Box(0, 255, (height * side, width * side, 3), np.uint8)
        else:
            most = (
                max(entry.level.entity_count for entry in self.entries)
                if draw is None
                else min(MAX_LEVEL_OBJECTS, 4 * height * width)
            )
            self.observation_space = spaces.Text(
                max_length=text_bound(most, 4), charset="".join(sorted(TEXT_CHARSET))
            )
        self._reward = Reward.of(reward)
        self.undo_actions = undo_actions
        self.render_mode = render_mode
        self._cache: dict[int, tuple[Game, ObservationBuilder]] = {}
        self._entry: LevelEntry | None = None
        self._index: int | None = None
        # Each step's work (``miau.gym.stepping``, compiled in the compiled build).
        self._play = Episode(
            self.actions,
            undo_actions=undo_actions,
            max_steps=max_steps,
            reward=self._reward.terms(),
            observe=None if observation == "channels" else self._observe,
        )

    @property
    def reward(self) -> Reward:
        """What each step earns; a new ``Reward`` set here counts from the next step."""
        return self._reward

    @reward.setter
    def reward(self, value: Reward) -> None:
        self._reward = value
        self._play.set_reward(value.terms())

    @property
    def max_steps(self) -> int:
        """Steps before an episode is truncated; a new value counts from the next step."""
        return self._play.max_steps

    @max_steps.setter
    def max_steps(self, value: int) -> None:
        self._play.max_steps = value

    @property
    def entry(self) -> LevelEntry:
        """The level being played (the first of the set before the first reset).

        :raises RuntimeError: before the first reset of an environment that draws its levels.
        """
        if self._entry is not None:
            return self._entry
        if not self.entries:
            raise RuntimeError("call reset() first: this environment draws its levels")
        return self.entries[0]

    @property
    def game(self) -> Game:
        """The engine's game of the level being played (read it; play through ``step``).

        :raises RuntimeError: before the first reset.
        """
        game = self._play.game
        if game is None:
            raise RuntimeError("call reset() first")
        return game

    def _choose_level(self, seeded: bool) -> int:
        """The index in ``entries`` of the level the next episode plays (no draw, no option)."""
        raise NotImplementedError

    def _find(self, wanted: object) -> tuple[LevelEntry, int | None]:
        """The level ``options["level"]`` asks for: an id or name of the set, else a level source."""
        if isinstance(wanted, str):
            for index, entry in enumerate(self.entries):
                if wanted in (entry.level_id, entry.name):
                    return entry, index
        if not isinstance(wanted, str | os.PathLike | Pack | Mapping):
            raise TypeError(
                "options['level'] is a level id, a pack path or id, a share link, a Pack "
                f"or a dict, not {type(wanted).__name__}"
            )
        try:
            entry = entries_from(wanted)[0]
        except LookupError:
            if isinstance(wanted, str) and self.entries:
                names = ", ".join(entry.level_id for entry in self.entries[:8])
                raise LookupError(
                    f"no level {wanted!r} in this environment's set ({names}...), "
                    "and no pack or share link by that name"
                ) from None
            raise
        if not self.layout.shows(entry.level):
            raise ValueError(
                f"{entry.name} ({entry.level.height}x{entry.level.width}) does not fit this "
                f"environment's observation ({self.layout.height}x{self.layout.width}, "
                f"{self.channels} channels); make it with channels='global' and a size that fits"
            )
        return entry, None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode: the level's start state and its ``info``.

        ``options={"level": L}`` chooses the level: an id of the set
        (``"skull-gate"`` or ``"tutorial/skull-gate"``), or any level source
        (a level or pack dict, a share link, a pack path or id: its first
        level), which must fit the observation. ``options={"state":
        snapshot}`` resumes a snapshot from :meth:`snapshot`.

        :raises ValueError: for an unknown option or a level that does not fit.
        :raises LookupError: for a level that cannot be found.
        """
        super().reset(seed=seed)
        options = options or {}
        unknown = sorted(set(options) - {"level", "state"})
        if unknown:
            raise ValueError(f"reset has no option {', '.join(unknown)}; it takes level and state")
        if options.get("state") is not None:
            return self._restore(options["state"])
        wanted = options.get("level")
        index: int | None
        if wanted is not None:
            entry, index = self._find(wanted)
        elif self._draw is not None:
            entry, index = self._draw(self.np_random), None
        else:
            index = self._choose_level(seed is not None)
            entry = self.entries[index]
        game = self._start(entry, index)
        play = self._play
        play.control_lost = game.state.control_lost
        return play.opening()

    def _start(self, entry: LevelEntry, index: int | None) -> Game:
        """Make ``entry`` the level being played, at its start."""
        cached = None if index is None else self._cache.get(index)
        if cached is None:
            play_level = search_level(entry.level)
            game = Game(play_level)
            builder = ObservationBuilder(self.layout, play_level)
            if index is not None:
                self._cache[index] = (game, builder)
        else:
            game, builder = cached
            if game.history_length or game.state.move_count:
                game.reset()
        self._entry, self._index = entry, index
        self._play.start(game, builder, entry.name, entry.shortest)
        return game

    def snapshot(self) -> EnvSnapshot:
        """The episode as it stands, to resume later with ``reset(options={"state": ...})``.

        :raises RuntimeError: before the first reset.
        """
        game, play = self.game, self._play
        return EnvSnapshot(
            entry=self.entry,
            index=self._index,
            state=game.state.to_json(history=self.undo_actions),
            steps=play.steps,
            control_lost=play.control_lost,
            terminated=play.terminated,
        )

    def _restore(self, snapshot: object) -> tuple[Any, dict[str, Any]]:
        if not isinstance(snapshot, EnvSnapshot):
            raise TypeError(
                f"options['state'] is what env.unwrapped.snapshot() returns, not {type(snapshot).__name__}"
            )
        if not self.layout.shows(snapshot.entry.level):
            raise ValueError(
                f"the snapshot's level {snapshot.entry.name} does not fit this environment"
            )
        index = snapshot.index
        if index is not None and (
            index >= len(self.entries) or self.entries[index] != snapshot.entry
        ):
            index = None
        game = self._start(snapshot.entry, index)
        event = game.restore(snapshot.state)
        if not event.accepted:
            raise ValueError(f"the snapshot does not fit its level: {event.reason}")
        play = self._play
        play.steps = snapshot.steps
        play.control_lost = snapshot.control_lost
        play.terminated = snapshot.terminated
        return play.opening()

    def _observe(self, state: State) -> Any:
        """The ``pixels`` or ``text`` observation of ``state`` (channel planes are the builder's)."""
        if self.observation == "pixels":
            return self._pixel_renderer.frame(state, self.layout.height, self.layout.width)
        return describe(state)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one action; return observation, reward, terminated, truncated and info.

        After the episode terminated, a step changes nothing and returns the
        terminal observation, reward 0, ``terminated=True`` and the terminal info.

        :raises ValueError: for an action outside the action space.
        :raises RuntimeError: when called before ``reset``.
        """
        return self._play.step(action)

    def render(self) -> str | RgbFrame | None:
        """The board: text with ``render_mode="ansi"``, an RGB array with ``"rgb_array"``.

        The picture is ``(height * tile, width * tile, 3)`` for the
        observation's size (cells beyond the level are black), so every frame of a
        video has the same size. Nothing before the first reset, or without a render mode.
        """
        game = self._play.game
        if self.render_mode is None or game is None:
            return None
        state = game.state
        if self.render_mode == "ansi":
            return render_text(state)
        return self.renderer.frame(state, self.layout.height, self.layout.width)


class MiauLevelEnv(_MiauEnv):
    """One level of a pack: ``gymnasium.make("miau/Level-v0", pack=..., level=...)``.

    ``pack`` is a pack file, a shipped pack's id (``tutorial``), a share
    link, a loaded ``Pack``, a pack dict or a level dict (see
    ``miau.gym.levels``); ``level`` a level id (default: the pack's first
    level). A list of sources plays each of their levels in turn, and a
    callable is called with the environment's seeded generator at every
    reset and returns the source of that episode's level (then ``size`` is
    required, and the channels are the global ones). ``max_steps`` (default
    200) truncates an episode; ``reward`` is a :class:`Reward` or a mapping
    of some of its fields; ``undo_actions`` adds ``undo`` and ``reset`` as
    actions 5 and 6; ``size`` (height, width) pads observations to a larger
    grid; ``observation`` is ``"channels"``, ``"pixels"`` or ``"text"``;
    ``channels`` is ``"set"`` (the set's own channels) or ``"global"`` (the
    fixed layout); ``render_mode`` is None, ``"ansi"`` or ``"rgb_array"``,
    drawn at ``tile`` pixels a cell.
    """

    def __init__(
        self,
        pack: LevelChoice = "tutorial",
        level: str | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        size: tuple[int, int] | None = None,
        render_mode: str | None = None,
        observation: str = "channels",
        channels: str | None = None,
        tile: int = DEFAULT_TILE,
    ) -> None:
        """Load the level; see the class docstring for the arguments.

        :raises LookupError: when the pack or the level cannot be found.
        :raises ValueError: for a pack with errors or an argument out of range.
        """
        draw = None
        entries: list[LevelEntry] = []
        if _is_draw(pack):
            draw = _drawing(pack)  # type: ignore[arg-type]
        else:
            sources = _sources(pack)  # type: ignore[arg-type]
            if len(sources) == 1:
                loaded = entries_from(sources[0])
                if level is None:
                    entries = loaded[:1]
                else:
                    entries = [e for e in loaded if level in (e.level_id, e.name)][:1]
                    if not entries:
                        raise LookupError(f"no level {level!r} in {loaded[0].pack_id}")
            else:
                entries = level_entries(sources, None if level is None else [level])
        super().__init__(
            entries,
            draw=draw,
            max_steps=max_steps,
            reward=reward,
            undo_actions=undo_actions,
            size=size,
            render_mode=render_mode,
            observation=observation,
            channels=channels,
            tile=tile,
        )
        self._next = 0

    def _choose_level(self, seeded: bool) -> int:
        if seeded:
            self._next = 0
        index = self._next
        self._next = (index + 1) % len(self.entries)
        return index


def _drawing(draw: LevelDraw) -> Callable[[np.random.Generator], LevelEntry]:
    def entry_of(generator: np.random.Generator) -> LevelEntry:
        return entries_from(draw(generator))[0]

    return entry_of


class MiauLevelsEnv(_MiauEnv):
    """Levels of one pack or of several: each episode plays one of them.

    ``gymnasium.make("miau/Levels-v0", packs=["tutorial", "proofs"])``.
    ``packs`` takes what ``pack`` of :class:`MiauLevelEnv` takes (paths,
    shipped ids, share links, ``Pack`` objects, dicts, a list of them).
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
        observation: str = "channels",
        channels: str | None = None,
        tile: int = DEFAULT_TILE,
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
            observation=observation,
            channels=channels,
            tile=tile,
        )
        self.order = order
        self._next = 0

    def _choose_level(self, seeded: bool) -> int:
        if self.order == "sample":
            return int(self.np_random.integers(len(self.entries)))
        if seeded:
            self._next = 0
        index = self._next
        self._next = (index + 1) % len(self.entries)
        return index
