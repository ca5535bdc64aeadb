"""How far one solution is from another: what makes a generated level a near-copy of its seed.

A mutation that leaves the seed's solution standing (a wall moved where no
one walks, a word added that nothing reads) makes a level a player solves
with the seed's very moves. ``miau.generate.evolve`` stops scoring such a
candidate and ``miau.generate.finish`` never writes one.
"""

from __future__ import annotations


def edit_distance(one: str, other: str) -> int:
    """Levenshtein distance between two move strings."""
    previous = list(range(len(other) + 1))
    for row, letter in enumerate(one, start=1):
        current = [row]
        for column, theirs in enumerate(other, start=1):
            current.append(
                min(
                    previous[column] + 1,
                    current[column - 1] + 1,
                    previous[column - 1] + (letter != theirs),
                )
            )
        previous = current
    return previous[-1]


def near_distance(solution: str) -> int:
    """Edits within which a solution counts as a near-copy of another: a fifth of it, at least 2."""
    return max(2, len(solution) // 5)
