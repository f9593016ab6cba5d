"""The suite through `phasecert serve` gives the in-process verdicts, under
ci, with the same statuses, messages and counterexamples: for the reference
engine and phase.rs.

By default, phase.rs on two properties (one it passes, one it fails, so the
counterexample and its trimming cross the protocol too); the reference's
sample is in tests/test_stdio.py. Every property, for both engines, one test
each, is opt-in (about an hour for phase.rs on one core; the README says
how): PHASECERT_FULL_STDIO=1 pytest tests/test_stdio_suite.py -n 2.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterable
from typing import Any

import pytest

from adapters.discovery import load_engine
from conformance.checking import profile, run_property
from conformance.properties import REGISTRY

FULL = bool(os.environ.get("PHASECERT_FULL_STDIO"))
#: phase.rs passes the first and fails the second (reports/phase-rs/).
PHASE_RS_SAMPLE = (
    "creatures_that_phase_in_can_tap_and_attack",
    "phased_out_under_a_leaver_returns_after_their_turn",
)


def verdicts(engine: Any, names: Iterable[str]) -> dict[str, tuple[str, str, Any]]:
    return {
        name: (r.status, r.message, r.counterexample)
        for name in names
        for r in [run_property(REGISTRY[name], engine, using=profile("ci"))]
    }


def compare_through_serve(name: str, properties: Iterable[str]) -> None:
    try:
        inside = load_engine(name)
    except Exception as e:  # phase.rs is an optional install
        pytest.skip(f"{name} can't be loaded here: {e}")
    served = load_engine(
        f"stdio:{shlex.quote(sys.executable)} -m conformance.cli serve --engine {name}"
    )
    properties = tuple(properties)
    try:
        through, there = verdicts(served, properties), verdicts(inside, properties)
    finally:
        served.close()
    differences = {p: (there[p], through[p]) for p in properties if there[p] != through[p]}
    assert not differences, f"in process, then through serve: {differences}"


@pytest.mark.thorough
def test_phase_rs_through_serve_gives_the_in_process_verdicts_on_a_sample() -> None:
    compare_through_serve("phase-rs", PHASE_RS_SAMPLE)


@pytest.mark.skipif(not FULL, reason="opt-in: PHASECERT_FULL_STDIO=1")
@pytest.mark.parametrize("name", ["reference", "phase-rs"])
# Collected only when opted in: 126 skips would crowd the default run's output.
@pytest.mark.parametrize("prop", sorted(REGISTRY) if FULL else ())
def test_every_property_through_serve_gives_the_in_process_verdict(name: str, prop: str) -> None:
    compare_through_serve(name, [prop])
