"""Trimming counterexamples past Hypothesis's shrinker (conformance.trimming):
a permanent nothing names is deleted while the same failure remains."""

from __future__ import annotations

from adapters.mutants import mutant_engine
from conformance import actions as a
from conformance.checking import profile, run_property
from conformance.codec import from_data
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup
from conformance.trimming import trim

AURA = {"types": ("enchantment",), "attachment": "aura"}
BEAR = {"power": 2, "toughness": 2}


def ids(scenario: Scenario) -> list[str]:
    return [p.id for p in scenario.setup.permanents]


def test_deletes_what_nothing_names_while_the_failure_stays() -> None:
    scenario = Scenario(
        Setup(
            players=2,
            permanents=(
                Permanent("p1", **BEAR),  # type: ignore[arg-type]
                Permanent("p2", phasing=1, **BEAR),  # type: ignore[arg-type]
                Permanent("p3", attached_to="p1", **AURA),  # type: ignore[arg-type]
                Permanent("p4", **BEAR),  # type: ignore[arg-type]
            ),
        ),
        (a.Destroy(0, "p4"), a.PassTurn()),
    )
    tried: list[list[str]] = []

    def failure(candidate: Scenario) -> str | None:
        tried.append(ids(candidate))
        return f"fails with {len(ids(candidate))}" if "p2" in ids(candidate) else None

    trimmed, found = trim(scenario, failure, "fails with 4")
    # p3 goes first (nothing names it), then p1 (only p3 named it); p4 is
    # named by an action and stays; without p2 the failure is gone.
    assert ids(trimmed) == ["p2", "p4"] and found == "fails with 2"
    assert trimmed.actions == scenario.actions
    assert ["p1", "p3", "p4"] in tried


def test_keeps_everything_when_each_deletion_loses_the_failure() -> None:
    bears = (Permanent("p1", power=2, toughness=2), Permanent("p2", power=2, toughness=2))
    scenario = Scenario(Setup(players=2, permanents=bears))
    assert trim(scenario, lambda candidate: None, "found") == (scenario, "found")


def test_a_mutants_counterexample_has_no_bystander() -> None:
    prop = REGISTRY["untap_step_untaps_after_phasing"]
    engine = mutant_engine("phased-out-untap")
    result = run_property(prop, engine, using=profile("ci"))
    assert result.status == "fail" and result.counterexample is not None
    scenario = from_data(Scenario, result.counterexample)

    def violation(candidate: Scenario) -> str | None:
        try:
            prop.check(play(engine, candidate))
        except Violation as v:
            return str(v)
        return None

    assert trim(scenario, violation, result.message) == (scenario, result.message)
