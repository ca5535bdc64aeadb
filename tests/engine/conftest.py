"""The hypothesis profile for the engine tests (``HYPOTHESIS_PROFILE``, default ``ci``)."""

from __future__ import annotations

from tests.engine.hypothesis_profiles import load_profile

load_profile()
