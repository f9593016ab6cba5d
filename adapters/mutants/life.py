"""Mutants of "your life total can't change" (Teferi's Protection:
R2017-life-no-effect, R2017-set-life, R2017-exchange, R2017-pay-life,
R2017-gain-life-cost, R2017-replaced-by-life, R2017-life-replacement,
R2017-unpreventable, its infect half), and of replacement abilities that
still apply while phased out (702.26b)."""

from __future__ import annotations

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card
from conformance import actions as a
from conformance.setup import DRAW_LIFE, Ability


@mutant(
    "locked-life-spells-fizzle",
    "R2017-life-no-effect",
    "a life-gain spell of a player whose life can't change doesn't resolve at all: its card "
    "isn't drawn",
    kills=("locked_life_spells_resolve_without_changing_life",),
)
class LockedLifeSpellsFizzle(Rules):
    def gain_life_spell(self, action: a.GainLife) -> None:
        if self.life_can_change(action.player):
            super().gain_life_spell(action)
        else:
            self.receive_priority()


@mutant(
    "set-life-ignores-lock",
    "R2017-set-life",
    "'your life total becomes N' writes the total, whether or not it can change",
    kills=("setting_a_locked_life_total_does_nothing",),
)
class SetLifeIgnoresLock(Rules):
    def set_life(self, action: a.SetLife) -> None:
        self.check_player(action.player)
        self.receive_priority()
        self.state.life[action.player] = action.life
        self.draw(action.player, 1)


@mutant(
    "exchange-half-done",
    "R2017-exchange",
    "an exchange of life totals gives each player whose life can change the other's total, "
    "so the locked player's opponent gets the locked total",
    kills=("locked_life_totals_are_not_exchanged",),
)
class ExchangeHalfDone(Rules):
    def exchange_life(self, action: a.ExchangeLife) -> None:
        self.check_player(action.player)
        self.target_player(action.target)
        self.receive_priority()
        life = self.state.life
        one, other = action.player, action.target
        totals = life[one], life[other]
        if self.life_can_change(one):
            life[one] = totals[1]
        if self.life_can_change(other):
            life[other] = totals[0]
        self.draw(action.player, 1)


@mutant(
    "locked-players-pay-life",
    "R2017-pay-life",
    "a player whose life can't change may pay life (and loses none)",
    kills=("locked_players_cannot_pay_life",),
)
class LockedPlayersPayLife(Rules):
    def can_pay_life(self, player: int, amount: int) -> bool:
        return 0 <= amount <= self.state.life[player]


@mutant(
    "locked-players-gain-life-as-cost",
    "R2017-gain-life-cost",
    "a cost of a player gaining life can be paid while their life can't change",
    kills=("locked_players_cannot_gain_life_as_a_cost",),
)
class LockedPlayersGainLifeAsCost(Rules):
    def can_gain_life_as_cost(self, player: int, amount: int) -> bool:
        return amount > 0 and self.state.in_game[player]


@mutant(
    "locked-draws-not-replaced",
    "R2017-replaced-by-life",
    "a draw-into-life replacement isn't applied to a player who can't gain life: they draw",
    kills=("draws_replaced_by_life_become_nothing",),
)
class LockedDrawsNotReplaced(Rules):
    def draw(self, player: int, count: int, replaced: frozenset[Ability] = frozenset()) -> None:
        for _ in range(count):
            sources = [] if "draw_to_life" in replaced else self.replacing(player, "draw_to_life")
            if sources and self.life_can_change(player):
                self.gain_life(player, DRAW_LIFE, replaced | {"draw_to_life"})
            else:
                self.state.drawn[player] += 1


class ReplacedBeforeTheLock(Rules):
    """Applies `replacing_first` (one of the life replacements) before the
    life lock is checked, the other as the reference does."""

    replacing_first: Ability

    def change_life(
        self, player: int, delta: int, replacement: Ability, replaced: frozenset[Ability]
    ) -> None:
        sources = [] if replacement in replaced else self.replacing(player, replacement)
        if replacement != self.replacing_first or not sources:
            super().change_life(player, delta, replacement, replaced)
        else:
            self.draw(sources[0].controller, abs(delta), replaced | {replacement})


@mutant(
    "locked-gains-replaced",
    "R2017-life-replacement",
    "a life-gain replacement applies before the life lock is checked: the opponent draws",
    kills=("life_gain_replacements_cannot_apply",),
)
class LockedGainsReplaced(ReplacedBeforeTheLock):
    replacing_first = "gain_to_draw"


@mutant(
    "locked-losses-replaced",
    "R2017-life-replacement",
    "a life-loss replacement applies before the life lock is checked: the opponent draws",
    kills=("life_loss_replacements_cannot_apply",),
)
class LockedLossesReplaced(ReplacedBeforeTheLock):
    replacing_first = "lose_to_draw"


@mutant(
    "locked-players-take-no-damage",
    "R2017-unpreventable",
    "damage to a player whose life can't change is not dealt at all, so lifelink gains nothing",
    kills=("unpreventable_damage_still_has_its_other_effects",),
)
class LockedPlayersTakeNoDamage(Rules):
    def damage_player(
        self, player: int, amount: int, preventable: bool = True, infect: bool = False
    ) -> int:
        if not self.life_can_change(player):
            return 0
        return super().damage_player(player, amount, preventable, infect)


@mutant(
    "locked-players-get-no-poison",
    "R2017-unpreventable",
    "the life lock also stops infect: unpreventable infect damage to a player whose life can't "
    "change gives no poison counters (lifelink still sees it dealt)",
    kills=("unpreventable_infect_damage_still_poisons",),
)
class LockedPlayersGetNoPoison(Rules):
    def damage_player(
        self, player: int, amount: int, preventable: bool = True, infect: bool = False
    ) -> int:
        poisons = infect and self.life_can_change(player)
        return super().damage_player(player, amount, preventable, poisons)


@mutant(
    "phased-out-replacements-apply",
    "702.26b",
    "the replacement abilities of draws and life look at every permanent on the battlefield, "
    "phased-out ones too",
    kills=("phased_out_replacement_effects_apply_nothing",),
)
class PhasedOutReplacementsApply(Rules):
    def replacing(self, player: int, ability: Ability) -> list[Card]:
        return [
            c for c in self.state.in_play() if ability in c.abilities and c.controller != player
        ]


@mutant(
    "protection-phases-out-before-locking",
    "R2017-life-no-effect",
    "Teferi's Protection phases its caster's permanents out and resolves the triggers that "
    "causes at once, then locks the life total: 'whenever this phases out, you gain life' "
    "gains life",
    kills=("locked_life_spells_resolve_without_changing_life",),
)
class ProtectionPhasesOutBeforeLocking(Rules):
    def protect(self, player: int) -> None:
        self.state.protected.add(player)
        self.phase_out(self.all_you_control(player))
        self.resolve_triggers()
        self.state.locked.add(player)


@mutant(
    "lifelink-ignores-life-lock",
    "R2017-life-no-effect",
    "lifelink adds the damage its spell dealt straight to the caster's life total, as part of "
    "the damage event, past 'your life total can't change'",
    kills=("locked_life_spells_resolve_without_changing_life",),
)
class LifelinkIgnoresLifeLock(Rules):
    def damage_opponents(self, action: a.DamageOpponents) -> None:
        if self.life_can_change(action.caster):
            super().damage_opponents(action)
            return
        self.check_player(action.caster)
        self.receive_priority()
        for p in range(self.state.players):
            if p != action.caster:
                dealt = self.damage_player(
                    p, action.amount, not action.unpreventable, action.infect
                )
                self.state.life[action.caster] += dealt
