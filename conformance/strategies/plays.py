"""Strategies for the actions played from a position: what is likely to
matter (the permanents there, who controls them, whose turn it is), within
what the engine can play."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.setup import Duration, Setup
from conformance.strategies._draw import Caps, composite, integer, maybe, pick, some
from conformance.strategies.players import draw_player_action
from conformance.strategies.positions import SIMPLE_DURATIONS

#: What is drawn unless a property names its kinds. The in-play actions
#: (damage, mana, blocks) and the player actions (life, protection) are drawn
#: only by the properties about them, which keeps the certified examples of
#: the other properties as they were.
IN_PLAY_KINDS: tuple[type, ...] = (
    a.DealDamage,
    a.TapForMana,
    a.DeclareBlockers,
    a.DrawPerEntered,
)
#: Drawn only by the plans of their properties (conformance.strategies.plans):
#: a spell waiting through two responses.
PLANNED_KINDS: tuple[type, ...] = (a.DestroyThroughPhasing,)
ACTION_KINDS: tuple[type, ...] = tuple(
    k
    for k in a.ACTION_TYPES
    if k not in a.PLAYER_ACTION_TYPES and k not in IN_PLAY_KINDS and k not in PLANNED_KINDS
)


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
    auras: int = 0
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
    player = pick(draw, turn_order)
    others = turn_order[1:]
    if kind is a.PassTurn:
        table.active = table.in_game[(table.in_game.index(table.active) + 1) % len(table.in_game)]
        return a.PassTurn()
    if kind is a.CreateToken:
        table.tokens += 1
        table.ids.append(f"t{table.tokens}")
        table.controllers[f"t{table.tokens}"] = player
        return a.CreateToken(player, f"t{table.tokens}", integer(draw, 0, 1))
    if kind is a.Concede:
        if len(table.in_game) <= 2 or not others:
            return None
        quitter = pick(draw, others)
        table.in_game.remove(quitter)
        return a.Concede(quitter)
    if kind in _NO_TARGET:
        return _NO_TARGET[kind](player)
    if kind in a.PLAYER_ACTION_TYPES:
        return draw_player_action(draw, table, kind, player, others)
    if not table.ids or not others:
        return None
    if kind is a.DeclareAttackers:
        mine = table.controlled_by(table.active) or table.ids
        attackers = tuple(some(draw, mine, 3)) or (mine[0],)
        return a.DeclareAttackers(table.active, attackers, pick(draw, others))
    if kind is a.DeclareBlockers:
        defender = pick(draw, others)
        theirs = table.controlled_by(defender) or table.ids
        attackers = table.controlled_by(table.active) or table.ids
        blockers = some(draw, theirs, 2) or theirs[:1]
        return a.DeclareBlockers(defender, tuple((b, pick(draw, attackers)) for b in blockers))
    if kind is a.TapForMana:
        source = pick(draw, table.ids)
        return a.TapForMana(table.controllers.get(source, player), source)
    return _targeted_action(draw, kind, player, table)


_NO_TARGET: dict[type, Callable[[int], a.Action]] = {
    a.PhaseOutAll: a.PhaseOutAll,
    a.DestroyAll: a.DestroyAll,
    a.DrawPerCreature: a.DrawPerCreature,
    a.PumpTeam: a.PumpTeam,
    a.DrawPerEntered: a.DrawPerEntered,
}


@composite
def action_lists(
    draw: st.DrawFn,
    setup: Setup,
    caps: Caps,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_size: int = 0,
    max_size: int = 8,
    left: Sequence[int] = (),
) -> tuple[a.Action, ...]:
    """Actions to play from `setup`, of the given kinds the engine can play;
    the players in `left` have already left the game (they are never the
    active player)."""
    usable = usable_kinds(kinds, caps)
    table = replace(Table.from_setup(setup), caps=frozenset(caps))
    table.in_game = [p for p in table.in_game if p not in left]
    # st.lists marks each action as a unit, so shrinking can delete any of
    # them, not only the last ones.
    drawn = draw(st.lists(_one_action(table, usable), min_size=min_size, max_size=max_size))
    return tuple(x for x in drawn if x is not None)


# At module level: a composite decorated at each call would have Hypothesis
# read its source each time (a tenth of a property's run).
@composite
def _one_action(draw: st.DrawFn, table: Table, usable: Sequence[type]) -> a.Action | None:
    return draw_action(draw, table, pick(draw, usable))


@composite
def next_actions(
    draw: st.DrawFn, obs: Observation, caps: Caps, kinds: Sequence[type] = ACTION_KINDS
) -> a.Action:
    """One action to play from the position `obs` shows (stateful tests)."""
    table = replace(Table.from_observation(obs), caps=frozenset(caps))
    action = draw_action(draw, table, pick(draw, usable_kinds(kinds, caps)))
    return a.PassTurn() if action is None else action


def _targeted_action(draw: st.DrawFn, kind: type, player: int, table: Table) -> a.Action:
    ids = table.ids
    if kind is a.PhaseOut:
        return a.PhaseOut(player, tuple(some(draw, ids, 2)) or (pick(draw, ids),))
    if kind is a.Destroy:
        return a.Destroy(player, pick(draw, ids), maybe(draw))
    if kind is a.GainControl:
        target = pick(draw, ids)
        # X is any permanent only with CONTROL_AS_LONG_AS_OTHER; else one the
        # caster controlled at the start (phased in, the adapter checks).
        anchors = ids if C.CONTROL_AS_LONG_AS_OTHER in table.caps else table.controlled_by(player)
        if C.CONTROL_AS_LONG_AS in table.caps and anchors and maybe(draw):
            return a.GainControl(
                player, target, Duration("as_long_as_you_control", pick(draw, anchors))
            )
        return a.GainControl(player, target, pick(draw, SIMPLE_DURATIONS))
    # Abilities are mostly activated by their controller.
    source = pick(draw, ids)
    if not maybe(draw):
        player = table.controllers.get(source, player)
    if kind is a.PhaseOutUntil:
        return a.PhaseOutUntil(player, source, pick(draw, ids))
    assert kind is a.Activate, kind
    return a.Activate(player, source)
