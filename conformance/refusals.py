"""Refusals are verdicts: an engine that refuses a legal action has not
played the rule that action was generated to exercise.

A property's checks are implications ("if it phased out, then ..."), so an
engine that refuses everything would satisfy all of them. Here a refusal is
held against the engine when the reference engine, in the same position,
plays the action. Only while the two engines still show the same position
(`conformance.position.same_position`): after they part ways the reference
is no judge of what is legal for the engine, and the properties and the
comparison judge the parting itself.
"""

from __future__ import annotations

from conformance.describe import describe_action
from conformance.position import same_position
from conformance.properties.registry import Violation, where
from conformance.running import Trace


def refused_legal_action(rule: str, trace: Trace, reference: Trace) -> Violation | None:
    """The first action of `trace` the engine refused although the reference
    engine played it from the same position, as a violation of `rule`."""
    for mine, theirs in zip(trace.steps, reference.steps, strict=True):
        if not same_position(mine.before, theirs.before):
            return None
        if mine.after.refused is not None and theirs.after.refused is None:
            return Violation(
                rule,
                where(trace, mine),
                f"the engine plays {describe_action(mine.action)} (a legal action there: "
                "the reference engine plays it, and the engine declares the capabilities "
                "it needs)",
                f"it refused a legal action: {mine.after.refused}",
            )
    return None
