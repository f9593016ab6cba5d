"""Session fixtures for the benchmarks (see `benchmarks.harness`)."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.discovery import load_engine
from benchmarks.harness import ENGINES, Timings


@pytest.fixture(scope="session")
def timings() -> Timings:
    return Timings()


@pytest.fixture(scope="session")
def engines() -> dict[str, Any]:
    """Each engine of `ENGINES` loaded once, or the reason it can't be: an
    adapter that fails to load, however it fails, skips its own rows only."""
    loaded: dict[str, Any] = {}
    for name in ENGINES:
        try:
            loaded[name] = load_engine(name)
        except Exception as e:
            loaded[name] = f"{name} is unavailable: {type(e).__name__}: {e}"
    return loaded
