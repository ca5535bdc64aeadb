"""Miau: a rule-rewriting grid puzzle engine and its tools."""
