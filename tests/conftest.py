"""Shared fixtures: mpmath's global precision is reset around every test."""

from __future__ import annotations

from collections.abc import Iterator

import mpmath
import pytest


@pytest.fixture(autouse=True)
def _reset_mpmath_precision() -> Iterator[None]:
    """Restore mpmath's default precision so no test can leak a changed ``mp.dps``."""
    mpmath.mp.dps = 15
    yield
    leaked = mpmath.mp.dps
    mpmath.mp.dps = 15
    assert leaked == 15, f"a test left mpmath.mp.dps = {leaked}"
