"""Strategies for legal starting positions: permanents, continuous effects
and the setups made of them (see `conformance.legality`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance.capabilities import Capability as C
from conformance.setup import (
    Ability,
    BoostEffect,
    ControlEffect,
    Duration,
    DurationKind,
    Effect,
    Permanent,
    PhasedOut,
    Setup,
    SkipUntap,
)
from conformance.strategies._draw import Caps, composite, integer, maybe, pick, some

_KIND_NEEDS = {
    "creature": None,
    "land": None,
    "artifact": None,
    "enchantment": None,
    "aura": C.AURAS,
    "equipment": C.EQUIPMENT,
    "fortification": C.FORTIFICATIONS,
    "land creature": None,
}
#: The kinds drawn when a strategy names none: land creatures only where
#: asked for (`permanent_kinds`), so the properties' draws stay as tuned.
_DEFAULT_KINDS = tuple(k for k in _KIND_NEEDS if k != "land creature")
_TYPES = {
    "creature": ("creature",),
    "land": ("land",),
    "artifact": ("artifact",),
    "enchantment": ("enchantment",),
    "aura": ("enchantment",),
    "equipment": ("artifact",),
    "fortification": ("artifact",),
    "land creature": ("land", "creature"),
}


def _abilities(
    draw: st.DrawFn, caps: Caps, kind: str, only: Sequence[Ability] | None = None
) -> tuple[Ability, ...]:
    allowed: list[Ability] = []
    if C.TRIGGERS in caps:
        allowed += ["etb", "ltb"]
        if "creature" in _TYPES[kind]:
            allowed.append("dies")
        if kind in ("aura", "equipment", "fortification"):
            allowed += ["attached", "unattached"]
    if C.PHASE_TRIGGERS in caps:
        allowed += ["phases_in", "phases_out"]
    if C.ANTHEM in caps:
        allowed.append("anthem")
    if C.ACTIVATED_ABILITIES in caps:
        allowed.append("tap_gain_life")
    if only is not None:
        allowed = [x for x in allowed if x in only]
    return tuple(some(draw, allowed, 3))


@composite
def permanent_lists(
    draw: st.DrawFn,
    players: int,
    caps: Caps,
    *,
    min_size: int = 0,
    max_size: int = 6,
    kinds: Sequence[str] | None = None,
    phased_out: bool = True,
    ready: bool = False,
    chains: bool = False,
    lead: Sequence[str] = (),
    default_controllers: bool = False,
    abilities: Sequence[Ability] | None = None,
    favour_until: bool = False,
) -> tuple[Permanent, ...]:
    """Permanents in an order where every host comes before what is attached
    to it; ids are p1, p2, … in that order. `ready` ones are phased in,
    untapped and not summoning sick: able to attack and tap. With `chains`,
    an Aura is often put on an attachment, making chains two levels deep (an
    Aura on an Equipment on a creature, an Aura on an Aura), and Equipment
    and Fortifications are attached whenever they can be. The first
    permanents are of the kinds in `lead` (e.g. a creature, then an Aura on
    it), so that a property's situation arises often. With
    `default_controllers` (and the capability), a permanent may have entered
    under another player than its owner (110.2, 800.4c). `abilities`, if
    given, are the only abilities drawn (each one more often, then). With
    `favour_until`, most permanents that phased out directly did so "until"
    another leaves (610.4)."""
    allowed = [
        k for k in (kinds or _DEFAULT_KINDS) if _KIND_NEEDS[k] is None or _KIND_NEEDS[k] in caps
    ]
    lead = [k for k in lead if _KIND_NEEDS[k] is None or _KIND_NEEDS[k] in caps]
    made: list[Permanent] = []
    for i in range(integer(draw, max(min_size, len(lead)), max(max_size, len(lead)))):
        kind = lead[i] if i < len(lead) else pick(draw, allowed)
        host = _draw_host(draw, kind, made, players, caps, chains)
        if kind == "aura" and host is None:
            kind = "creature"
        owner = integer(draw, 0, players - 1)
        default = owner
        if default_controllers and C.DEFAULT_CONTROLLER in caps:
            default = integer(draw, 0, players - 1)
        creature = "creature" in _TYPES[kind]
        p = Permanent(
            id=f"p{i + 1}",
            owner=owner,
            default_controller=None if default == owner else default,
            controller=integer(draw, 0, players - 1) if C.CONTROL_CHANGE in caps else default,
            types=_TYPES[kind],
            attachment=kind if kind in ("aura", "equipment", "fortification") else None,  # type: ignore[arg-type]
            token=creature and C.TOKENS in caps and maybe(draw),
            phasing=integer(draw, 0, 2 if C.REDUNDANT_PHASING in caps else 1),
            tapped=not ready and maybe(draw),
            counters=_counters(draw, caps),
            attached_to=host,
            abilities=_abilities(draw, caps, kind, abilities),
            power=integer(draw, 0, 3) if creature else None,
            toughness=integer(draw, 1, 3) if creature else None,
            chosen=pick(draw, [None, "white", "blue"]) if C.CHOICES in caps else None,
            sick=creature and not ready and maybe(draw),
        )
        status = (
            _phase_status(draw, p, made, caps, favour_until) if phased_out and not ready else None
        )
        made.append(replace(p, phased_out=status))
    return tuple(made)


def _draw_host(
    draw: st.DrawFn, kind: str, made: list[Permanent], players: int, caps: Caps, chains: bool
) -> str | int | None:
    attached = [p.id for p in made if p.attached_to is not None]
    if kind == "aura" and chains and attached and maybe(draw):
        return pick(draw, attached)
    if kind == "aura":
        options: list[str | int] = [p.id for p in made]
        if C.PLAYER_AURAS in caps:
            options += list(range(players))
        return pick(draw, options) if options else None
    wanted = {"equipment": "creature", "fortification": "land"}.get(kind)
    if wanted is None:
        return None
    hosts = [p.id for p in made if wanted in p.types]
    return pick(draw, hosts if chains and hosts else [None, *hosts])


def _counters(draw: st.DrawFn, caps: Caps) -> tuple[tuple[str, int], ...]:
    if C.COUNTERS not in caps:
        return ()
    return tuple((kind, integer(draw, 1, 3)) for kind in some(draw, ["+1/+1", "charge"], 2))


def _phase_status(
    draw: st.DrawFn, p: Permanent, made: list[Permanent], caps: Caps, favour_until: bool = False
) -> PhasedOut | None:
    host = next((h for h in made if h.id == p.attached_to), None)
    if host is not None and host.phased_out is not None:
        # 702.26g: what is attached to a phased-out permanent is phased out.
        return PhasedOut("indirect", p.controller)
    if not maybe(draw):
        return None
    # R2017-control: it may have phased out under its owner before a control
    # effect gave it to someone else.
    unders = [p.controller, p.owner] if C.PHASED_OUT_UNDER_OTHER in caps else [p.controller]
    under = pick(draw, sorted(set(unders)))
    sources = [m.id for m in made if m.phased_out is None]
    if C.PHASE_OUT_UNTIL in caps and sources and (maybe(draw) or (favour_until and maybe(draw))):
        return PhasedOut("direct", under, pick(draw, sources))
    return PhasedOut("direct", under)


@composite
def effect_lists(
    draw: st.DrawFn,
    setup: Setup,
    caps: Caps,
    *,
    boost_durations: Sequence[DurationKind] = ("end_of_turn",),
    control_durations: Sequence[Duration] | None = None,
    skipped_untap: bool = False,
) -> tuple[Effect, ...]:
    """Continuous effects consistent with `setup` (see legality); a boost
    lasts one of `boost_durations` (702.26f, 800.4m). With
    `control_durations`, every permanent controlled by another player than
    its default controller gets an explicit control effect lasting one of
    them (800.4c); with `skipped_untap`, a player always skips their next
    untap step (702.26m), if `caps` allow, and sometimes the one after too:
    two effects, which stack (only then: no other property draws two)."""
    effects: list[Effect] = []
    last = setup.players - 1
    if C.SKIP_UNTAP in caps and (skipped_untap or maybe(draw)):
        skipper = integer(draw, 0, last)
        effects.append(SkipUntap(skipper))
        if skipped_untap and maybe(draw):
            effects.append(SkipUntap(skipper))
    creatures = [p.id for p in setup.permanents if p.is_creature]
    if C.PT_BOOST in caps and creatures and maybe(draw):
        targets = some(draw, creatures, 3) or creatures[:1]
        duration = Duration(pick(draw, boost_durations))
        effects.append(BoostEffect(tuple(targets), integer(draw, 0, last), duration=duration))
    if C.CONTROL_CHANGE in caps:
        for p in setup.permanents:
            if p.controller == p.controller_by_default:
                continue
            if control_durations:
                duration = pick(draw, control_durations)
                effects.append(ControlEffect(p.id, p.controller, duration))
            elif maybe(draw):
                effects.append(ControlEffect(p.id, p.controller, _duration(draw, setup, p, caps)))
    return tuple(effects)


SIMPLE_DURATIONS = [Duration("indefinitely"), Duration("end_of_turn"), Duration("your_next_turn")]


def _duration(draw: st.DrawFn, setup: Setup, target: Permanent, caps: Caps) -> Duration:
    anchors = [
        p.id
        for p in setup.permanents
        if p.id != target.id and p.phased_out is None and p.controller == target.controller
    ]
    if C.CONTROL_AS_LONG_AS in caps and anchors and maybe(draw):
        return Duration("as_long_as_you_control", pick(draw, anchors))
    return pick(draw, SIMPLE_DURATIONS)


@composite
def setups(
    draw: st.DrawFn,
    caps: Caps,
    *,
    min_permanents: int = 0,
    max_permanents: int = 6,
    permanent_kinds: Sequence[str] | None = None,
    phased_out: bool = True,
    ready: bool = False,
    effects: bool = True,
    boost_durations: Sequence[DurationKind] = ("end_of_turn",),
    chains: bool = False,
    lead: Sequence[str] = (),
    min_players: int = 2,
    default_controllers: bool = False,
    control_durations: Sequence[Duration] | None = None,
    abilities: Sequence[Ability] | None = None,
    favour_until: bool = False,
    skipped_untap: bool = False,
) -> Setup:
    """A legal position with what `caps` allows; at least `min_players`
    players if the engine plays multiplayer games (`permanent_lists` and
    `effect_lists` say what the other options do)."""
    players = integer(draw, min_players, 4) if C.MULTIPLAYER in caps else 2
    permanents = draw(
        permanent_lists(
            players,
            caps,
            min_size=min_permanents,
            max_size=max_permanents,
            kinds=permanent_kinds,
            phased_out=phased_out,
            ready=ready,
            chains=chains,
            lead=lead,
            default_controllers=default_controllers,
            abilities=abilities,
            favour_until=favour_until,
        )
    )
    setup = Setup(players=players, active=integer(draw, 0, players - 1), permanents=permanents)
    if effects:
        setup = replace(
            setup,
            effects=draw(
                effect_lists(
                    setup,
                    caps,
                    boost_durations=boost_durations,
                    control_durations=control_durations,
                    skipped_untap=skipped_untap,
                )
            ),
        )
    return setup
