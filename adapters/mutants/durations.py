"""Mutants of durations across phasing (702.26f, 611.2b, 610.4,
R2017-for-as-long-as, R2017-control, R2017-until-leaves)."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.editions import without_limited_effects
from adapters.reference.state import Card, Timed
from conformance import actions as a
from conformance.setup import BoostEffect, ControlEffect, Duration, PhasedOut


@mutant(
    "cleanup-skips-phased-out",
    "702.26f",
    "effects end only for permanents the game can see: one on a phased-out permanent outlasts "
    "its duration",
    kills=(
        "effects_that_ended_while_out_stay_ended",
        "lost_control_phases_in_under_owner_at_former_controllers_untap",
    ),
)
class CleanupSkipsPhasedOut(Rules):
    def end_effects(self, kind: str, player: int | None = None) -> None:
        def hidden(timed: Timed) -> bool:
            e = timed.effect
            ids = e.targets if isinstance(e, BoostEffect) else (e.target,)
            return all(self.state.cards[pid].phased_out is not None for pid in ids)

        self.state.effects = [
            t
            for t in self.state.effects
            if hidden(t)
            or not (
                t.effect.duration.kind == kind and (player is None or t.effect.controller == player)
            )
        ]
        self.refresh()


@mutant(
    "for-as-long-as-ignores-phasing",
    "R2017-for-as-long-as",
    "'for as long as you control X' only asks whether X is on the battlefield, phased out or not",
    kills=(
        "control_for_as_long_as_ends_when_x_phases_out",
        "for_as_long_as_that_never_starts_does_nothing",
    ),
)
class ForAsLongAsIgnoresPhasing(Rules):
    def duration_condition(self, duration: Duration, player: int) -> bool:
        if duration.kind != "as_long_as_you_control" or duration.of is None:
            return True
        card = self.state.cards.get(duration.of)
        return card is not None and card.on_battlefield and card.controller == player


@mutant(
    "for-as-long-as-misses-indirect-phasing",
    "R2017-for-as-long-as",
    "'for as long as you control X' notices X phasing out only directly: an Aura or Equipment "
    "that phased out with its host still counts as controlled",
    kills=(
        "control_for_as_long_as_ends_when_x_phases_out",
        "boost_for_as_long_as_ends_when_x_phases_out",
    ),
)
class ForAsLongAsMissesIndirectPhasing(Rules):
    def duration_condition(self, duration: Duration, player: int) -> bool:
        x = self.state.cards.get(duration.of or "")
        if x is not None and x.phased_out is not None and x.phased_out.cause == "indirect":
            return x.on_battlefield and x.controller == player
        return super().duration_condition(duration, player)


@mutant(
    "for-as-long-as-suspended",
    "702.26f",
    "a 'for as long as' effect is only suspended while X is phased out, and applies again "
    "once X is back",
    kills=("control_for_as_long_as_ends_when_x_phases_out",),
)
class ForAsLongAsSuspended(Rules):
    def refresh(self) -> None:
        for card in self.state.cards.values():
            controller = card.owner
            for timed in self.state.effects:
                e = timed.effect
                if (
                    isinstance(e, ControlEffect)
                    and e.target == card.id
                    and self.condition_holds(timed)
                ):
                    controller = e.controller
            if controller != card.controller:
                card.controller = controller
                card.sick = True


@mutant(
    "for-as-long-as-unchecked-at-resolution",
    "611.2b",
    "a 'for as long as' condition is checked only when X changes (an event-driven check), "
    "so an effect created while X is phased out applies until X next phases or changes hands",
    kills=("for_as_long_as_that_never_starts_does_nothing",),
)
class ForAsLongAsUncheckedAtResolution(Rules):
    def add_effect(self, effect: ControlEffect | BoostEffect) -> None:
        timed = Timed(effect, self.state.stamp())
        self.state.effects.append(timed)
        self.unchecked = {**getattr(self, "unchecked", {}), id(timed): self._x_state(timed)}
        self.refresh()

    def condition_holds(self, timed: Timed) -> bool:
        unchecked: dict[int, object] = getattr(self, "unchecked", {})
        if id(timed) in unchecked and unchecked[id(timed)] == self._x_state(timed):
            return True
        unchecked.pop(id(timed), None)
        return super().condition_holds(timed)

    def _x_state(self, timed: Timed) -> object:
        x = self.state.cards.get(timed.effect.duration.of or "")
        return None if x is None else (x.phased_in, x.controller, x.zone)


@mutant(
    "phase-in-at-controllers-untap",
    "R2017-control",
    "a phased-out permanent phases in at its current controller's untap step, not that of "
    "the player it phased out under",
    kills=("lost_control_phases_in_under_owner_at_former_controllers_untap",),
)
class PhaseInAtControllersUntap(Rules):
    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        out = card.phased_out
        if out is None or out.cause != "direct" or out.until is not None:
            return False
        return card.controller == player or out.under in self.state.released


@mutant(
    "until-waits-for-untap",
    "610.4",
    "what phased out until a permanent leaves waits for the next untap step once it has left",
    kills=("phased_out_until_waits_for_its_source",),
)
class UntilWaitsForUntap(Rules):
    def release_until(self, source: Card) -> None:
        for card in self.state.in_play():
            out = card.phased_out
            if out is not None and out.until == source.id:
                card.phased_out = PhasedOut(out.cause, out.under)


@mutant(
    "until-phases-in-at-untap",
    "610.4",
    "what phased out until a permanent leaves also phases in at the untap step",
    kills=("phased_out_until_waits_for_its_source",),
)
class UntilPhasesInAtUntap(Rules):
    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        out = card.phased_out
        if out is None or out.cause != "direct":
            return False
        return out.under == player or out.under in self.state.released


@mutant(
    "until-source-phasing-out-releases",
    "R2017-until-leaves",
    "the source phasing out counts as leaving the battlefield: its target phases in",
    kills=("source_phasing_out_is_not_leaving",),
)
class UntilSourcePhasingOutReleases(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        roots = list(roots)
        super().phase_out(roots, until)
        for card in roots:
            self.release_until(card)


@mutant(
    "limited-effects-end-on-phasing",
    "702.26f",
    "effects with a limited duration stop affecting a permanent as it phases out, as in the "
    "Mirage edition (502.15g); today they end only as their durations say",
    kills=("limited_effects_outlast_phasing",),
)
class LimitedEffectsEndOnPhasing(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        start = len(self.state.events)
        super().phase_out(roots, until)
        gone = {e.subject for e in self.state.events[start:] if e.kind == "phased_out"}
        self.state.effects = without_limited_effects(self.state.effects, gone)
        self.refresh()


@mutant(
    "boost-for-as-long-as-ignores-phasing",
    "R2017-for-as-long-as",
    "a boost 'for as long as you control X' checks only that X is on the battlefield under its "
    "controller, phased out or not",
    kills=("boost_for_as_long_as_ends_when_x_phases_out",),
)
class BoostForAsLongAsIgnoresPhasing(Rules):
    def condition_holds(self, timed: Timed) -> bool:
        e = timed.effect
        if isinstance(e, BoostEffect) and e.duration.of is not None:
            x = self.state.cards.get(e.duration.of)
            return x is not None and x.on_battlefield and x.controller == e.controller
        return super().condition_holds(timed)


@mutant(
    "phased-out-under-controller-after-effects-end",
    "R2017-control",
    "who a permanent phased out under is read after the effects its phasing out ended, so one "
    "whose 'for as long as' control ended with it is recorded as phased out under its owner",
    kills=("lost_control_phases_in_under_owner_at_former_controllers_untap",),
)
class PhasedOutUnderControllerAfterEffectsEnd(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        roots = list(roots)
        super().phase_out(roots, until)
        for card in roots:
            out = card.phased_out
            if out is not None and out.cause == "direct":
                card.phased_out = PhasedOut("direct", card.controller, out.until)


@mutant(
    "until-released-only-by-destroy-spells",
    "610.4",
    "what phased out until a permanent leaves phases in when a spell destroys that permanent, "
    "not when a state-based action puts it into the graveyard",
    kills=("phased_out_until_waits_for_its_source",),
)
class UntilReleasedOnlyByDestroySpells(Rules):
    in_sba = False

    def one_round_of_sba(self) -> bool:
        self.in_sba = True
        try:
            return super().one_round_of_sba()
        finally:
            self.in_sba = False

    def release_until(self, source: Card) -> None:
        if not self.in_sba:
            super().release_until(source)


@mutant(
    "until-release-after-spell-resolves",
    "610.4",
    "what phased out until a permanent leaves phases in as a delayed trigger: when a spell "
    "destroys that permanent, only once the spell has finished resolving, after its draw",
    kills=("what_waited_is_back_before_the_rest_of_the_spell",),
)
class UntilReleaseAfterSpellResolves(Rules):
    """Queues the sources that left while a Destroy spell resolves and
    releases what waited for them after the spell, not within it."""

    left: list[Card] | None = None

    def destroy_target(self, action: a.Destroy) -> None:
        self.left = []
        try:
            super().destroy_target(action)
        finally:
            left, self.left = self.left, None
        for source in left:
            super().release_until(source)

    def release_until(self, source: Card) -> None:
        if self.left is None:
            super().release_until(source)
        else:
            self.left.append(source)
