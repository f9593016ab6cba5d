"""Mutants of what phasing keeps and triggers (702.26d, 603.10b;
R2017-counters, R2017-choices, R2017-no-etb-ltb): engines that treat phasing
as leaving and entering the battlefield, in one way or another."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card
from conformance.setup import Ability, ControlEffect

_IDENTITY = ("phasing_keeps_the_same_permanent",)
#: The abilities "whenever this phases in" triggers (603.10b).
_PHASE_IN_ABILITIES: tuple[Ability, ...] = ("phases_in", "phases_in_tap")


@mutant(
    "phasing-out-exiles",
    "702.26d",
    "phasing out moves the permanent to exile, like the 1996 phased-out zone",
    kills=_IDENTITY,
)
class PhasingOutExiles(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        was_in = {c.id for c in self.state.phased_in()}
        super().phase_out(roots, until)
        for card in self.state.in_play():
            if card.id in was_in and card.phased_out is not None:
                card.zone = "exile"


@mutant(
    "phasing-out-untaps",
    "702.26d",
    "removing a phased-out permanent from combat also untaps it",
    kills=_IDENTITY,
)
class PhasingOutUntaps(Rules):
    def removed_from_combat(self, card: Card) -> None:
        super().removed_from_combat(card)
        card.tapped = False


@mutant(
    "counters-lost-on-phasing",
    "R2017-counters",
    "a permanent phases in rebuilt from its card, without its counters",
    kills=_IDENTITY,
)
class CountersLostOnPhasing(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        card.counters.clear()


@mutant(
    "phasing-in-rechooses",
    "R2017-choices",
    "a permanent that phases in makes its 'as this enters' choice again (the default, white)",
    kills=_IDENTITY,
)
class PhasingInRechooses(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        if card.chosen is not None:
            card.chosen = "white"


@mutant(
    "phasing-in-reverts-control",
    "702.26d",
    "a permanent phases in under its owner's control, as if it entered the battlefield",
    kills=_IDENTITY,
)
class PhasingInRevertsControl(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        self.state.effects = [
            t
            for t in self.state.effects
            if not (isinstance(t.effect, ControlEffect) and t.effect.target == card.id)
        ]
        card.controller = card.owner


@mutant(
    "phasing-fires-zone-triggers",
    "R2017-no-etb-ltb",
    "phasing out triggers leaves-the-battlefield abilities, phasing in enters ones",
    kills=("phasing_triggers_no_enter_or_leave_abilities",),
)
class PhasingFiresZoneTriggers(Rules):
    def phase_trigger(self, card: Card, kind: str) -> None:
        super().phase_trigger(card, kind)
        zone_kind: Ability = "ltb" if kind == "phases_out" else "etb"
        if zone_kind in card.abilities:
            self.state.triggers.append((card.id, zone_kind, card.controller))


@mutant(
    "phase-triggers-look-forward",
    "603.10b",
    "'whenever this phases out' is checked after the event, when the permanent no longer exists",
    kills=("phase_triggers_trigger",),
)
class PhaseTriggersLookForward(Rules):
    def phase_trigger(self, card: Card, kind: str) -> None:
        self.trigger(card, kind)  # type: ignore[arg-type]


@mutant(
    "indirect-phasing-no-trigger",
    "603.10b",
    "only permanents that phase out directly trigger 'whenever this phases out'",
    kills=("phase_triggers_trigger",),
)
class IndirectPhasingNoTrigger(Rules):
    def phase_trigger(self, card: Card, kind: str) -> None:
        if card.phased_out is None or card.phased_out.cause == "direct":
            super().phase_trigger(card, kind)


@mutant(
    "until-release-no-phase-in-trigger",
    "603.10b",
    "'whenever this phases in' triggers in the untap step's phasing event only: what phases in "
    "because the source it waited for left the battlefield (610.4) triggers nothing",
    kills=("phase_triggers_trigger",),
)
class UntilReleaseNoPhaseInTrigger(Rules):
    def release_until(self, source: Card) -> None:
        queued = len(self.state.triggers)
        super().release_until(source)
        released = self.state.triggers[queued:]
        self.state.triggers[queued:] = [t for t in released if t[1] not in _PHASE_IN_ABILITIES]


@mutant(
    "rephased-target-is-new",
    "702.26d",
    "a permanent that phased out and back in while a spell waited is a new object to it: "
    "the spell has lost its target and does nothing",
    kills=("spell_resolves_on_a_target_that_phased_out_and_in",),
)
class RephasedTargetIsNew(Rules):
    def still_the_target(self, card: Card) -> bool:
        return False
