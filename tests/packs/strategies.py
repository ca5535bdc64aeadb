"""Hypothesis helpers shared by the pack fuzz tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def draw_place(draw: st.DrawFn, data: Any) -> tuple[Any, Any] | None:
    """A place somewhere inside ``data``: a container and one of its keys or indexes.

    The walk goes down a random path, stopping at each level with even odds,
    so shallow and deep places are both drawn. None when it meets an empty
    container.
    """
    node: Any = data
    while True:
        keys: list[Any] = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return None
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        return node, key
