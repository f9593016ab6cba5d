"""Mutants that let phased-out permanents exist (702.26b, c, e; 506.4;
R2017-nonexistent, R2017-targets)."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card, GameState
from conformance import actions as a
from conformance.setup import BoostEffect, Duration


@mutant(
    "counts-phased-out",
    "702.26b",
    "phased-out creatures are counted as creatures you control",
    kills=("phased_out_creatures_are_not_counted",),
)
class CountsPhasedOut(Rules):
    def creatures_of(self, player: int) -> list[Card]:
        return [c for c in self.state.in_play() if c.is_creature and c.controller == player]


@mutant(
    "destroys-phased-out",
    "702.26b",
    '"destroy all creatures" destroys phased-out creatures too',
    kills=("phased_out_creatures_are_not_destroyed",),
)
class DestroysPhasedOut(Rules):
    def destroy_all(self, action: a.DestroyAll) -> None:
        self.check_player(action.caster)
        for card in [c for c in self.state.in_play() if c.is_creature]:
            self.leave_battlefield(card, "graveyard")


@mutant(
    "targets-phased-out",
    "R2017-nonexistent",
    "a phased-out permanent is a legal target",
    kills=("phased_out_permanents_cannot_be_targeted",),
)
class TargetsPhasedOut(Rules):
    def is_legal_target(self, card: Card) -> bool:
        return card.on_battlefield


@mutant(
    "phased-in-stays-hidden",
    "702.26c",
    "a permanent that has ever phased out stays untargetable after it phases in",
    kills=("phased_in_permanents_can_be_targeted_again",),
)
class PhasedInStaysHidden(Rules):
    """Marks what phases in as "was phased out" and never clears the mark."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.hidden: set[str] = set()

    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        self.hidden.add(card.id)

    def is_legal_target(self, card: Card) -> bool:
        return card.phased_in and card.id not in self.hidden


@mutant(
    "anthem-while-phased-out",
    "R2017-nonexistent",
    "a phased-out anthem still gives other creatures +1/+1",
    kills=("phased_out_static_abilities_apply_nothing",),
)
class AnthemWhilePhasedOut(Rules):
    def anthem_sources(self) -> list[Card]:
        return [s for s in self.state.in_play() if "anthem" in s.abilities]


@mutant(
    "phased-out-attacks",
    "702.26b",
    "a phased-out creature can be declared as an attacker",
    kills=("phased_out_creatures_cannot_attack",),
)
class PhasedOutAttacks(Rules):
    def can_attack(self, card: Card, player: int) -> bool:
        return (
            card.on_battlefield
            and card.is_creature
            and card.controller == player
            and not card.tapped
            and not card.sick
        )


@mutant(
    "stays-in-combat",
    "506.4",
    "a creature that phases out stays attacking and deals damage when it is back",
    kills=("phasing_out_removes_from_combat",),
)
class StaysInCombat(Rules):
    def removed_from_combat(self, card: Card) -> None:
        return None


@mutant(
    "phased-in-attacker-rejoins-combat",
    "506.4",
    "an attacker that phases out and back in during combat is attacking again",
    kills=("phasing_out_removes_from_combat",),
)
class PhasedInAttackerRejoinsCombat(Rules):
    """Attacking is taken from this combat's declaration, for what is
    phased in: an attacker phased out until a source that is then
    destroyed is attacking again once back (an outside tester's engine)."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.declared: set[str] = set()

    def declare_attackers(self, action: a.DeclareAttackers) -> None:
        super().declare_attackers(action)
        self.declared = set(action.attackers)

    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        if card.id in self.declared and self.state.attacked:
            card.attacking = True

    def cleanup(self) -> None:
        super().cleanup()
        self.declared = set()


@mutant(
    "phased-in-lethal-damage-waits",
    "702.26c",
    "lethal damage (704.5g) is checked only as a creature's damage or toughness changes: "
    "one phasing in with damage reaching a toughness that fell while it was out survives",
    kills=("phased_in_creatures_meet_state_based_actions",),
)
class PhasedInLethalDamageWaits(Rules):
    """An outside tester's engine: phasing in changes neither number, so
    nothing checks the creature until cleanup removes its damage."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.unchecked: set[str] = set()

    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        self.unchecked.add(card.id)

    def deal_damage(self, action: a.DealDamage) -> None:
        super().deal_damage(action)
        self.unchecked.discard(str(action.target))

    def lethally_damaged(self) -> list[Card]:
        return [c for c in super().lethally_damaged() if c.id not in self.unchecked]

    def cleanup(self) -> None:
        super().cleanup()
        self.unchecked = set()


@mutant(
    "pump-includes-phased-out",
    "702.26e",
    '"creatures you control get +1/+1" includes phased-out creatures',
    kills=("resolving_effects_skip_phased_out_creatures",),
)
class PumpIncludesPhasedOut(Rules):
    def pump_team(self, action: a.PumpTeam) -> None:
        self.check_player(action.player)
        targets = tuple(
            c.id for c in self.state.in_play() if c.is_creature and c.controller == action.player
        )
        self.add_effect(BoostEffect(targets, action.player, 1, 1, Duration("end_of_turn")))


@mutant(
    "fizzle-still-draws",
    "R2017-targets",
    "a spell whose only target phased out still does its other effects (draws a card)",
    kills=("spell_whose_target_phased_out_does_nothing",),
)
class FizzleStillDraws(Rules):
    def destroy_target(self, action: a.Destroy) -> None:
        super().destroy_target(action)
        card = self.state.cards[action.target]
        if not self.is_legal_target(card):
            self.state.drawn[action.caster] += 1


@mutant(
    "phased-out-activates",
    "702.26b",
    "a phased-out permanent's {T} ability can be activated",
    kills=("phased_out_abilities_cannot_be_activated",),
)
class PhasedOutActivates(Rules):
    def activate(self, action: a.Activate) -> None:
        card = self.state.cards.get(action.source)
        if card is None or card.phased_in:
            super().activate(action)
            return
        out, card.phased_out = card.phased_out, None
        try:
            super().activate(action)
        finally:
            card.phased_out = out


@mutant(
    "phased-out-until-source-activates",
    "702.26b",
    'a phased-out permanent\'s "target permanent phases out until this leaves" ability can be '
    "activated: only {T} abilities check that their source is phased in",
    kills=("phased_out_abilities_cannot_be_activated",),
)
class PhasedOutUntilSourceActivates(Rules):
    def phase_out_until(self, action: a.PhaseOutUntil) -> None:
        card = self.state.cards.get(action.source)
        if card is None or card.phased_in:
            super().phase_out_until(action)
            return
        out, card.phased_out = card.phased_out, None
        try:
            super().phase_out_until(action)
        finally:
            card.phased_out = out


@mutant(
    "anthem-forgotten-after-phasing",
    "702.26c",
    "an anthem dropped when its source phases out is not applied again when it phases in",
    kills=("phased_in_permanents_apply_and_count_again",),
)
class AnthemForgottenAfterPhasing(Rules):
    """Continuous-effect bookkeeping: the engine keeps a static ability as an
    effect it removes when the source phases out (directly or with its host)
    and forgets to recreate when the source phases back in."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.dropped: set[str] = set()

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        super().phase_out(roots, until)
        self.dropped |= {c.id for c in self.state.cards.values() if c.phased_out is not None}

    def anthem_sources(self) -> list[Card]:
        return [s for s in super().anthem_sources() if s.id not in self.dropped]


@mutant(
    "released-anthem-waits-for-untap",
    "702.26c",
    "an anthem that phases in because the source it waited for left the battlefield (610.4) "
    "applies nothing until the next untap step",
    kills=("phased_in_permanents_apply_and_count_again",),
)
class ReleasedAnthemWaitsForUntap(Rules):
    """Static abilities are registered again only by the untap step's
    phasing event; what phases in mid-turn, as its "until" source leaves,
    stays unregistered until then."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.unregistered: set[str] = set()

    def release_until(self, source: Card) -> None:
        out = {c.id for c in self.state.in_play() if c.phased_out is not None}
        super().release_until(source)
        self.unregistered |= {pid for pid in out if self.state.cards[pid].phased_in}

    def phasing_event(self, player: int) -> None:
        super().phasing_event(player)
        self.unregistered.clear()

    def anthem_sources(self) -> list[Card]:
        return [s for s in super().anthem_sources() if s.id not in self.unregistered]


@mutant(
    "phased-in-not-counted",
    "702.26c",
    'a creature that phased in is not counted by "for each creature you control"',
    kills=("phased_in_permanents_apply_and_count_again",),
)
class PhasedInNotCounted(Rules):
    """Counting goes through an index of the creatures on the battlefield
    that drops a creature when it phases out and never takes it back."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.gone: set[str] = set()

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        super().phase_out(roots, until)
        self.gone |= {c.id for c in self.state.cards.values() if c.phased_out is not None}

    def creatures_of(self, player: int) -> list[Card]:
        return [c for c in super().creatures_of(player) if c.id not in self.gone]
