"""An environment's step, apart from its Gymnasium class so that the compiled build compiles it.

``miau.gym.env``'s environments subclass ``gymnasium.Env``, which a class
compiled by mypyc cannot do, and interpreted code cannot subclass a
compiled class; so the work of every step (the action, the engine's turn,
the observation, the reward, the ends and the ``info``) lives in
:class:`Episode`, a plain class the environment holds and calls once a
step. The pure build runs this same file interpreted (``docs/compiled.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np

from miau.engine import Event, Game, RuleSet, State
from miau.engine.state import Snapshot
from miau.gym.observation import ObservationBuilder
from miau.gym.text import rule_texts

MAX_WAITS_FOR_CONTROL: Final = 1024
"""How many waits the check for a returning YOU simulates before it gives up (and plays on)."""

_INTEGERS: Final = (int, np.integer)

Step = tuple[Any, float, bool, bool, dict[str, Any]]
"""What a step returns: observation, reward, terminated, truncated and info."""


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


class Episode:
    """The episode an environment is playing: its game, its counters, and each step's work.

    Made once per environment with what does not change between episodes
    (the actions, the reward's terms, ``max_steps``, ``undo_actions`` and,
    for the ``pixels`` and ``text`` forms, how to observe a state);
    :meth:`start` gives it each episode's game and observation builder.
    """

    def __init__(
        self,
        actions: tuple[str, ...],
        *,
        undo_actions: bool,
        max_steps: int,
        reward: tuple[float, float, float, float, float],
        observe: Callable[[State], Any] | None,
    ) -> None:
        """Prepare for episodes; ``reward`` is (win, loss, step, rule formed, rule broken).

        ``observe`` makes the observation of a state from scratch; None for
        channel planes, which the episode's builder keeps up to date instead.
        """
        self.actions = actions
        self.undo_actions = undo_actions
        self.max_steps = max_steps
        self.win = self.loss = self.step_cost = self.rule_formed = self.rule_broken = 0.0
        self.set_reward(reward)
        self.observe = observe
        self.game: Game | None = None
        self.builder: ObservationBuilder | None = None
        self.level_name = ""
        self.shortest: int | None = None
        self.steps = 0
        self.control_lost = False
        self.terminated = False
        self.last: tuple[Any, dict[str, Any]] | None = None
        """The terminal observation and info, given again by steps after the end."""
        self._state_of: Callable[[], State] = _no_state
        self._rules_seen: RuleSet | None = None
        self._rules_text: tuple[str, ...] = ()

    def set_reward(self, reward: tuple[float, float, float, float, float]) -> None:
        """Pay (win, loss, step, rule formed, rule broken) from the next step on."""
        self.win, self.loss, self.step_cost, self.rule_formed, self.rule_broken = reward

    def start(
        self, game: Game, builder: ObservationBuilder, level_name: str, shortest: int | None
    ) -> None:
        """Play ``game`` (at its start or restored) from step 0, observed through ``builder``."""
        self.game, self.builder = game, builder
        self.level_name, self.shortest = level_name, shortest
        self._state_of = lambda: game.state
        self.steps = 0
        self.terminated = False

    def opening(self) -> tuple[Any, dict[str, Any]]:
        """The observation and ``info`` of the state the game is in, built from scratch."""
        state = self._game().state
        observation = self.observation_of(state)
        return self._remember(observation, self.info(state.rules_table, state.now, True))

    def observation_of(self, state: State) -> Any:
        """The observation of ``state`` from scratch, in the environment's form."""
        if self.observe is not None:
            return self.observe(state)
        builder = self.builder
        assert builder is not None
        return builder.build(state)

    def _game(self) -> Game:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() first")
        return game

    def _remember(self, observation: Any, info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        self.last = (observation, info)
        return observation, info

    def step(self, action: Any) -> Step:
        """Play one action (see ``_MiauEnv.step``).

        :raises ValueError: for an action outside the action space.
        :raises RuntimeError: before the first episode starts.
        """
        builder, game = self.builder, self.game
        if builder is None or game is None:
            raise RuntimeError("call reset() before step()")
        actions = self.actions
        if not (isinstance(action, _INTEGERS) and 0 <= action < len(actions)):
            raise ValueError(f"action must be an integer from 0 to {len(actions) - 1}")
        last = self.last
        if self.terminated and last is not None:
            terminal, terminal_info = last
            copied = terminal.copy() if isinstance(terminal, np.ndarray) else terminal
            return copied, 0.0, True, False, dict(terminal_info)
        # int(): a numpy integer indexes an interpreted tuple, not a compiled one.
        name = actions[int(action)]
        lost_before = self.control_lost
        if name == "undo":
            event = game.undo()
        elif name == "reset":
            event = game.reset()
        else:
            event = game.step(name)
        self.steps += 1
        accepted = event.accepted
        observation: Any
        if self.observe is not None:
            observation = self.observe(game.state)
        elif accepted:
            observation = builder.update(event, self._state_of)
        else:
            observation = builder.current()
        if accepted:
            self.control_lost = event.control_lost
        reward = self.reward_of(event, lost_before)
        terminated = event.won or (
            event.control_lost and not self.undo_actions and not control_can_return(game)
        )
        if terminated and not event.won:
            # Losing ends the episode before its limit: the step reward of every step it
            # cuts off is paid now, so losing on purpose never earns more than waiting until
            # the limit (it earns exactly the loss less). docs/gym.md, "Reward", says why.
            reward += self.step_cost * max(0, self.max_steps - self.steps)
        truncated = not terminated and self.steps >= self.max_steps
        info = self.info(event.rules_after, event, accepted)
        if terminated:
            # Kept for the steps after the end; a copy, since the caller may change theirs.
            self.terminated = True
            kept = observation.copy() if isinstance(observation, np.ndarray) else observation
            self.last = (kept, dict(info))
        return observation, reward, terminated, truncated, info

    def reward_of(self, event: Event, lost_before: bool) -> float:
        """What ``event`` earns, given whether control was lost before it."""
        total = self.step_cost
        if event.won:
            total += self.win
        elif event.control_lost and not lost_before:
            total += self.loss
        if event.rules_before is not event.rules_after and (self.rule_formed or self.rule_broken):
            total += self.rule_formed * len(event.rules_added)
            total += self.rule_broken * len(event.rules_removed)
        return total

    def info(self, rules: RuleSet, now: Event | Snapshot, accepted: bool) -> dict[str, Any]:
        """``level``, ``rules``, ``won``, ``is_success``, ``control_lost``, ``accepted``, ``moves``, ``steps``.

        And ``shortest``, the proved shortest solution's length, when it is known
        (every level a family draws).
        """
        if rules is not self._rules_seen:
            self._rules_seen = rules
            self._rules_text = rule_texts(rules)
        won = now.won
        info: dict[str, Any] = {
            "level": self.level_name,
            "rules": self._rules_text,
            "won": won,
            "is_success": won,
            "control_lost": now.control_lost,
            "accepted": accepted,
            "moves": now.move_count,
            "steps": self.steps,
        }
        if self.shortest is not None:
            info["shortest"] = self.shortest
        return info


def _no_state() -> State:
    """The state reader before the first episode: there is no game to read."""
    raise RuntimeError("call reset() first")
