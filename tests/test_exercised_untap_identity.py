"""What exercising each untap-step and identity property means: for each, a
hand-written scenario whose reference trace exercises it, and the same
scenario played by an inert engine (its start, then every action refused),
which must not. Also the narrowed exclusions: history, not the engine,
says how a permanent phased out; 610.4 spares only what waits for its
source; phase triggers are followed through control changes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, Rules, reference_of
from adapters.reference.state import Card
from conformance import actions as a
from conformance.observation import Observation
from conformance.properties import REGISTRY, in_edition
from conformance.properties.history import Phasing, phasings, waiting_for_source
from conformance.properties.registry import Violation
from conformance.running import Step, Trace, play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup, SkipUntap

REFERENCE = ReferenceEngine()
AURA: dict[str, Any] = {"types": ("enchantment",), "attachment": "aura"}


class _Inert:
    """An engine that shows the reference's starting position and refuses
    every action."""

    def __init__(self, first: Observation) -> None:
        self.first = first

    def observe(self) -> Observation:
        return self.first

    def perform(self, action: a.Action) -> Observation:
        return replace(self.first, events=(), refused="not supported")


class _UntapOnly(_Inert):
    """Passes turns and untaps, never phases; refuses everything else."""

    def perform(self, action: a.Action) -> Observation:
        if not isinstance(action, a.PassTurn):
            return super().perform(action)
        obs = self.first
        active = (obs.active + 1) % len(obs.players)
        views = tuple(
            replace(p, tapped=False) if p.controller == active and p.phased_in else p
            for p in obs.permanents
        )
        self.first = replace(obs, turn=obs.turn + 1, active=active, permanents=views, events=())
        return self.first


class InertEngine:
    name = "inert"
    version = "0"
    capabilities = REFERENCE.capabilities
    game: type[_Inert] = _Inert

    def start(self, setup: Setup) -> _Inert:
        return self.game(REFERENCE.start(setup).observe())


class UntapOnlyEngine(InertEngine):
    name = "untap-only"
    game = _UntapOnly


def creature(pid: str, **fields: Any) -> Permanent:
    return Permanent(pid, power=1, toughness=1, **fields)


EXERCISING: dict[str, Scenario] = {
    # Player 1's untap step: their phaser phases out.
    "untap_step_phases_out_and_in_at_once": Scenario(
        Setup(permanents=(creature("p1", controller=1, owner=1, phasing=1),)),
        (a.PassTurn(),),
    ),
    # A tapped creature phased out under player 1 phases in, then untaps.
    "untap_step_untaps_after_phasing": Scenario(
        Setup(
            permanents=(
                creature(
                    "p1", owner=1, controller=1, tapped=True, phased_out=PhasedOut("direct", 1)
                ),
            )
        ),
        (a.PassTurn(),),
    ),
    # Player 1 skips the untap step in which p1 would phase out; p2 phases
    # out in player 0's.
    "skipped_untap_step_has_no_phasing": Scenario(
        Setup(
            permanents=(
                creature("p1", owner=1, controller=1, phasing=1),
                creature("p2", phasing=1),
            ),
            effects=(SkipUntap(1),),
        ),
        (a.PassTurn(), a.PassTurn(), a.PassTurn(), a.PassTurn()),
    ),
    "phasing_instances_are_redundant": Scenario(
        Setup(permanents=(creature("p1", owner=1, controller=1, phasing=2),)),
        (a.PassTurn(),),
    ),
    # p1, with phasing twice, phases out once in player 1's untap step and
    # its "whenever this phases out" triggers once.
    "redundant_phasing_triggers_once": Scenario(
        Setup(
            permanents=(
                creature("p1", owner=1, controller=1, phasing=2, abilities=("phases_out",)),
            )
        ),
        (a.PassTurn(),),
    ),
    # A token phases out in player 0's untap step and stays, then comes back.
    "phased_out_tokens_stay_and_phase_in": Scenario(
        Setup(),
        (a.CreateToken(0, "t1", 1), a.PassTurn(), a.PassTurn(), a.PassTurn()),
    ),
    "permanents_enter_phased_in": Scenario(Setup(), (a.CreateToken(0, "t1", 0),)),
    # p1 phases in as player 1's turn begins, then pays {T}.
    "creatures_that_phase_in_can_tap_and_attack": Scenario(
        Setup(
            permanents=(
                creature(
                    "p1",
                    owner=1,
                    controller=1,
                    abilities=("tap_gain_life",),
                    phased_out=PhasedOut("direct", 1),
                ),
            )
        ),
        (a.PassTurn(), a.Activate(1, "p1")),
    ),
    # A tapped creature with a counter and a choice goes out, stays out
    # through player 0's turn and comes back in player 1's untap step.
    "phasing_keeps_the_same_permanent": Scenario(
        Setup(
            active=1,
            permanents=(
                creature(
                    "p1",
                    owner=1,
                    controller=1,
                    tapped=True,
                    counters=(("+1/+1", 1),),
                    chosen="blue",
                ),
            ),
        ),
        (a.PhaseOut(1, ("p1",)), a.PassTurn(), a.PassTurn()),
    ),
    "phasing_triggers_no_enter_or_leave_abilities": Scenario(
        Setup(permanents=(creature("p1", abilities=("etb", "ltb", "dies")),)),
        (a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn()),
    ),
    # Player 0's destroy spell waits while player 1's p1 phases out until
    # p2 leaves, and p2 is destroyed: p1 phases back in and is destroyed.
    "spell_resolves_on_a_target_that_phased_out_and_in": Scenario(
        Setup(
            permanents=(
                creature("p1", owner=1, controller=1),
                Permanent("p2", owner=1, controller=1, types=("artifact",)),
            )
        ),
        (a.DestroyThroughPhasing(0, "p1", "p2"),),
    ),
    "phase_triggers_trigger": Scenario(
        Setup(permanents=(creature("p1", abilities=("phases_out",)),)),
        (a.PhaseOut(0, ("p1",)),),
    ),
}


@pytest.mark.parametrize("name", sorted(EXERCISING))
def test_the_reference_exercises_it_and_passes(name: str) -> None:
    prop = REGISTRY[name]
    trace = play(REFERENCE, EXERCISING[name])
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)


@pytest.mark.parametrize("engine", [InertEngine(), UntapOnlyEngine()], ids=lambda e: e.name)
@pytest.mark.parametrize("name", sorted(EXERCISING))
def test_an_engine_that_never_phases_does_not_exercise_it(name: str, engine: Any) -> None:
    prop = REGISTRY[name]
    trace = play(engine, EXERCISING[name])
    assert prop.exercised is not None and not prop.exercised(trace)


def test_every_property_of_the_area_has_a_scenario() -> None:
    from conformance.properties import entering, identity, redundant, triggers, untap, waiting

    modules = {m.__name__ for m in (entering, identity, redundant, triggers, untap, waiting)}
    mine = {name for name, prop in REGISTRY.items() if prop.check.__module__ in modules}
    assert mine == set(EXERCISING)


def _forged(trace: Trace, k: int, pid: str, **shown: Any) -> Trace:
    """`trace` with `pid` shown with `shown` in every observation from the
    one after action k on: an engine with a bug the reference doesn't have."""

    def edit(obs: Observation) -> Observation:
        views = tuple(replace(p, **shown) if p.id == pid else p for p in obs.permanents)
        return replace(obs, permanents=views)

    steps = []
    for i, step in enumerate(trace.steps, 1):
        before = edit(step.before) if i > k else step.before
        steps.append(Step(step.action, before, edit(step.after) if i >= k else step.after))
    return replace(trace, steps=tuple(steps))


def test_history_not_the_engine_says_an_aura_phased_out_indirectly() -> None:
    scenario = Scenario(
        Setup(permanents=(creature("p1"), Permanent("p2", attached_to="p1", **AURA))),
        (a.PhaseOut(0, ("p1",)),),
    )
    trace = _forged(play(REFERENCE, scenario), 1, "p2", cause="direct")
    assert phasings(trace)[1] == {"p1": Phasing("direct"), "p2": Phasing("indirect")}


#: p2 phased out under player 1 until p1 leaves the battlefield (610.4).
_UNTIL = Setup(
    permanents=(
        Permanent("p1", types=("artifact",)),
        creature("p2", owner=1, controller=1, phased_out=PhasedOut("direct", 1, "p1")),
    )
)


def test_what_waits_for_its_source_is_spared_by_the_untap_step_only() -> None:
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    waiting = play(REFERENCE, Scenario(_UNTIL, (a.PassTurn(),)))
    prop.check(waiting)  # 610.4: p2 does not phase in in player 1's untap step
    assert waiting_for_source(waiting) == [{"p2"}, {"p2"}]
    released = play(REFERENCE, Scenario(_UNTIL, (a.Destroy(0, "p1"), a.PassTurn())))
    prop.check(released)
    assert waiting_for_source(released) == [{"p2"}, set(), set()]
    # An engine that leaves p2 out once its source is gone: p2 is then an
    # ordinary permanent phased out under player 1 (702.26a).
    stuck = _forged(released, 1, "p2", phased_out=True, cause="direct", tapped=False)
    with pytest.raises(Violation, match=r"702\.26a"):
        prop.check(stuck)


def _life(trace: Trace, k: int, player: int, life: int) -> Trace:
    step = trace.steps[k - 1]
    players = tuple(replace(p, life=life) if p.index == player else p for p in step.after.players)
    steps = list(trace.steps)
    steps[k - 1] = Step(step.action, step.before, replace(step.after, players=players))
    return replace(trace, steps=tuple(steps))


def test_phase_triggers_are_followed_through_a_control_change() -> None:
    # Player 1 borrows p1 until end of turn; the cleanup gives it back to
    # player 0, whose untap step phases it out: the trigger is player 0's.
    scenario = Scenario(
        Setup(active=1, permanents=(creature("p1", phasing=1, abilities=("phases_out",)),)),
        (a.GainControl(1, "p1", Duration("end_of_turn")), a.PassTurn()),
    )
    prop = REGISTRY["phase_triggers_trigger"]
    trace = play(REFERENCE, scenario)
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)
    after = trace.steps[1].after
    assert after.permanent("p1").phased_out and after.player(0).life > 20
    # An engine giving the trigger to the player who had borrowed it.
    wrong = _life(_life(trace, 2, 0, 20), 2, 1, after.player(0).life)
    with pytest.raises(Violation, match=r"603\.10b"):
        prop.check(wrong)


def test_the_same_permanent_comes_back_with_what_it_had() -> None:
    prop = REGISTRY["phasing_keeps_the_same_permanent"]
    trace = play(REFERENCE, EXERCISING["phasing_keeps_the_same_permanent"])
    # Counters lost while it was phased out: only comparing the permanent as
    # it phased out with it as it came back shows it.
    lost = _forged(trace, 2, "p1", counters=())
    with pytest.raises(Violation, match="R2017-counters"):
        prop.check(lost)


def test_phasing_is_no_control_change_outside_a_control_effects_ends() -> None:
    # Player 1's "until end of turn" control of p1 ends at cleanup (action
    # 2); phasing p1 out later must not give it to them again.
    scenario = Scenario(
        Setup(permanents=(creature("p1"),)),
        (a.GainControl(1, "p1", Duration("end_of_turn")), a.PassTurn(), a.PhaseOut(0, ("p1",))),
    )
    prop = REGISTRY["phasing_keeps_the_same_permanent"]
    trace = play(REFERENCE, scenario)
    prop.check(trace)
    with pytest.raises(Violation, match=r"702\.26d .*not a control change"):
        prop.check(_forged(trace, 3, "p1", controller=1))


def test_what_phases_in_as_its_source_leaves_after_the_untapping_may_stay_tapped() -> None:
    # The Aura p2 and its host p1 phase out separately; in player 1's untap
    # step p2 phases in onto its phased-out host and goes to the graveyard
    # (704.5m) only after the untapping; p3, waiting for p2 to leave
    # (610.4), phases in then, still tapped.
    scenario = Scenario(
        Setup(
            permanents=(
                creature("p1"),
                Permanent("p2", owner=1, controller=1, attached_to="p1", **AURA),
                Permanent(
                    "p3",
                    types=("enchantment",),
                    owner=1,
                    controller=1,
                    tapped=True,
                    phased_out=PhasedOut("direct", 1, "p2"),
                ),
            )
        ),
        (a.PhaseOut(1, ("p2",)), a.PhaseOut(0, ("p1",)), a.PassTurn()),
    )
    trace = play(REFERENCE, scenario)
    after = trace.steps[-1].after
    assert after.permanent("p2").zone == "graveyard"
    assert after.permanent("p3").phased_in and after.permanent("p3").tapped
    REGISTRY["untap_step_untaps_after_phasing"].check(trace)


def test_a_phase_trigger_of_what_then_leaves_may_go_to_its_controller_as_the_step_began() -> None:
    # Player 1's control of the Aura p2 ends at cleanup; in player 1's
    # untap step p2 phases in onto p1, which phases out, and goes to the
    # graveyard: its "phases in" trigger is player 0's, whose life the
    # position can't explain (the Aura is gone), so it is not checked.
    scenario = Scenario(
        Setup(
            permanents=(
                creature("p1", owner=1, controller=1, phasing=1),
                Permanent(
                    "p2",
                    controller=1,
                    attached_to="p1",
                    abilities=("phases_in",),
                    phased_out=PhasedOut("direct", 1),
                    **AURA,
                ),
            ),
            effects=(ControlEffect("p2", 1, Duration("end_of_turn")),),
        ),
        (a.PassTurn(),),
    )
    trace = play(REFERENCE, scenario)
    assert trace.steps[0].after.permanent("p2").zone == "graveyard"
    REGISTRY["phase_triggers_trigger"].check(trace)


def test_a_skipped_untap_step_is_judged_by_702_26m_alone() -> None:
    """702.26m: a skipped untap step phases nothing and untaps nothing, so
    the properties of the untap steps a player has leave it alone (none of
    their generators skips one, but a replayed scenario may)."""
    setup = Setup(
        active=1,
        permanents=(
            creature("p1", phasing=2, tapped=True),
            creature("p2", tapped=True, phased_out=PhasedOut("direct", 0)),
        ),
        effects=(SkipUntap(0),),
    )
    trace = play(REFERENCE, Scenario(setup, (a.PassTurn(), a.PassTurn(), a.PassTurn())))
    assert trace.steps[0].after.permanent("p2").phased_out
    assert trace.steps[2].after.permanent("p2").phased_in
    for name in (
        "untap_step_phases_out_and_in_at_once",
        "untap_step_untaps_after_phasing",
        "phasing_instances_are_redundant",
        "skipped_untap_step_has_no_phasing",
    ):
        REGISTRY[name].check(trace)


def test_a_redundant_phaser_s_phase_out_trigger_triggers_once() -> None:
    """702.26p, 603.10b: y has phasing twice and "whenever this phases out,
    you gain 128": in player 0's untap step it phases out once, one event,
    and player 0 gains 128, not 256."""
    setup = Setup(active=1, permanents=(creature("y", phasing=2, abilities=("phases_out",)),))
    case = Scenario(setup, (a.PassTurn(),))
    prop = REGISTRY["redundant_phasing_triggers_once"]
    reference = play(REFERENCE, case)
    prop.check(reference)
    assert reference.steps[0].after.player(0).life == 20 + 128
    with pytest.raises(Violation, match=r"player 0: expected life \+128.*life \+256"):
        prop.check(play(mutant_engine("phase-triggers-per-instance"), case))


def test_a_permanent_held_for_as_long_as_another_phaser_phases_out_with_it() -> None:
    """702.26a, 502.1: player 0 controls x, with phasing, and y, player 1's
    with phasing, "for as long as you control x". In player 0's untap step
    both phase out at once: x phasing out ends the effect only then, and y
    is out, under player 0 (it comes back under player 1 at player 0's next
    untap step, R2017-control)."""
    setup = Setup(
        active=1,
        permanents=(
            Permanent("x", types=("artifact",), phasing=1),
            creature("y", owner=1, controller=0, phasing=1),
        ),
        effects=(ControlEffect("y", 0, Duration("as_long_as_you_control", "x")),),
    )
    case = Scenario(setup, (a.PassTurn(),))
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    reference = play(REFERENCE, case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    y = reference.steps[0].after.permanent("y")
    assert y.phased_out and y.controller == 1
    with pytest.raises(Violation, match=r"after action 1 \(PassTurn\), y: expected it phases out"):
        prop.check(play(mutant_engine("phase-out-one-at-a-time"), case))


#: Older editions where the scenario's history can't tell an untap step's
#: phasing: a token (p1, with phasing) that ceases to exist as it phases
#: out with its Aura (702.25k, 217.8d); a permanent (p2) phasing out under
#: a "for as long as" control effect, which phasing out ends in the Mirage
#: edition (502.15g).
_OLDER = {
    "token-with-aura": Setup(
        permanents=(
            creature("p1", token=True, phasing=1),
            Permanent("p2", attached_to="p1", **AURA),
        )
    ),
    "as-long-as-control": Setup(
        permanents=(
            Permanent("p1", owner=1, controller=1, types=("artifact",)),
            Permanent("p2", owner=0, controller=1, types=("artifact",), phasing=1),
        ),
        effects=(ControlEffect("p2", 1, Duration("as_long_as_you_control", "p1")),),
    ),
}


@pytest.mark.parametrize("edition", ["pre-2017", "mirage"])
@pytest.mark.parametrize("name", sorted(_OLDER))
def test_an_older_editions_reference_is_not_judged_on_what_history_cant_tell(
    name: str, edition: str
) -> None:
    prop = in_edition(edition)["untap_step_phases_out_and_in_at_once"]  # type: ignore[arg-type]
    prop.check(play(reference_of(edition), Scenario(_OLDER[name], (a.PassTurn(),) * 4)))  # type: ignore[arg-type]


def test_a_token_created_with_phasing_phases_out_at_its_controllers_untap_step() -> None:
    """702.26a: phasing is the token's own ability (111.1); it phases out in
    its controller's next untap step."""
    case = Scenario(Setup(), (a.CreateToken(0, "t", 1), a.PassTurn(), a.PassTurn()))
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    reference = play(REFERENCE, case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match=r"after action 3 \(PassTurn\), t: expected it phases out"):
        prop.check(play(mutant_engine("tokens-made-without-phasing"), case))


class TriggersForTheNextPlayer(Rules):
    """Wrong (603.10b): each phase trigger is the next player's."""

    def phase_trigger(self, card: Card, kind: str) -> None:
        start = len(self.state.triggers)
        super().phase_trigger(card, kind)
        self.state.triggers[start:] = [
            (pid, ability, (controller + 1) % self.state.players)
            for pid, ability, controller in self.state.triggers[start:]
        ]


@pytest.mark.parametrize(
    ("engine", "rule"),
    [
        (ReferenceEngine(name="next-player", rules=TriggersForTheNextPlayer), "603.10b"),
        (mutant_engine("phase-triggers-per-instance"), "702.26p"),
    ],
    ids=["other-controller", "per-instance"],
)
def test_a_redundant_phasers_trigger_names_what_went_wrong(engine: Any, rule: str) -> None:
    """A trigger that gains its life for another player triggered once, as
    702.26p wants: it is 603.10b's evidence (an outside tester's engine was
    failed on 702.26p for it); one that triggers per instance is 702.26p's."""
    prop = REGISTRY["redundant_phasing_triggers_once"]
    with pytest.raises(Violation) as caught:
        prop.check(play(engine, EXERCISING["redundant_phasing_triggers_once"]))
    assert caught.value.rule == rule
