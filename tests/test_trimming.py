"""Trimming counterexamples past Hypothesis's shrinker (conformance.trimming):
a permanent nothing names, and an action, are deleted while the same failure
remains."""

from __future__ import annotations

import pytest

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
        needed = "p2" in ids(candidate) and a.PassTurn() in candidate.actions
        return f"fails with {len(ids(candidate))}" if needed else None

    trimmed, found = trim(scenario, failure, "fails with 4")
    # The Destroy goes first (the failure doesn't need it), which frees p4;
    # p3 goes (nothing names it), then p1 (only p3 named it) and p4; without
    # p2 or the PassTurn the failure is gone.
    assert ids(trimmed) == ["p2"] and found == "fails with 1"
    assert trimmed.actions == (a.PassTurn(),)
    assert ["p1", "p3", "p4"] in tried


def test_keeps_a_token_creation_a_later_action_names() -> None:
    scenario = Scenario(
        Setup(players=2), (a.CreateToken(0, "t1"), a.PhaseOut(0, ("t1",)), a.PassTurn())
    )

    def failure(candidate: Scenario) -> str | None:
        return "fails" if a.PassTurn() in candidate.actions else None

    # The PhaseOut can go, then the creation nothing names any more.
    assert trim(scenario, failure, "fails")[0].actions == (a.PassTurn(),)
    tried: list[tuple[a.Action, ...]] = []

    def needs_phase_out(candidate: Scenario) -> str | None:
        tried.append(candidate.actions)
        return "fails" if a.PhaseOut(0, ("t1",)) in candidate.actions else None

    trimmed, _ = trim(scenario, needs_phase_out, "fails")
    assert trimmed.actions == (a.CreateToken(0, "t1"), a.PhaseOut(0, ("t1",)))
    assert all(a.CreateToken(0, "t1") in actions for actions in tried)


def test_keeps_everything_when_each_deletion_loses_the_failure() -> None:
    bears = (Permanent("p1", power=2, toughness=2), Permanent("p2", power=2, toughness=2))
    scenario = Scenario(Setup(players=2, permanents=bears))
    assert trim(scenario, lambda candidate: None, "found") == (scenario, "found")


@pytest.mark.thorough
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
