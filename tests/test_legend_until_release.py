"""A legendary permanent phased out "until" a source leaves phases in as it
leaves (610.4), before the next priority, so the legend rule (704.5j)
applies to it and a phased-in namesake then (readings.md I): the reference
engine passes `legend_rule_applies_once_a_legend_phases_in` keeping either.
Released next to a namesake that is still phased out, it stays (702.26b),
and a mutant that counts the phased-out one is still failed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup

PROP = REGISTRY["legend_rule_applies_once_a_legend_phases_in"]
L1 = Permanent("l1", power=2, toughness=2, name="L", legendary=True)
SOURCE = Permanent("s", types=("artifact",))
L2 = replace(L1, id="l2", phased_out=PhasedOut("direct", 0, until="s"))
RELEASE = (a.Destroy(0, "s"),)


def scenario(*permanents: Permanent) -> Scenario:
    return Scenario(Setup(permanents=permanents), RELEASE)


@pytest.mark.parametrize(
    "waiter",
    [L2, replace(L2, owner=1)],
    ids=["owned_by_its_controller", "owned_by_another"],
)
def test_reference_applies_the_legend_rule_to_a_released_legend(waiter: Permanent) -> None:
    trace = play(ReferenceEngine(), scenario(L1, SOURCE, waiter))
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)


def test_a_released_legend_beside_a_phased_out_namesake_stays() -> None:
    """l1 is phased out (not "until"); l2 is released: it alone is phased in
    and must stay. Counting the phased-out l1 puts l2 in the graveyard."""
    case = scenario(replace(L1, phased_out=PhasedOut("direct", 0)), SOURCE, L2)
    PROP.check(play(ReferenceEngine(), case))
    with pytest.raises(Violation, match=r"702\.26b.*l2 stays"):
        PROP.check(play(mutant_engine("legend-rule-sees-phased-out"), case))
