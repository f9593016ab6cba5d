"""A phase.rs game playing the suite's actions (see conformance.actions).

Each action becomes the engine's own moves: spells are invented free
instants cast from hand and resolved by everyone passing priority; "phases
out until" and "for as long as you control" are free activated abilities of
their source permanent (see `cards`); passing
the turn lets the engine run cleanup, the next untap step (502.1, 702.26a),
upkeep and draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from adapters.phase_rs import cards
from adapters.phase_rs.driving import Driver
from adapters.phase_rs.observing import Reader, lookup, phased_in_on_battlefield
from adapters.phase_rs.players import PlayerActions
from adapters.phase_rs.position import FILLER_CARDS, build
from adapters.phase_rs.supply import draws
from adapters.protocol import Inexpressible
from conformance import actions as a
from conformance.legality import check_setup
from conformance.observation import Observation, PermanentView
from conformance.setup import Setup

#: The most filler cards a library is dealt again with (`PhaseRsGame.perform`):
#: a player who draws more in one action decks out in phase.rs alone.
MAX_FILLER = 1024


class PhaseRsGame:
    """Implements `adapters.protocol.Game` for phase.rs."""

    def __init__(
        self,
        setup: Setup,
        stock: Iterable[tuple[int, cards.CardSpec]] = (),
        filler: int = FILLER_CARDS,
    ) -> None:
        """The game in the position `setup`, with `filler` filler cards and
        the cards of `stock` in their players' libraries (`supply`)."""
        check_setup(setup)
        self.setup, self.stock = setup, tuple(stock)
        #: Each action performed, with what was observed after it, to play
        #: again if the game is dealt again (`_redeal`).
        self.played: list[tuple[a.Action, Observation]] = []
        self._deal(filler)

    def _deal(self, filler: int) -> None:
        """Start the game afresh with `filler` filler cards in each library."""
        setup = self.setup
        position = build(setup, self.stock, filler)
        self.filler = filler
        self.driver = Driver(position.database, position.game, setup.active)
        self.driver.given.update(position.stocked)
        abilities = {p.id: p.abilities for p in setup.permanents}
        self.reader = Reader(position.ids, setup.players, abilities)
        self.drawn = [0] * setup.players
        self.discarded = [0] * setup.players
        self._play: dict[type, Callable[[Any], str | None]] = {
            a.PassTurn: self._pass_turn,
            a.PhaseOut: self._phase_out,
            a.PhaseOutAll: lambda x: self._cast(x.player, cards.PHASE_OUT_ALL),
            a.PhaseOutUntil: self._phase_out_until,
            a.DestroyAll: lambda x: self._cast(x.caster, cards.DESTROY_ALL),
            a.Destroy: self._destroy,
            a.DrawPerCreature: lambda x: self._cast(x.player, cards.DRAW_PER_CREATURE),
            a.PumpTeam: lambda x: self._cast(x.player, cards.PUMP_TEAM),
            a.GainControl: self._gain_control,
            a.CreateToken: self._create_token,
            a.Activate: self._activate,
            a.DeclareAttackers: self._declare_attackers,
            a.Concede: self._concede,
            a.DrawPerEntered: lambda x: self._cast(x.player, cards.DRAW_PER_ENTERED),
            a.TapForMana: self._tap_for_mana,
            a.DeclareBlockers: self._declare_blockers,
        }
        self._play.update(PlayerActions(self).plays())

    # The protocol.

    def perform(self, action: a.Action) -> Observation:
        """Play `action`. The suite's players have no libraries (the
        reference engine's draw from nothing), phase.rs's have a few cards:
        if a player lost in the action for drawing from their empty library
        (704.5b), the game is dealt again with more and played again to
        here."""
        observation, short = self._perform(action)
        while short and self.filler < MAX_FILLER:
            short = self._redeal(max(2 * self.filler, self.filler + 2 * short))
            if short and self.filler >= MAX_FILLER:
                # Stopped in the middle of the actions played again: the
                # game is no longer where the scenario is.
                raise RuntimeError(
                    f"a player draws more than {MAX_FILLER} cards in one action, "
                    "more than the adapter deals a phase.rs library"
                )
            if not short:
                observation, short = self._perform(action)
        self.played.append((action, observation))
        return observation

    def _perform(self, action: a.Action) -> tuple[Observation, int]:
        """Play `action`; also, if a player lost in it for drawing from
        their empty library, how many cards they drew (`_decked_out`)."""
        play = self._play.get(type(action))
        if play is None:
            missing = f"phase-rs adapter can't play {type(action).__name__} (capability missing)"
            return self.observe(missing), 0
        if self.driver.game_over():
            return self.observe("the game is over"), 0
        in_game = set(range(self.reader.players)) - self.reader.left_game(self.driver.game)
        self.driver.restock(sorted(in_game), draws(action, len(self.reader.ids)))
        start = len(self.driver.events)
        refused = play(action)
        if refused is None:
            self.driver.settle()
        short = self._decked_out(self.driver.events[start:])
        return self.observe(refused), short

    def _decked_out(self, events: list[dict[str, Any]]) -> int:
        """The most cards drawn in `events` by a player who lost in them for
        drawing from their empty library (704.5b), at least 1; 0 if none
        did."""
        drawn = Counter(e["data"]["player_id"] for e in events if e["type"] == "CardDrawn")
        return max(
            (
                max(drawn[p], 1)
                for p in {e["data"]["player_id"] for e in events if e["type"] == "PlayerLost"}
                if self.driver.game.player(p).get("drew_from_empty_library")
            ),
            default=0,
        )

    def _redeal(self, filler: int) -> int:
        """Deal the game again with `filler` cards in each library and play
        the actions so far again; if a player decks out in one of them (the
        libraries are refilled at other times), stop there and return how
        many cards they drew (`_decked_out`). phase.rs plays the same game
        from the same position, so each is observed as before; a refusal's
        reason may name other object ids, not whether it was refused."""
        self._deal(filler)
        self.observe()
        for action, seen in self.played:
            again, short = self._perform(action)
            if short:
                return short
            same_refusal = (again.refused is None) == (seen.refused is None)
            if not same_refusal or replace(again, refused=None) != replace(seen, refused=None):
                raise RuntimeError(
                    f"phase.rs played {type(action).__name__} otherwise when dealt {filler} "
                    "filler cards a library"
                )
        return 0

    def observe(self, refused: str | None = None) -> Observation:
        game = self.driver.game
        raw, self.driver.events = self.driver.events, []
        gone = self.reader.left_game(game)
        return Observation(
            turn=game.turn,
            active=self.driver.active,
            players=self.reader.players_view(game, self.drawn, self.discarded),
            permanents=self._with_blocks(self.reader.permanents(game, self._attacking())),
            events=self.reader.events(raw, gone),
            refused=refused,
        )

    def _attacking(self) -> set[int]:
        if not self.driver.attacked:
            return set()
        combat = self.driver.snapshot()["state"].get("combat") or {}
        return {entry["object_id"] for entry in combat.get("attackers", [])}

    def _with_blocks(self, views: tuple[PermanentView, ...]) -> tuple[PermanentView, ...]:
        """Who blocks what (509.1g) and which attackers are blocked (509.1h),
        from the engine's combat state."""
        if not self.driver.attacked:
            return views
        combat = self.driver.snapshot()["state"].get("combat") or {}
        blocking = {
            self.reader.name_of(int(b)): self.reader.name_of(attackers[0])
            for b, attackers in (combat.get("blocker_to_attacker") or {}).items()
            if attackers
        }
        blocked = {
            self.reader.name_of(e["object_id"])
            for e in combat.get("attackers", [])
            if e.get("blocked")
        }
        return tuple(
            replace(v, blocking=blocking.get(v.id), blocked=v.id in blocked and v.attacking)
            if v.on_battlefield
            else v
            for v in views
        )

    # Checks shared by actions.

    def _oid(self, pid: str) -> int | None:
        return self.reader.ids.get(pid)

    def _not_in_game(self, player: int) -> str | None:
        if not 0 <= player < self.reader.players or player in self.reader.left_game(
            self.driver.game
        ):
            return f"player {player} is not in the game"
        return None

    def _count_cards(self, start: int) -> None:
        """The cards drawn and discarded (the engine's `CardDrawn` and
        `Discarded` events) since `start`, while spells were cast and
        resolved: not draw steps' draws nor cleanup's discards to hand size
        (514.1), which the suite's players don't count (the reference
        engine's hands have no maximum size)."""
        for e in self.driver.events[start:]:
            if e["type"] == "CardDrawn":
                self.drawn[e["data"]["player_id"]] += 1
            elif e["type"] == "Discarded":
                self.discarded[e["data"]["player_id"]] += 1

    # Actions.

    def _pass_turn(self, _: a.PassTurn) -> str | None:
        self.driver.pass_turn()
        return None

    def _cast(self, caster: int, spec: cards.CardSpec, targets: tuple[str, ...] = ()) -> str | None:
        """Cast `spec` and let it resolve; spells' draws are counted."""
        refused = self._not_in_game(caster)
        oids = [self._oid(t) for t in targets]
        if refused is None and None in oids:
            refused = f"{targets} names a permanent that doesn't exist"
        if refused is not None:
            return refused
        self.driver.ensure_in_hand([(caster, spec)])
        start = len(self.driver.events)
        refused = self.driver.cast(caster, spec, [o for o in oids if o is not None])
        if refused is None:
            self.driver.settle()
            self._count_cards(start)
        return refused

    def _phase_out(self, action: a.PhaseOut) -> str | None:
        if len(set(action.targets)) != len(action.targets) or not 1 <= len(action.targets) <= 2:
            return "phase-rs adapter casts one or two distinct targets"
        spec = cards.PHASE_OUT if len(action.targets) == 1 else cards.PHASE_OUT_TWO
        return self._cast(action.caster, spec, action.targets)

    def _destroy(self, action: a.Destroy) -> str | None:
        """R2017-targets: with `phased_out_in_response`, the target's
        controller answers with a phase-out spell on it."""
        if not action.phased_out_in_response:
            return self._cast(action.caster, cards.DESTROY, (action.target,))
        refused = self._not_in_game(action.caster)
        target = self._oid(action.target)
        if refused is not None or target is None:
            return refused or f"{action.target} doesn't exist"
        # The response's copy comes in the same setup edit, for the target's
        # controller now, if they are in the game.
        wanted = [(action.caster, cards.DESTROY)]
        obj = lookup(self.driver.game, target)
        if obj is not None and obj["controller"] not in self.reader.left_game(self.driver.game):
            wanted.append((obj["controller"], cards.PHASE_OUT))
        self.driver.ensure_in_hand(wanted)
        start = len(self.driver.events)
        refused = self.driver.cast(action.caster, cards.DESTROY, [target])
        if refused is not None:
            return refused
        # A legal target is on the battlefield, so its controller is in the
        # game (800.4a); only they are asked for a copy of the response.
        obj = lookup(self.driver.game, target)
        responder = obj["controller"] if obj is not None else action.caster
        # 117.5, 704.3: state-based actions come first as they get priority;
        # if one took the target away (an Aura left unattached, 704.5m), there
        # is nothing to respond on and the spell does nothing (608.2b).
        self.driver.give_priority(responder)
        if phased_in_on_battlefield(lookup(self.driver.game, target)):
            self.driver.ensure_in_hand([(responder, cards.PHASE_OUT)])
            response = self.driver.cast(responder, cards.PHASE_OUT, [target])
            if response is not None:
                raise RuntimeError(f"phase.rs refused the response to Destroy: {response}")
        self.driver.settle()
        self._count_cards(start)
        return None

    def _gain_control(self, action: a.GainControl) -> str | None:
        """613.1b: a GainControl spell of the engine, with the duration
        parsed from its text; the engine ends it (514.2, 611.2a)."""
        if action.duration.kind == "as_long_as_you_control":
            return self._control_while(action)
        spec = cards.GAIN_CONTROL.get(action.duration.kind)
        if spec is None:
            return f"phase-rs adapter can't cast control lasting {action.duration.kind!r}"
        return self._cast(action.player, spec, (action.target,))

    def _control_while(self, action: a.GainControl) -> str | None:
        """611.2b: "for as long as you control X" is X's own ability in
        phase.rs (its parser ties that duration to the ability's source), so
        the caster must control X, phased in, to play it. When they don't,
        the rules' spell resolves and does nothing; phase.rs has no spell or
        ability for that (adapters/phase_rs/probes/control_for_as_long_as_other.py)."""
        refused = self._not_in_game(action.player)
        anchor, target = self._oid(action.duration.of or ""), self._oid(action.target)
        if refused is not None or anchor is None or target is None:
            return refused or f"{action.duration.of} or {action.target} doesn't exist"
        x = lookup(self.driver.game, anchor)
        if x is None or not phased_in_on_battlefield(x) or x["controller"] != action.player:
            raise Inexpressible(
                f"phase.rs expresses 'for as long as you control {action.duration.of}' only "
                f"as an ability of {action.duration.of}, which player {action.player} "
                "doesn't control phased in (probes/control_for_as_long_as_other.py)"
            )
        return self.driver.activate(action.player, anchor, cards.CONTROL_WHILE_EFFECT, [target])

    def _phase_out_until(self, action: a.PhaseOutUntil) -> str | None:
        """610.4: the source's "Target permanent phases out until this
        leaves the battlefield." (the engine decides who may activate it)."""
        refused = self._not_in_game(action.caster)
        source, target = self._oid(action.source), self._oid(action.target)
        if refused is not None or source is None or target is None:
            return refused or f"{action.source} or {action.target} doesn't exist"
        return self.driver.activate(action.caster, source, cards.PHASE_OUT_UNTIL_EFFECT, [target])

    def _create_token(self, action: a.CreateToken) -> str | None:
        if action.id in self.reader.ids or not 0 <= action.phasing <= 1:
            return f"can't create a token named {action.id!r} with {action.phasing} phasing"
        spec = cards.PHASING_TOKEN if action.phasing else cards.TOKEN
        start = len(self.driver.events)
        refused = self._cast(action.player, spec)
        created = [
            e["data"]["object_id"]
            for e in self.driver.events[start:]
            if e["type"] == "TokenCreated"
        ]
        if refused is None and created:
            self.reader.add_token(action.id, created[0])
        return refused

    def _activate(self, action: a.Activate) -> str | None:
        refused = self._not_in_game(action.player)
        source = self._oid(action.source)
        if refused is not None or source is None:
            return refused or f"{action.source} doesn't exist"
        return self.driver.activate(action.player, source, cards.TAP_EFFECT)

    def _tap_for_mana(self, action: a.TapForMana) -> str | None:
        """605: the land's own "{T}: Add {C}." mana ability."""
        refused = self._not_in_game(action.player)
        source = self._oid(action.land)
        if refused is not None or source is None:
            return refused or f"{action.land} doesn't exist"
        return self.driver.activate_mana(action.player, source)

    def _declare_blockers(self, action: a.DeclareBlockers) -> str | None:
        refused = self._not_in_game(action.player)
        pairs = [(self._oid(b), self._oid(x)) for b, x in action.blocks]
        blockers = [b for b, _ in pairs]
        if refused is not None:
            return refused
        if not pairs or any(None in p for p in pairs) or len(set(blockers)) != len(blockers):
            return "blockers must be distinct existing permanents, at least one"
        return self.driver.declare_blockers(action.player, pairs)  # type: ignore[arg-type]

    def _declare_attackers(self, action: a.DeclareAttackers) -> str | None:
        d = self.driver
        if action.player != d.active or d.attacked or action.defender == action.player:
            return "attackers can't be declared now"
        refused = self._not_in_game(action.defender)
        oids = [self._oid(x) for x in action.attackers]
        if refused is not None:
            return refused
        if not oids or None in oids or len(set(oids)) != len(oids):
            return "attackers must be distinct existing permanents, at least one"
        return d.declare_attackers(
            action.player, [o for o in oids if o is not None], action.defender
        )

    def _concede(self, action: a.Concede) -> str | None:
        refused = self._not_in_game(action.player)
        if refused is None and action.player == self.driver.active:
            refused = "the active player can't concede in a scenario"
        if refused is None:
            self.driver.concede(action.player)
        return refused
