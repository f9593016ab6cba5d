"""Hypothesis strategies for legal setups and the actions played from them.

Everything generated is a legal position (checked by
`conformance.legality`), uses only what the engine's capabilities allow, and
shrinks toward few players, few plain creatures and few actions, so a
counterexample reads like a rules question.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.scenario import Scenario
from conformance.setup import (
    TRIGGERS,
    Ability,
    BoostEffect,
    ControlEffect,
    Duration,
    Effect,
    Permanent,
    PhasedOut,
    Setup,
    SkipUntap,
)

Caps = Collection[C]

_KIND_NEEDS = {
    "creature": None,
    "land": None,
    "artifact": None,
    "enchantment": None,
    "aura": C.AURAS,
    "equipment": C.EQUIPMENT,
    "fortification": C.FORTIFICATIONS,
}
_TYPES = {
    "creature": ("creature",),
    "land": ("land",),
    "artifact": ("artifact",),
    "enchantment": ("enchantment",),
    "aura": ("enchantment",),
    "equipment": ("artifact",),
    "fortification": ("artifact",),
}


def _abilities(caps: Caps, kind: str) -> st.SearchStrategy[tuple[Ability, ...]]:
    allowed: list[Ability] = []
    if C.TRIGGERS in caps:
        allowed += ["etb", "ltb"]
        if kind == "creature":
            allowed.append("dies")
        if kind in ("aura", "equipment", "fortification"):
            allowed += ["attached", "unattached"]
    if C.PHASE_TRIGGERS in caps:
        allowed += ["phases_in", "phases_out"]
    if C.ANTHEM in caps:
        allowed.append("anthem")
    if C.ACTIVATED_ABILITIES in caps:
        allowed.append("tap_gain_life")
    if not allowed:
        return st.just(())
    order = {x: i for i, x in enumerate((*TRIGGERS, "anthem", "tap_gain_life"))}
    return st.lists(st.sampled_from(allowed), unique=True, max_size=3).map(
        lambda xs: tuple(sorted(xs, key=order.__getitem__))
    )


@st.composite
def permanent_lists(
    draw: st.DrawFn,
    players: int,
    caps: Caps,
    *,
    min_size: int = 0,
    max_size: int = 6,
    kinds: Sequence[str] | None = None,
    phased_out: bool = True,
) -> tuple[Permanent, ...]:
    """Permanents in an order where every host comes before what is attached
    to it; ids are p1, p2, … in that order."""
    allowed = [k for k in (kinds or _KIND_NEEDS) if _KIND_NEEDS[k] is None or _KIND_NEEDS[k] in caps]
    n = draw(st.integers(min_size, max_size))
    made: list[Permanent] = []
    player = st.integers(0, players - 1)
    for i in range(n):
        pid = f"p{i + 1}"
        kind = draw(st.sampled_from(allowed))
        host = _draw_host(draw, kind, made, players, caps)
        if kind in ("aura", "equipment", "fortification") and host is None and kind == "aura":
            kind = "creature"
        owner = draw(player)
        controller = draw(player) if C.CONTROL_CHANGE in caps else owner
        creature = kind == "creature"
        power = draw(st.integers(0, 3)) if creature else None
        toughness = draw(st.integers(1, 3)) if creature else None
        p = Permanent(
            id=pid,
            owner=owner,
            controller=controller,
            types=_TYPES[kind],
            attachment=kind if kind in ("aura", "equipment", "fortification") else None,
            token=creature and C.TOKENS in caps and draw(st.booleans()),
            phasing=draw(st.integers(0, 2 if C.REDUNDANT_PHASING in caps else 1)),
            tapped=draw(st.booleans()),
            counters=draw(_counters(caps)),
            attached_to=host,
            abilities=draw(_abilities(caps, kind)),
            power=power,
            toughness=toughness,
            chosen=draw(st.none() | st.sampled_from(["white", "blue"]))
            if C.CHOICES in caps
            else None,
            sick=creature and draw(st.booleans()),
        )
        made.append(replace(p, phased_out=draw(_phase_status(p, made, caps)) if phased_out else None))
    return tuple(made)


def _draw_host(
    draw: st.DrawFn, kind: str, made: list[Permanent], players: int, caps: Caps
) -> str | int | None:
    if kind == "aura":
        options: list[str | int] = [p.id for p in made]
        if C.PLAYER_AURAS in caps:
            options += list(range(players))
        return draw(st.sampled_from(options)) if options else None
    wanted = {"equipment": "creature", "fortification": "land"}.get(kind)
    if wanted is None:
        return None
    options = [p.id for p in made if wanted in p.types]
    return draw(st.none() | st.sampled_from(options)) if options else None


def _counters(caps: Caps) -> st.SearchStrategy[tuple[tuple[str, int], ...]]:
    if C.COUNTERS not in caps:
        return st.just(())
    return st.dictionaries(st.sampled_from(["+1/+1", "charge"]), st.integers(1, 3), max_size=2).map(
        lambda d: tuple(sorted(d.items()))
    )


def _phase_status(
    p: Permanent, made: list[Permanent], caps: Caps
) -> st.SearchStrategy[PhasedOut | None]:
    host = next((h for h in made if h.id == p.attached_to), None)
    if host is not None and host.phased_out is not None:
        # 702.26g: what is attached to a phased-out permanent is phased out.
        return st.just(PhasedOut("indirect", host.phased_out.under))
    unders = sorted({p.controller, p.owner})
    direct = st.builds(PhasedOut, st.just("direct"), st.sampled_from(unders))
    if C.PHASE_OUT_UNTIL in caps:
        sources = [m.id for m in made if m.phased_out is None]
        if sources:
            direct = direct | st.builds(
                PhasedOut, st.just("direct"), st.sampled_from(unders), st.sampled_from(sources)
            )
    return st.none() | direct


@st.composite
def effect_lists(draw: st.DrawFn, setup: Setup, caps: Caps) -> tuple[Effect, ...]:
    """Continuous effects consistent with `setup` (see legality)."""
    effects: list[Effect] = []
    if C.SKIP_UNTAP in caps and draw(st.booleans()):
        effects.append(SkipUntap(draw(st.integers(0, setup.players - 1))))
    creatures = [p.id for p in setup.permanents if p.is_creature]
    if C.PT_BOOST in caps and creatures and draw(st.booleans()):
        targets = draw(st.lists(st.sampled_from(creatures), min_size=1, unique=True, max_size=3))
        effects.append(BoostEffect(tuple(targets), draw(st.integers(0, setup.players - 1))))
    if C.CONTROL_CHANGE in caps:
        for p in setup.permanents:
            if p.controller != p.owner and draw(st.booleans()):
                effects.append(ControlEffect(p.id, p.controller, draw(_durations(setup, p))))
    return tuple(effects)


def _durations(setup: Setup, target: Permanent) -> st.SearchStrategy[Duration]:
    simple = st.sampled_from(["indefinitely", "end_of_turn", "your_next_turn"]).map(Duration)
    anchors = [
        p.id
        for p in setup.permanents
        if p.id != target.id and p.phased_out is None and p.controller == target.controller
    ]
    if not anchors:
        return simple
    return simple | st.sampled_from(anchors).map(lambda x: Duration("as_long_as_you_control", x))


@st.composite
def setups(
    draw: st.DrawFn,
    caps: Caps,
    *,
    min_permanents: int = 0,
    max_permanents: int = 6,
    kinds: Sequence[str] | None = None,
    phased_out: bool = True,
    effects: bool = True,
) -> Setup:
    """A legal position with what `caps` allows."""
    players = draw(st.integers(2, 4)) if C.MULTIPLAYER in caps else 2
    permanents = draw(
        permanent_lists(
            players,
            caps,
            min_size=min_permanents,
            max_size=max_permanents,
            kinds=kinds,
            phased_out=phased_out,
        )
    )
    setup = Setup(players=players, active=draw(st.integers(0, players - 1)), permanents=permanents)
    if effects:
        setup = replace(setup, effects=draw(effect_lists(setup, caps)))
    return setup


ACTION_KINDS: tuple[type, ...] = a.ACTION_TYPES


@st.composite
def action_lists(
    draw: st.DrawFn,
    setup: Setup,
    caps: Caps,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_size: int = 0,
    max_size: int = 8,
) -> tuple[a.Action, ...]:
    """Actions to play from `setup`, of the given kinds the engine can play.
    Turn order is followed so that attackers are declared by the active
    player and only a non-active player concedes, leaving two or more."""
    usable = [k for k in kinds if a.action_needs(k.__new__(k)) <= set(caps)]  # type: ignore[arg-type]
    if a.PassTurn in usable:
        usable.remove(a.PassTurn)
        usable.insert(0, a.PassTurn)  # shrinks toward plain turns
    ids = [p.id for p in setup.permanents]
    in_game = list(range(setup.players))
    active = setup.active
    tokens = 0
    out: list[a.Action] = []
    for _ in range(draw(st.integers(min_size, max_size))):
        kind = draw(st.sampled_from(usable))
        player = draw(st.sampled_from(in_game))
        some_id = st.sampled_from(ids) if ids else None
        if kind is a.PassTurn:
            active = in_game[(in_game.index(active) + 1) % len(in_game)]
            out.append(a.PassTurn())
        elif kind is a.CreateToken:
            tokens += 1
            ids.append(f"t{tokens}")
            out.append(a.CreateToken(player, f"t{tokens}", draw(st.integers(0, 1))))
        elif kind is a.Concede:
            others = [p for p in in_game if p != active]
            if len(in_game) > 2:
                quitter = draw(st.sampled_from(others))
                in_game.remove(quitter)
                out.append(a.Concede(quitter))
        elif kind is a.DeclareAttackers:
            others = [p for p in in_game if p != active]
            if some_id is not None:
                attackers = draw(st.lists(some_id, min_size=1, max_size=3, unique=True))
                out.append(a.DeclareAttackers(active, tuple(attackers), draw(st.sampled_from(others))))
        elif some_id is None:
            out.extend(_no_target_action(kind, player, active))
        else:
            out.append(_targeted_action(draw, kind, player, some_id))
    return tuple(out)


def _no_target_action(kind: type, player: int, active: int) -> list[a.Action]:
    simple: dict[type, a.Action] = {
        a.PhaseOutAll: a.PhaseOutAll(player),
        a.DestroyAll: a.DestroyAll(player),
        a.DrawPerCreature: a.DrawPerCreature(player),
        a.PumpTeam: a.PumpTeam(player),
    }
    return [simple[kind]] if kind in simple else []


def _targeted_action(
    draw: st.DrawFn, kind: type, player: int, some_id: st.SearchStrategy[str]
) -> a.Action:
    if kind is a.PhaseOut:
        return a.PhaseOut(player, tuple(draw(st.lists(some_id, min_size=1, max_size=2, unique=True))))
    if kind is a.PhaseOutUntil:
        return a.PhaseOutUntil(player, draw(some_id), draw(some_id))
    if kind is a.Destroy:
        return a.Destroy(player, draw(some_id), draw(st.booleans()))
    if kind is a.GainControl:
        duration = draw(
            st.sampled_from(["indefinitely", "end_of_turn", "your_next_turn"]).map(Duration)
            | some_id.map(lambda x: Duration("as_long_as_you_control", x))
        )
        return a.GainControl(player, draw(some_id), duration)
    if kind is a.Activate:
        return a.Activate(player, draw(some_id))
    return _no_target_action(kind, player, 0)[0]


@st.composite
def scenarios(
    draw: st.DrawFn,
    caps: Caps,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_actions: int = 0,
    max_actions: int = 8,
    **setup_options: object,
) -> Scenario:
    """A legal setup and actions from it, all within `caps`."""
    setup = draw(setups(caps, **setup_options))  # type: ignore[arg-type]
    actions = draw(action_lists(setup, caps, kinds=kinds, min_size=min_actions, max_size=max_actions))
    return Scenario(setup, actions)
