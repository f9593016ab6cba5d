"""Plans of the phase-trigger property (603.10b): the two ways a "whenever
this phases in/out" permanent phases that random actions seldom play."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.setup import Ability, ControlEffect, Permanent, PhasedOut, Setup, SkipUntap
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.plans import Planned
from conformance.strategies.players import new_id, with_changed, with_permanents

#: What the plan `released_mid_turn` needs (610.4).
RELEASE = (C.PHASE_OUT_UNTIL, C.DESTROY, C.TARGETING)

_TRIGGERS: list[tuple[Ability, ...]] = [("phases_in",), ("phases_in", "phases_out")]


def phase_trigger_plan(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """Half the time `released_mid_turn`, if the engine can play it; else
    half the time `returning_as_its_host_phases_out`."""
    if set(RELEASE) <= set(caps) and maybe(draw):
        return released_mid_turn(draw, setup)
    if maybe(draw):
        return returning_as_its_host_phases_out(draw, setup)
    return setup, ()


def _with_triggers(
    setup: Setup, x: Permanent, added: tuple[Ability, ...], **fields: object
) -> Setup:
    """`setup` where `x` also has the abilities `added` (and `fields`)."""
    abilities = tuple(dict.fromkeys((*x.abilities, *added)))
    return with_changed(setup, replace(x, abilities=abilities, **fields))  # type: ignore[arg-type]


def released_mid_turn(draw: st.DrawFn, setup: Setup) -> Planned:
    """603.10b, 610.4: a phased-in permanent X, attached to nothing, gets
    "whenever this phases in" (sometimes "whenever this phases out" too),
    phases out until a source S leaves the battlefield, and S is destroyed:
    X phases in mid-turn, with what is attached to it (702.26g), and its
    triggers trigger as in an untap step. S is a phased-in permanent with
    nothing attached to it, or a new artifact of any player's, so that its
    controller may be X's too: its life still shows the trigger
    (`conformance.properties.triggers._leaving_shows_nothing`)."""
    free = [p for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    if not free:
        return setup, ()
    x = pick(draw, free)
    hosts = {p.attached_to for p in setup.permanents}
    sources = [p.id for p in free if p.id != x.id and p.id not in hosts]
    if not sources or maybe(draw):
        player = integer(draw, 0, setup.players - 1)
        made = Permanent(new_id(setup), player, player, ("artifact",))
        setup, sources = with_permanents(setup, made), [made.id]
    source = pick(draw, sources)
    setup = _with_triggers(setup, x, pick(draw, _TRIGGERS))
    player = setup.permanent(source).controller
    return setup, (a.PhaseOutUntil(player, source, x.id), a.Destroy(player, source))


def returning_as_its_host_phases_out(draw: st.DrawFn, setup: Setup) -> Planned:
    """603.10b, 702.26a, 702.26i: an attachment A, phased out on its own,
    phases in at its controller's untap step as its host, a phased-in
    creature with phasing of that player's, phases out: A has "whenever this
    phases out" (sometimes "... in" too) and only its phasing in may
    trigger, whichever reading of A's return holds (readings A). The host
    is one no control effect lends, of a player who doesn't skip that untap
    step; A is an attachment of the setup's on
    it, or a new Aura. The turns pass to that untap step."""
    # A control effect may end as the turn begins, before the phasing
    # (611.2a), and a skipped untap step has no phasing (702.26m): the host
    # must stay its controller's, a player who doesn't skip it.
    lent = {e.target for e in setup.effects if isinstance(e, ControlEffect)}
    skipping = {e.player for e in setup.effects if isinstance(e, SkipUntap)}
    creatures = [
        p
        for p in setup.permanents
        if p.is_creature
        and p.phased_out is None
        and p.id not in lent
        and p.controller not in skipping
    ]
    if not creatures:
        return setup, ()
    on = {p.id: p for p in creatures}
    pairs = [
        (x, on[x.attached_to])
        for x in setup.permanents
        if isinstance(x.attached_to, str)
        and x.attached_to in on
        and x.phased_out is None
        and x.controller == on[x.attached_to].controller
    ]
    if pairs and maybe(draw):
        x, host = pick(draw, pairs)
    else:
        host = pick(draw, creatures)
        x = Permanent(
            new_id(setup),
            host.controller,
            host.controller,
            ("enchantment",),
            attachment="aura",
            attached_to=host.id,
        )
        setup = with_permanents(setup, x)
    setup = _with_triggers(setup, host, (), phasing=max(1, host.phasing))
    player = x.controller
    # Its phasing out is what must not trigger: it always has that ability.
    added = pick(draw, [("phases_out",), ("phases_in", "phases_out")])
    setup = _with_triggers(setup, x, added, phased_out=PhasedOut("direct", under=player))
    return setup, (a.PassTurn(),) * setup.turns_until(player)
