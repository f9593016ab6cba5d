"""Plans around a player who leaves the game controlling what another player
owns (800.4a): that player's control effects end, and what they still
control, having entered under them, is exiled."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.setup import ControlEffect, Permanent, PhasedOut, Setup
from conformance.strategies._draw import Caps, maybe, pick
from conformance.strategies.players import with_changed
from conformance.strategies.positions import SIMPLE_DURATIONS

if TYPE_CHECKING:
    from conformance.strategies.plans import Planned


def can_control_without_owning(caps: Caps) -> bool:
    """A permanent can be a leaver's without being theirs: by a control
    effect, or because it entered under them."""
    return C.CONTROL_CHANGE in caps or C.DEFAULT_CONTROLLER in caps


def controlled_by_a_leaver(
    draw: st.DrawFn, setup: Setup, caps: Caps, source: str, x: str, leaver: int
) -> Planned:
    """610.4, 800.4a: S (`source`, phased in) is owned by a player other than
    `leaver` and controlled by `leaver`, by a control effect of theirs
    (implicit or with a duration) or because it entered under them
    (`default_controller`); X (`x`, phased in, of players staying in the
    game) is phased out until S leaves; `leaver` concedes. The control
    effect ends and S goes back to its owner, still on the battlefield: X
    stays out. S that entered under `leaver` is exiled, which is leaving
    the battlefield: X phases in at once. X is phased out in the setup, so
    no player who leaves created its "until"."""
    owner = pick(draw, [q for q in range(setup.players) if q != leaver])
    entered = C.DEFAULT_CONTROLLER in caps and (C.CONTROL_CHANGE not in caps or maybe(draw))
    effects = setup.effects
    if not entered and maybe(draw):
        effects = (*effects, ControlEffect(source, leaver, pick(draw, SIMPLE_DURATIONS)))
    lent = replace(
        setup.permanent(source),
        owner=owner,
        controller=leaver,
        default_controller=leaver if entered else None,
    )
    setup = _phased_out_until(replace(with_changed(setup, lent), effects=effects), x, source)
    return setup, (a.Concede(leaver),)


def _phased_out_until(setup: Setup, x: str, source: str) -> Setup:
    """`setup` with `x` phased out until `source` leaves (610.4), under its
    controller, and what is attached to it and phased in phased out with it
    (702.26g). What waited for `x` waits for `source`: a phased-out
    permanent can't be waited for (vocabulary: `until`)."""
    out = {x}
    for p in setup.permanents:  # hosts come first: one pass finds the chain
        if p.attached_to in out and p.phased_out is None:
            out.add(p.id)

    def moved(p: Permanent) -> Permanent:
        if p.id == x:
            return replace(p, phased_out=PhasedOut("direct", p.controller, source))
        if p.id in out:
            return replace(p, phased_out=PhasedOut("indirect", p.controller))
        if p.phased_out is not None and p.phased_out.until == x:
            return replace(p, phased_out=replace(p.phased_out, until=source))
        return p

    return replace(setup, permanents=tuple(moved(p) for p in setup.permanents))
