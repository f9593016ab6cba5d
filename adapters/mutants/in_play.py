"""Mutants of what phased-in permanents can do in play and of what the game
sees of phased-out ones there: summoning sickness (302.6), combat (506.4,
509.1h), damage and state-based actions (514.2, 702.26b, 704.5j), history
(702.26d) and the untap step's triggers (502.4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card, GameState
from conformance import actions as a
from conformance.setup import BoostEffect


@mutant(
    "phasing-in-cures-sickness",
    "302.6",
    "reads R2017-haste as 'a creature that phases in is never summoning sick', so one that "
    "phased in under a new controller taps at once",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class PhasingInCuresSickness(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        card.sick = False


@mutant(
    "phasing-in-under-another-controller-sickens",
    "302.6",
    "takes a permanent phasing in under another player than the one it phased out under for a "
    "control change (702.26d: phasing is none), so a creature whose 'until end of turn' "
    "control effect ended while it was out is sick for its owner, who has controlled it since "
    "their last turn began",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class PhasingInUnderAnotherControllerSickens(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        under = None if card.phased_out is None else card.phased_out.under
        super().phase_in_with_attachments(card)
        if under is not None and card.controller != under:
            card.sick = True


@mutant(
    "until-release-cures-sickness",
    "302.6",
    "reads R2017-haste as 'a creature that phases in can attack', for what phases in as the "
    "permanent it waited for leaves (610.4): a creature that came under its controller's "
    "control this turn and phased in mid-turn attacks and taps at once",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class UntilReleaseCuresSickness(Rules):
    def release_until(self, source: Card) -> None:
        waiting = self.state.waiting_for(source.id)
        super().release_until(source)
        for card in waiting:
            card.sick = False


@mutant(
    "cleanup-skips-phased-out-damage",
    "514.2",
    "removes damage at cleanup only from the permanents it can see, so a creature that was "
    "phased out keeps its damage when it phases in",
    kills=("damage_is_removed_from_phased_out_creatures_at_cleanup",),
)
class CleanupSkipsPhasedOutDamage(Rules):
    def remove_damage(self, card: Card) -> None:
        if card.phased_in:
            card.damage = 0


@mutant(
    "phasing-out-heals",
    "514.2",
    "clears a permanent's combat state and its damage together as it phases out (as the Mirage "
    "rules did, 502.15e), so a creature that phases back in the same turn has lost its damage",
    kills=("damage_stays_marked_while_phased_out",),
)
class PhasingOutHeals(Rules):
    def removed_from_combat(self, card: Card) -> None:
        super().removed_from_combat(card)
        card.damage = 0


@mutant(
    "phased-out-land-taps-for-mana",
    "702.26b",
    "checks only that a land is untapped and yours before tapping it for mana, so a phased-out "
    "land still makes mana",
    kills=("phased_out_lands_cannot_be_tapped_for_mana",),
)
class PhasedOutLandTapsForMana(Rules):
    def can_tap_for_mana(self, card: Card, player: int) -> bool:
        return (
            card.on_battlefield
            and "land" in card.types
            and card.controller == player
            and (not card.tapped)
            and not (card.is_creature and card.sick)
        )


@mutant(
    "phased-out-land-creature-taps-for-mana",
    "702.26b",
    "checks a land creature's mana ability like a creature's {T} ability, for summoning sickness "
    "only, so a phased-out land creature still makes mana",
    kills=("phased_out_lands_cannot_be_tapped_for_mana",),
)
class PhasedOutLandCreatureTapsForMana(Rules):
    def can_tap_for_mana(self, card: Card, player: int) -> bool:
        if card.is_creature and "land" in card.types:
            return (
                card.on_battlefield and card.controller == player and not (card.tapped or card.sick)
            )
        return super().can_tap_for_mana(card, player)


@mutant(
    "mana-abilities-ignore-sickness",
    "302.6",
    "checks summoning sickness for a creature's {T} abilities but not for its mana ability, so a "
    "land creature that phased in under a new controller taps for mana at once",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class ManaAbilitiesIgnoreSickness(Rules):
    def can_tap_for_mana(self, card: Card, player: int) -> bool:
        return (
            card.phased_in
            and "land" in card.types
            and card.controller == player
            and (not card.tapped)
        )


@mutant(
    "sick-lands-cannot-tap",
    "302.6",
    "holds back every permanent whose control changed this turn, so a land that is no creature "
    "can't tap for mana once it changed controller",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class SickLandsCannotTap(Rules):
    def can_tap_for_mana(self, card: Card, player: int) -> bool:
        return super().can_tap_for_mana(card, player) and not card.sick


@mutant(
    "phased-out-creature-blocks",
    "R2017-nonexistent",
    "checks only that a blocker is an untapped creature the defender controls, so a phased-out "
    "creature blocks",
    kills=("phased_out_creatures_cannot_block",),
)
class PhasedOutCreatureBlocks(Rules):
    def can_block(self, card: Card, player: int) -> bool:
        return (
            card.on_battlefield
            and card.is_creature
            and card.controller == player
            and (not card.tapped)
        )


@mutant(
    "blockers-leaving-unblock",
    "509.1h",
    "works out 'blocked' from the creatures blocking now, so an attacker whose only blocker "
    "phased out is unblocked and hits the player",
    kills=("blocked_attackers_stay_blocked_when_blockers_phase_out",),
)
class BlockersLeavingUnblock(Rules):
    def removed_from_combat(self, card: Card) -> None:
        blocked = card.blocking
        super().removed_from_combat(card)
        if blocked is not None and not any(
            c.blocking == blocked for c in self.state.phased_in() if c is not card
        ):
            self.state.cards[blocked].blocked = False


@mutant(
    "control-change-keeps-combat",
    "506.4",
    "a creature whose controller changes stays in combat, whether a spell gains control of it "
    "or a control effect ends (as phase.rs 0.103 does): it deals its new controller damage",
    kills=("control_change_removes_from_combat",),
)
class ControlChangeKeepsCombat(Rules):
    """Removes from combat what phases out, but keeps each creature's place
    in combat where controllers are recomputed (`refresh`)."""

    def refresh(self) -> None:
        combat = {c.id: (c.attacking, c.blocked, c.blocking) for c in self.state.phased_in()}
        super().refresh()
        for card in self.state.phased_in():
            if card.id in combat:
                card.attacking, card.blocked, card.blocking = combat[card.id]


@mutant(
    "control-effect-ending-keeps-combat",
    "506.4",
    "removes a creature from combat when a spell gains control of it, not when a control "
    "effect ends: one whose 'for as long as you control X' ended as X phased out goes back "
    "still attacking or blocking",
    kills=("control_change_removes_from_combat",),
)
class ControlEffectEndingKeepsCombat(ControlChangeKeepsCombat):
    """The control-changing spell removes its target from combat; a control
    effect ending removes nothing."""

    def gain_control(self, action: a.GainControl) -> None:
        card = self.state.cards.get(action.target)
        before = None if card is None else card.controller
        super().gain_control(action)
        if card is not None and card.controller != before:
            self.removed_from_combat(card)


@mutant(
    "damage-to-first-declared-blocker-only",
    "506.4",
    "a blocked attacker deals all its combat damage to the first creature declared to block it, "
    "so once that one has phased out the damage is lost, though another still blocks",
    kills=("the_blocker_left_is_dealt_the_attackers_damage",),
)
class DamageToFirstDeclaredBlockerOnly(Rules):
    """Remembers each attacker's first blocker as blocks are declared, and
    sends it what the attacker deals; a first blocker removed from combat
    (506.4) is dealt nothing, and neither is the one still blocking."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.first_blockers: dict[str, str] = {}

    def declare_blockers(self, action: a.DeclareBlockers) -> None:
        super().declare_blockers(action)
        self.first_blockers = {}
        for blocker, attacker in action.blocks:
            self.first_blockers.setdefault(attacker, blocker)

    def blocked_damage(self) -> list[tuple[Card, int]]:
        marked = []
        for card, amount in super().blocked_damage():
            if card.blocking is None:  # a blocker's damage to its attacker
                marked.append((card, amount))
                continue
            first = self.state.cards[self.first_blockers[card.blocking]]
            if first.phased_in and first.blocking == card.blocking:
                marked.append((first, amount))
        return marked


@mutant(
    "legend-rule-on-entering-only",
    "704.5j",
    "applies the legend rule only as a legendary permanent enters the battlefield, so one that "
    "phases in next to its namesake stays (phasing in is not entering, 702.26d)",
    kills=("legend_rule_applies_once_a_legend_phases_in",),
)
class LegendRuleOnEnteringOnly(Rules):
    def legend_rule(self) -> bool:
        # Nothing in the scenarios enters with a name that is legendary.
        return False


@mutant(
    "legend-rule-sees-phased-out",
    "702.26b",
    "counts a phased-out legendary permanent for the legend rule, so its phased-in namesake "
    "goes to the graveyard at the next priority, while the other is still phased out",
    kills=("legend_rule_applies_once_a_legend_phases_in",),
)
class LegendRuleSeesPhasedOut(Rules):
    def legend_rule(self) -> bool:
        out = {
            (c.controller, c.name)
            for c in self.state.in_play()
            if c.legendary and c.phased_out is not None
        }
        doomed = [
            c for c in self.state.phased_in() if c.legendary and (c.controller, c.name) in out
        ]
        self.legends_die(doomed)
        return super().legend_rule() or bool(doomed)


@mutant(
    "lethal-damage-sees-phased-out",
    "702.26b",
    "checks lethal damage (704.5g) on every creature on the battlefield, phased out or not, "
    "so one whose anthem goes while it is phased out with damage marked is destroyed",
    kills=("state_based_actions_ignore_phased_out_creatures",),
)
class LethalDamageSeesPhasedOut(Rules):
    def one_round_of_sba(self) -> bool:
        doomed = [
            c
            for c in self.state.in_play()
            if c.phased_out is not None
            and c.is_creature
            and 0 < self.toughness_as_if_phased_in(c) <= c.damage
        ]
        for card in doomed:
            self.leave_battlefield(card, "graveyard")
        return super().one_round_of_sba() or bool(doomed)

    def toughness_as_if_phased_in(self, card: Card) -> int:
        """Its toughness as if it were phased in (613.4)."""
        assert card.toughness is not None
        anthems = sum(1 for s in self.anthem_sources() if s.controller == card.controller)
        boosts = sum(
            t.effect.toughness
            for t in self.state.effects
            if isinstance(t.effect, BoostEffect) and card.id in t.effect.targets
        )
        return card.toughness + card.counters["+1/+1"] + anthems + boosts


@mutant(
    "lethal-damage-counts-phased-out-anthems",
    "702.26b",
    "checks lethal damage (704.5g) with the toughness the anthems of every permanent on the "
    "battlefield give, phased-out ones included (the toughness it shows is right)",
    kills=("state_based_actions_ignore_phased_out_anthems",),
)
class LethalDamageCountsPhasedOutAnthems(Rules):
    def lethally_damaged(self) -> list[Card]:
        anthems = [s for s in self.state.in_play() if "anthem" in s.abilities]
        lethal = []
        for card in self.state.phased_in():
            pt = self.power_toughness(card, anthems) if card.damage > 0 else None
            if pt is not None and 0 < pt[1] <= card.damage:
                lethal.append(card)
        return lethal


@mutant(
    "legends-phasing-in-together-all-go",
    "704.5j",
    "two legendary permanents with one name that phase in together both go to the graveyard "
    "(the Mirage rule, 502.15k, played today)",
    kills=("legend_rule_applies_once_a_legend_phases_in",),
)
class LegendsPhasingInTogetherAllGo(Rules):
    def phase_in(self, roots: Iterable[Card]) -> None:
        roots = list(roots)
        super().phase_in(roots)
        names = Counter((c.controller, c.name) for c in roots if c.legendary and c.phased_in)
        self.legends_die(
            [c for c in roots if c.legendary and c.phased_in and names[(c.controller, c.name)] > 1]
        )


@mutant(
    "phasing-in-counts-as-entering",
    "702.26d",
    "stamps a permanent that phases in with the turn it 'entered', so effects counting what "
    "entered the battlefield this turn count it",
    kills=("phasing_in_is_not_entering_this_turn",),
)
class PhasingInCountsAsEntering(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        card.entered_turn = self.state.turn


@mutant(
    "phasing-out-forgets-entering",
    "702.26d",
    "resets a permanent's history as it phases out, as a zone change would, so a creature that "
    "entered this turn and phased out and back in is no longer counted as having entered",
    kills=("phasing_in_is_not_entering_this_turn",),
)
class PhasingOutForgetsEntering(Rules):
    def removed_from_combat(self, card: Card) -> None:
        super().removed_from_combat(card)
        card.entered_turn = None


@mutant(
    "untap-step-triggers-resolve-at-once",
    "502.4",
    "resolves abilities triggered by the untap step's phasing right away, before untapping, "
    "instead of in the upkeep",
    kills=("untap_step_triggers_resolve_in_the_upkeep",),
)
class UntapStepTriggersResolveAtOnce(Rules):
    def untap_step(self, player: int) -> None:
        if self.state.skips[player] > 0:
            self.state.skips[player] -= 1
            return
        self.phasing_event(player)
        self.resolve_triggers()
        self.untap(player)
