"""Playing phase.rs through its own moves: passing priority, answering its
prompts, casting spells, activating and conceding (combat is
`adapters.phase_rs.combat`'s).

The driver never edits the game, with two exceptions, both about the cards
of a player's supply (filler and the invented spells, never part of the
position under test): before a spell is cast, `ensure_in_hand` puts it in
the caster's hand (by an edit, or by the engine's debug move for a copy
they cast before or one stocked in their library as the game started),
and before an action, `restock` refills a library that could run out
(`adapters.phase_rs.stocking`). A move the engine refuses is returned as a
reason string, never raised.

Concessions are timed like the reference engine's (docs/readings.md,
"State-based actions and priority"): a player may concede at any time
(104.3a), and a spell cast right after a concession is cast by a player who
already held priority when it happened, so no state-based action it leaves
pending (704.3: they wait until a player *receives* priority) has been
performed when that spell is cast. Passing priority to the caster after the
concession would check them first, and a target the concession made
illegal (an Aura on the leaver, 704.5m) would be gone before the cast: the
same legal game, played in another order. So the driver keeps the position
from just before a run of concessions, and if the next caster doesn't hold
priority, it replays them from there once the caster does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adapters.phase_rs.cards import FILLER, CardSpec
from adapters.phase_rs.combat import Combat
from adapters.phase_rs.moves import MAX_MOVES, PASS
from adapters.phase_rs.observing import lookup, phased_in_on_battlefield
from adapters.phase_rs.stocking import Stocking


@dataclass(frozen=True)
class Saved:
    """A game to restore after a refused move (`Driver.restore`): an
    export to load, or none where the engine's own CancelCast will undo the
    move (`Driver.save_for`)."""

    exported: dict[str, Any] | None
    before_concessions: dict[str, Any] | None
    conceded: list[int]
    events: int
    #: Objects on the stack when saved: a move undone leaves as many.
    stack: int


class DriverError(RuntimeError):
    """The engine asked something the adapter can't answer."""


class Driver(Stocking, Combat):
    """Drives one phase.rs game. `events` collects the engine's raw events
    until the caller takes them."""

    def __init__(self, database: Any, game: Any, active: int) -> None:
        self.database = database
        self.game = game
        self.active = active
        self.events: list[dict[str, Any]] = []
        self.attacked = False
        #: The exported state before the latest run of concessions and who
        #: conceded, while no other move followed (see the module docstring).
        self.before_concessions: dict[str, Any] | None = None
        self.conceded: list[int] = []
        #: The state last exported or loaded, while no move followed.
        self._exported: dict[str, Any] | None = None
        #: What the engine waits for, while no move followed (`waiting`).
        self._waiting: dict[str, Any] | None = None
        #: The copy of each card `ensure_in_hand` gave each player, by
        #: (player, card name), to give back by a move once it is used.
        self.given: dict[tuple[int, str], int] = {}

    # Low-level moves.

    def snapshot(self) -> dict[str, Any]:
        """The game's exported state, to read or to `load` back: the one
        last exported or loaded if no move followed, else a new export (which
        costs about as much as a load). Not to be changed: `_edit` changes an
        export of its own."""
        if self._exported is None:
            self._exported = self.game.state()
        return self._exported

    def load(self, exported: dict[str, Any]) -> None:
        """Resume the game from `exported` (a `snapshot`, or an edited one)."""
        self.game = self.database.load_game(exported)
        self._exported, self._waiting = exported, None

    def apply(self, seat: int, move: Any) -> list[dict[str, Any]]:
        self.before_concessions, self.conceded = None, []
        self._exported = self._waiting = None
        events = list(self.game.apply(seat, move).events)
        self.events += events
        for e in events:
            if e["type"] == "TurnStarted":
                self.active = e["data"]["player_id"]
                self.attacked = False
        return events

    def waiting(self) -> dict[str, Any]:
        """What the engine waits for; asked once between moves, since the
        driver asks it several times a move."""
        if self._waiting is None:
            self._waiting = self.game.waiting_for()
        return self._waiting

    def seat_to_act(self) -> int:
        data = self.waiting().get("data") or {}
        if "player" in data:
            return int(data["player"])
        return int(self.game.priority_player())

    def quiet(self) -> bool:
        """Priority with an empty stack: the engine waits for a new move."""
        return self.waiting()["type"] == "Priority" and not self.game.stack()

    def game_over(self) -> bool:
        return self.waiting()["type"] == "GameOver"

    def answer_prompt(self) -> None:
        """One default answer: pass priority, keep trigger order, no attacks,
        no blocks, keep the first legend (704.5j), apply the first
        permanent's replacement first (616.1), discard filler first (to hand
        size or to a spell)."""
        waiting = self.waiting()
        kind, data = waiting["type"], waiting.get("data") or {}
        seat = self.seat_to_act()
        if kind == "Priority":
            self.apply(seat, PASS)
        elif kind == "OrderTriggers":
            self.apply(
                seat,
                {"type": "OrderTriggers", "data": {"order": list(range(len(data["triggers"])))}},
            )
        elif kind == "DeclareAttackers":
            self.apply(seat, {"type": "DeclareAttackers", "data": {"attacks": [], "bands": []}})
        elif kind == "DeclareBlockers":
            self.apply(seat, {"type": "DeclareBlockers", "data": {"assignments": []}})
        elif kind == "ChooseLegend":
            # 704.5j: the player keeps one; the suite accepts either choice.
            self.apply(seat, {"type": "ChooseLegend", "data": {"keep": data["candidates"][0]}})
        elif kind == "ReplacementChoice":
            # 616.1: the affected player picks which replacement applies
            # first; the permanent set up first (the lowest object id), as
            # the reference engine's player does.
            sources = [int(c["source_id"]) for c in data["candidates"]]
            first = sources.index(min(sources))
            self.apply(seat, {"type": "ChooseReplacement", "data": {"index": first}})
        elif kind in ("DiscardToHandSize", "DiscardChoice"):
            # 514.1, 701.9a: the discarding player picks, filler first.
            cards = sorted(
                data["cards"], key=lambda oid: self.game.object(oid)["name"] != FILLER.name
            )
            self.apply(seat, {"type": "SelectCards", "data": {"cards": cards[: data["count"]]}})
        else:
            raise DriverError(f"phase.rs asks {kind}, which a scenario never needs: {waiting}")

    def settle(self) -> None:
        """Let every player pass until the stack is empty (triggered
        abilities resolve), answering prompts on the way."""
        for _ in range(MAX_MOVES):
            if self.quiet() or self.game_over():
                return
            self.answer_prompt()
        raise DriverError("phase.rs did not settle")

    def give_priority(self, seat: int) -> None:
        """Pass priority around until `seat` holds it. Called with priority
        held by a player before `seat` in the round, so no step ends. Right
        after concessions, `seat` gets priority before them (see the module
        docstring)."""
        if self.before_concessions is not None and not self._holds_priority(seat):
            self._concede_while_holding_priority(seat)
        for _ in range(MAX_MOVES):
            if self._holds_priority(seat):
                return
            self.answer_prompt()
        raise DriverError(f"player {seat} never got priority")

    def _holds_priority(self, seat: int) -> bool:
        return self.waiting()["type"] == "Priority" and self.game.priority_player() == seat

    def _concede_while_holding_priority(self, seat: int) -> None:
        """Replay the latest concessions from the position before them, once
        `seat` holds priority there (104.3a: a player concedes at any time).
        Their events were already reported; passing priority at a quiet
        moment, before anyone left, performs nothing (704.3)."""
        before, conceded, start = self.before_concessions, self.conceded, len(self.events)
        self.load(before)
        self.before_concessions, self.conceded = None, []
        self.give_priority(seat)
        for player in conceded:
            self.concede(player)
        del self.events[start:]

    # Turns.

    def pass_turn(self) -> None:
        """Play on to the next turn's first main phase (502, 505)."""
        turn = self.game.turn
        for _ in range(MAX_MOVES):
            if self.game_over() or (self.game.turn != turn and self.main_phase_quiet()):
                return
            self.answer_prompt()
        raise DriverError("phase.rs never reached the next turn's main phase")

    def main_phase_quiet(self) -> bool:
        return self.game.phase == "PreCombatMain" and self.quiet()

    # Spells and abilities.

    def cast(self, seat: int, spec: CardSpec, targets: list[int]) -> str | None:
        """Cast `spec` from `seat`'s hand with `targets` (object ids) and
        leave it on the stack (see `_play_targeted`). The game to restore is
        the one before priority passed to `seat`: right after
        `ensure_in_hand` (`save_for`)."""
        saved = self.save_for(seat, targets) if targets else None
        self.give_priority(seat)
        hand = {o["id"] for o in self.game.hand(seat) if o["name"] == spec.name}
        move = next(
            (m for m in self.game.actions() if m.kind == "CastSpell" and m.object_id in hand), None
        )
        if move is None:
            return f"player {seat} can't cast {spec.name} now"
        return self._play_targeted(seat, move, targets, saved)

    def _play_targeted(
        self, seat: int, move: Any, targets: list[int], saved: Saved | None = None
    ) -> str | None:
        """Make `move` (a spell or an ability) with `targets`. A target the
        engine doesn't offer, or one it didn't choose when it picked the only
        legal target itself, refuses the move and restores the game as it
        was (`saved`, or now)."""
        if targets and saved is None:
            saved = self.save_for(seat, targets)
        refusal = self._choose_targets(seat, move, targets)
        if refusal is not None and saved is not None:
            self.restore(seat, saved)
        return refusal

    def save_for(self, seat: int, targets: list[int], made: bool = False) -> Saved:
        """The game now, to `restore` if `seat`'s move at `targets` (object
        ids) is refused. Where `seat` holds priority and every target is a
        phased-in permanent, the engine can only refuse the move while it is
        being made (a target it doesn't offer, a cost it won't take), and its
        own CancelCast undoes that (601.2i): no export. Otherwise the move
        may be refused once made (the engine picked the only legal target
        itself, not ours, as it may for a player target too: `made`; or
        priority passed to `seat` first), and only the export brings the
        game back."""
        light = (
            not made
            and self._holds_priority(seat)
            and all(phased_in_on_battlefield(lookup(self.game, t)) for t in targets)
        )
        return Saved(
            None if light else self.snapshot(),
            self.before_concessions,
            self.conceded,
            len(self.events),
            len(self.game.stack()),
        )

    def restore(self, seat: int, saved: Saved) -> None:
        """The game as it was when `saved`, concessions to replay included;
        the events since are dropped. A move the engine refused outright
        changed nothing; one half made is cancelled by `seat`."""
        if saved.exported is not None:
            self.load(saved.exported)
        elif not self._undone(seat, saved):
            try:
                self.apply(seat, {"type": "CancelCast"})
            except (ValueError, RuntimeError) as e:
                raise DriverError(f"phase.rs did not cancel player {seat}'s move: {e}") from e
            if not self._undone(seat, saved):
                raise DriverError(f"phase.rs did not undo player {seat}'s refused move")
        self.before_concessions, self.conceded = saved.before_concessions, saved.conceded
        del self.events[saved.events :]

    def _undone(self, seat: int, saved: Saved) -> bool:
        return self._holds_priority(seat) and len(self.game.stack()) == saved.stack

    def _choose_targets(self, seat: int, move: Any, targets: list[int]) -> str | None:
        start = len(self.events)
        self.apply(seat, move)
        for target in targets:
            waiting = self.waiting()
            if waiting["type"] != "TargetSelection":
                break
            if {"Object": target} not in waiting["data"]["selection"]["current_legal_targets"]:
                return f"object {target} is not a legal target"
            self.apply(seat, {"type": "ChooseTarget", "data": {"target": {"Object": target}}})
        if self.waiting()["type"] == "TargetSelection":
            self.apply(seat, {"type": "ChooseTarget", "data": {"target": None}})
        chosen = sorted(
            e["data"]["target"].get("Object")
            for e in self.events[start:]
            if e["type"] == "BecomesTarget"
        )
        if chosen != sorted(targets):
            return f"objects {sorted(set(targets) - set(chosen))} are not legal targets"
        return None

    def activate(
        self, seat: int, source: int, effect: str, targets: list[int] | None = None
    ) -> str | None:
        """Activate `source`'s ability whose effect is `effect` (the engine's
        effect type, see `cards`), with `targets`, if the engine offers it
        to `seat` now; leave it on the stack."""
        self.give_priority(seat)
        try:
            abilities = self.game.object(source)["abilities"]
        except ValueError:  # a token that ceased to exist (704.5d)
            return f"object {source} no longer exists"
        move = next(
            (
                m
                for m in self.game.actions()
                if m.kind == "ActivateAbility"
                and m.data.get("source_id") == source
                and m.data["ability_index"] < len(abilities)
                and abilities[m.data["ability_index"]]["effect"]["type"] == effect
            ),
            None,
        )
        if move is None:
            return f"phase.rs offers player {seat} no {effect} ability of object {source}"
        return self._play_targeted(seat, move, targets or [])

    def activate_mana(self, seat: int, source: int) -> str | None:
        """Activate `source`'s mana ability (605). phase.rs doesn't list
        mana abilities among the moves it offers with priority (they are
        activated while paying costs), but takes the same `ActivateAbility`
        move for one, and judges it itself; its refusal is the answer."""
        self.give_priority(seat)
        try:
            abilities = self.game.object(source)["abilities"]
        except ValueError:  # a token that ceased to exist (704.5d)
            return f"object {source} no longer exists"
        index = next(
            (i for i, ability in enumerate(abilities) if ability.get("is_mana_ability")), None
        )
        if index is None:
            return f"object {source} has no mana ability"
        move = {"type": "ActivateAbility", "data": {"source_id": source, "ability_index": index}}
        try:
            self.apply(seat, move)
        except ValueError as e:
            return f"phase.rs refuses player {seat}'s mana ability of object {source}: {e}"
        return None

    # Leaving.

    def concede(self, seat: int) -> None:
        before = self.before_concessions or self.game.state()
        conceded = [*self.conceded, seat]
        self.apply(seat, {"type": "Concede", "data": {"player_id": seat}})
        self.before_concessions, self.conceded = before, conceded
