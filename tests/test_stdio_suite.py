"""The whole suite through `phasecert serve` gives the in-process verdicts:
every property under ci, for the reference engine and phase.rs, with the
same statuses and counterexamples. Opt-in (minutes per engine):
PHASECERT_FULL_STDIO=1 pytest tests/test_stdio_suite.py. The default run
checks a sample (tests/test_stdio.py)."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Any

import pytest

from adapters.discovery import load_engine
from conformance.checking import profile, run_property
from conformance.properties import REGISTRY

pytestmark = pytest.mark.skipif(
    not os.environ.get("PHASECERT_FULL_STDIO"), reason="opt-in: PHASECERT_FULL_STDIO=1"
)


def verdicts(engine: Any) -> dict[str, tuple[str, str, Any]]:
    return {
        name: (r.status, r.message, r.counterexample)
        for name, prop in REGISTRY.items()
        for r in [run_property(prop, engine, using=profile("ci"))]
    }


@pytest.mark.parametrize("name", ["reference", "phase-rs"])
def test_the_suite_through_serve_gives_the_in_process_verdicts(name: str) -> None:
    try:
        inside = load_engine(name)
    except Exception as e:  # phase.rs is an optional install
        pytest.skip(f"{name} can't be loaded here: {e}")
    served = load_engine(
        f"stdio:{shlex.quote(sys.executable)} -m conformance.cli serve --engine {name}"
    )
    try:
        assert verdicts(served) == verdicts(inside)
    finally:
        served.close()
