"""What exercising each existence property means (702.26b, c, e; 506.4, 510.1c;
R2017-nonexistent, R2017-targets): for each, a hand-written scenario whose
reference trace exercises it, and engines that did nothing (an inert one
refusing every action, an echo one claiming to do everything while
showing its start forever, one that never phases) that don't; plus the
narrowed exclusion of the "not destroyed" property."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, Rules
from adapters.reference.game import ReferenceGame
from conformance import actions as a
from conformance.capabilities import ALL_CAPABILITIES
from conformance.observation import Event, Observation
from conformance.properties import REGISTRY
from conformance.properties.registry import Violation
from conformance.running import Step, Trace, play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup


def creature(pid: str, controller: int = 0, power: int = 1, **kw: object) -> Permanent:
    return Permanent(pid, controller, controller, power=power, toughness=2, **kw)  # type: ignore[arg-type]


OUT = PhasedOut("direct", 0)
A, B, C_ = creature("a"), creature("b"), creature("c")

SCENARIOS: dict[str, Scenario] = {
    "phased_out_creatures_are_not_counted": Scenario(
        Setup(players=2, active=0, permanents=(A, B)), (a.PhaseOut(0, ("a",)), a.DrawPerCreature(0))
    ),
    "phased_out_creatures_are_not_destroyed": Scenario(
        Setup(players=2, active=0, permanents=(A, B)), (a.PhaseOut(0, ("a",)), a.DestroyAll(1))
    ),
    "phased_out_permanents_cannot_be_targeted": Scenario(
        Setup(players=2, active=0, permanents=(A,)), (a.PhaseOut(0, ("a",)), a.Destroy(1, "a"))
    ),
    "phased_in_permanents_can_be_targeted_again": Scenario(
        Setup(players=2, active=0, permanents=(A,)),
        (a.PhaseOut(0, ("a",)), a.PassTurn(), a.PassTurn(), a.Destroy(1, "a")),
    ),
    "phased_out_creatures_cannot_attack": Scenario(
        Setup(players=2, active=0, permanents=(A, B)),
        (
            a.PhaseOut(0, ("a",)),
            a.DeclareAttackers(0, ("a", "b"), 1),
            a.DeclareAttackers(0, ("b",), 1),
        ),
    ),
    "phasing_out_removes_from_combat": Scenario(
        Setup(players=2, active=0, permanents=(A, B)),
        (a.DeclareAttackers(0, ("a", "b"), 1), a.PhaseOut(1, ("a",)), a.PassTurn()),
    ),
    "spell_whose_target_phased_out_does_nothing": Scenario(
        Setup(players=2, active=0, permanents=(A, B)), (a.Destroy(1, "a", True), a.Destroy(1, "b"))
    ),
    "phased_out_abilities_cannot_be_activated": Scenario(
        Setup(players=2, active=0, permanents=(creature("a", abilities=("tap_gain_life",)),)),
        (a.PhaseOut(0, ("a",)), a.Activate(0, "a"), a.PassTurn(), a.PassTurn(), a.Activate(0, "a")),
    ),
    # 702.26g: the anthem is on an Aura that phases out with its host.
    "phased_out_static_abilities_apply_nothing": Scenario(
        Setup(
            players=2,
            permanents=(
                A,
                B,
                Permanent(
                    "aura",
                    types=("enchantment",),
                    attachment="aura",
                    attached_to="a",
                    abilities=("anthem",),
                ),
            ),
        ),
        (a.PhaseOut(0, ("a",)),),
    ),
    "phased_in_permanents_apply_and_count_again": Scenario(
        Setup(
            players=2,
            permanents=(
                A,
                B,
                Permanent(
                    "eq",
                    types=("artifact",),
                    attachment="equipment",
                    attached_to="a",
                    abilities=("anthem",),
                ),
            ),
        ),
        (a.PhaseOut(0, ("a",)), a.PassTurn(), a.PassTurn()),
    ),
    # 506.4, 510.1c: b1, declared first, phases out; b2 is dealt all 3.
    "the_blocker_left_is_dealt_the_attackers_damage": Scenario(
        Setup(permanents=(creature("at", power=3), creature("b1", 1), creature("b2", 1))),
        (
            a.DeclareAttackers(0, ("at",), 1),
            a.DeclareBlockers(1, (("b1", "at"), ("b2", "at"))),
            a.PhaseOut(1, ("b1",)),
            a.PassTurn(),
        ),
    ),
    "resolving_effects_skip_phased_out_creatures": Scenario(
        Setup(players=2, active=0, permanents=(A, B, C_)),
        (a.PhaseOutUntil(0, "a", "b"), a.PumpTeam(0), a.DestroyAll(1)),
    ),
}


class _Start:
    """A game that shows its starting position after every action: refused
    ("inert") or claimed done ("echo")."""

    def __init__(self, setup: Setup, refused: str | None) -> None:
        self.start = ReferenceGame(setup).observe()
        self.refused = refused

    def observe(self) -> Observation:
        return self.start

    def perform(self, action: a.Action) -> Observation:
        return replace(self.start, events=(), refused=self.refused)


@dataclass(frozen=True)
class _StartEngine:
    name: str
    refused: str | None
    version: str = "0"
    capabilities: frozenset = ALL_CAPABILITIES

    def start(self, setup: Setup) -> _Start:
        return _Start(setup, self.refused)


class _NeverPhases(Rules):
    """Plays every action and untap step but phases nothing."""

    def phasing_event(self, player: int) -> None:
        return None

    def phase_out(self, roots: object, until: str | None = None) -> None:
        return None


IDLE = {
    "inert": _StartEngine("inert", "not supported"),
    "echo": _StartEngine("echo", None),
    "never-phases": ReferenceEngine(name="never-phases", rules=_NeverPhases),
}


def test_every_existence_property_has_a_scenario_and_a_predicate() -> None:
    for name in SCENARIOS:
        assert REGISTRY[name].exercised is not None, name
        assert REGISTRY[name].exercise_doc, name


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_reference_exercises_it(name: str) -> None:
    prop = REGISTRY[name]
    trace = play(ReferenceEngine(), SCENARIOS[name])
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)


@pytest.mark.parametrize("engine", sorted(IDLE))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_an_idle_engine_does_not_exercise_it(name: str, engine: str) -> None:
    prop = REGISTRY[name]
    assert prop.exercised is not None
    assert not prop.exercised(play(IDLE[engine], SCENARIOS[name]))


UNTIL = Scenario(
    Setup(players=2, active=0, permanents=(creature("src"), creature("x"))),
    (a.PhaseOutUntil(0, "src", "x"), a.DestroyAll(1)),
)
PLAIN = Scenario(
    Setup(players=2, active=0, permanents=(A, B)), (a.PhaseOut(0, ("a",)), a.DestroyAll(1))
)


def _last_step_shows(trace: Trace, pid: str, **changes: object) -> Trace:
    """`trace` with `pid` changed as `changes` say after its last action."""
    *steps, last = trace.steps
    shown = replace(last.after.permanent(pid), **changes)  # type: ignore[arg-type]
    after = replace(
        last.after, permanents=tuple(shown if p.id == pid else p for p in last.after.permanents)
    )
    return replace(trace, steps=(*steps, Step(last.action, last.before, after)))


def test_what_phased_in_as_its_until_source_was_destroyed_is_spared() -> None:
    """610.4: x phases in once src is destroyed, after the destruction."""
    trace = play(ReferenceEngine(), UNTIL)
    assert trace.steps[-1].after.permanent("x").phased_in
    REGISTRY["phased_out_creatures_are_not_destroyed"].check(trace)


def test_destroying_what_phased_in_as_its_source_left_fails() -> None:
    trace = _last_step_shows(play(ReferenceEngine(), UNTIL), "x", zone="graveyard")
    with pytest.raises(Violation, match=r"702\.26b"):
        REGISTRY["phased_out_creatures_are_not_destroyed"].check(trace)


@pytest.mark.parametrize("zone", ["graveyard", "battlefield"])
def test_a_plainly_phased_out_creature_must_stay_out(zone: str) -> None:
    """Nothing but 610.4 phases a creature in during the spell: one shown
    destroyed, or phased in, fails, even with a phasing-in event logged."""
    trace = _last_step_shows(play(ReferenceEngine(), PLAIN), "a", zone=zone, phased_out=False)
    *steps, last = trace.steps
    logged = replace(last.after, events=(*last.after.events, Event("phased_in", "a")))
    trace = replace(trace, steps=(*steps, Step(last.action, last.before, logged)))
    with pytest.raises(Violation, match=r"702\.26b"):
        REGISTRY["phased_out_creatures_are_not_destroyed"].check(trace)


def test_two_legends_phasing_in_together_keep_one() -> None:
    """704.5j: two legendary permanents with one name, both phased out under
    player 0, phase in together in their untap step: player 0 keeps one,
    the other goes to the graveyard (both going is Mirage's 502.15k)."""
    legend = {"types": ("artifact",), "legendary": True, "name": "Legend"}
    out = PhasedOut("direct", 0)
    case = Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent("p1", phased_out=out, **legend),  # type: ignore[arg-type]
                Permanent("p2", phased_out=out, **legend),  # type: ignore[arg-type]
            ),
        ),
        (a.PassTurn(),),
    )
    prop = REGISTRY["legend_rule_applies_once_a_legend_phases_in"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match="p1 and p2: expected one of them phased in"):
        prop.check(play(mutant_engine("legends-phasing-in-together-all-go"), case))


@pytest.mark.parametrize("blocker_phases_out", [False, True])
def test_a_blocked_attacker_owes_the_defender_no_damage(blocker_phases_out: bool) -> None:
    """509.1h, 510.1c: a blocked attacker deals its combat damage to its
    blockers, or none once they are gone; 506.4's property expects damage to
    the defending player from unblocked attackers only (an outside tester's
    scenario failed a correct engine there)."""
    at, blocker = creature("at", power=3), creature("b", controller=1, power=2)
    actions: tuple[a.Action, ...] = (
        a.DeclareAttackers(0, ("at",), 1),
        a.DeclareBlockers(1, (("b", "at"),)),
        *((a.PhaseOut(1, ("b",)),) if blocker_phases_out else ()),
        a.PassTurn(),
    )
    trace = play(ReferenceEngine(), Scenario(Setup(permanents=(at, blocker)), actions))
    assert trace.steps[-1].after.player(1).life == 20
    REGISTRY["phasing_out_removes_from_combat"].check(trace)


LONE_BLOCKER = "the_blocker_left_is_dealt_the_attackers_damage"


def test_the_blocker_left_dies_of_the_damage_the_first_one_missed() -> None:
    """506.4, 510.1c: the first declared blocker phased out; the one still
    blocking is dealt all 3 and dies (704.5g), not spared as the engine that
    sends the damage to the first declared blocker only leaves it."""
    case = SCENARIOS[LONE_BLOCKER]
    assert play(ReferenceEngine(), case).steps[-1].after.permanent("b2").zone == "graveyard"
    with pytest.raises(Violation, match=r"b2 .*which it alone still blocks"):
        REGISTRY[LONE_BLOCKER].check(
            play(mutant_engine("damage-to-first-declared-blocker-only"), case)
        )


def test_two_blockers_left_share_the_damage_as_the_attacker_chooses() -> None:
    """510.1c: with both blockers still blocking, the attacking player
    divides the damage: either one may die, and nothing is expected."""
    declare, block, _, pass_turn = SCENARIOS[LONE_BLOCKER].actions
    case = replace(SCENARIOS[LONE_BLOCKER], actions=(declare, block, pass_turn))
    trace = play(ReferenceEngine(), case)
    swapped = _last_step_shows(
        _last_step_shows(trace, "b1", zone="battlefield"), "b2", zone="graveyard"
    )
    for shown in (trace, swapped):
        REGISTRY[LONE_BLOCKER].check(shown)
        assert not REGISTRY[LONE_BLOCKER].exercised(shown)  # type: ignore[misc]


@pytest.mark.parametrize("power", [0, 1])
def test_no_death_is_owed_for_damage_short_of_lethal(power: int) -> None:
    """704.5g: an attacker of power 0 deals no damage, one of power 1 less
    than the 2 toughness of the blocker left: it stays, and may stay."""
    setup = SCENARIOS[LONE_BLOCKER].setup
    at = replace(setup.permanents[0], power=power)
    case = replace(
        SCENARIOS[LONE_BLOCKER],
        setup=replace(setup, permanents=(at, *setup.permanents[1:])),
    )
    trace = play(ReferenceEngine(), case)
    assert trace.steps[-1].after.permanent("b2").on_battlefield
    REGISTRY[LONE_BLOCKER].check(trace)
    assert not REGISTRY[LONE_BLOCKER].exercised(trace)  # type: ignore[misc]


def test_a_phased_out_permanent_s_phase_out_until_ability_cannot_be_activated() -> None:
    """702.26b: "target permanent phases out until [this] leaves" is an
    activated ability of its source like any other: not while the source is
    phased out. The reference refuses it; an engine that checks only {T}
    abilities activates it."""
    setup = Setup(permanents=(creature("a", abilities=("tap_gain_life",)), creature("b")))
    case = Scenario(setup, (a.PhaseOut(0, ("a",)), a.PhaseOutUntil(0, "a", "b")))
    prop = REGISTRY["phased_out_abilities_cannot_be_activated"]
    reference = play(ReferenceEngine(), case)
    assert reference.steps[-1].after.refused is not None
    prop.check(reference)
    with pytest.raises(Violation, match=r"after action 2 \(PhaseOutUntil\): expected refused"):
        prop.check(play(mutant_engine("phased-out-until-source-activates"), case))


@pytest.mark.parametrize("on_a_host", [False, True], ids=["anthem", "aura-on-host"])
def test_an_anthem_phased_in_as_its_source_leaves_applies_at_once(on_a_host: bool) -> None:
    """702.26c, 610.4: the anthem (or the creature its Aura is on, 702.26g)
    phases out until the artifact s leaves the battlefield; s is destroyed,
    the anthem phases in mid-turn, and y is 2/3 at once, not from the next
    untap step."""
    anthem: dict[str, object] = {"types": ("enchantment",), "abilities": ("anthem",)}
    permanents = [creature("y"), Permanent("s", types=("artifact",))]
    if on_a_host:
        permanents += [creature("h"), Permanent("au", attachment="aura", attached_to="h", **anthem)]  # type: ignore[arg-type]
    else:
        permanents.append(Permanent("au", **anthem))  # type: ignore[arg-type]
    root = "h" if on_a_host else "au"
    case = Scenario(
        Setup(players=2, active=0, permanents=tuple(permanents)),
        (a.PhaseOutUntil(0, "s", root), a.Destroy(0, "s")),
    )
    prop = REGISTRY["phased_in_permanents_apply_and_count_again"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    assert reference.steps[-1].after.permanent("y").power == 2
    with pytest.raises(Violation, match=r"after action 2 \(Destroy\), y: expected power 2"):
        prop.check(play(mutant_engine("released-anthem-waits-for-untap"), case))


#: Readings F: s entered under player 2, who concedes; player 1's control of
#: s ends as x phases out, while s is phased out (800.4c: exiled, or not).
DEFAULT_CONTROLLER_GONE = Scenario(
    Setup(
        players=3,
        permanents=(
            Permanent("x", owner=1, controller=1, types=("artifact",)),
            Permanent(
                "s",
                owner=0,
                controller=1,
                default_controller=2,
                power=2,
                toughness=2,
                phased_out=PhasedOut("direct", under=1),
            ),
        ),
        effects=(ControlEffect("s", 1, Duration("as_long_as_you_control", "x")),),
    ),
    (a.Concede(2), a.PhaseOut(1, ("x",))),
)


@pytest.mark.parametrize("zone", ["exile", "battlefield"])
def test_a_phased_out_creature_whose_control_falls_to_a_leaver_is_not_judged(zone: str) -> None:
    """800.4c, readings F: whether a phased-out permanent is exiled as its
    control falls to a player who left is open; state-based actions are not
    what exiles it, so the 702.26b property accepts both outcomes, and still
    fails a graveyard."""
    prop = REGISTRY["state_based_actions_ignore_phased_out_creatures"]
    trace = play(ReferenceEngine(), DEFAULT_CONTROLLER_GONE)
    assert trace.steps[-1].after.permanent("s").zone == "exile"
    prop.check(_last_step_shows(trace, "s", zone=zone))
    with pytest.raises(Violation, match=r"702\.26b"):
        prop.check(_last_step_shows(trace, "s", zone="graveyard"))
