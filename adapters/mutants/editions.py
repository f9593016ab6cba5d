"""Mutants of the older editions: each plays an edition's rules but gets
one of the rules where that edition differs from today's wrong, the way an
engine written from today's rules would (conformance/properties/editions.py)."""

from __future__ import annotations

from adapters.mutants import mutant
from adapters.reference.editions import MirageRules, Pre2017Rules
from adapters.reference.state import Card


@mutant(
    "pre2017-tokens-stay",
    "702.25k",
    "a phased-out token stays on the battlefield, as today (702.25k: it ceases to exist)",
    ("phased_out_tokens_cease_to_exist",),
    edition="pre-2017",
)
class Pre2017TokensStay(Pre2017Rules):
    def phased_out_token_ceases(self, card: Card) -> None:
        """702.25k, wrongly: today's R2017-tokens kept."""


@mutant(
    "mirage-tokens-stay",
    "217.8d",
    "a token in the phased-out zone stays there, as today (217.8d: it ceases to exist)",
    ("tokens_in_the_phased_out_zone_cease_to_exist",),
    edition="mirage",
)
class MirageTokensStay(MirageRules):
    def phased_out_token_ceases(self, card: Card) -> None:
        """217.8d, wrongly: today's R2017-tokens kept."""


@mutant(
    "mirage-no-phasing-haste",
    "502.15m",
    "a creature that phased in is summoning sick, as today (502.15m: as if it had haste)",
    ("phased_in_permanents_attack_as_if_hasty",),
    edition="mirage",
)
class MirageNoPhasingHaste(MirageRules):
    def phase_in_with_attachments(self, card: Card) -> None:
        """502.15m, wrongly: today's phasing in, which leaves summoning
        sickness as it was (R2017-haste)."""
        Pre2017Rules.phase_in_with_attachments(self, card)


@mutant(
    "mirage-damage-stays",
    "502.15e",
    "damage stays marked on a permanent that phases out, as today (502.15e: it is removed)",
    ("phasing_out_removes_damage",),
    edition="mirage",
)
class MirageDamageStays(MirageRules):
    def remove_damage(self, card: Card) -> None:
        """502.15e, wrongly: today's phasing out, which leaves damage marked
        until cleanup (514.2)."""


@mutant(
    "mirage-legends-keep-one",
    "502.15k",
    "of two legends with one name phasing in together one stays, as today (502.15k: both go)",
    ("legends_phasing_in_together_all_go",),
    edition="mirage",
)
class MirageLegendsKeepOne(MirageRules):
    def namesakes_phased_in_together(self, ids: list[str]) -> list[Card]:
        """502.15k, wrongly: legends phasing in together are left to today's
        legend rule (704.5j), which keeps one of them."""
        return []


@mutant(
    "mirage-limited-effects-last",
    "502.15g",
    "limited-duration effects go on applying to a permanent that phased out and in, as today"
    " (502.15g: they stop affecting it as it phases out)",
    ("limited_effects_end_as_it_phases_out",),
    edition="mirage",
)
class MirageLimitedEffectsLast(MirageRules):
    def end_limited_effects(self, ids: set[str]) -> None:
        """502.15g, wrongly: today's phasing out, after which effects end
        only as their durations say (702.26f)."""
