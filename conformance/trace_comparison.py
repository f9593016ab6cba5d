"""The comparison of two finished plays of one scenario, the reference
engine's trace and an engine's, moment by moment (`conformance.differences`
compares one moment), up to the first action whose outcome the rules leave
open; and the facts of a play each moment needs (`tokens_of`, `legends_of`,
`untap_phased_in`).

It is kept apart from the stateful comparison (`conformance.differential`)
because it needs no Hypothesis: `phasecert replay` and the tests compare
kept scenarios with it, and the stateful comparison its corpus replays and
trimming candidates, and the same facts at each action it draws.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from adapters.reference import ReferenceEngine
from conformance.actions import CreateToken, PassTurn
from conformance.differences import Difference, Moment, differences
from conformance.draw_step import draw_step_gainers
from conformance.properties.history import waiting_for_source
from conformance.properties.players import protected
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.unsettled import settled_steps


def describe(found: Iterable[Difference]) -> str:
    """One line per difference: where, what, and the rules it falls under."""
    return "\n".join(map(str, found))


def tokens_of(scenario: Scenario) -> frozenset[str]:
    """The tokens of a scenario: in its setup, and those its actions create."""
    made = {x.id for x in scenario.actions if isinstance(x, CreateToken)}
    return frozenset(made | {p.id for p in scenario.setup.permanents if p.token})


def legends_of(setup: Setup) -> frozenset[str]:
    """The legendary permanents of `setup` that share their name with
    another legendary one: the legend rule may put them into a graveyard
    (704.5j)."""
    names = Counter(p.card_name for p in setup.permanents if p.legendary)
    return frozenset(p.id for p in setup.permanents if p.legendary and names[p.card_name] > 1)


def untap_phased_in(steps: Sequence[Step]) -> frozenset[str]:
    """What the reference engine phased in at the untap step of the turn
    `steps` end in: in the latest PassTurn it carried out (R2017-haste)."""
    for step in reversed(steps):
        if isinstance(step.action, PassTurn) and step.after.refused is None:
            return frozenset(e.subject for e in step.after.events if e.kind == "phased_in")
    return frozenset()


def trace_differences(
    expected: Trace,
    observed: Trace,
    unreported: frozenset[str] = frozenset(),
    reference: ReferenceEngine | None = None,
) -> list[Difference]:
    """The differences between `reference`'s play `expected` of a scenario
    (by default today's oracle's) and an engine's at the first moment they
    differ: once the two games parted ways, what differs later may follow
    from it, and would be blamed on rules it is no evidence of. Up to the
    first action whose outcome the rules leave open
    (`conformance.unsettled`), not from it."""
    tokens = tokens_of(expected.scenario)
    moments = [Moment("at the start", expected.initial, observed.initial, tokens=tokens)]
    settled = settled_steps(expected, reference)
    pairs = zip(settled, observed.steps[: len(settled)], strict=True)
    shield = protected(expected)
    legends = legends_of(expected.scenario.setup)
    waiting = waiting_for_source(expected)
    for i, (e, o) in enumerate(pairs, 1):
        where = f"after action {i} ({type(e.action).__name__})"
        drew = draw_step_gainers(expected.scenario.setup, e)
        moments.append(
            Moment(
                where,
                e.after,
                o.after,
                e.action,
                e.before,
                o.before,
                tokens,
                drew,
                shield[i - 1] | shield[i],
                untap_phased_in(settled[: i - 1]),
                legends,
                frozenset(waiting[i - 1]),
            )
        )
    for moment in moments:
        shown = differences(moment, unreported)
        if shown:
            return shown
    return []


def first_disagreement(
    expected: Trace,
    observed: Trace,
    unreported: frozenset[str] = frozenset(),
    reference: ReferenceEngine | None = None,
) -> str | None:
    """How `reference`'s play and an engine's of one scenario differ, one
    line per difference; None if they agree."""
    return describe(trace_differences(expected, observed, unreported, reference)) or None


def compares_a_carried_out_action(
    expected: Trace, reference: ReferenceEngine | None = None
) -> bool:
    """The comparison of `reference`'s play `expected` with an engine's
    compares an action the reference engine carried out: before any open
    case (`conformance.unsettled`), not refused."""
    return any(s.after.refused is None for s in settled_steps(expected, reference))
