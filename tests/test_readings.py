"""docs/readings.md: every reading the rules allow passes the properties
concerned, and the clearly wrong outcome still fails them. Each reading other
than the reference engine's is a small variant of its `Rules` (as mutants
are, adapters/mutants/), played on a hand-written scenario."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, Rules
from adapters.reference.state import Card
from conformance import actions as a
from conformance.observation import Event
from conformance.properties import REGISTRY, Violation
from conformance.properties.effects import phased_out_history
from conformance.running import Trace, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup
from conformance.trace_comparison import trace_differences
from conformance.unsettled import unsettled_by, unsettled_from

AURA = {"types": ("enchantment",), "attachment": "aura"}
EQUIPMENT = {"types": ("artifact",), "attachment": "equipment"}


def trace_of(rules: type[Rules], scenario: Scenario) -> Trace:
    return play(ReferenceEngine(name=rules.__name__, rules=rules), scenario)


def passes(prop: str, trace: Trace) -> bool:
    try:
        REGISTRY[prop].check(trace)
    except Violation:
        return False
    return True


# A. A directly phased-out attachment phases in while its host is out.


class LiteralReattach(Rules):
    """Reading A, literal: the phased-out host is still on the battlefield,
    so the attachment phases in attached to it (702.26i); 704.5m/n then see
    a host that doesn't exist (702.26b) and unattach it, with its trigger."""

    def reattach(self, card: Card) -> None:
        host = card.attached_to
        if not (isinstance(host, str) and self.state.cards[host].on_battlefield):
            super().reattach(card)

    def attached_legally(self, card: Card) -> bool:
        host = card.attached_to
        if isinstance(host, str) and self.state.cards[host].phased_out is not None:
            return False
        return super().attached_legally(card)


class StaysOnPhasedOutHost(Rules):
    """Wrong: it phases in attached to the phased-out host and stays so."""

    def reattach(self, card: Card) -> None:
        return None


def host_out_when_attachment_returns(kind: dict[str, object]) -> Scenario:
    """p2 (player 0's) phased out on its own on player 1's p1; p1 phases out
    under player 1; player 0's untap step phases p2 in with p1 still out."""
    return Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent("p1", owner=1, controller=1, power=1, toughness=1),
                Permanent(
                    "p2",
                    attached_to="p1",
                    phased_out=PhasedOut("direct", 0),
                    abilities=("unattached",),
                    **kind,  # type: ignore[arg-type]
                ),
            ),
        ),
        (a.PhaseOut(1, ("p1",)), a.PassTurn(), a.PassTurn()),
    )


READING_A = [
    "attachments_phase_out_with_their_host",
    "directly_phased_out_attachments_find_their_host",
    "phasing_never_attaches_or_unattaches",
    "equipment_stays_when_unattached",
    "no_aura_stays_unattached",
]


@pytest.mark.parametrize("kind", [EQUIPMENT, AURA], ids=["equipment", "aura"])
@pytest.mark.parametrize("prop", READING_A)
def test_reading_a_both_readings_pass(kind: dict[str, object], prop: str) -> None:
    scenario = host_out_when_attachment_returns(kind)
    for rules in (Rules, LiteralReattach):
        assert passes(prop, trace_of(rules, scenario)), (prop, rules.__name__)


def test_reading_a_literal_logs_the_unattaching() -> None:
    trace = trace_of(LiteralReattach, host_out_when_attachment_returns(EQUIPMENT))
    events = trace.steps[1].after.events
    assert Event("unattached", "p2") in events
    assert Event("trigger", "p2", "unattached") in events
    assert trace.steps[1].after.permanent("p2").attached_to is None


@pytest.mark.parametrize(
    ("kind", "prop"),
    [
        (EQUIPMENT, "attachments_phase_out_with_their_host"),
        (EQUIPMENT, "directly_phased_out_attachments_find_their_host"),
        (EQUIPMENT, "equipment_stays_when_unattached"),
        (AURA, "directly_phased_out_attachments_find_their_host"),
        (AURA, "no_aura_stays_unattached"),
    ],
)
def test_reading_a_staying_on_the_phased_out_host_fails(kind: dict[str, object], prop: str) -> None:
    trace = trace_of(StaysOnPhasedOutHost, host_out_when_attachment_returns(kind))
    assert not passes(prop, trace)


# B. An indirectly phased-out attachment whose host left the game.


class PhasesInWhenHostLeaves(Rules):
    """Reading B: an indirectly phased-out attachment whose host left the
    game phases in unattached at once; 704.5m then applies."""

    def leave_game(self, player: int) -> None:
        super().leave_game(player)
        for card in self.state.in_play():
            host, out = card.attached_to, card.phased_out
            indirect = out is not None and out.cause == "indirect"
            if indirect and isinstance(host, str) and self.state.cards[host].zone == "none":
                card.phased_out = None
                card.attached_to = None
                self.state.events.append(Event("phased_in", card.id))


class KeepsLeftHost(PhasesInWhenHostLeaves):
    """Wrong: it phases in still attached to the host that left, and stays."""

    def leave_game(self, player: int) -> None:
        hosts = {c.id: c.attached_to for c in self.state.in_play()}
        super().leave_game(player)
        for card in self.state.in_play():
            if card.phased_out is None and card.attached_to is None and hosts.get(card.id):
                card.attached_to = hosts[card.id]

    def attached_legally(self, card: Card) -> bool:
        return True


HOST_LEAVES = Scenario(
    Setup(
        players=3,
        active=0,
        permanents=(
            Permanent("p1", owner=2, controller=2, power=1, toughness=1),
            Permanent("p2", attached_to="p1", **AURA),  # type: ignore[arg-type]
        ),
    ),
    (a.PhaseOut(2, ("p1",)), a.Concede(2), a.PassTurn(), a.PassTurn(), a.PassTurn()),
)
READING_B = [
    "attachments_phase_out_with_their_host",
    "attachments_return_with_their_host",
    "phased_out_permanents_keep_how_they_phased_out",
    "no_aura_stays_unattached",
]


@pytest.mark.parametrize("prop", READING_B)
def test_reading_b_both_readings_pass(prop: str) -> None:
    reference = trace_of(Rules, HOST_LEAVES)
    other = trace_of(PhasesInWhenHostLeaves, HOST_LEAVES)
    assert reference.steps[1].after.permanent("p2").phased_out
    shown = other.steps[1].after.permanent("p2")
    # 704.3: the state-based action waits for the next priority (reading D).
    assert shown.phased_in and shown.attached_to is None
    assert other.steps[2].after.permanent("p2").zone == "graveyard"
    assert passes(prop, reference) and passes(prop, other)


@pytest.mark.parametrize(
    "prop", ["attachments_phase_out_with_their_host", "no_aura_stays_unattached"]
)
def test_reading_b_keeping_the_left_host_fails(prop: str) -> None:
    trace = trace_of(KeepsLeftHost, HOST_LEAVES)
    assert trace.steps[1].after.permanent("p2").attached_to == "p1"
    assert not passes(prop, trace)


# C. The source of "phases out until" leaves the game while phased out.


class PhasedOutSourceNeverLeaves(Rules):
    """Reading C: a phased-out source leaving the game was never seen
    leaving the battlefield (702.26b); what waits for it stays out."""

    def release_until(self, source: Card) -> None:
        if source.phased_out is None:
            super().release_until(source)


class NeverReleases(Rules):
    """Wrong: what phased out until a source leaves never phases in."""

    def release_until(self, source: Card) -> None:
        return None


def source_leaves(source_phased_out: bool) -> Scenario:
    hide = (a.PhaseOut(2, ("p1",)),) if source_phased_out else ()
    return Scenario(
        Setup(
            players=3,
            permanents=(
                Permanent("p1", owner=2, controller=2, types=("artifact",)),
                Permanent("p2", power=1, toughness=1),
            ),
        ),
        (a.PhaseOutUntil(2, "p1", "p2"), *hide, a.Concede(2), a.PassTurn(), a.PassTurn()),
    )


def test_reading_c_both_readings_pass() -> None:
    scenario = source_leaves(source_phased_out=True)
    reference = trace_of(Rules, scenario)
    other = trace_of(PhasedOutSourceNeverLeaves, scenario)
    assert reference.steps[2].after.permanent("p2").phased_in
    assert other.steps[2].after.permanent("p2").phased_out
    for trace in (reference, other):
        assert passes("phased_out_until_waits_for_its_source", trace)


def test_reading_c_not_releasing_when_a_phased_in_source_leaves_fails() -> None:
    for rules in (NeverReleases, PhasedOutSourceNeverLeaves):
        trace = trace_of(rules, source_leaves(source_phased_out=False))
        assert passes("phased_out_until_waits_for_its_source", trace) is (
            rules is PhasedOutSourceNeverLeaves
        )


# D. State-based actions after a Concede wait for priority (704.3).


class SbaAtPriority(Rules):
    """State-based actions wait, after a Concede, for the next action."""

    waiting = False

    def concede(self, action: a.Concede) -> None:
        super().concede(action)
        self.waiting = True

    def pass_turn(self, action: a.PassTurn | None = None) -> None:
        self.waiting = False
        super().pass_turn(action)

    def state_based_actions(self) -> None:
        if not self.waiting:
            super().state_based_actions()


class NoSbaForAttachments(SbaAtPriority):
    """Wrong: attachments of a host that left are never dealt with."""

    def attached_legally(self, card: Card) -> bool:
        return True


LEAVER_HOST = Scenario(
    Setup(
        players=3,
        permanents=(
            Permanent("p1", owner=2, controller=2, power=1, toughness=1),
            Permanent("p2", attached_to="p1", **AURA),  # type: ignore[arg-type]
            Permanent("p3", attached_to="p1", **EQUIPMENT),  # type: ignore[arg-type]
        ),
    ),
    (a.Concede(2), a.PassTurn()),
)


@pytest.mark.parametrize(
    "prop",
    [
        "no_aura_stays_unattached",
        "equipment_stays_when_unattached",
        "attachments_phase_out_with_their_host",
    ],
)
def test_reading_d_sba_may_wait_for_priority(prop: str) -> None:
    waited = trace_of(SbaAtPriority, LEAVER_HOST)
    assert waited.steps[0].after.permanent("p2").attached_to == "p1"
    assert waited.steps[1].after.permanent("p2").zone == "graveyard"
    assert passes(prop, trace_of(Rules, LEAVER_HOST)) and passes(prop, waited)
    assert not passes(prop, trace_of(NoSbaForAttachments, LEAVER_HOST))


def test_reading_d_only_after_a_concede() -> None:
    """The same wait after an action a player gets priority after fails."""
    destroyed = Scenario(LEAVER_HOST.setup, (a.Destroy(0, "p1"), a.PassTurn()))
    trace = trace_of(NoSbaForAttachments, destroyed)
    for prop in ("no_aura_stays_unattached", "equipment_stays_when_unattached"):
        assert not passes(prop, trace)


# The comparison with the reference engine stops where a reading may part
# ways with it (conformance.unsettled), so it fails no reading either.


class SbaAtOnce(Rules):
    """Reading D, the other outcome: state-based actions checked right after
    a Concede."""

    def concede(self, action: a.Concede) -> None:
        super().concede(action)
        self.state_based_actions()


class AttackersOfALeaverLeaveCombat(Rules):
    """Reading L, the other outcome: creatures attacking a player who leaves
    the game are removed from combat."""

    def concede(self, action: a.Concede) -> None:
        super().concede(action)
        if action.player == self.state.defender:
            for card in self.state.cards.values():
                card.attacking = card.blocked = False


class AnyLeaverEndsCombat(Rules):
    """Wrong: any player leaving removes every creature from combat."""

    def concede(self, action: a.Concede) -> None:
        super().concede(action)
        for card in self.state.cards.values():
            card.attacking = card.blocked = False


DEFENDER_LEAVES = Scenario(
    Setup(players=3, permanents=(Permanent("p1", owner=0, controller=0, power=2, toughness=2),)),
    (a.DeclareAttackers(0, ("p1",), 1), a.Concede(1), a.PassTurn()),
)


@pytest.mark.parametrize(
    ("rules", "scenario", "case"),
    [
        (LiteralReattach, host_out_when_attachment_returns(EQUIPMENT), "A"),
        (PhasesInWhenHostLeaves, HOST_LEAVES, "B"),
        (PhasedOutSourceNeverLeaves, source_leaves(source_phased_out=True), "C"),
        (SbaAtOnce, LEAVER_HOST, "D"),
        (AttackersOfALeaverLeaveCombat, DEFENDER_LEAVES, "L"),
    ],
    ids=["a", "b", "c", "d", "l"],
)
def test_the_comparison_fails_no_reading(rules: type[Rules], scenario: Scenario, case: str) -> None:
    reference, other = trace_of(Rules, scenario), trace_of(rules, scenario)
    assert [s.after for s in reference.steps] != [s.after for s in other.steps]
    k = unsettled_from(reference)
    assert k is not None
    defending = DEFENDER_LEAVES.actions[0].defender if case == "L" else None  # type: ignore[attr-defined]
    step, history = reference.steps[k - 1], phased_out_history(reference)[k - 1]
    assert unsettled_by(step, history, defending) == case
    assert trace_differences(reference, other) == []


@pytest.mark.parametrize(
    ("scenario", "wrong"),
    [
        (source_leaves(source_phased_out=False), NeverReleases),
        (Scenario(LEAVER_HOST.setup, (a.Destroy(0, "p1"), a.PassTurn())), NoSbaForAttachments),
        (
            Scenario(DEFENDER_LEAVES.setup, (*DEFENDER_LEAVES.actions[:1], a.Concede(2))),
            AnyLeaverEndsCombat,
        ),
    ],
    ids=["c-source-phased-in", "d-not-a-concede", "l-not-the-defender"],
)
def test_settled_outcomes_are_compared(scenario: Scenario, wrong: type[Rules]) -> None:
    """Near misses of the open cases are compared to the end: a wrong
    engine there is still told apart."""
    reference = trace_of(Rules, scenario)
    assert unsettled_from(reference) is None
    assert trace_differences(reference, trace_of(wrong, scenario))


def test_the_comparison_reports_what_differed_before_the_open_case() -> None:
    """Only what comes from the open case on is set aside: a permanent
    untapped by phasing out (702.26d) before reading B's concession."""
    tapped = Permanent("p1", owner=2, controller=2, tapped=True, power=1, toughness=1)
    scenario = Scenario(
        Setup(players=3, permanents=(tapped, *HOST_LEAVES.setup.permanents[1:])),
        HOST_LEAVES.actions,
    )
    reference = trace_of(Rules, scenario)
    assert unsettled_from(reference) == 2
    wrong = play(mutant_engine("phasing-out-untaps"), scenario)
    assert [(d.subject, d.field) for d in trace_differences(reference, wrong)] == [("p1", "tapped")]


# M. A player picks one of several replacement effects (616.1).


class LastSetUpApplies(Rules):
    """Reading M: the player whose life would change picks the replacement
    of the permanent set up last."""

    def chosen_replacement(self, sources: list[Card]) -> Card:
        return sources[-1]


class ChangerDraws(Rules):
    """Wrong: the player whose life change is replaced draws the cards."""

    def change_life(self, player: int, delta: int, replacement, replaced) -> None:  # type: ignore[no-untyped-def]
        if replacement not in replaced and self.replacing(player, replacement):
            self.draw(player, abs(delta), replaced | {replacement})
        else:
            super().change_life(player, delta, replacement, replaced)


def drawing_instead(ability: str, controllers: tuple[int, int], action: a.Action) -> Scenario:
    """Two permanents with `ability` ("if an opponent would gain (lose)
    life, you draw that many cards instead"), then player 0's `action`."""
    permanents = tuple(
        Permanent(f"p{i}", owner=c, controller=c, types=("enchantment",), abilities=(ability,))  # type: ignore[arg-type]
        for i, c in enumerate(controllers, 1)
    )
    return Scenario(Setup(players=3, permanents=permanents), (a.PassTurn(), action, a.PassTurn()))


PICKS = [
    drawing_instead("gain_to_draw", (1, 2), a.GainLife(0, 3)),
    drawing_instead("lose_to_draw", (1, 2), a.LoseLife(0, 2)),
]


@pytest.mark.parametrize("scenario", PICKS, ids=["gain", "loss"])
def test_the_comparison_lets_the_player_pick_a_replacement(scenario: Scenario) -> None:
    """616.1: with two opponents' "you draw that many cards instead", the
    player gaining (losing) life picks which applies, so either opponent
    may draw: the comparison stops at that action, and every property
    passes both picks."""
    reference, other = trace_of(Rules, scenario), trace_of(LastSetUpApplies, scenario)
    assert [s.after for s in reference.steps] != [s.after for s in other.steps]
    assert unsettled_from(reference) == 2
    assert trace_differences(reference, other) == []
    assert all(passes(name, other) for name in REGISTRY)


@pytest.mark.parametrize(
    "scenario",
    [
        drawing_instead("gain_to_draw", (1, 1), a.GainLife(0, 3)),
        drawing_instead("lose_to_draw", (2, 2), a.LoseLife(0, 2)),
    ],
    ids=["gain", "loss"],
)
def test_replacements_of_one_controller_are_compared(scenario: Scenario) -> None:
    """Near miss of M: both replacements are one player's, so the same
    player draws whichever applies, and the comparison goes on."""
    reference = trace_of(Rules, scenario)
    assert unsettled_from(reference) is None
    assert trace_differences(reference, trace_of(LastSetUpApplies, scenario)) == []
    assert trace_differences(reference, trace_of(ChangerDraws, scenario))


# I. The legend rule when a legendary permanent phases in (704.5j).


class KeepsTheLastLegend(Rules):
    """Reading I: the player keeps the namesake listed last."""

    def legend_rule(self) -> bool:
        kept: set[tuple[int, str]] = set()
        rest = []
        for card in reversed(self.state.phased_in()):
            if card.legendary:
                if (card.controller, card.name) in kept:
                    rest.append(card)
                kept.add((card.controller, card.name))
        self.legends_die(rest[::-1])
        return bool(rest)


def legend_phasing_in(*actions: a.Action, controller: int = 0) -> Scenario:
    """Player 0's legendary "Bob", and a namesake of `controller`'s phased
    out under them."""
    bob = {"power": 2, "toughness": 2, "name": "Bob", "legendary": True}
    permanents = (
        Permanent("p1", **bob),  # type: ignore[arg-type]
        Permanent("p2", controller, controller, phased_out=PhasedOut(), **bob),  # type: ignore[arg-type]
    )
    return Scenario(Setup(permanents=permanents), actions)


def test_the_comparison_lets_the_player_pick_a_legend() -> None:
    """704.5j: as the namesake phases in, the player keeps either legend
    (readings I), so the comparison stops at that action (an outside
    tester's engine keeping the other was failed on 702.26d and 704.5j)."""
    scenario = legend_phasing_in(a.PassTurn(), a.PassTurn(), a.DrawPerCreature(0))
    reference, other = trace_of(Rules, scenario), trace_of(KeepsTheLastLegend, scenario)
    assert [s.after for s in reference.steps] != [s.after for s in other.steps]
    assert unsettled_from(reference) == 2
    assert trace_differences(reference, other) == []
    assert passes("legend_rule_applies_once_a_legend_phases_in", other)


def test_a_legend_destroyed_beside_another_players_namesake_is_compared() -> None:
    """Near miss of I: the namesakes are two players', so the legend rule
    keeps both, and a destroy spell taking one is compared."""
    scenario = legend_phasing_in(a.PassTurn(), a.PassTurn(), a.Destroy(0, "p1"), controller=1)
    reference = trace_of(Rules, scenario)
    assert unsettled_from(reference) is None
    assert reference.steps[-1].after.permanent("p1").zone == "graveyard"
