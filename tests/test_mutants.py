"""Meta-tests: every property can fail. Each mutant engine must fail the
properties it names, each failure naming its rule and carrying a shrunk
counterexample; every property and every catalog rule has a mutant."""

from __future__ import annotations

import pytest
from hypothesis import settings

from adapters.mutants import MUTANTS, mutant_engine
from adapters.reference import reference_of
from conformance.catalog import CATALOG
from conformance.checking import profile, run_property
from conformance.codec import from_data
from conformance.editions import CATALOGS
from conformance.properties import every_property, in_edition
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from tests.budgets import VERDICT_ONLY

KILLS = [(m.name, prop) for m in MUTANTS.values() for prop in m.kills]

#: The ci profile itself: every mutant must be caught within the examples
#: an engine is certified on (reports/detection.md counts how many each
#: needs: `phasecert detection`).
META = profile("ci")
_IDS = [f"{m}-{p}" for m, p in KILLS]


def _run(mutant: str, prop: str, using: settings) -> PropertyResult:
    """A mutant of an older edition is certified under that edition, against
    its oracle (tests/test_editions.py)."""
    edition = MUTANTS[mutant].edition
    return run_property(
        in_edition(edition)[prop],
        mutant_engine(mutant),
        using=using,
        reference=reference_of(edition),
    )


@pytest.mark.parametrize(("mutant", "prop"), KILLS, ids=_IDS)
def test_mutant_fails_property(mutant: str, prop: str) -> None:
    """Found within ci's examples, naming the rule it breaks."""
    result = _run(mutant, prop, VERDICT_ONLY)
    assert result.status == "fail", f"{prop} passed on mutant:{mutant} ({MUTANTS[mutant].bug})"
    assert any(rule in result.message for rule in result.rules), result.message


@pytest.mark.thorough
@pytest.mark.parametrize(("mutant", "prop"), KILLS, ids=_IDS)
def test_mutant_counterexample_is_shrunk(mutant: str, prop: str) -> None:
    """As certification reports it: shrunk to at most 6 actions."""
    result = _run(mutant, prop, META)
    assert result.status == "fail", f"{prop} passed on mutant:{mutant} ({MUTANTS[mutant].bug})"
    scenario = from_data(Scenario, result.counterexample)
    assert len(scenario.actions) <= 6, f"counterexample not shrunk: {scenario}"


def test_every_property_is_killed_by_a_mutant() -> None:
    killed = {prop for _, prop in KILLS}
    every = set(every_property())
    assert not every - killed, f"no mutant fails {sorted(every - killed)}"


def test_every_rule_has_a_mutant() -> None:
    broken = {m.breaks for m in MUTANTS.values()}
    assert not set(CATALOG) - broken, f"no mutant breaks {sorted(set(CATALOG) - broken)}"


def test_mutants_name_known_rules_and_properties() -> None:
    for m in MUTANTS.values():
        assert m.breaks in CATALOGS[m.edition], m
        assert set(m.kills) <= set(in_edition(m.edition)), m
