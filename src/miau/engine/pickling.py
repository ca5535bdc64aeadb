"""Pickling the frozen data classes, the same way in the pure and the compiled build.

A frozen data class pickles by setting its fields one by one after making
an empty instance. Interpreted, that goes round the frozen ``__setattr__``;
compiled by mypyc (``docs/compiled.md``) it goes through it and fails. The
frozen classes that travel between processes (the solver's parallel runs,
the server's helper and studio workers, the generator) therefore say how to
rebuild them: call the class with the fields its ``__init__`` takes.
"""

from __future__ import annotations

from dataclasses import Field, fields
from typing import Any, ClassVar, Protocol


class DataClassInstance(Protocol):
    """Any data class instance (what ``dataclasses.fields`` takes)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


def init_arguments(instance: DataClassInstance) -> tuple[object, ...]:
    """The values of ``instance``'s ``__init__`` fields, in declaration order.

    Fields computed after ``__init__`` (``init=False``) are left out: the
    class computes them again when it is rebuilt.
    """
    return tuple(getattr(instance, field.name) for field in fields(instance) if field.init)
