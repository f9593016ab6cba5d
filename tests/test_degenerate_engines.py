"""Meta-tests: no pass is unearned. Engines that do (almost) nothing
(adapters.degenerate) are run through every property and the comparison; no
property may pass on one unless the engine really implements every rule it
certifies (`Degenerate.implements`), and the comparison never passes.

Each test prints, per property, the status and how many examples exercised
it (`pytest -rP` shows it), which is how a predicate too weak to tell a
degenerate engine from a real one shows up before it breaks the assertion.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import Phase, settings

from adapters.degenerate import DEGENERATES, degenerate_engine
from adapters.discovery import EngineNotFound, load_engine
from conformance.actions import PassTurn
from conformance.agreement_results import COMPARISON
from conformance.checking import profile, run_property
from conformance.differential import run_agreement
from conformance.properties import REGISTRY, Property
from conformance.results import PropertyResult
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

#: Engines that refuse what they can't play fail each property at its first
#: legal action, so they get the whole ci profile, every property. The
#: others play every example out, so they skip the properties whose rules
#: they implement (those may pass) and get the ci profile's derandomized
#: examples cut to PHASECERT_DEGENERATE_EXAMPLES: 50 unless set (5 exercised
#: examples make a pass, a tenth, as in ci); 100 is the whole profile.
REFUSING = {"inert", "inert-bare", "echo", "random-refusals", "untap-only-refusing"}
PLAYING_EXAMPLES = int(os.environ.get("PHASECERT_DEGENERATE_EXAMPLES", "50"))
#: Only the verdict matters here, not a minimal counterexample.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


def budget(name: str) -> settings:
    examples = 100 if name in REFUSING else PLAYING_EXAMPLES
    return settings(profile("ci"), max_examples=examples, phases=NO_SHRINK)


def to_run(name: str) -> list[Property]:
    """The properties that could pass on rules `name` doesn't implement."""
    implements = DEGENERATES[name].implements
    return [
        prop for prop in REGISTRY.values() if name in REFUSING or not set(prop.rules) <= implements
    ]


def table(results: list[PropertyResult]) -> str:
    return "\n".join(
        f"  {r.property:62} {r.status:15} exercised {r.exercised}/{r.examples}" for r in results
    )


@pytest.mark.parametrize("name", list(DEGENERATES))
def test_no_unearned_pass(name: str) -> None:
    degenerate = DEGENERATES[name]
    engine = degenerate_engine(name)
    using = budget(name)
    results = [run_property(prop, engine, using=using) for prop in to_run(name)]
    results.append(run_agreement(engine, using=using, timeout=30))
    passing = sorted(r.property for r in results if r.status == "pass")
    skipped = len(REGISTRY) + 1 - len(results)
    print(
        f"degenerate:{name} ({degenerate.does}), {using.max_examples} examples, "
        f"{skipped} properties of implemented rules not run:"
    )
    print(table(results))
    print(f"  passes: {', '.join(passing) or 'none'}")
    broken = [r for r in results if r.status == "engine-error"]
    assert not broken, f"degenerate:{name} could not play: {broken[0].message}"
    unearned = [
        f"{r.property} ({', '.join(sorted(set(r.rules) - degenerate.implements))})"
        for r in results
        if r.status == "pass"
        and (r.property == COMPARISON or not set(r.rules) <= degenerate.implements)
    ]
    assert not unearned, (
        f"degenerate:{name} passes rules it does not implement ({degenerate.why}): "
        + "; ".join(unearned)
        + "\n"
        + table(results)
    )


def test_degenerate_engines_load_by_name() -> None:
    assert load_engine("degenerate:inert").name == "degenerate:inert"
    assert not load_engine("degenerate:inert-bare").capabilities
    with pytest.raises(EngineNotFound, match="degenerate engines: inert"):
        load_engine("degenerate:nothing")


def test_random_refusals_are_deterministic() -> None:
    """The same scenario gets the same refusals, so a failure replays."""
    scenario = Scenario(
        Setup(permanents=(Permanent("p1", phasing=1, power=1, toughness=1),)), (PassTurn(),) * 12
    )
    engine = degenerate_engine("random-refusals")
    runs = [[s.after.refused for s in play(engine, scenario).steps] for _ in range(2)]
    assert runs[0] == runs[1]
    assert None in runs[0] and any(runs[0]), runs[0]
