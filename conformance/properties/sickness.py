"""Summoning sickness across phasing (302.6, R2017-haste, 702.26d): a
creature that phases in after its control changed while it was phased out is
sick for its new controller until their next turn begins; so is one that came
under its controller's control this turn and phased in during the turn (610.4:
"phases out until" a permanent that then leaves). R2017-haste lets a
creature that phases in as *your* turn begins tap and attack only because you
controlled it all along; phasing in itself cures nothing."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import (
    creature_ids,
    tap_ability,
    tapped_for,
    view,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.properties.returning_control import (
    lent_while_phased_out,
    phases_in_back_to_its_owner,
    ready_for_whom_it_came_back_to,
)
from conformance.running import Step, Trace
from conformance.setup import Duration, Permanent, Setup
from conformance.strategies._draw import maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import new_id, with_changed, with_permanents


def _sick_activations(trace: Trace) -> list[tuple[Step, str, int, int]]:
    """302.6: each activation of a creature's {T} ability (`Activate`, or
    `TapForMana` of a land creature) by its controller while that player
    has not controlled it continuously since their most recent turn began,
    as (step, creature, player, step where its control changed). A change
    seen in the very step that began the player's turn is left out: the
    observations can't tell whether it came before the turn began (an
    "until end of turn" effect ending at cleanup) or after."""
    creatures = creature_ids(trace.scenario)
    turn_began = {trace.scenario.setup.active: 0}
    changed: dict[str, int] = {}
    found = []
    for index, step in enumerate(trace.steps, start=1):
        x = step.action
        used = tap_ability(x)
        if used is not None and used[0] in creatures:
            source, player = used
            b = view(step.before, source)
            since = changed.get(source, -1)
            if b is not None and b.controller == player and since > turn_began.get(player, 0):
                found.append((step, source, player, since))
        if step.after.refused is None and isinstance(x, a.PassTurn):
            turn_began[step.after.active] = index
        for c in step.after.permanents:
            b = view(step.before, c.id)
            both_there = b is not None and b.on_battlefield and c.on_battlefield
            if both_there and b.controller != c.controller:  # type: ignore[union-attr]
                changed[c.id] = index
    return found


def _control_changed_while_out(trace: Trace, index: int, pid: str) -> bool:
    """The creature was phased out as the step `index` began, in which its
    controller changed."""
    b = view(trace.steps[index - 1].before, pid)
    return b is not None and b.phased_out


def _sick_after_phasing_in_then_tapped(trace: Trace) -> bool:
    """302.6, R2017-haste: a creature's control changed while it was phased
    out; after it phased in, its new controller's activation of its {T}
    ability was refused, and in a later turn of theirs the same activation
    was carried out (the creature became tapped and, for `Activate`'s
    ability, they gained life)."""
    refused = {
        (source, player)
        for step, source, player, since in _sick_activations(trace)
        if step.after.refused is not None
        and _control_changed_while_out(trace, since, source)
        and (v := view(step.before, source)) is not None
        and v.phased_in
    }
    for step in trace.steps:
        used = tap_ability(step.action)
        if used is None or used not in refused or step.after.refused is not None:
            continue
        if tapped_for(step, *used):
            return True
    return False


def _phases_in_to_a_new_controller(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """R2017-control: creature X, owned by O, is controlled by the next
    player N "until N's next turn" and phased out under N. As N's turn
    begins the effect ends (O controls X now), and X phases in at N's untap
    step. O activates X's {T} ability during N's turn (302.6: refused), then
    again in O's own next turn. With mana abilities, X is as often a land
    creature and the ability its mana one (302.6 covers it too), or a land
    that is no creature, whose mana ability O may activate at once (302.6
    holds back creatures only)."""
    creatures = [p for p in setup.permanents if p.is_creature and p.attached_to is None]
    if setup.players < 2 or not creatures:
        return setup, ()
    x = pick(draw, creatures)
    kinds: list[tuple[str, ...]] = [x.types]
    if C.MANA_ABILITIES in caps:
        kinds += [("land", "creature"), ("land",)]
    types = pick(draw, kinds)
    mana = "land" in types
    nxt = (setup.active + 1) % setup.players
    owner = pick(draw, [p for p in range(setup.players) if p != nxt])
    setup = lent_while_phased_out(setup, x, owner, nxt, types, Duration("your_next_turn"))
    turns = (owner - nxt) % setup.players
    activate = a.TapForMana(owner, x.id) if mana else a.Activate(owner, x.id)
    return setup, (a.PassTurn(), activate, *(a.PassTurn(),) * turns, activate)


def _noncreature_lands_tapped(trace: Trace) -> Iterator[tuple[Step, str, int]]:
    """Each `TapForMana` of a land that is no creature, phased in, untapped
    and controlled by the player in the game, whose control changed earlier
    in the trace: nothing may refuse it (302.6 is about creatures; 605.3a),
    as (step, land, player)."""
    creatures = creature_ids(trace.scenario)
    lands = {p.id for p in trace.scenario.setup.permanents if "land" in p.types}
    changed: set[str] = set()
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.TapForMana) and x.land in lands - creatures and x.land in changed:
            b = view(step.before, x.land)
            ready = b is not None and b.on_battlefield and b.phased_in and not b.tapped
            if ready and b.controller == x.player and step.before.player(x.player).in_game:
                yield step, x.land, x.player
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is not None and b.controller != c.controller:
                changed.add(c.id)


def _moved(x: a.Action) -> list[tuple[str, int]]:
    """The creatures `x` attacks with or whose {T} ability it activates, and
    the player doing it."""
    if isinstance(x, a.DeclareAttackers):
        return [(pid, x.player) for pid in x.attackers]
    used = tap_ability(x)
    return [] if used is None else [used]


def _came_and_phased_in_this_turn(trace: Trace) -> list[tuple[Step, str, int]]:
    """302.6: each attack with, or activation of a {T} ability of, a
    creature that came under its controller's control this turn (set up
    `sick`, or a token created this turn) and phased in since, during the
    turn, as (step, creature, player). It is sick for every player that
    turn: whoever controls it came to control it this turn. Turns passing
    end the watch, so a creature that phases in in an untap step is never
    judged here (R2017-haste)."""
    creatures = creature_ids(trace.scenario)
    start = trace.scenario.setup.turn
    came: dict[str, int] = {p.id: start for p in trace.scenario.setup.permanents if p.sick}
    phased_in: dict[str, int] = {}
    found = []
    for step in trace.steps:
        x, turn = step.action, step.before.turn
        for pid, player in _moved(x):
            b = view(step.before, pid)
            sick = came.get(pid) == turn and phased_in.get(pid) == turn
            if sick and pid in creatures and b is not None and b.phased_in:
                found.append((step, pid, player))
        if isinstance(x, a.CreateToken) and step.after.refused is None:
            made = view(step.after, x.id)
            if made is not None and made.on_battlefield and view(step.before, x.id) is None:
                came[x.id] = turn
        if step.after.turn == turn:
            for c in step.after.permanents:
                if was_out_came_in(step, c.id):
                    phased_in[c.id] = turn
    return found


def _shown_sick_then_ready(trace: Trace) -> bool:
    """302.6: a creature that came under its controller's control this turn
    and phased in was refused an attack or its {T} ability, and in a later
    turn of that player the same move was carried out (it attacked, or
    became tapped paying its life)."""
    refused = {
        (type(step.action), pid, player)
        for step, pid, player in _came_and_phased_in_this_turn(trace)
        if step.after.refused is not None
    }
    for step in trace.steps:
        x = step.action
        if step.after.refused is not None:
            continue
        for pid, player in _moved(x):
            if (type(x), pid, player) not in refused:
                continue
            if isinstance(x, a.DeclareAttackers):
                c = view(step.after, pid)
                if c is not None and c.attacking:
                    return True
            elif tapped_for(step, pid, player):
                return True
    return False


def _sickness_shown(trace: Trace) -> bool:
    """302.6: the engine showed a creature sick after phasing in, and ready
    in a later turn of its controller, in either of the first two plans'
    ways; or it let a player tap one that came back to them while phased
    out, before their own next turn began (R2017-control, 702.26d)."""
    return (
        _sick_after_phasing_in_then_tapped(trace)
        or _shown_sick_then_ready(trace)
        or ready_for_whom_it_came_back_to(trace)
    )


def _comes_in_then_phases_in(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """302.6, 610.4: creature X comes under the active player P's control
    this turn (a token P creates, or a creature set up sick); it phases out
    until P's new artifact S leaves the battlefield, S is destroyed (X
    phases in mid-turn) and P attacks with X or activates its {T} ability,
    with mana abilities sometimes its mana ability as a land creature
    (refused: X is sick); turns pass to P's next turn and P does it again
    (carried out). X has no phasing, so nothing phases it out again."""
    player = setup.active
    others = [q for q in range(setup.players) if q != player]
    creatures = [
        p
        for p in setup.permanents
        if p.is_creature
        and p.attached_to is None
        and p.controller == player
        and p.phased_out is None
    ]
    if not others or not (creatures or C.TOKENS in caps):
        return setup, ()
    made: tuple[a.Action, ...] = ()
    if C.TOKENS in caps and C.COMBAT in caps and (maybe(draw) or not creatures):
        # A token has no {T} ability: it attacks.
        x, made, move = "t1", (a.CreateToken(player, "t1", 0),), a.DeclareAttackers
    elif creatures:
        chosen = pick(draw, creatures)
        wanted = ((a.DeclareAttackers, C.COMBAT), (a.TapForMana, C.MANA_ABILITIES))
        x, move = chosen.id, pick(draw, [a.Activate, *(m for m, need in wanted if need in caps)])
        sick = replace(
            chosen,
            sick=True,
            tapped=False,
            phasing=0,
            abilities=tuple(dict.fromkeys((*chosen.abilities, "tap_gain_life"))),
            # A land creature's mana ability is a {T} ability too.
            types=("land", "creature") if move is a.TapForMana else chosen.types,
        )
        setup = with_changed(setup, sick)
    else:
        return setup, ()
    source = Permanent(new_id(setup), player, player, ("artifact",))
    setup = with_permanents(setup, source)
    act: a.Action = (
        a.DeclareAttackers(player, (x,), pick(draw, others))
        if move is a.DeclareAttackers
        else move(player, x)
    )
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return setup, (
        *made,
        a.PhaseOutUntil(player, source.id, x),
        a.Destroy(player, source.id),
        act,
        *turns,
        act,
    )


def _sick_creature_plans(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """Half the time, a creature whose control changed while it was phased
    out is sick as it phases in; else it came under its controller's
    control this turn and phases in during the turn ("until" released), or
    its control went back to its owner while it was phased out, before the
    owner's turn, and it is not sick for them as it phases in."""
    if not maybe(draw):
        return _phases_in_to_a_new_controller(draw, setup, caps)
    plans = [phases_in_back_to_its_owner]
    if {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps):
        plans.append(_comes_in_then_phases_in)
    return pick(draw, plans)(draw, setup, caps)


@rule_property(
    "302.6",
    "R2017-haste",
    needs={C.ACTIVATED_ABILITIES, C.CONTROL_CHANGE},
    scenarios=lambda caps: planned_scenarios(
        caps,
        _sick_creature_plans,
        kinds=(a.Activate, a.TapForMana, a.PassTurn, a.PhaseOut, a.GainControl),
        max_actions=3,
        min_permanents=1,
        permanent_kinds=("creature",),
        abilities=("tap_gain_life",),
    ),
    exercised=_sickness_shown,
    reads={"life"},
)
def phasing_in_does_not_cure_summoning_sickness(trace: Trace) -> None:
    """302.6: a creature's {T} ability, a land creature's mana ability
    included, can be activated only if its controller has controlled it
    continuously since their most recent turn began. Phasing in is no
    exception (R2017-haste covers only a creature its
    controller controlled as their turn began): one whose control changed
    while it was phased out is sick for its new controller until their next
    turn; and one that came under its controller's control this turn and
    phased in during the turn can neither attack nor pay {T} that turn.
    Phasing itself is no control change (702.26d): a creature whose control
    went back to its owner while it was phased out, before the owner's turn
    began, is not sick for them as it phases in under them (R2017-control);
    an engine refusing its {T} ability there fails the refused-legal-action
    check (`conformance.refusals`)."""
    for step, source, player, since in _sick_activations(trace):
        expect(
            step.after.refused is not None,
            "302.6",
            where(trace, step),
            f"refused: player {player} has controlled {source} only since action {since}",
            "the ability was activated",
        )
    for step, land, player in _noncreature_lands_tapped(trace):
        expect(
            step.after.refused is None,
            "302.6",
            f"{where(trace, step)}, {land}",
            f"player {player} taps it for mana: summoning sickness holds back creatures only, "
            "whenever their control changed",
            f"refused: {step.after.refused}",
        )
    for step, pid, player in _came_and_phased_in_this_turn(trace):
        attack = isinstance(step.action, a.DeclareAttackers)
        expect(
            step.after.refused is not None,
            "302.6",
            where(trace, step),
            f"refused: {pid} came under its controller's control this turn and phased in "
            f"since, so it can't {'attack' if attack else 'pay {T}'} (phasing in cures nothing)",
            f"player {player} {'attacked with' if attack else 'tapped'} {pid}",
        )
