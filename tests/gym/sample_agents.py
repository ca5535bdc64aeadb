"""Agents that the ``miau bench`` tests load by ``module:callable``."""

from __future__ import annotations

from typing import Any

import numpy as np

from miau.engine import State


def always_right(observation: np.ndarray[Any, Any]) -> str:
    return "right"


def nonsense(observation: np.ndarray[Any, Any]) -> str:
    return "sideways"


class StateCounter:
    """Records what it was shown; walks right by letter."""

    observes = "state"

    def __init__(self) -> None:
        self.seen: list[State] = []

    def __call__(self, state: State) -> str:
        self.seen.append(state)
        return "R"


class PredictOnly:
    """A model in the Stable-Baselines3 shape: ``predict`` returns (action, state)."""

    def predict(self, observation: Any, deterministic: bool = True) -> tuple[Any, None]:
        return np.int64(3), None
