"""Checking one property against one engine with Hypothesis.

The outcome is a `PropertyResult` carrying the shrunk counterexample, so the
pytest plugin, the certification command and the meta-tests all see failures
the same way: rule ID, expected versus observed, and a minimal scenario.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
from hypothesis.database import DirectoryBasedExampleDatabase

from adapters.protocol import (
    OPTIONAL_OBSERVATIONS,
    Inexpressible,
    missing_capabilities,
    unreported_observations,
)
from adapters.reference import ReferenceEngine
from conformance.capabilities import Capability
from conformance.codec import from_data, to_data
from conformance.describe import describe_scenario
from conformance.properties.registry import Property, Violation
from conformance.refusals import refused_legal_action
from conformance.results import PropertyResult
from conformance.running import DEFAULT_TIMEOUT, EngineError, Trace, play
from conformance.scenario import Scenario
from conformance.trimming import trim

# Explicit derandomize and database: on a CI machine Hypothesis's own
# defaults are derandomized with no database, which our profiles must not
# inherit.
_EXAMPLES = DirectoryBasedExampleDatabase(".hypothesis/examples")
PROFILES: dict[str, settings] = {
    "dev": settings(max_examples=25, derandomize=False, database=_EXAMPLES),
    "ci": settings(max_examples=100, derandomize=True, database=None),
    "certify": settings(max_examples=500, derandomize=False, database=_EXAMPLES),
}
_COMMON = {
    "deadline": None,
    "report_multiple_bugs": False,
    "verbosity": Verbosity.quiet,
    "suppress_health_check": list(HealthCheck),
    # Hypothesis's explain phase traces every line each example runs, the
    # engine's included, to say which lines only failing examples reach;
    # the suite reports the rule and the shrunk scenario instead, and never
    # reads it. It made a failing property about 3x slower to run and shrink.
    "phases": tuple(p for p in Phase if p is not Phase.explain),
}
for _name, _profile in PROFILES.items():
    settings.register_profile(f"phasecert-{_name}", settings(_profile, **_COMMON))


_REFERENCE = ReferenceEngine()


def exercise_needed(using: settings) -> int:
    """Examples that must exercise a property's rule for it to pass: a tenth
    of the examples asked for, at most 25 (ci 10, certify 25), so a rule
    shown in one lucky example is not certified. A quick run of fewer than
    50 (dev) needs one: 25 random examples may hold few of a rare situation,
    and dev certifies nothing."""
    return 1 if using.max_examples < 50 else min(25, using.max_examples // 10)


def profile(name: str) -> settings:
    """The Hypothesis settings of profile `name` (dev, ci or certify)."""
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}")
    return settings.get_profile(f"phasecert-{name}")


class _Record:
    """What the Hypothesis run saw: examples tried and the last failure,
    which is the shrunk one because Hypothesis replays it last."""

    def __init__(self) -> None:
        self.examples = 0
        self.exercised = 0
        self.refusals = 0
        self.scenario: Scenario | None = None
        self.error: BaseException | None = None


def needs_text(missing: Iterable[Capability], engine: Any) -> str:
    """The capabilities `engine` lacks, each with the reason its adapter
    gives (`adapters.protocol.missing_capabilities`), if any."""
    reasons = missing_capabilities(engine)
    return "; ".join(
        f"{c.value} ({reasons[c]})" if c in reasons else c.value for c in sorted(missing)
    )


def not_applicable(prop: Property, engine: Any) -> PropertyResult | None:
    """The "not applicable" result of `prop` on `engine`, if the engine lacks
    a capability it needs or an observation it reads; None if it applies."""
    missing = prop.needs - engine.capabilities
    if missing:
        return PropertyResult(
            prop.name,
            prop.rules,
            "not-applicable",
            message="not applicable: needs " + needs_text(missing, engine),
            missing=tuple(sorted(c.value for c in missing)),
        )
    unread = prop.reads & unreported_observations(engine)
    if unread:
        # A check reading a field the engine leaves at its default would
        # pass or fail on nothing the engine meant (docs/observations.md).
        return PropertyResult(
            prop.name,
            prop.rules,
            "not-applicable",
            message="not applicable: needs "
            + ", ".join(f"the engine's {OPTIONAL_OBSERVATIONS[n]}" for n in sorted(unread))
            + ", which it does not report",
        )
    return None


def run_property(
    prop: Property,
    engine: Any,
    *,
    using: settings | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    replay: tuple[Scenario, ...] = (),
    reference: Any = _REFERENCE,
) -> PropertyResult:
    """Check `prop` on `engine`; scenarios in `replay` are tried first, in
    order (a corpus of earlier counterexamples). `reference` is the oracle
    of the edition certified, which says whether a refusal refused a legal
    action (`hold`)."""
    inapplicable = not_applicable(prop, engine)
    if inapplicable is not None:
        return inapplicable
    using = using or profile("ci")
    record = _Record()
    started = time.monotonic()

    def check(scenario: Scenario) -> None:
        record.examples += 1
        try:
            trace = play(engine, scenario, timeout)
            record.refusals += sum(s.after.refused is not None for s in trace.steps)
            hold(prop, engine, trace, reference)
        except (Violation, EngineError) as e:
            record.scenario, record.error = scenario, e
            raise
        if prop.exercised(trace):
            record.exercised += 1

    try:
        for scenario in replay:
            with contextlib.suppress(Inexpressible):
                check(scenario)
        test = _hypothesis_test(prop, engine, check, using)
        test()
    except (Violation, EngineError) as e:
        # Hypothesis re-raises the shrunk failure after replaying it last.
        error: BaseException = e
        if isinstance(e, Violation) and record.scenario is not None:
            record.scenario, error = trim(
                record.scenario, _same_violation(prop, engine, e, timeout, reference), e
            )
        return _failure(prop, record, error, time.monotonic() - started)
    return _passed(prop, record, exercise_needed(using), time.monotonic() - started)


class ReferenceCannotPlay(Inexpressible):
    """The reference engine, asked how it plays a scenario the engine under
    test refused part of, could not play it (its first observation is not
    the setup's position, say). The oracle judged nothing, so the engine is
    not to blame: the example is set aside, like an inexpressible one."""


def hold(prop: Property, engine: Any, trace: Trace, reference: Any = _REFERENCE) -> None:
    """Hold `engine`'s trace to `prop`: its check, then the refusal of any
    action the reference engine (of the edition certified) plays from the
    same position (`conformance.refusals`). Raises the `Violation` found,
    or `ReferenceCannotPlay` where the reference can't play the scenario."""
    prop.check(trace)
    if engine != reference and any(s.after.refused for s in trace.steps):
        try:
            played = play(reference, trace.scenario)
        except EngineError as e:
            raise ReferenceCannotPlay(f"the reference engine can't play it: {e}") from e
        refusal = refused_legal_action(prop.rules, trace, played)
        if refusal is not None:
            raise refusal


def _passed(prop: Property, record: _Record, needed: int, elapsed: float) -> PropertyResult:
    """Pass, or "not-exercised" when too few examples put the rule to the test."""
    if record.exercised >= needed:
        status, message = "pass", ""
    else:
        status = "not-exercised"
        message = (
            f"not exercised: {record.exercised} of {record.examples} examples exercised it, "
            f"{needed} needed ({prop.exercise_doc})"
        )
    return PropertyResult(
        prop.name,
        prop.rules,
        status,
        record.examples,
        message,
        duration=elapsed,
        exercised=record.exercised,
        refusals=record.refusals,
    )


def _same_violation(
    prop: Property, engine: Any, found: Violation, timeout: float, reference: Any
) -> Callable[[Scenario], Violation | None]:
    """For `trim`: a candidate's violation, if it breaks the same rule. An
    engine error is another failure, and not trimmed (a hung engine is not
    called again)."""

    def violation(candidate: Scenario) -> Violation | None:
        try:
            hold(prop, engine, play(engine, candidate, timeout), reference)
        except Violation as v:
            return v if v.rule == found.rule else None
        except (EngineError, Inexpressible):
            return None
        return None

    return violation


def _hypothesis_test(prop: Property, engine: Any, check: Any, using: settings) -> Any:
    def test(scenario: Scenario) -> None:
        try:
            check(scenario)
        except Inexpressible:
            reject()  # set aside: the adapter can't express it (adapters.protocol)

    # The digest seeds derandomized runs and keys the example database.
    # Derandomized (ci), it is the property's alone, so every engine with the
    # same capabilities is certified on the same examples and certificates
    # compare; otherwise the engine's too, so stored examples are replayed
    # for the engine that found them.
    test.__name__ = test.__qualname__ = prop.name
    wrapped = given(prop.scenarios(engine.capabilities))(test)
    digest = prop.name if using.derandomize else f"{prop.name}:{engine.name}"
    wrapped._hypothesis_internal_add_digest = digest.encode()  # type: ignore[attr-defined]
    return using(wrapped)


def _failure(
    prop: Property, record: _Record, error: BaseException, elapsed: float
) -> PropertyResult:
    scenario = record.scenario
    status = "engine-error" if isinstance(error, EngineError) else "fail"
    return PropertyResult(
        prop.name,
        prop.rules,
        status,
        record.examples,
        message=str(error),
        counterexample=None if scenario is None else to_data(scenario),
        duration=elapsed,
        exercised=record.exercised,
        refusals=record.refusals,
    )


def failure_report(result: PropertyResult) -> str:
    """The text a person reads for a failed property: the rule, what was
    expected and observed, and the minimal scenario."""
    lines = [f"{result.property} ({', '.join(result.rules)}): {result.status}", result.message]
    if result.counterexample is not None:
        scenario = from_data(Scenario, result.counterexample)
        lines += ["Minimal counterexample:", describe_scenario(scenario)]
    return "\n".join(lines)
