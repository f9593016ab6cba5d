"""The reference engine's rules: turn structure and the effect of each action.

`Rules` gathers every rule branch as a method citing its rule ID, so a mutant
engine (a deliberately broken one, see `adapters.mutants`) is a subclass that
overrides exactly one of them.
"""

from __future__ import annotations

from collections import Counter

from adapters.reference.continuous import ContinuousRules
from adapters.reference.in_play import InPlayRules
from adapters.reference.life import LifeRules
from adapters.reference.phasing import PhasingRules
from adapters.reference.protection import ProtectionRules
from adapters.reference.state import Card, GameState, Refused
from adapters.reference.zones import ZoneRules
from conformance import actions as a
from conformance.observation import Event
from conformance.setup import TAP_LIFE, BoostEffect, ControlEffect, Duration

__all__ = ["Refused", "Rules"]


class Rules(InPlayRules, PhasingRules, ContinuousRules, ZoneRules, LifeRules, ProtectionRules):
    def __init__(self, state: GameState) -> None:
        self.state = state

    # Turn structure.

    def pass_turn(self, action: a.PassTurn | None = None) -> None:
        """Combat damage if there was combat (510), cleanup (514.2), then the
        next player's turn; seats of players who left are passed over, ending
        their "until your next turn" effects (800.4m) and releasing what
        phased out under them (702.26n)."""
        if self.state.game_over:
            raise Refused("the game is over")
        # 117.3d: the active player passes priority to leave the main phase,
        # so the next player receives it.
        self.receive_priority()
        self.combat_damage()
        self.cleanup()
        seat = self.state.active
        while True:
            seat = (seat + 1) % self.state.players
            if self.state.in_game[seat]:
                break
            self.turn_would_have_begun(seat)
        self.begin_turn(seat)

    def turn_would_have_begun(self, seat: int) -> None:
        """The seat of a player who left is passed over: their "until your
        next turn" effects end (800.4m), and what phased out under them
        phases in at the next untap step (702.26n)."""
        self.end_effects("your_next_turn", seat)
        self.end_protection(seat)
        self.state.released.add(seat)

    def combat_damage(self) -> None:
        """510.2: unblocked attackers still in combat deal their power to the
        defender, blocked ones and blockers to each other (`blocked_damage`),
        all at once; a phased-out one was removed from combat (506.4);
        R2017-nothing-else: a defender with protection from everything can be
        attacked, and the damage is prevented (R2017-protection)."""
        marked = self.blocked_damage()
        for card in self.state.phased_in():
            if card.attacking and not card.blocked:
                pt = self.power_toughness(card)
                defender = self.state.defender
                if pt is not None:
                    self.damage_player(defender, max(pt[0], 0))
        for card, amount in marked:
            card.damage += amount
        self.receive_priority()

    def cleanup(self) -> None:
        """514.2: damage is removed from every permanent, phased-out ones
        included, and "until end of turn" effects end; combat is over."""
        for card in self.state.cards.values():
            self.remove_damage(card)
            card.attacking = card.blocked = False
            card.blocking = None
        self.state.step = "main"
        self.state.attacked = self.state.blocks_declared = False
        self.end_effects("end_of_turn")

    def begin_turn(self, player: int) -> None:
        """500: the turn begins; "until your next turn" effects end (611.2a);
        the player's permanents are no longer summoning sick (302.6), phased
        out ones included, since phasing is not a control change (R2017-haste);
        then the untap step (502). R2017-skip-untap: Teferi's Protection
        ends here too, as the turn begins, even if its untap step is skipped."""
        self.state.active = player
        self.state.turn += 1
        self.end_effects("your_next_turn", player)
        self.end_protection(player)
        for card in self.state.cards.values():
            if card.controller == player:
                card.sick = False
        self.untap_step(player)

    # Targets and costs.

    def target(self, pid: str) -> Card:
        """R2017-nonexistent, 702.26b: a phased-out permanent can't be targeted."""
        card = self.state.cards.get(pid)
        if card is None or not self.is_legal_target(card):
            raise Refused(f"{pid} is not a legal target")
        return card

    def is_legal_target(self, card: Card) -> bool:
        """702.26b, 702.26c: phased in means a legal target again."""
        return card.phased_in

    def creatures_of(self, player: int) -> list[Card]:
        """702.26b: phased-out creatures are not counted or affected."""
        return [c for c in self.state.phased_in() if c.is_creature and c.controller == player]

    def check_player(self, player: int) -> None:
        """800.4a: a player who left the game does nothing more."""
        if not 0 <= player < self.state.players or not self.state.in_game[player]:
            raise Refused(f"player {player} is not in the game")

    # Priority (704.3: state-based actions are checked only where a player
    # would receive priority; see "State-based actions and priority" in
    # docs/readings.md).

    def after_action(self, action: a.Action) -> None:
        """117.3b: after a spell or ability resolves, after attackers are
        declared (508.8), and in the upkeep a PassTurn ends in, the active
        player receives priority. 800.4a: a concession passes priority only
        if the leaver held it; in a scenario the active player holds it
        between actions, so a Concede gives nobody priority, and what it
        leaves pending waits for the next action."""
        if isinstance(action, a.Concede) and action.player != self.state.active:
            return
        self.receive_priority()

    # Actions. Each spell or ability is cast (or activated) with its targets
    # checked, then its player receives priority (117.3c), then it resolves
    # with its targets checked again (608.2b).

    def phase_out_targets(self, action: a.PhaseOut) -> None:
        """702.26b: only phased-in permanents can be targeted; what is
        attached to them phases out indirectly (702.26g)."""
        self.check_player(action.caster)
        cards = [self.target(t) for t in action.targets]
        self.receive_priority()
        self.phase_out([c for c in cards if self.is_legal_target(c)])

    def phase_out_all(self, action: a.PhaseOutAll) -> None:
        """Teferi's Protection: every permanent the player controls, directly
        or (attachments on them) indirectly (702.26g)."""
        self.check_player(action.player)
        self.receive_priority()
        self.phase_out(self.all_you_control(action.player))

    def all_you_control(self, player: int) -> list[Card]:
        """What "all permanents you control phase out" takes: every phased-in
        permanent `player` controls, another player's too (R2017-control),
        and an Aura or Equipment on something staying (R2017-auras)."""
        return [c for c in self.state.phased_in() if c.controller == player]

    def phase_out_until(self, action: a.PhaseOutUntil) -> None:
        """610.4: phases out until the source leaves the battlefield. The
        source may target itself (no rule forbids it): phasing out is not
        leaving the battlefield (702.26d), so it then stays phased out until
        it does leave, which a phased-out permanent does only with its owner
        (702.26k); see docs/readings.md. 610.3c, by analogy: if the source
        left before the ability resolves, nothing phases out."""
        self.check_player(action.caster)
        source = self.state.cards.get(action.source)
        if source is None or not source.phased_in or source.controller != action.caster:
            raise Refused(f"{action.caster} can't activate {action.source}")
        target = self.target(action.target)
        self.receive_priority()
        if self.is_legal_target(target) and source.on_battlefield:
            self.phase_out([target], until=source.id)

    def destroy_all(self, action: a.DestroyAll) -> None:
        """702.26b: "destroy all creatures" doesn't see phased-out ones."""
        self.check_player(action.caster)
        self.receive_priority()
        self.destroy([c for c in self.state.phased_in() if c.is_creature])

    def destroy_target(self, action: a.Destroy) -> None:
        """R2017-targets: if the target phases out in response, the spell has
        no legal target and none of its effects happen (608.2b)."""
        self.check_player(action.caster)
        card = self.target(action.target)
        self.receive_priority()
        if action.phased_out_in_response:
            self.phase_out([card])
            self.resolve_triggers()
        if not self.is_legal_target(card):
            return
        self.destroy([card])
        self.draw(action.caster, 1)

    def destroy_through_phasing(self, action: a.DestroyThroughPhasing) -> None:
        """610.4, 702.26d, Mirage 502.15n: the target phases out in response
        until the source leaves, the source is destroyed in a second
        response, so the target phases in while the destroy spell waits
        (each response resolving gives priority again, 117.3b). Phasing is
        not a zone change: the spell resolves on the same permanent."""
        self.check_player(action.caster)
        card = self.target(action.target)
        source = self.target(action.source)
        if source is card or self.attached_to_chain(source, card):
            raise Refused(f"{action.source} would phase out with {action.target}")
        self.receive_priority()
        self.phase_out([card], until=source.id)
        self.receive_priority()
        if self.is_legal_target(source):
            self.destroy([source])
        self.receive_priority()
        if not self.is_legal_target(card) or not self.still_the_target(card):
            return
        self.destroy([card])
        self.draw(action.caster, 1)

    def attached_to_chain(self, card: Card, host: Card) -> bool:
        """702.26g: `card` is attached to `host`, directly or through what
        it is attached to, so it would phase out indirectly with it."""
        on = card.attached_to
        while isinstance(on, str):
            if on == host.id:
                return True
            on = self.state.cards[on].attached_to
        return False

    def still_the_target(self, card: Card) -> bool:
        """702.26d (Mirage 502.15f, 502.15n): a permanent that phased out and
        back in is the same object, so a spell that targeted it before
        still has it as its target."""
        return card.on_battlefield

    def draw_per_creature(self, action: a.DrawPerCreature) -> None:
        """702.26b: phased-out creatures aren't counted."""
        self.check_player(action.player)
        self.receive_priority()
        self.draw(action.player, len(self.creatures_of(action.player)))

    def gain_control(self, action: a.GainControl) -> None:
        """702.26e: only a phased-in permanent can be the target."""
        self.check_player(action.player)
        card = self.target(action.target)
        self.receive_priority()
        if self.is_legal_target(card):
            self.add_effect(ControlEffect(card.id, action.player, action.duration))

    def pump_team(self, action: a.PumpTeam) -> None:
        """702.26e: the affected set is fixed as the spell resolves and leaves
        out phased-out creatures, even after they phase in."""
        self.check_player(action.player)
        self.receive_priority()
        targets = tuple(c.id for c in self.creatures_of(action.player))
        self.add_effect(BoostEffect(targets, action.player, 1, 1, Duration("end_of_turn")))

    def create_token(self, action: a.CreateToken) -> None:
        """110.5: a permanent enters phased in; 111.1: a token."""
        self.check_player(action.player)
        if action.id in self.state.cards or action.phasing < 0:
            raise Refused(f"can't create a token named {action.id!r}")
        self.receive_priority()
        self.state.cards[action.id] = Card(
            id=action.id,
            owner=action.player,
            controller=action.player,
            types=("creature",),
            attachment=None,
            token=True,
            phasing=action.phasing,
            tapped=False,
            counters=Counter(),
            attached_to=None,
            phased_out=None,
            abilities=frozenset(),
            power=1,
            toughness=1,
            chosen=None,
            sick=True,
            default_controller=action.player,
            entered_turn=self.state.turn,
        )
        self.state.events.append(Event("zone_change", action.id, "none->battlefield"))

    def activate(self, action: a.Activate) -> None:
        """602.2, 302.6: {T} abilities of phased-out permanents can't be
        activated (702.26b); a creature that phased in this turn can pay {T}
        (R2017-haste)."""
        self.check_player(action.player)
        card = self.state.cards.get(action.source)
        if (
            card is None
            or not card.phased_in
            or card.controller != action.player
            or "tap_gain_life" not in card.abilities
            or card.tapped
            or (card.is_creature and card.sick)
        ):
            raise Refused(f"{action.player} can't activate {action.source}")
        card.tapped = True
        self.receive_priority()
        self.gain_life(action.player, TAP_LIFE)

    def declare_attackers(self, action: a.DeclareAttackers) -> None:
        """508.1: untapped, non-sick creatures the active player controls;
        702.26b: phased-out ones can't attack (R2017-nonexistent)."""
        s = self.state
        self.check_player(action.defender)
        if action.player != s.active or s.attacked or action.defender == action.player:
            raise Refused("attackers can't be declared now")
        if not action.attackers or len(set(action.attackers)) != len(action.attackers):
            raise Refused("attackers must be distinct and at least one")
        cards = [s.cards.get(pid) for pid in action.attackers]
        for pid, card in zip(action.attackers, cards, strict=True):
            if card is None or not self.can_attack(card, action.player):
                raise Refused(f"{pid} can't attack")
        # 117.3d: priority passes to leave the main phase for combat; no
        # state-based action can make one of these creatures unable to attack.
        self.receive_priority()
        for card in cards:
            assert card is not None
            card.tapped = True
            card.attacking = True
        s.attacked = True
        s.step = "combat"
        s.defender = action.defender

    def can_attack(self, card: Card, player: int) -> bool:
        """508.1a, 302.6; 702.26b: a phased-out creature can't attack."""
        return (
            card.phased_in
            and card.is_creature
            and card.controller == player
            and not card.tapped
            and not card.sick
        )

    def concede(self, action: a.Concede) -> None:
        """104.3a, 800.4a: the player leaves the game."""
        self.check_player(action.player)
        if action.player == self.state.active:
            raise Refused("the active player can't concede in a scenario")
        self.leave_game(action.player)
