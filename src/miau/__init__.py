"""Miau: a rule-rewriting grid puzzle engine and its tools."""

DISTRIBUTION = "miau-puzzle"
"""The name Miau is published and installed under (``pip install miau-puzzle``); the
import name and the command are ``miau``."""
