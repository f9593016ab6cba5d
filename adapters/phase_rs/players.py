"""The player actions (Teferi's Protection whole) played by phase.rs: each
is the engine's own card (`player_cards`) cast from hand and resolved by
everyone passing priority, so protection from everything, "your life total
can't change", damage prevention and lifelink are the engine's own rules
(R2017-protection, R2017-life-no-effect, R2017-set-life, R2017-exchange,
R2017-unpreventable)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from adapters.phase_rs import player_cards as pc
from adapters.phase_rs.cards import CardSpec
from adapters.protocol import Inexpressible
from conformance import actions as a
from conformance.setup import OPENING_HAND

if TYPE_CHECKING:
    from adapters.phase_rs.game import PhaseRsGame

#: A target as phase.rs names it: {"Object": id} or {"Player": seat}.
Target = dict[str, int]
#: The targets of one "target" phrase of a spell: their kind ("Object" or
#: "Player") and those chosen.
Group = tuple[str, list[Target]]


class PlayerActions:
    """Plays the player actions in `game` (see `plays`)."""

    def __init__(self, game: PhaseRsGame) -> None:
        self.game = game
        #: The engine ids of the Auras cast (`_enchant_player`).
        self._auras: set[int] = set()

    def plays(self) -> dict[type, Callable[[Any], str | None]]:
        return {
            a.TeferisProtection: lambda x: self._cast(x.player, pc.TEFERIS_PROTECTION),
            a.GainLife: lambda x: self._cast_amount(x.player, pc.GAIN_LIFE, x.amount),
            a.LoseLife: lambda x: self._cast_amount(x.player, pc.LOSE_LIFE, x.amount),
            a.SetLife: lambda x: self._cast_amount(x.player, pc.SET_LIFE, x.life),
            a.ExchangeLife: self._exchange_life,
            a.DealDamage: self._deal_damage,
            a.DamageOpponents: self._damage_opponents,
            a.PayLife: lambda x: self._cast_amount(x.player, pc.PAY_LIFE, x.amount),
            a.GiveLife: self._give_life,
            a.TapAndDamage: self._tap_and_damage,
            a.EnchantPlayer: self._enchant_player,
            a.OpponentsDiscard: self._opponents_discard,
        }

    def _cast_amount(self, caster: int, specs: dict[int, CardSpec], amount: int) -> str | None:
        spec = specs.get(amount)
        if spec is None:
            return f"phase-rs adapter has no card for the amount {amount}"
        return self._cast(caster, spec)

    def _exchange_life(self, action: a.ExchangeLife) -> str | None:
        """R2017-exchange: "Exchange life totals with target player."."""
        refused = self.game._not_in_game(action.target)
        return refused or self._cast(action.player, pc.EXCHANGE_LIFE, [{"Player": action.target}])

    def _deal_damage(self, action: a.DealDamage) -> str | None:
        """R2017-protection: the engine decides whether the target is legal
        (a player with protection from everything isn't, 702.16b)."""
        spec = pc.DEAL_DAMAGE.get(action.amount)
        if spec is None:
            return f"phase-rs adapter has no card dealing {action.amount} damage"
        if isinstance(action.target, int):
            refused = self.game._not_in_game(action.target)
            return refused or self._cast(action.caster, spec, [{"Player": action.target}])
        oid = self.game._oid(action.target)
        if oid is None:
            return f"{action.target} doesn't exist"
        return self._cast(action.caster, spec, [{"Object": oid}])

    def _damage_opponents(self, action: a.DamageOpponents) -> str | None:
        spec = pc.DAMAGE_OPPONENTS.get((action.amount, action.unpreventable, action.infect))
        if spec is None:
            return f"phase-rs adapter has no card dealing {action.amount} damage"
        return self._cast(action.caster, spec)

    def _opponents_discard(self, action: a.OpponentsDiscard) -> str | None:
        """701.9a, R2017-nothing-else: "Each opponent discards a card." The
        suite's players begin with `OPENING_HAND` cards in hand; the engine's
        begin with none, and an opponent whose hand is empty only in the
        engine gets a keepsake to discard first (a setup edit, at a quiet
        moment). Opening hands of seven would go over the maximum hand size
        at every draw step and need an edit before every cleanup
        (`Driver.restock`)."""
        game = self.game
        refused = game._not_in_game(action.caster)
        if refused is not None:
            return refused
        gone = game.reader.left_game(game.driver.game)
        emptied = [
            seat
            for seat in set(range(game.reader.players)) - gone - {action.caster}
            if OPENING_HAND + game.drawn[seat] - game.discarded[seat] > 0
            and not game.driver.game.hand(seat)
        ]
        game.driver.ensure_in_hand(
            [(action.caster, pc.DISCARD), *((seat, pc.KEEPSAKE) for seat in emptied)]
        )
        return self._cast(action.caster, pc.DISCARD)

    def _give_life(self, action: a.GiveLife) -> str | None:
        """R2017-gain-life-cost: the alternative cost "an opponent gains N
        life". phase.rs offers no choice of opponent for it, so only a game
        where `action.opponent` is the caster's one opponent expresses it."""
        game = self.game
        refused = game._not_in_game(action.player) or game._not_in_game(action.opponent)
        if refused is not None or action.opponent == action.player:
            return refused or "a player is not their own opponent"
        gone = game.reader.left_game(game.driver.game)
        if game.reader.players - len(gone) > 2:
            raise Inexpressible(
                f"phase.rs offers no choice of the opponent who gains life: player "
                f"{action.player} has several"
            )
        spec = pc.GIVE_LIFE.get(action.amount)
        if spec is None:
            return f"phase-rs adapter has no card for the amount {action.amount}"
        return self._cast(action.player, spec, alternative_cost=True)

    def _tap_and_damage(self, action: a.TapAndDamage) -> str | None:
        """R2017-targets, R2017-protection-targets: the spell's two phrases
        of targets; with `protected_in_response`, that player answers with
        Teferi's Protection, and the engine decides what the spell then does
        (608.2b)."""
        spec = pc.TAP_AND_DAMAGE.get(action.amount)
        if spec is None or len(set(action.targets)) != len(action.targets):
            return f"phase-rs adapter has no card for {action}"
        objects: list[Target] = []
        players: list[Target] = []
        for t in action.targets:
            if isinstance(t, int):
                refused = self.game._not_in_game(t)
                if refused is not None:
                    return refused
                players.append({"Player": t})
                continue
            oid = self.game._oid(t)
            if oid is None:
                return f"{t} doesn't exist"
            objects.append({"Object": oid})
        driver, responder = self.game.driver, action.protected_in_response
        start = len(driver.events)
        groups = [("Object", objects), ("Player", players)]
        refused = self._put_on_stack(action.caster, spec, groups)
        if refused is not None:
            return refused
        if responder is not None:
            response = self._put_on_stack(responder, pc.TEFERIS_PROTECTION, [])
            if response is not None:
                raise RuntimeError(f"phase.rs refused the response to TapAndDamage: {response}")
        driver.settle()
        self.game._count_cards(start)
        return None

    def _enchant_player(self, action: a.EnchantPlayer) -> str | None:
        """303.4a, R2017-protection: the Aura spell targets the player it
        will enchant; resolved, it is known by `action.aura`."""
        reader = self.game.reader
        if not action.aura or action.aura in reader.ids:
            return f"can't cast an Aura named {action.aura!r}"
        cast = len(set(reader.ids.values()) & self._auras)
        if cast >= len(pc.PLAYER_AURAS):
            return f"phase-rs adapter has {len(pc.PLAYER_AURAS)} Aura cards a scenario"
        refused = self.game._not_in_game(action.player)
        spec = pc.PLAYER_AURAS[cast]
        start = len(self.game.driver.events)
        refused = refused or self._cast(action.caster, spec, [{"Player": action.player}])
        entered = [
            e["data"]["object_id"]
            for e in self.game.driver.events[start:]
            if e["type"] == "ZoneChanged" and e["data"]["to"] == "Battlefield"
        ]
        if refused is None and entered:
            reader.add_card(action.aura, entered[0])
            self._auras.add(entered[0])
        return refused

    def _cast(
        self,
        caster: int,
        spec: CardSpec,
        targets: list[Target] | None = None,
        alternative_cost: bool = False,
    ) -> str | None:
        """Cast `spec` at `targets` and let it resolve; its draws are counted."""
        start = len(self.game.driver.events)
        groups = [(next(iter(t)), [t]) for t in targets or []]
        refused = self._put_on_stack(caster, spec, groups, alternative_cost)
        if refused is None:
            self.game.driver.settle()
            self.game._count_cards(start)
        return refused

    def _put_on_stack(
        self,
        caster: int,
        spec: CardSpec,
        groups: list[Group],
        alternative_cost: bool = False,
    ) -> str | None:
        """Cast `spec` with one group of targets for each of its "target"
        phrases (`Group`), and leave it on the stack. A target the engine
        doesn't offer refuses the spell, and the game is restored as it was
        once `caster` held priority (`Driver.save_for`)."""
        game, driver = self.game, self.game.driver
        refused = game._not_in_game(caster)
        if refused is not None:
            return refused
        driver.ensure_in_hand([(caster, spec)])
        start = len(driver.events)
        driver.give_priority(caster)
        hand = {o["id"] for o in driver.game.hand(caster) if o["name"] == spec.name}
        move = next(
            (m for m in driver.game.actions() if m.kind == "CastSpell" and m.object_id in hand),
            None,
        )
        if move is None:
            return f"player {caster} can't cast {spec.name} now"
        objects = [t["Object"] for _, group in groups for t in group if "Object" in t]
        players = any("Player" in t for _, group in groups for t in group)
        saved = driver.save_for(caster, objects, made=players or alternative_cost)
        refused = self._choose(caster, move, groups, alternative_cost)
        if refused is not None:
            driver.restore(caster, saved)
            del driver.events[start:]
        return refused

    def _choose(
        self, seat: int, move: Any, groups: list[Group], alternative_cost: bool
    ) -> str | None:
        """Make `move` with its groups of targets (paying the spell's
        alternative cost if asked to, 118.9). When only one target is legal
        the engine picks it itself: a pick other than the targets (say, the
        caster, the other player having protection, 702.16b) refuses the
        spell. A cost the engine won't take (119.4) refuses it too."""
        driver = self.game.driver
        try:
            events = driver.apply(seat, move)
            if alternative_cost:
                if driver.waiting()["type"] != "OptionalCostChoice":
                    return "phase.rs offered no alternative cost"
                decide = {"type": "DecideOptionalCost", "data": {"pay": True}}
                events += driver.apply(seat, decide)
        except (ValueError, RuntimeError) as e:
            return f"phase.rs refused to cast it: {e}"
        for kind, group in groups:
            refused = self._choose_group(seat, kind, group, events)
            if refused is not None:
                return refused
        if driver.waiting()["type"] == "TargetSelection":
            return f"phase.rs asks more targets than {groups}"
        wanted = [t for _, group in groups for t in group]
        chosen = [e["data"]["target"] for e in events if e["type"] == "BecomesTarget"]
        if sorted(map(str, chosen)) != sorted(map(str, wanted)):
            return f"{wanted} are not legal targets (phase.rs chose {chosen})"
        return None

    def _choose_group(
        self, seat: int, kind: str, group: list[Target], events: list[Any]
    ) -> str | None:
        """One "any number of target ..." phrase (or a single target): its
        targets, then no more (601.2c). The engine asks the phrases in order;
        one it asks nothing for (it picked the only legal target itself, or
        none is legal) is checked by the caller's `BecomesTarget` events."""
        driver = self.game.driver
        for target in group:
            waiting = driver.waiting()
            if waiting["type"] != "TargetSelection":
                return None
            if target not in waiting["data"]["selection"]["current_legal_targets"]:
                return f"{target} is not a legal target"
            events += driver.apply(seat, {"type": "ChooseTarget", "data": {"target": target}})
        waiting = driver.waiting()
        legal = waiting.get("data", {}).get("selection", {}).get("current_legal_targets", [])
        if waiting["type"] == "TargetSelection" and any(kind in t for t in legal):
            events += driver.apply(seat, {"type": "ChooseTarget", "data": {"target": None}})
        return None
