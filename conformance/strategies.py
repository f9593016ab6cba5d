"""Hypothesis strategies for legal setups and the actions played from them.

Everything generated is a legal position (checked by
`conformance.legality`), uses only what the engine's capabilities allow, and
shrinks toward few players, few plain creatures and few actions, so a
counterexample reads like a rules question.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.scenario import Scenario
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

Caps = Collection[C]
T = TypeVar("T")

# Building a Hypothesis strategy costs far more than drawing from one, so the
# composites below draw through these cached primitives.
_BOOL = st.booleans()
_INTS: dict[tuple[int, int], st.SearchStrategy[int]] = {}


def _int(draw: st.DrawFn, lo: int, hi: int) -> int:
    if lo >= hi:
        return lo
    strategy = _INTS.get((lo, hi))
    if strategy is None:
        strategy = _INTS[(lo, hi)] = st.integers(lo, hi)
    return draw(strategy)


def _pick(draw: st.DrawFn, options: Sequence[T]) -> T:
    """One of `options`, shrinking toward the first."""
    return options[_int(draw, 0, len(options) - 1)]


def _maybe(draw: st.DrawFn) -> bool:
    return draw(_BOOL)


def _some(draw: st.DrawFn, options: Sequence[T], max_size: int) -> list[T]:
    """Up to `max_size` distinct options, in their order."""
    chosen = [x for x in options if _maybe(draw)]
    return chosen[:max_size]


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


def _abilities(draw: st.DrawFn, caps: Caps, kind: str) -> tuple[Ability, ...]:
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
    return tuple(_some(draw, allowed, 3))


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
    ready: bool = False,
) -> tuple[Permanent, ...]:
    """Permanents in an order where every host comes before what is attached
    to it; ids are p1, p2, … in that order. `ready` ones are phased in,
    untapped and not summoning sick: able to attack and tap."""
    allowed = [
        k for k in (kinds or _KIND_NEEDS) if _KIND_NEEDS[k] is None or _KIND_NEEDS[k] in caps
    ]
    made: list[Permanent] = []
    for i in range(_int(draw, min_size, max_size)):
        kind = _pick(draw, allowed)
        host = _draw_host(draw, kind, made, players, caps)
        if kind == "aura" and host is None:
            kind = "creature"
        owner = _int(draw, 0, players - 1)
        creature = kind == "creature"
        p = Permanent(
            id=f"p{i + 1}",
            owner=owner,
            controller=_int(draw, 0, players - 1) if C.CONTROL_CHANGE in caps else owner,
            types=_TYPES[kind],
            attachment=kind if kind in ("aura", "equipment", "fortification") else None,  # type: ignore[arg-type]
            token=creature and C.TOKENS in caps and _maybe(draw),
            phasing=_int(draw, 0, 2 if C.REDUNDANT_PHASING in caps else 1),
            tapped=not ready and _maybe(draw),
            counters=_counters(draw, caps),
            attached_to=host,
            abilities=_abilities(draw, caps, kind),
            power=_int(draw, 0, 3) if creature else None,
            toughness=_int(draw, 1, 3) if creature else None,
            chosen=_pick(draw, [None, "white", "blue"]) if C.CHOICES in caps else None,
            sick=creature and not ready and _maybe(draw),
        )
        status = _phase_status(draw, p, made, caps) if phased_out and not ready else None
        made.append(replace(p, phased_out=status))
    return tuple(made)


def _draw_host(
    draw: st.DrawFn, kind: str, made: list[Permanent], players: int, caps: Caps
) -> str | int | None:
    if kind == "aura":
        options: list[str | int] = [p.id for p in made]
        if C.PLAYER_AURAS in caps:
            options += list(range(players))
        return _pick(draw, options) if options else None
    wanted = {"equipment": "creature", "fortification": "land"}.get(kind)
    if wanted is None:
        return None
    return _pick(draw, [None, *(p.id for p in made if wanted in p.types)])


def _counters(draw: st.DrawFn, caps: Caps) -> tuple[tuple[str, int], ...]:
    if C.COUNTERS not in caps:
        return ()
    return tuple((kind, _int(draw, 1, 3)) for kind in _some(draw, ["+1/+1", "charge"], 2))


def _phase_status(
    draw: st.DrawFn, p: Permanent, made: list[Permanent], caps: Caps
) -> PhasedOut | None:
    host = next((h for h in made if h.id == p.attached_to), None)
    if host is not None and host.phased_out is not None:
        # 702.26g: what is attached to a phased-out permanent is phased out.
        return PhasedOut("indirect", p.controller)
    if not _maybe(draw):
        return None
    # R2017-control: it may have phased out under its owner before a control
    # effect gave it to someone else.
    unders = [p.controller, p.owner] if C.PHASED_OUT_UNDER_OTHER in caps else [p.controller]
    under = _pick(draw, sorted(set(unders)))
    sources = [m.id for m in made if m.phased_out is None]
    if C.PHASE_OUT_UNTIL in caps and sources and _maybe(draw):
        return PhasedOut("direct", under, _pick(draw, sources))
    return PhasedOut("direct", under)


@st.composite
def effect_lists(
    draw: st.DrawFn,
    setup: Setup,
    caps: Caps,
    *,
    boost_durations: Sequence[DurationKind] = ("end_of_turn",),
) -> tuple[Effect, ...]:
    """Continuous effects consistent with `setup` (see legality); a boost
    lasts one of `boost_durations` (702.26f, 800.4m)."""
    effects: list[Effect] = []
    last = setup.players - 1
    if C.SKIP_UNTAP in caps and _maybe(draw):
        effects.append(SkipUntap(_int(draw, 0, last)))
    creatures = [p.id for p in setup.permanents if p.is_creature]
    if C.PT_BOOST in caps and creatures and _maybe(draw):
        targets = _some(draw, creatures, 3) or creatures[:1]
        duration = Duration(_pick(draw, boost_durations))
        effects.append(BoostEffect(tuple(targets), _int(draw, 0, last), duration=duration))
    if C.CONTROL_CHANGE in caps:
        for p in setup.permanents:
            if p.controller != p.owner and _maybe(draw):
                effects.append(ControlEffect(p.id, p.controller, _duration(draw, setup, p, caps)))
    return tuple(effects)


_SIMPLE_DURATIONS = [Duration("indefinitely"), Duration("end_of_turn"), Duration("your_next_turn")]


def _duration(draw: st.DrawFn, setup: Setup, target: Permanent, caps: Caps) -> Duration:
    anchors = [
        p.id
        for p in setup.permanents
        if p.id != target.id and p.phased_out is None and p.controller == target.controller
    ]
    if C.CONTROL_AS_LONG_AS in caps and anchors and _maybe(draw):
        return Duration("as_long_as_you_control", _pick(draw, anchors))
    return _pick(draw, _SIMPLE_DURATIONS)


@st.composite
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
) -> Setup:
    """A legal position with what `caps` allows."""
    players = _int(draw, 2, 4) if C.MULTIPLAYER in caps else 2
    permanents = draw(
        permanent_lists(
            players,
            caps,
            min_size=min_permanents,
            max_size=max_permanents,
            kinds=permanent_kinds,
            phased_out=phased_out,
            ready=ready,
        )
    )
    setup = Setup(players=players, active=_int(draw, 0, players - 1), permanents=permanents)
    if effects:
        setup = replace(
            setup, effects=draw(effect_lists(setup, caps, boost_durations=boost_durations))
        )
    return setup


ACTION_KINDS: tuple[type, ...] = a.ACTION_TYPES


@dataclass
class Table:
    """What action generation tracks to make actions likely to matter: the
    permanent ids and who controlled them at the start, players still in the
    game, and whose turn it is."""

    ids: list[str]
    in_game: list[int]
    active: int
    controllers: dict[str, int]
    tokens: int = 0
    caps: frozenset[C] = frozenset()

    @classmethod
    def from_setup(cls, setup: Setup) -> Table:
        controllers = {p.id: p.controller for p in setup.permanents}
        return cls(list(controllers), list(range(setup.players)), setup.active, controllers)

    @classmethod
    def from_observation(cls, obs: Observation) -> Table:
        controllers = {p.id: p.controller or 0 for p in obs.permanents}
        return cls(
            list(controllers),
            [p.index for p in obs.players if p.in_game],
            obs.active,
            controllers,
            sum(p.id.startswith("t") for p in obs.permanents),
        )

    def turn_order(self) -> list[int]:
        """Players in the game, the active one first."""
        i = self.in_game.index(self.active)
        return self.in_game[i:] + self.in_game[:i]

    def controlled_by(self, player: int) -> list[str]:
        return [pid for pid in self.ids if self.controllers.get(pid) == player]


def usable_kinds(kinds: Sequence[type], caps: Caps) -> list[type]:
    """The action kinds the engine can play, PassTurn first so that
    sequences shrink toward plain turns."""
    usable = [k for k in kinds if a.action_needs(k) <= set(caps)]
    return sorted(usable, key=lambda k: k is not a.PassTurn)


def draw_action(draw: st.DrawFn, table: Table, kind: type) -> a.Action | None:
    """One action of `kind`, updating `table`; None if none is possible.
    Attackers are declared by the active player, and only a non-active
    player concedes, leaving two or more in the game."""
    # Players are drawn in turn order from the active one, so deleting a
    # PassTurn while shrinking keeps who acts relative to whose turn it is.
    turn_order = table.turn_order()
    player = _pick(draw, turn_order)
    others = turn_order[1:]
    if kind is a.PassTurn:
        table.active = table.in_game[(table.in_game.index(table.active) + 1) % len(table.in_game)]
        return a.PassTurn()
    if kind is a.CreateToken:
        table.tokens += 1
        table.ids.append(f"t{table.tokens}")
        table.controllers[f"t{table.tokens}"] = player
        return a.CreateToken(player, f"t{table.tokens}", _int(draw, 0, 1))
    if kind is a.Concede:
        if len(table.in_game) <= 2 or not others:
            return None
        quitter = _pick(draw, others)
        table.in_game.remove(quitter)
        return a.Concede(quitter)
    if kind in _NO_TARGET:
        return _NO_TARGET[kind](player)
    if not table.ids or not others:
        return None
    if kind is a.DeclareAttackers:
        mine = table.controlled_by(table.active) or table.ids
        attackers = tuple(_some(draw, mine, 3)) or (mine[0],)
        return a.DeclareAttackers(table.active, attackers, _pick(draw, others))
    return _targeted_action(draw, kind, player, table)


_NO_TARGET: dict[type, Callable[[int], a.Action]] = {
    a.PhaseOutAll: a.PhaseOutAll,
    a.DestroyAll: a.DestroyAll,
    a.DrawPerCreature: a.DrawPerCreature,
    a.PumpTeam: a.PumpTeam,
}


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
    """Actions to play from `setup`, of the given kinds the engine can play."""
    usable = usable_kinds(kinds, caps)
    table = replace(Table.from_setup(setup), caps=frozenset(caps))

    @st.composite
    def one(draw: st.DrawFn) -> a.Action | None:
        return draw_action(draw, table, _pick(draw, usable))

    # st.lists marks each action as a unit, so shrinking can delete any of
    # them, not only the last ones.
    drawn = draw(st.lists(one(), min_size=min_size, max_size=max_size))
    return tuple(x for x in drawn if x is not None)


@st.composite
def next_actions(
    draw: st.DrawFn, obs: Observation, caps: Caps, kinds: Sequence[type] = ACTION_KINDS
) -> a.Action:
    """One action to play from the position `obs` shows (stateful tests)."""
    table = replace(Table.from_observation(obs), caps=frozenset(caps))
    action = draw_action(draw, table, _pick(draw, usable_kinds(kinds, caps)))
    return a.PassTurn() if action is None else action


def _targeted_action(draw: st.DrawFn, kind: type, player: int, table: Table) -> a.Action:
    ids = table.ids
    if kind is a.PhaseOut:
        return a.PhaseOut(player, tuple(_some(draw, ids, 2)) or (_pick(draw, ids),))
    if kind is a.Destroy:
        return a.Destroy(player, _pick(draw, ids), _maybe(draw))
    if kind is a.GainControl:
        target = _pick(draw, ids)
        if C.CONTROL_AS_LONG_AS in table.caps and _maybe(draw):
            return a.GainControl(
                player, target, Duration("as_long_as_you_control", _pick(draw, ids))
            )
        return a.GainControl(player, target, _pick(draw, _SIMPLE_DURATIONS))
    # Abilities are mostly activated by their controller.
    source = _pick(draw, ids)
    if not _maybe(draw):
        player = table.controllers.get(source, player)
    if kind is a.PhaseOutUntil:
        return a.PhaseOutUntil(player, source, _pick(draw, ids))
    assert kind is a.Activate, kind
    return a.Activate(player, source)


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
    actions = draw(
        action_lists(setup, caps, kinds=kinds, min_size=min_actions, max_size=max_actions)
    )
    return Scenario(setup, actions)
