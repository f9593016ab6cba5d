"""What exercising each attachment and duration property means: on a
hand-written scenario the reference engine exercises it, while an engine that
refuses every action (inert) or shows its starting position forever (echo)
does not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, ReferenceGame, Rules, reference_of
from adapters.reference.state import Card
from conformance import actions as a
from conformance.observation import Observation
from conformance.properties import REGISTRY, Violation, in_edition
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import (
    BoostEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
)

AURA = {"types": ("enchantment",), "attachment": "aura"}
EQUIPMENT = {"types": ("artifact",), "attachment": "equipment"}
FORTIFICATION = {"types": ("artifact",), "attachment": "fortification"}
CREATURE = {"power": 1, "toughness": 1}


@dataclass
class _Still:
    """A game that shows its starting position after every action."""

    start: Observation
    refused: str | None

    def observe(self) -> Observation:
        return self.start

    def perform(self, action: a.Action) -> Observation:
        return replace(self.start, events=(), refused=self.refused)


@dataclass(frozen=True)
class Still:
    """inert (refused="not supported") or echo (refused=None)."""

    name: str
    refused: str | None
    version: str = "0"
    capabilities: frozenset = ReferenceEngine().capabilities

    def start(self, setup: Setup) -> _Still:
        return _Still(ReferenceGame(setup).observe(), self.refused)


INERT, ECHO = Still("inert", "not supported"), Still("echo", None)


def scenario(*permanents: Permanent, actions: tuple[a.Action, ...], **setup: object) -> Scenario:
    return Scenario(Setup(permanents=permanents, **setup), actions)  # type: ignore[arg-type]


HOST = Permanent("p1", **CREATURE)  # type: ignore[arg-type]
AURA_ON_HOST = Permanent("p2", attached_to="p1", **AURA)  # type: ignore[arg-type]
AURA_OUT = replace(AURA_ON_HOST, phased_out=PhasedOut("direct", 0))
SOURCE = Permanent("p1", types=("artifact",))
WAITER = Permanent("p2", **CREATURE)  # type: ignore[arg-type]
X_AND_T = (HOST, Permanent("p2", owner=1, controller=1, **CREATURE))  # type: ignore[arg-type]
as_long_as_p1 = Duration("as_long_as_you_control", "p1")
LIMITED_OUT_AND_IN = (
    a.GainControl(0, "p2", Duration("end_of_turn")),
    a.PumpTeam(0),
    a.PhaseOutUntil(0, "p1", "p2"),
    a.Destroy(0, "p1"),
)
DIRECT_THEN_HOST_RELEASED = (
    a.PhaseOut(0, ("p2",)),
    a.PhaseOutUntil(0, "p3", "p1"),
    a.Destroy(0, "p3"),
)

CASES = {
    "attachments_phase_out_with_their_host": scenario(
        HOST, AURA_ON_HOST, actions=(a.PhaseOut(0, ("p1",)),)
    ),
    "attachments_return_with_their_host": scenario(
        HOST, AURA_ON_HOST, actions=(a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn())
    ),
    "phased_out_permanents_keep_how_they_phased_out": scenario(
        HOST, AURA_OUT, actions=(a.PhaseOut(0, ("p1",)),)
    ),
    "phasing_out_both_ways_is_indirect": scenario(
        HOST, AURA_ON_HOST, actions=(a.PhaseOut(0, ("p1", "p2")),)
    ),
    "directly_phased_out_attachments_find_their_host": scenario(
        HOST, AURA_OUT, actions=(a.Destroy(0, "p1"), a.PassTurn(), a.PassTurn())
    ),
    "phasing_never_attaches_or_unattaches": scenario(
        HOST,
        replace(AURA_ON_HOST, abilities=("attached",)),
        Permanent("p3", abilities=("ltb",), **CREATURE),  # type: ignore[arg-type]
        actions=(a.PhaseOut(0, ("p1",)), a.Destroy(0, "p3"), a.PassTurn(), a.PassTurn()),
    ),
    "no_aura_stays_unattached": scenario(HOST, AURA_ON_HOST, actions=(a.Destroy(0, "p1"),)),
    "equipment_stays_when_unattached": scenario(
        HOST,
        Permanent("p2", attached_to="p1", **EQUIPMENT),  # type: ignore[arg-type]
        actions=(a.Destroy(0, "p1"),),
    ),
    "effects_that_ended_while_out_stay_ended": scenario(
        HOST,
        effects=(BoostEffect(("p1",), 0),),
        actions=(a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn()),
    ),
    "control_for_as_long_as_ends_when_x_phases_out": scenario(
        *X_AND_T, actions=(a.GainControl(0, "p2", as_long_as_p1), a.PhaseOut(0, ("p1",)))
    ),
    "for_as_long_as_that_never_starts_does_nothing": scenario(
        *X_AND_T,
        Permanent("p3", owner=1, controller=1, **CREATURE),  # type: ignore[arg-type]
        actions=(
            a.PhaseOut(0, ("p1",)),
            a.GainControl(0, "p2", as_long_as_p1),
            a.GainControl(0, "p3", Duration("indefinitely")),
        ),
    ),
    "lost_control_phases_in_under_owner_at_former_controllers_untap": scenario(
        Permanent("p1", owner=1, controller=1, **CREATURE),  # type: ignore[arg-type]
        actions=(
            a.GainControl(0, "p1", Duration("end_of_turn")),
            a.PhaseOut(0, ("p1",)),
            a.PassTurn(),
            a.PassTurn(),
        ),
    ),
    "phased_out_until_waits_for_its_source": scenario(
        SOURCE, WAITER, actions=(a.PhaseOutUntil(0, "p1", "p2"), a.Destroy(0, "p1"))
    ),
    # Player 0 borrows p2 until end of turn and pumps it; it phases out until
    # p1 leaves, which it does: p2 is back in the same turn.
    "limited_effects_outlast_phasing": scenario(
        SOURCE,
        replace(WAITER, owner=1, controller=1),
        actions=LIMITED_OUT_AND_IN,
    ),
    # p2 phases out on its own, then its host p1 until p3 leaves, which it
    # does: p1 is back, p2 stays out until player 0's untap step.
    "phased_out_permanents_stay_out_between_untap_steps": scenario(
        HOST,
        Permanent("p2", attached_to="p1", **EQUIPMENT),  # type: ignore[arg-type]
        Permanent("p3", types=("artifact",)),
        actions=DIRECT_THEN_HOST_RELEASED,
    ),
    "source_phasing_out_is_not_leaving": scenario(
        SOURCE,
        WAITER,
        actions=(
            a.PhaseOutUntil(0, "p1", "p2"),
            a.PhaseOut(0, ("p1",)),
            a.PassTurn(),
            a.PassTurn(),
        ),
    ),
    "what_waited_is_back_before_the_rest_of_the_spell": scenario(
        SOURCE,
        Permanent("p2", 1, 1, ("enchantment",), abilities=("draw_to_life",)),
        actions=(a.PhaseOutUntil(0, "p1", "p2"), a.Destroy(0, "p1")),
    ),
}


def test_every_property_of_the_area_has_a_case() -> None:
    modules = {
        f"conformance.properties.{m}"
        for m in (
            "attachments",
            "attach_triggers",
            "unattached",
            "durations",
            "limited",
            "until",
            "until_released",
        )
    }
    mine = {n for n, p in REGISTRY.items() if p.check.__module__ in modules}
    assert mine == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_exercises_it(name: str) -> None:
    prop = REGISTRY[name]
    trace = play(ReferenceEngine(), CASES[name])
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace), name


@pytest.mark.parametrize("engine", [INERT, ECHO], ids=["inert", "echo"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_an_engine_that_does_nothing_does_not(name: str, engine: Still) -> None:
    prop = REGISTRY[name]
    assert prop.exercised is not None
    assert not prop.exercised(play(engine, CASES[name])), name


class NeverPhases(Rules):
    """Plays turns, untap steps, destruction and control changes, but never
    phases anything."""

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        return None

    def phase_in(self, roots: Iterable[Card]) -> None:
        return None


#: State-based actions (704.5m, 704.5n) are rules such an engine does play.
NOT_ABOUT_PHASING = {"no_aura_stays_unattached", "equipment_stays_when_unattached"}


@pytest.mark.parametrize("name", sorted(set(CASES) - NOT_ABOUT_PHASING))
def test_an_engine_that_never_phases_does_not(name: str) -> None:
    prop = REGISTRY[name]
    trace = play(ReferenceEngine(name="never-phases", rules=NeverPhases), CASES[name])
    assert prop.exercised is not None and not prop.exercised(trace), name


class UntilRemembered(Rules):
    """A stale "until" (610.4): once its source left, the permanent phased
    in, but phased out again later it still waits for the gone source."""

    stale: frozenset[str] = frozenset()

    def release_until(self, source: Card) -> None:
        waiting = [c.id for c in self.state.in_play() if c.phased_out and c.phased_out.until]
        super().release_until(source)
        self.stale |= {pid for pid in waiting if self.state.cards[pid].phased_out is None}

    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        return card.id not in self.stale and super().phases_in_in_untap(card, player)


def test_a_stale_until_fails_610_4() -> None:
    stale = scenario(
        SOURCE,
        WAITER,
        actions=(
            a.PhaseOutUntil(0, "p1", "p2"),
            a.Destroy(0, "p1"),
            a.PhaseOut(0, ("p2",)),
            a.PassTurn(),
            a.PassTurn(),
        ),
    )
    prop = REGISTRY["phased_out_until_waits_for_its_source"]
    prop.check(play(ReferenceEngine(), stale))
    with pytest.raises(Violation, match=r"610\.4"):
        prop.check(play(ReferenceEngine(name="stale", rules=UntilRemembered), stale))


class OneLevelReturn(Rules):
    """A chain bug: what phased out with a returning permanent comes back,
    but not what is attached to that in turn."""

    def phase_in_with_attachments(self, card: Card) -> None:
        card.phased_out = None
        for attached in self.state.attachments_of(card.id):
            if attached.phased_out is not None and attached.phased_out.cause == "indirect":
                attached.phased_out = None


CHAIN = scenario(
    HOST,
    Permanent("p2", attached_to="p1", **EQUIPMENT),  # type: ignore[arg-type]
    Permanent("p3", attached_to="p2", **AURA),  # type: ignore[arg-type]
    actions=(a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn()),
)


def test_chains_two_levels_deep_are_checked() -> None:
    prop = REGISTRY["attachments_return_with_their_host"]
    reference = play(ReferenceEngine(), CHAIN)
    assert reference.steps[0].after.permanent("p3").phased_out
    prop.check(reference)
    with pytest.raises(Violation, match="p3 with host p2"):
        prop.check(play(ReferenceEngine(name="one-level", rules=OneLevelReturn), CHAIN))


def test_the_mirage_reference_exercises_limited_effects_ending() -> None:
    """Mirage 502.15g: the same case, on the Mirage reference, exercises its
    counterpart and passes it (p2 back under player 1, at power 1); an
    engine that does nothing does not exercise it."""
    prop = in_edition("mirage")["limited_effects_end_as_it_phases_out"]
    case = CASES["limited_effects_outlast_phasing"]
    trace = play(reference_of("mirage"), case)
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)
    back = trace.steps[-1].after.permanent("p2")
    assert (back.controller, back.power) == (1, 1)
    assert not prop.exercised(play(INERT, case)) and not prop.exercised(play(ECHO, case))


#: Player 0 gains control of player 1's p1 for as long as they control p2,
#: then phases both out at once: p1 phased out under player 0 (702.26a), and
#: the effect ended with it (702.26f). Player 1's untap step leaves it out;
#: player 0's phases it in, under player 1 (R2017-control).
ENDED_WITH_ITS_PHASING = scenario(
    Permanent("p1", owner=1, controller=1, **CREATURE),  # type: ignore[arg-type]
    Permanent("p2", types=("artifact",)),
    actions=(
        a.GainControl(0, "p1", Duration("as_long_as_you_control", "p2")),
        a.PhaseOut(0, ("p2", "p1")),
        a.PassTurn(),
        a.PassTurn(),
    ),
)


def test_control_ending_as_it_phases_out_is_under_the_player_it_phased_out_under() -> None:
    prop = REGISTRY["lost_control_phases_in_under_owner_at_former_controllers_untap"]
    reference = play(ReferenceEngine(), ENDED_WITH_ITS_PHASING)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    assert reference.steps[-1].after.permanent("p1").controller == 1
    late = mutant_engine("phased-out-under-controller-after-effects-end")
    with pytest.raises(Violation, match="p1 \\(phased out under player 0\\)"):
        prop.check(play(late, ENDED_WITH_ITS_PHASING))


def test_what_waits_for_a_source_that_leaves_the_game_phases_in() -> None:
    """610.4, 800.4a: player 1's p2 phases out player 0's p1 until p2
    leaves the battlefield; player 1 concedes, and p2 leaves with them: p1
    phases in then (docs/readings.md C: S was phased in)."""
    case = scenario(
        Permanent("p1", **CREATURE),  # type: ignore[arg-type]
        Permanent("p2", owner=1, controller=1, **CREATURE),  # type: ignore[arg-type]
        actions=(a.PhaseOutUntil(1, "p2", "p1"), a.Concede(1)),
        players=3,
    )
    prop = REGISTRY["phased_out_until_waits_for_its_source"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match="p1 \\(phased out until p2 leaves\\)"):
        prop.check(play(mutant_engine("until-not-ended-by-leaving-game"), case))


@pytest.mark.parametrize(
    ("attachment", "host"),
    [(AURA, CREATURE), (EQUIPMENT, CREATURE), (FORTIFICATION, {"types": ("land",)})],
    ids=["aura", "equipment", "fortification"],
)
def test_an_attachment_phased_out_alone_comes_back_to_its_host(
    attachment: dict[str, object], host: dict[str, object]
) -> None:
    """702.26i: phased out on its own, it phases in attached to the host
    that stayed, whatever kind of attachment it is."""
    case = scenario(
        Permanent("p1", **host),  # type: ignore[arg-type]
        Permanent("p2", attached_to="p1", **attachment),  # type: ignore[arg-type]
        actions=(a.PhaseOut(0, ("p2",)), a.PassTurn(), a.PassTurn()),
    )
    prop = REGISTRY["directly_phased_out_attachments_find_their_host"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert reference.steps[-1].after.permanent("p2").attached_to == "p1"
    if attachment is FORTIFICATION:
        with pytest.raises(Violation, match="fortification p2 \\(was on p1\\)"):
            prop.check(play(mutant_engine("fortification-returns-unattached"), case))


def test_what_waits_for_a_source_that_dies_of_damage_phases_in() -> None:
    """610.4, 704.5g: p2 waits until p1 leaves; lethal damage destroys p1
    as a state-based action, and p2 phases in then, as for a spell."""
    case = scenario(
        Permanent("p1", **CREATURE),  # type: ignore[arg-type]
        Permanent("p2", **CREATURE),  # type: ignore[arg-type]
        actions=(a.PhaseOutUntil(0, "p1", "p2"), a.DealDamage(0, "p1", 1)),
    )
    prop = REGISTRY["phased_out_until_waits_for_its_source"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match="p2 \\(phased out until p1 leaves\\)"):
        prop.check(play(mutant_engine("until-released-only-by-destroy-spells"), case))


def test_a_fortification_phases_out_with_its_land() -> None:
    """702.26g: Fortifications are attachments like Auras and Equipment; one
    on a land that phases out phases out with it, indirectly."""
    case = scenario(
        Permanent("p1", types=("land",)),
        Permanent("p2", attached_to="p1", **FORTIFICATION),  # type: ignore[arg-type]
        actions=(a.PhaseOut(0, ("p1",)),),
    )
    prop = REGISTRY["attachments_phase_out_with_their_host"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match=r"702\.26g after action 1 \(PhaseOut\), p2"):
        prop.check(play(mutant_engine("fortifications-stay-behind"), case))


def test_control_ends_as_its_x_phases_out_with_its_host() -> None:
    """702.26g, R2017-for-as-long-as: X is an Equipment on p3; p3 phases out
    and X with it, indirectly: player 0's control of p2 ends all the same."""
    case = scenario(
        *X_AND_T,
        Permanent("p3", **CREATURE),  # type: ignore[arg-type]
        Permanent("p4", attached_to="p3", **EQUIPMENT),  # type: ignore[arg-type]
        actions=(
            a.GainControl(0, "p2", Duration("as_long_as_you_control", "p4")),
            a.PhaseOut(0, ("p3",)),
        ),
    )
    prop = REGISTRY["control_for_as_long_as_ends_when_x_phases_out"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match="player 0's control ends as p4 phases out"):
        prop.check(play(mutant_engine("for-as-long-as-misses-indirect-phasing"), case))


def test_an_attachment_finds_its_host_that_phased_out_and_back_meanwhile() -> None:
    """702.26d, 702.26i: the Aura p2 phases out on its own; its host p1 phases
    out until p3 leaves and back in as p3 is destroyed. Phasing is no zone
    change: p1 is the same object, and p2 phases in attached to it."""
    case = scenario(
        HOST,
        AURA_ON_HOST,
        Permanent("p3", types=("artifact",)),
        actions=(
            a.PhaseOut(0, ("p2",)),
            a.PhaseOutUntil(0, "p3", "p1"),
            a.Destroy(0, "p3"),
            a.PassTurn(),
            a.PassTurn(),
        ),
    )
    prop = REGISTRY["directly_phased_out_attachments_find_their_host"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert reference.steps[-1].after.permanent("p2").attached_to == "p1"
    with pytest.raises(Violation, match=r"aura p2 \(was on p1\): expected phased in attached"):
        prop.check(play(mutant_engine("host-back-from-phasing-is-new"), case))


def test_a_direct_attachment_stays_out_as_its_host_comes_back() -> None:
    """702.26a, 702.26g: Equipment p2 phased out on its own before its
    host p1 phased out until p3 leaves; p3 is destroyed: p1 phases in, p2
    stays out until player 0's untap step, where it phases in on p1. An
    engine bringing every phased-out attachment back with its host phases
    p2 in with p1."""
    case = CASES["phased_out_permanents_stay_out_between_untap_steps"]
    case = replace(case, actions=(*case.actions, a.PassTurn(), a.PassTurn()))
    prop = REGISTRY["phased_out_permanents_stay_out_between_untap_steps"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    back, untapped = reference.steps[2].after, reference.steps[-1].after
    assert back.permanent("p1").phased_in and back.permanent("p2").phased_out
    assert untapped.permanent("p2").phased_in and untapped.permanent("p2").attached_to == "p1"
    with pytest.raises(
        Violation, match=r"702.26g after action 3 \(Destroy\), p2 \(attached to p1\)"
    ):
        prop.check(play(mutant_engine("phase-in-brings-direct-attachments"), case))
