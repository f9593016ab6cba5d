"""Plans around "phase out until S leaves the battlefield" (610.4,
R2017-until-leaves): S leaves in one of its ways (with a player leaving the
game among them, 800.4a), or phases out or stays, and X phases in at once
or stays out."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.setup import Setup
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.leavers import can_control_without_owning, controlled_by_a_leaver
from conformance.strategies.plans import Planned, with_phased_in


def until_then_source(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """610.4, R2017-until-leaves: X phases out until S leaves the battlefield;
    then S is destroyed, or dies of damage, or leaves the game with its
    owner, or phases out or stays, and turns pass up to X's controller's untap step (phasing out is
    not leaving: X doesn't phase in there); later X may be phased out
    again. Or S, another player's, is first controlled by a player who
    concedes (`leavers.controlled_by_a_leaver`)."""
    # Any two unattached permanents, phased in for the plan if they weren't.
    ids = [p.id for p in setup.permanents if p.attached_to is None]
    if len(ids) < 2:
        return setup, ()
    source = pick(draw, ids)
    x = pick(draw, [t for t in ids if t != source])
    setup = with_phased_in(setup, {source, x})
    # 800.4a: S may leave the game with its owner, a player other than the
    # active one and X's owner and controller, who then owns S.
    leavers = [
        q
        for q in range(setup.players)
        if q not in (setup.active, setup.permanent(x).owner, setup.permanent(x).controller)
    ]
    leaver = None
    concede = C.LEAVE_GAME in caps and setup.players > 2 and bool(leavers)
    first: tuple[a.Action, ...] = ()
    if concede and can_control_without_owning(caps) and not maybe(draw):
        # Or S is another player's, controlled by a leaver who concedes
        # first; S, back with its owner, may then leave as below (800.4a).
        # The first choice, in about half the multiplayer examples.
        setup, first = controlled_by_a_leaver(draw, setup, caps, source, x, pick(draw, leavers))
    elif concede and maybe(draw):
        leaver = pick(draw, leavers)
        setup = _owned_by(setup, source, leaver)
    player = setup.permanent(source).owner if first else setup.permanent(source).controller
    leaves: list[a.Action | None] = [
        a.Destroy(player, source),
        a.DestroyAll(player),
        a.PhaseOut(player, (source,)),
        None,  # S stays
    ]
    s = setup.permanent(source)
    if C.DAMAGE_MARKED in caps and s.toughness is not None:
        # 704.5g: S dies of lethal damage, a state-based action.
        lethal = s.toughness + dict(s.counters).get("+1/+1", 0)
        leaves.append(a.DealDamage(player, source, lethal))
    then = pick(draw, leaves) if leaver is None else a.Concede(leaver)
    turns = 0
    if then is None or isinstance(then, a.PhaseOut):
        # S is still there (in or out) when x's controller's untap step
        # comes: x stays out.
        owed = setup.turns_until(setup.permanent(x).controller)
        turns = integer(draw, owed, setup.players)
    again: tuple[a.Action, ...] = (a.PhaseOut(player, (x,)),) if maybe(draw) else ()
    first = first or (a.PhaseOutUntil(player, source, x),)
    played = (*first, *([] if then is None else [then]))
    return setup, (*played, *(a.PassTurn(),) * turns, *again)


def _owned_by(setup: Setup, pid: str, player: int) -> Setup:
    """`setup` with `pid` owned and controlled by `player`."""
    permanents = tuple(
        replace(p, owner=player, controller=player, default_controller=None) if p.id == pid else p
        for p in setup.permanents
    )
    return replace(setup, permanents=permanents)
