"""The registry of properties: each states one or more rules as an invariant
over what an engine showed while playing generated scenarios."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from adapters.protocol import OPTIONAL_OBSERVATIONS
from conformance.capabilities import Capability
from conformance.catalog import CATALOG, Edition
from conformance.editions import CURRENT, rules_in
from conformance.running import Step, Trace
from conformance.scenario import Scenario

ScenarioFactory = Callable[[Collection[Capability]], st.SearchStrategy[Scenario]]
Check = Callable[[Trace], None]
#: Whether a trace exercised a property's rule: the situation the rule is
#: about arose *and* the engine showed the rule's effect (something phased,
#: an Aura phased in with its host gone, ...). A trace where nothing happened
#: satisfies every implication vacuously; it must not count toward a pass.
Exercise = Callable[[Trace], bool]


@dataclass(frozen=True)
class Property:
    """`scenarios(caps)` generates scenarios the engine can play; `check`
    raises `Violation` when the trace breaks a rule in `rules`; `exercised`
    says whether a trace that passed really put the rule to the test;
    `reads` names the optional observations (`OPTIONAL_OBSERVATIONS`) the
    check or the predicate reads, without which the property can't judge."""

    name: str
    rules: tuple[str, ...]
    needs: frozenset[Capability]
    scenarios: ScenarioFactory
    check: Check
    doc: str
    exercised: Exercise
    reads: frozenset[str] = frozenset()

    @property
    def exercise_doc(self) -> str:
        """What exercising the rule means, as the predicate's docstring says."""
        return " ".join((self.exercised.__doc__ or "").split())


#: Today's properties: each cites rules of today's catalog (and may cite
#: older editions' too).
REGISTRY: dict[str, Property] = {}
#: The properties of rules only older editions have (where they differ from
#: today's, conformance/properties/editions.py).
OLDER_ONLY: dict[str, Property] = {}


def every_property() -> dict[str, Property]:
    """Today's properties and the older editions' own."""
    return {**REGISTRY, **OLDER_ONLY}


def in_edition(edition: Edition = CURRENT) -> dict[str, Property]:
    """The properties that hold in `edition`, each citing the rules it
    certifies there by that edition's numbers (`conformance.editions.rules_in`);
    today's are `REGISTRY` itself."""
    if edition == CURRENT:
        return dict(REGISTRY)
    found = {}
    for name, prop in every_property().items():
        rules = rules_in(prop.rules, edition)
        if rules:
            found[name] = replace(prop, rules=rules)
    return found


def rule_property(
    *rules: str,
    needs: Iterable[Capability] = (),
    scenarios: ScenarioFactory,
    exercised: Exercise,
    reads: Iterable[str] = (),
) -> Callable[[Check], Check]:
    """Register `check` as a property of `rules` (rule IDs of the catalog);
    `exercised` is the predicate a passing trace must meet to count toward
    the property's pass (its docstring says what it means, for reports);
    `reads` the optional observations it needs ("events", "life", ...)."""

    def register(check: Check) -> Check:
        name = check.__name__
        if name in REGISTRY or name in OLDER_ONLY:
            raise ValueError(f"property {name} is registered twice")
        if not (exercised.__doc__ or "").strip():
            raise ValueError(f"property {name}: its exercised predicate says nothing (docstring)")
        unknown = set(reads) - set(OPTIONAL_OBSERVATIONS)
        if unknown:
            raise ValueError(f"property {name} reads {sorted(unknown)}: not optional observations")
        today = all(rule in CATALOG for rule in rules)
        (REGISTRY if today else OLDER_ONLY)[name] = Property(
            name,
            rules,
            frozenset(needs),
            scenarios,
            check,
            (check.__doc__ or "").strip(),
            exercised,
            frozenset(reads),
        )
        return check

    return register


class Violation(AssertionError):
    """A trace broke a rule: what the rule expected and what the engine did."""

    def __init__(self, rule: str, where: str, expected: str, observed: str) -> None:
        super().__init__(f"{rule} {where}: expected {expected}; the engine showed {observed}")
        self.rule = rule
        self.where = where
        self.expected = expected
        self.observed = observed


def where(trace: Trace, step: Step) -> str:
    """ "after action 3 (PassTurn)": where in the scenario a violation is."""
    index = trace.steps.index(step) + 1
    return f"after action {index} ({type(step.action).__name__})"


def expect(ok: bool, rule: str, at: str, expected: str, observed: str) -> None:
    if not ok:
        raise Violation(rule, at, expected, observed)
