"""What "All permanents you control phase out" (Teferi's Protection, the
`PhaseOutAll` spell) takes: the rulings of 2017 say what becomes of a
permanent the caster controls but another player owns (R2017-control) and of
an Aura or Equipment the caster controls on something that isn't phasing out
(R2017-auras). Both presume that it phased out with the spell: it is
controlled, not owned, and attachments phase out directly when their host
stays (702.26g covers only hosts that phase out)."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.attachments import attachment_kinds
from conformance.properties.effects import focus
from conformance.properties.history import owners, view, was_in_went_out
from conformance.properties.identity import came_in
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Permanent, Setup
from conformance.strategies import plans
from conformance.strategies._draw import integer, maybe, pick
from conformance.strategies.players import new_id, with_permanents

_SPELLS = (a.PhaseOutAll, a.TeferisProtection)
#: An attachment the caster controls, what it is and needs.
_ATTACHMENTS = (("aura", C.AURAS, "enchantment"), ("equipment", C.EQUIPMENT, "artifact"))


def _taken(trace: Trace) -> Iterator[tuple[Step, int, PermanentView, str, str]]:
    """For each "all permanents you control phase out" the engine carried
    out, each permanent its caster controlled, phased in, that a ruling
    says phases out: another player's (R2017-control), or an attachment on
    a player or on a permanent the spell leaves phased in (R2017-auras);
    with the rule and why it is taken."""
    owner = owners(trace.scenario)
    kinds = attachment_kinds(trace.scenario)
    for step in trace.steps:
        x = step.action
        if not isinstance(x, _SPELLS) or step.after.refused is not None:
            continue
        for b in step.before.permanents:
            if not b.phased_in or b.controller != x.player:
                continue
            host = view(step.after, b.attached_to) if isinstance(b.attached_to, str) else None
            if owner.get(b.id, x.player) != x.player:
                yield step, x.player, b, "R2017-control", f"owned by player {owner[b.id]}"
            elif b.id in kinds and (
                isinstance(b.attached_to, int) or (host is not None and host.phased_in)
            ):
                yield step, x.player, b, "R2017-auras", f"attached to {b.attached_to}, staying"


def _took_one(trace: Trace) -> bool:
    """R2017-control, R2017-auras: the engine phased out, with the spell, a
    permanent its caster controlled and didn't own, or an attachment its
    caster controlled on something that stayed; and phased it in later, as
    the rulings go on to say (an engine that never phases anything in
    plays only half of them)."""
    for step, _, b, _, _ in _taken(trace):
        if not was_in_went_out(step, b.id):
            continue
        for later in trace.steps[trace.steps.index(step) + 1 :]:
            out = view(later.before, b.id)
            if out is not None and came_in(later, out):
                return True
    return False


def _controlled_not_owned(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> plans.Planned:
    """A player controls another's creature, an Aura or Equipment of theirs
    is on another's creature (or an Aura on another player), as the engine
    can have them; the player casts Teferi's Protection or "all permanents
    you control phase out"; then turns pass up to their next untap step."""
    if setup.players < 2:
        return setup, ()
    player = integer(draw, 0, setup.players - 1)
    other = (player + integer(draw, 1, setup.players - 1)) % setup.players
    made: list[Permanent] = []
    if C.CONTROL_CHANGE in caps:
        made.append(Permanent(new_id(setup), other, player, power=1, toughness=1))
    kinds = [k for k in _ATTACHMENTS if k[1] in caps]
    if kinds:
        kind, _, card_type = pick(draw, kinds)
        host = Permanent(new_id(setup, len(made)), other, other, power=1, toughness=1)
        on: str | int = host.id
        if kind == "aura" and C.PLAYER_AURAS in caps and maybe(draw):
            on = other
        else:
            made.append(host)
        made.append(
            Permanent(
                new_id(setup, len(made)),
                player,
                player,
                (card_type,),
                attachment=kind,  # type: ignore[arg-type]
                attached_to=on,
            )
        )
    if not made:
        return setup, ()
    spells: list[a.Action] = [a.PhaseOutAll(player)]
    if a.action_needs(a.TeferisProtection) <= set(caps):
        spells.append(a.TeferisProtection(player))
    # Up to the caster's next untap step, where it all phases in again.
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return with_permanents(setup, *made), (pick(draw, spells), *turns)


@rule_property(
    "R2017-control",
    "R2017-auras",
    needs={C.PHASE_OUT_ALL},
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, C.PHASE_OUT_ALL, C.CONTROL_CHANGE, C.AURAS, C.EQUIPMENT, C.PLAYER_AURAS)
        | focus(caps, C.PLAYER_PROTECTION, C.LIFE_LOCK, C.MULTIPLAYER),
        _controlled_not_owned,
        kinds=(a.PassTurn, a.PhaseOutAll, a.PhaseOut),
        max_actions=3,
        permanent_kinds=("creature", "aura", "equipment"),
    ),
    exercised=_took_one,
)
def phase_out_all_takes_what_its_caster_controls(trace: Trace) -> None:
    """ "All permanents you control phase out" takes what its caster
    controls: a permanent another player owns (R2017-control: "If you gain
    control of another player's permanent and it phases out"), and an Aura
    or Equipment on something that isn't phasing out (R2017-auras: it phases
    in attached to that permanent later)."""
    for step, player, b, rule, why in _taken(trace):
        c = view(step.after, b.id)
        expect(
            c is None or not c.on_battlefield or c.phased_out,
            rule,
            f"{where(trace, step)}, {b.id} ({why})",
            f"phased out: player {player} controlled it",
            "still phased in",
        )
