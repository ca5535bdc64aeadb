"""Hypothesis profiles for the fuzz and invariant suites: bounded in the test command, long on demand.

``HYPOTHESIS_PROFILE=ci`` (the default) keeps every test at hypothesis's
usual 100 examples unless the test says otherwise; ``HYPOTHESIS_PROFILE=long``
runs 5,000 examples of every test that does not fix its own count.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["load_profile"]

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile(
    "long",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def load_profile() -> None:
    """Load the profile named by ``HYPOTHESIS_PROFILE`` (default ``ci``)."""
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
