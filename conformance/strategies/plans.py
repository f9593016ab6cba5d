"""Scenarios built around a plan: a property's situation, drawn on purpose.

Some rules are about a sequence no random draw makes often ("gain control of
T for as long as you control X, then X phases out"; "phase out until S
leaves, then S is destroyed"). A *plan* draws that sequence for a drawn setup
(and may add a continuous effect to it); the scenario plays it first, then
actions drawn as `conformance.strategies.scenarios` draws them, so that the
situation arises in most examples and what follows it still varies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.legality import setup_problems
from conformance.scenario import Scenario
from conformance.setup import BoostEffect, Duration, Permanent, Setup
from conformance.strategies._draw import Caps, composite, integer, maybe, pick
from conformance.strategies.leavers import can_control_without_owning, controlled_by_a_leaver
from conformance.strategies.players import new_id, with_changed, with_permanents
from conformance.strategies.plays import ACTION_KINDS, action_lists
from conformance.strategies.positions import SIMPLE_DURATIONS, setups

#: A plan: from the drawn setup and the engine's capabilities, the setup to
#: play (the same one, or one with an added effect) and the actions to play
#: first, all within the capabilities; () when the setup doesn't allow it.
Planned = tuple[Setup, Sequence[a.Action]]
Plan = Callable[[st.DrawFn, Setup, Caps], Planned]


@composite
def planned_scenarios(
    draw: st.DrawFn,
    caps: Caps,
    plan: Plan,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_actions: int = 0,
    max_actions: int = 8,
    plan_only: Caps = (),
    **setup_options: object,
) -> Scenario:
    """A legal setup, the actions `plan` draws for it, then more actions.
    `plan_only`: capabilities of the engine's that only the plan uses (the
    setup and the actions after the plan's are drawn without them)."""
    drawn = draw(setups(caps, **setup_options))  # type: ignore[arg-type]
    planning = {*caps, *plan_only}
    setup, first = plan(draw, drawn, planning)
    if setup is not drawn and setup_problems(setup):
        setup, first = drawn, ()
    first = tuple(x for x in first if a.action_needs(x) <= planning)
    rest = draw(action_lists(setup, caps, kinds=kinds, min_size=min_actions, max_size=max_actions))
    return Scenario(setup, first + rest)


def _controller(setup: Setup, pid: str) -> int:
    return next(p.controller for p in setup.permanents if p.id == pid)


def _owner(setup: Setup, pid: str) -> int:
    return next(p.owner for p in setup.permanents if p.id == pid)


def _phased_in(setup: Setup) -> list[str]:
    return [p.id for p in setup.permanents if p.phased_out is None]


def boost_then_phase_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26f: a creature with a boost that ends at a turn's end or at a
    player's next turn phases out, then turns pass (it phases in after the
    boost has ended)."""
    creatures = [p.id for p in setup.permanents if p.is_creature and p.phased_out is None]
    if not creatures:
        return setup, ()
    x = pick(draw, creatures)
    if not any(isinstance(e, BoostEffect) and x in e.targets for e in setup.effects):
        kind = pick(draw, ["end_of_turn", "your_next_turn"])
        boost = BoostEffect((x,), integer(draw, 0, setup.players - 1), duration=Duration(kind))
        setup = replace(setup, effects=(*setup.effects, boost))
    return setup, (a.PhaseOut(_controller(setup, x), (x,)), a.PassTurn(), a.PassTurn())


def control_as_long_as_then_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-for-as-long-as: X's controller gains control of T "for as long as
    you control X", then X phases out (`_anchor_and_its_phasing_out`)."""
    ids = _phased_in(setup)
    if len(ids) < 2:
        return setup, ()
    setup, x, out = _anchor_and_its_phasing_out(draw, setup, caps, ids)
    player = _controller(setup, x)
    others = [t for t in ids if t != x]
    target = pick(draw, [t for t in others if _owner(setup, t) != player] or others)
    grant = a.GainControl(player, target, Duration("as_long_as_you_control", x))
    return setup, (grant, out)


def boost_as_long_as_then_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-for-as-long-as: a creature T gets +1/+1 "for as long as you
    control X" from X's controller, then X phases out
    (`_anchor_and_its_phasing_out`)."""
    ids = _phased_in(setup)
    creatures = [t for t in ids if setup.permanent(t).is_creature]
    if len(ids) < 2 or not creatures:
        return setup, ()
    target = pick(draw, creatures)
    setup, x, out = _anchor_and_its_phasing_out(draw, setup, caps, [t for t in ids if t != target])
    player = _controller(setup, x)
    boost = BoostEffect((target,), player, duration=Duration("as_long_as_you_control", x))
    setup = replace(setup, effects=(*setup.effects, boost))
    return setup, (out,)


def _anchor_and_its_phasing_out(
    draw: st.DrawFn, setup: Setup, caps: Caps, candidates: Sequence[str]
) -> tuple[Setup, str, a.Action]:
    """X for "for as long as you control X", one of `candidates`, and how it
    phases out: targeted, with all of its controller's permanents, or at
    their untap step (its phasing). Or, where the engine has attachments,
    X is a new Aura or Equipment on a new creature, and phases out
    indirectly as that creature does (702.26g): the effect ignores it all
    the same (R2017-for-as-long-as)."""
    kinds = [k for k in _ATTACHMENT_KINDS if k[0] != "fortification" and k[1] in caps]
    if kinds and maybe(draw):
        setup, x, host = _new_pair(draw, setup, kinds)
        return setup, x, a.PhaseOut(_controller(setup, host), (host,))
    x = pick(draw, candidates)
    player = _controller(setup, x)
    return setup, x, pick(draw, [a.PhaseOut(player, (x,)), a.PhaseOutAll(player), a.PassTurn()])


def control_as_long_as_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """611.2b: X phases out, then "gain control of T for as long as you
    control X" resolves (it never starts), and another control change that
    does start."""
    ids = _phased_in(setup)
    if len(ids) < 3:
        return setup, ()
    x, target, other = ids[0], pick(draw, ids[1:]), pick(draw, ids[1:])
    player = integer(draw, 0, setup.players - 1)
    gainer = (_controller(setup, other) + 1) % setup.players
    return setup, (
        a.PhaseOut(player, (x,)),
        a.GainControl(player, target, Duration("as_long_as_you_control", x)),
        a.GainControl(gainer, other, pick(draw, SIMPLE_DURATIONS)),
    )


def control_ends_while_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-control: a player gains control of another's permanent until a
    turn's end or their next turn, phases it out, and turns pass. Or for as
    long as they control X, and X phases out with it, at once: the effect
    ends as the permanent phases out under them (702.26a, 702.26f)."""
    ids = _phased_in(setup)
    if not ids:
        return setup, ()
    target = pick(draw, ids)
    gainer = (_owner(setup, target) + 1 + integer(draw, 0, setup.players - 2)) % setup.players
    duration = Duration(pick(draw, ["end_of_turn", "your_next_turn"]))
    out = a.PhaseOut(gainer, (target,))
    if C.CONTROL_AS_LONG_AS in caps and maybe(draw):
        anchors = [x for x in ids if x != target and _controller(setup, x) == gainer]
        if not anchors:
            # An artifact of the gainer's to be X.
            anchors = [new_id(setup)]
            setup = with_permanents(setup, Permanent(anchors[0], gainer, gainer, ("artifact",)))
        x = pick(draw, anchors)
        duration = Duration("as_long_as_you_control", x)
        out = a.PhaseOut(gainer, (x, target))
    return setup, (
        a.GainControl(gainer, target, duration),
        out,
        a.PassTurn(),
        a.PassTurn(),
        a.PassTurn(),
    )


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
    setup = _with_phased_in(setup, {source, x})
    # 800.4a: S may leave the game with its owner, a player other than the
    # active one and X's owner and controller, who then owns S.
    leavers = [
        q
        for q in range(setup.players)
        if q not in (setup.active, _owner(setup, x), _controller(setup, x))
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
    player = _owner(setup, source) if first else _controller(setup, source)
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
        owed = setup.turns_until(_controller(setup, x))
        turns = integer(draw, owed, setup.players)
    again: tuple[a.Action, ...] = (a.PhaseOut(player, (x,)),) if maybe(draw) else ()
    first = first or (a.PhaseOutUntil(player, source, x),)
    played = (*first, *([] if then is None else [then]))
    return setup, (*played, *(a.PassTurn(),) * turns, *again)


#: Each kind of attachment, the capability it needs, its card type and what
#: it is attached to (301.5, 303.4).
_ATTACHMENT_KINDS = (
    ("aura", C.AURAS, "enchantment", "creature"),
    ("equipment", C.EQUIPMENT, "artifact", "creature"),
    ("fortification", C.FORTIFICATIONS, "artifact", "land"),
)


def _attachment_pair(draw: st.DrawFn, setup: Setup) -> tuple[Setup, str, str] | None:
    """An attachment and the permanent it is attached to, the host phased
    in: if it was phased out directly, the setup is changed so that it and
    what phased out with it (702.26g) are phased in."""
    by_id = {p.id: p for p in setup.permanents}
    pairs = [
        (p.id, p.attached_to)
        for p in setup.permanents
        if isinstance(p.attached_to, str)
        and (
            by_id[p.attached_to].phased_out is None
            or by_id[p.attached_to].phased_out.cause == "direct"
        )  # type: ignore[union-attr]
    ]
    if not pairs:
        return None
    attachment, host = pick(draw, pairs)
    return _with_phased_in(setup, {host}), attachment, host


def _owned_by(setup: Setup, pid: str, player: int) -> Setup:
    """`setup` with `pid` owned and controlled by `player`."""
    permanents = tuple(
        replace(p, owner=player, controller=player, default_controller=None) if p.id == pid else p
        for p in setup.permanents
    )
    return replace(setup, permanents=permanents)


def _with_phased_in(setup: Setup, ids: set[str]) -> Setup:
    """`setup` with the permanents `ids` phased in, and what phased out with
    them (702.26g); the same setup if they all were."""
    back = {p.id for p in setup.permanents if p.id in ids and p.phased_out is not None}
    if not back:
        return setup
    for p in setup.permanents:  # hosts come first: one pass finds the chain
        out = p.phased_out
        if p.attached_to in back and out is not None and out.cause == "indirect":
            back.add(p.id)
    permanents = tuple(replace(p, phased_out=None) if p.id in back else p for p in setup.permanents)
    return replace(setup, permanents=permanents)


def host_phases_out_and_in(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26g, R2017-attached: a permanent with something attached phases
    out (targeted, Teferi's Protection, or until a source leaves, which it
    then does), sometimes after one of its attachments phased out on its
    own, then turns pass."""
    # The drawn setups rarely have a Fortification on a land (one must be
    # drawn after the other): sometimes the plan adds that pair.
    forts = [k for k in _ATTACHMENT_KINDS if k[0] == "fortification" and k[1] in caps]
    new = bool(forts) and maybe(draw)
    drawn = _new_pair(draw, setup, forts) if new else _attachment_pair(draw, setup)
    if drawn is None:
        return setup, ()
    setup, attachment, host = drawn
    player = _controller(setup, host)
    first: tuple[a.Action, ...] = (a.PhaseOut(player, (attachment,)),) if maybe(draw) else ()
    outs: list[tuple[a.Action, ...]] = [(a.PhaseOut(player, (host,)),), (a.PhaseOutAll(player),)]
    sources = [p.id for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    source = pick(draw, sources) if sources else host
    if source != host:
        # 610.4: the host phases out until a source leaves, which it then does.
        until = a.PhaseOutUntil(_controller(setup, source), source, host)
        outs.append((until, a.Destroy(player, source)))
    return setup, (*first, *pick(draw, outs), a.PassTurn(), a.PassTurn())


def host_returns_without_direct_attachment(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26g, 610.4: an attachment phases out on its own, then its host
    phases out until a source leaves (another unattached permanent, or an
    artifact added), which is then destroyed: the host phases in at once,
    the attachment stays out until the untap step of the player it phased
    out under, which the turns then passing reach. Or, half the time,
    `host_phases_out_and_in`."""
    drawn = _attachment_pair(draw, setup)
    if drawn is None or maybe(draw):
        return host_phases_out_and_in(draw, setup, caps)
    setup, attachment, host = drawn
    player = _controller(setup, attachment)
    sources = [
        p.id
        for p in setup.permanents
        if p.phased_out is None and p.attached_to is None and p.id != host
    ]
    if not sources:
        added = Permanent(new_id(setup), player, player, ("artifact",))
        setup, sources = with_permanents(setup, added), [added.id]
    source = pick(draw, sources)
    return setup, (
        a.PhaseOut(player, (attachment,)),
        a.PhaseOutUntil(_controller(setup, source), source, host),
        a.Destroy(player, source),
        *(a.PassTurn(),) * setup.turns_until(player),
    )


def attachment_loses_host(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26i, 704.5m, 704.5n: an attachment's host is destroyed or phases
    out, often while the attachment is phased out on its own; then turns
    pass, so the attachment phases in without its host."""
    drawn = _attachment_pair(draw, setup)
    if drawn is None:
        return setup, ()
    setup, attachment, host = drawn
    player = _controller(setup, attachment)
    first: tuple[a.Action, ...] = (a.PhaseOut(player, (attachment,)),) if maybe(draw) else ()
    gone = pick(draw, [a.Destroy(player, host), a.DestroyAll(player), a.PhaseOut(player, (host,))])
    return setup, (*first, gone, a.PassTurn(), a.PassTurn())


def equipment_out_loses_host(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26b, 702.26i, 702.26j: an Equipment or a Fortification (as the
    engine has them) with "whenever this becomes unattached", on a new host
    of a player's, phases out on its own; the host is destroyed while it is
    out, which does nothing to it; then turns pass up to the player's untap
    step, where it phases in unattached, triggering nothing. Else
    `attachment_loses_host`."""
    kinds = [k for k in _ATTACHMENT_KINDS if k[0] != "aura" and k[1] in caps]
    if not kinds:
        return attachment_loses_host(draw, setup, caps)
    setup, made, host = _new_pair(draw, setup, kinds)
    setup = with_changed(setup, replace(setup.permanent(made), abilities=("unattached",)))
    player = _controller(setup, made)
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return setup, (a.PhaseOut(player, (made,)), a.Destroy(player, host), *turns)


def attachment_alone_or_host_lost(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26i: an attachment phases out on its own and its host stays (or
    phases out and back in meanwhile), so it phases in attached to it (an
    Aura, Equipment or Fortification, as the engine has them, on a new host
    of a player's); or `attachment_loses_host`."""
    kinds = [k for k in _ATTACHMENT_KINDS if k[1] in caps]
    if not kinds or maybe(draw):
        return attachment_loses_host(draw, setup, caps)
    setup, made, host = _new_pair(draw, setup, kinds)
    player = _controller(setup, made)
    away: tuple[a.Action, ...] = ()
    if {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps) and maybe(draw):
        # Meanwhile the host phases out and back in: the same object still
        # (702.26d), so the attachment finds it.
        source = Permanent(new_id(setup), player, player, ("artifact",))
        setup = with_permanents(setup, source)
        away = (a.PhaseOutUntil(player, source.id, host), a.Destroy(player, source.id))
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return setup, (a.PhaseOut(player, (made,)), *away, *turns)


def _new_pair(
    draw: st.DrawFn, setup: Setup, kinds: Sequence[tuple[str, C, str, str]]
) -> tuple[Setup, str, str]:
    """`setup` with a new host and an attachment of one of `kinds`
    (`_ATTACHMENT_KINDS`) on it, both a player's; and their ids."""
    attachment, _, card_type, host_type = pick(draw, kinds)
    player = integer(draw, 0, setup.players - 1)
    size = 1 if host_type == "creature" else None
    host = Permanent(new_id(setup), player, player, (host_type,), power=size, toughness=size)
    made = Permanent(
        new_id(setup, 1), player, player, (card_type,), attachment=attachment, attached_to=host.id
    )
    return with_permanents(setup, host, made), made.id, host.id


def borrow_until_next_turn(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26a, 611.2: a player gains control of a permanent with phasing
    "until your next turn", then turns pass up to that player's untap step:
    the effect ended as their turn began, so the permanent doesn't phase
    out under them there (its controller's untap step is another's)."""
    phasing = [p for p in setup.permanents if p.phasing and p.phased_out is None]
    if not phasing or setup.players < 2:
        return setup, ()
    target = pick(draw, phasing)
    borrower = pick(draw, [i for i in range(setup.players) if i != target.controller])
    turns = setup.turns_until(borrower)
    grant = a.GainControl(borrower, target.id, Duration("your_next_turn"))
    return setup, (grant, *(a.PassTurn(),) * turns)


def limited_effects_then_out_and_in(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26f, Mirage 502.15g: a player gains control of a creature (not a
    token: in the Mirage edition a phased-out token ceases to exist, 217.8d)
    until end of turn or their next turn and pumps their team until end of
    turn; the creature phases out until a source leaves the battlefield,
    which it then does: the creature phases in the same turn, while those
    effects would still last."""
    ids = [p.id for p in setup.permanents if p.attached_to is None]
    creatures = [p.id for p in setup.permanents if p.attached_to is None and p.is_creature]
    creatures = [x for x in creatures if not setup.permanent(x).token]
    if not creatures or len(ids) < 2:
        return setup, ()
    x = pick(draw, creatures)
    source = pick(draw, [t for t in ids if t != x])
    setup = _with_phased_in(setup, {x, source})
    gainer = (_controller(setup, x) + 1 + integer(draw, 0, setup.players - 2)) % setup.players
    grant = a.GainControl(gainer, x, Duration(pick(draw, ["end_of_turn", "your_next_turn"])))
    pumper = gainer if C.CONTROL_CHANGE in caps else _controller(setup, x)
    player = _controller(setup, source)
    return setup, (
        grant,
        a.PumpTeam(pumper),
        a.PhaseOutUntil(player, source, x),
        a.Destroy(player, source),
    )
