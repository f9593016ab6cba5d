"""Control going back to a permanent's owner while it is phased out
(R2017-control, 702.26f), and summoning sickness (302.6): phasing is no
control change (702.26d), so a creature whose control effect ended in its
borrower's cleanup step is its owner's since before the owner's next turn
began, and not sick for them as it phases in at the borrower's untap step.
The plan and the exercise predicate of that case of
`phasing_in_does_not_cure_summoning_sickness` (sickness.py)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import creature_ids, tap_ability, tapped_for, view
from conformance.running import Trace
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup
from conformance.strategies._draw import maybe, pick
from conformance.strategies.plans import Planned
from conformance.strategies.players import with_changed


def lent_while_phased_out(
    setup: Setup,
    x: Permanent,
    owner: int,
    borrower: int,
    types: tuple[str, ...],
    duration: Duration,
) -> Setup:
    """`setup` with `x` as `owner`'s, controlled by `borrower` for
    `duration` and phased out under them, untapped and not sick, with
    "{T}: You gain 1 life" (the plans' creature whose control changes while
    it is phased out). X's own control effects go, and so do those lasting
    "for as long as" their controller controls X: X phased out would end
    them at once (702.26f)."""
    lent = replace(
        x,
        owner=owner,
        controller=borrower,
        default_controller=None,
        phasing=0,
        tapped=False,
        sick=False,
        phased_out=PhasedOut("direct", borrower),
        abilities=tuple(dict.fromkeys((*x.abilities, "tap_gain_life"))),
        types=types,
    )
    if "creature" not in types:
        lent = replace(lent, power=None, toughness=None)
    effects = tuple(
        e
        for e in setup.effects
        if not (isinstance(e, ControlEffect) and x.id in (e.target, e.duration.of))
    )
    return replace(
        with_changed(setup, lent), effects=(*effects, ControlEffect(x.id, borrower, duration))
    )


def phases_in_back_to_its_owner(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """302.6, 702.26d, R2017-control: creature X, owned by O, is controlled
    by the active player A "until end of turn" and phased out under A. The
    effect ends in A's cleanup step, X phased out goes back to O, O's turn
    begins and ends, and X phases in under O at A's next untap step. O has
    controlled X continuously since their most recent turn began (phasing is
    no control change): O activates X's {T} ability during A's turn, its
    mana ability with mana abilities as often, X being a land creature. The
    property leaves it to the refused-legal-action check (`conformance.
    refusals`) to fail an engine that refuses it: the observations can't
    tell a control change in the cleanup step before O's turn from one as
    it begins."""
    creatures = [p for p in setup.permanents if p.is_creature and p.attached_to is None]
    if setup.players < 2 or not creatures:
        return setup, ()
    x = pick(draw, creatures)
    mana = C.MANA_ABILITIES in caps and maybe(draw)
    borrower = setup.active
    owner = pick(draw, [p for p in range(setup.players) if p != borrower])
    types = ("land", "creature") if mana else x.types
    setup = lent_while_phased_out(setup, x, owner, borrower, types, Duration("end_of_turn"))
    activate = a.TapForMana(owner, x.id) if mana else a.Activate(owner, x.id)
    return setup, (*(a.PassTurn(),) * setup.turns_until(borrower), activate)


def ready_for_whom_it_came_back_to(trace: Trace) -> bool:
    """302.6, 702.26d: the engine let a player P, during another player's
    turn, activate the {T} ability of a creature that had phased out under
    another player, was shown phased out under P's control as P's most
    recent turn began, and phased in under P since (it became tapped, and
    for `Activate`'s ability P gained life): P has controlled it since that
    turn began, though it phased in under someone other than it phased out
    under."""
    creatures = creature_ids(trace.scenario)
    out_under: dict[str, int] = {}
    came_back: dict[str, int] = {}
    start = trace.steps[0].before if trace.steps else None
    for v in () if start is None else start.permanents:
        if v.on_battlefield and v.phased_out:
            out_under[v.id] = v.controller
    for step in trace.steps:
        used = tap_ability(step.action)
        if used is not None and came_back.get(used[0]) == used[1] and step.after.refused is None:
            source, player = used
            b = view(step.before, source)
            others_turn = step.before.active != player
            if others_turn and b is not None and b.phased_in and tapped_for(step, source, player):
                return True
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if c.id not in creatures or not c.on_battlefield:
                continue
            if c.phased_out and not (b is not None and b.phased_out):
                out_under[c.id] = c.controller
            if b is not None and b.controller != c.controller:
                came_back.pop(c.id, None)
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            player = step.after.active
            for c in step.after.permanents:
                shown_out = c.id in creatures and c.on_battlefield and c.phased_out
                if shown_out and c.controller == player != out_under.get(c.id, player):
                    came_back[c.id] = player
    return False
