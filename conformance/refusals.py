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

from conformance import actions as a
from conformance.describe import describe_action
from conformance.position import same_position
from conformance.properties.history import view
from conformance.properties.registry import Violation, where
from conformance.running import Step, Trace

#: The rules of summoning sickness: a refusal to pay a phased-in
#: permanent's {T} is their evidence.
SICKNESS = frozenset({"302.6", "R2017-haste"})


def refused_legal_action(
    rules: tuple[str, ...], trace: Trace, reference: Trace
) -> Violation | None:
    """The first action of `trace` the engine refused although the reference
    engine played it from the same position, as a violation of the first of
    `rules` (a property's). Not where the engine refused to pay {T} of a
    phased-in permanent and `rules` are not sickness's: it held it
    summoning sick, which the sickness property judges, and the phasing
    rule of a property that tapped it on the way is not to blame."""
    for mine, theirs in zip(trace.steps, reference.steps, strict=True):
        if not same_position(mine.before, theirs.before):
            return None
        if mine.after.refused is not None and theirs.after.refused is None:
            if _taps_phased_in(theirs) and not SICKNESS & set(rules):
                return None
            return Violation(
                rules[0],
                where(trace, mine),
                f"the engine plays {describe_action(mine.action)} (a legal action there: "
                "the reference engine plays it, and the engine declares the capabilities "
                "it needs)",
                f"it refused a legal action: {mine.after.refused}",
            )
    return None


def _taps_phased_in(step: Step) -> bool:
    """`step` pays {T} of a permanent phased in before it: an engine
    showing the same position as the reference engine refuses that for
    what no observation shows, summoning sickness above all."""
    x = step.action
    if isinstance(x, a.Activate):
        used = x.source
    elif isinstance(x, a.TapForMana):
        used = x.land
    else:
        return False
    v = view(step.before, used)
    return v is not None and v.phased_in
