"""Leads: the actions a plan (`conformance.strategies.plans`) plays first in
a property's scenarios, built from the drawn setup, so that the situation a
rule is about arises in most examples (a creature phases out and a spell
targets it, an anthem phases out and back in, ...) while the actions drawn
after them keep the variety."""

from __future__ import annotations

from collections.abc import Callable, Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup
from conformance.strategies._draw import pick
from conformance.strategies.plans import planned_scenarios

#: Actions that put a position's rule to the test, played before the drawn
#: ones: built from the setup, the capabilities, and draws.
Lead = Callable[[st.DrawFn, Setup, Collection[C]], tuple[a.Action, ...]]


def led(caps: Collection[C], lead: Lead, **options: object) -> st.SearchStrategy[Scenario]:
    """Scenarios drawn with `options` whose actions begin with `lead`'s."""
    return planned_scenarios(
        caps,
        lambda draw, setup, caps: (setup, lead(draw, setup, caps)),
        **options,  # type: ignore[arg-type]
    )


def ready_creatures(setup: Setup, player: int | None = None) -> list[Permanent]:
    """Phased-in creatures (of `player`) that are untapped and not sick."""
    return [
        p
        for p in setup.permanents
        if p.is_creature
        and p.phased_out is None
        and not p.tapped
        and not p.sick
        and (player is None or p.controller == player)
    ]


def turns_to_untap(setup: Setup, player: int) -> tuple[a.Action, ...]:
    """The PassTurns that bring `player`'s next untap step, where what
    phased out under them phases in (702.26a); players who leave excepted."""
    return (a.PassTurn(),) * setup.turns_until(player)


def phase_out_then(
    draw: st.DrawFn, setup: Setup, caps: Collection[C], then: Callable[[Permanent], tuple]
) -> tuple[a.Action, ...]:
    """A phased-in creature phases out at its controller's hand, then
    `then(creature)`; nothing when no creature or no targeting."""
    creatures = [p for p in setup.permanents if p.is_creature and p.phased_out is None]
    if not creatures or C.TARGETING not in caps:
        return ()
    x = pick(draw, creatures)
    return (a.PhaseOut(x.controller, (x.id,)), *then(x))


def _targeting(draw: st.DrawFn, setup: Setup, caps: Collection[C], x: str) -> a.Action:
    """A spell of a drawn player targeting `x`, of a kind the engine plays."""
    player = pick(draw, range(setup.players))
    spells: list[a.Action] = [a.PhaseOut(player, (x,))]
    if C.DESTROY in caps:
        spells.append(a.Destroy(player, x))
    if C.CONTROL_CHANGE in caps:
        spells.append(a.GainControl(player, x))
    return pick(draw, spells)


def target_while_out(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple[a.Action, ...]:
    """A permanent phases out and a spell targets it."""
    ids = [p for p in setup.permanents if p.phased_out is None]
    if not ids:
        return ()
    x = pick(draw, ids)
    return (a.PhaseOut(x.controller, (x.id,)), _targeting(draw, setup, caps, x.id))


def target_once_back(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple[a.Action, ...]:
    """A permanent phases out, phases in at its controller's untap step, and
    is targeted by one of the players."""
    ids = [p for p in setup.permanents if p.phased_out is None]
    if not ids:
        return ()
    x = pick(draw, ids)
    return (
        a.PhaseOut(x.controller, (x.id,)),
        *turns_to_untap(setup, x.controller),
        _targeting(draw, setup, caps, x.id),
    )
