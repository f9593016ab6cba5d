"""Phasing in play: the reference engine on damage, mana, blocking, summoning
sickness and what entered this turn (514.2, 704.5g, 702.26b, 506.4, 509.1h,
510.1c, 302.6, 702.26d), the properties and mutants of the last two on
fixed scenarios, and the in-play vocabulary's JSON round trip."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.cli import main
from conformance.codec import dumps, from_data, loads_scenario, to_data
from conformance.legality import setup_problems
from conformance.observation import Observation
from conformance.properties import REGISTRY, Violation
from conformance.running import Step, Trace
from conformance.running import play as trace_of
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup


def play(setup: Setup, *actions: a.Action) -> list[Observation]:
    game = ReferenceEngine().start(setup)
    return [game.observe(), *(game.perform(x) for x in actions)]


def bear(pid: str, **kw: object) -> Permanent:
    return Permanent(pid, power=2, toughness=2, **kw)  # type: ignore[arg-type]


def test_in_play_actions_and_fields_round_trip_through_json() -> None:
    scenario = Scenario(
        Setup(permanents=(bear("p1"), bear("p2", owner=1, controller=1))),
        (
            a.DealDamage(0, "p2", 1),
            a.DealDamage(1, 0, 2),
            a.TapForMana(0, "p1"),
            a.DeclareAttackers(0, ("p1",), 1),
            a.DeclareBlockers(1, (("p2", "p1"),)),
        ),
    )
    assert loads_scenario(dumps(scenario)) == scenario
    for obs in play(scenario.setup, *scenario.actions):
        assert from_data(Observation, to_data(obs)) == obs


def test_514_2_damage_on_a_phased_out_creature_is_removed_at_cleanup() -> None:
    _, hit, out, _, back = play(
        Setup(permanents=(Permanent("p1", power=1, toughness=3),)),
        a.DealDamage(1, "p1", 2),
        a.PhaseOut(0, ("p1",)),
        a.PassTurn(),
        a.PassTurn(),
    )
    assert hit.permanent("p1").damage == 2
    assert out.permanent("p1").phased_out
    assert back.permanent("p1").phased_in and back.permanent("p1").damage == 0


def test_704_5g_lethal_damage_destroys_and_players_lose_life() -> None:
    _, lethal, face = play(
        Setup(permanents=(bear("p1"),)), a.DealDamage(1, "p1", 2), a.DealDamage(0, 1, 3)
    )
    assert lethal.permanent("p1").zone == "graveyard"
    assert face.player(1).life == 17


def test_702_26b_a_phased_out_land_makes_no_mana() -> None:
    land = Permanent("p1", types=("land",), phasing=1)
    _, out, refused, _, _, tapped = play(
        Setup(active=1, permanents=(land,)),
        a.PassTurn(),
        a.TapForMana(0, "p1"),
        a.PassTurn(),
        a.PassTurn(),
        a.TapForMana(1, "p1"),
    )
    assert out.permanent("p1").phased_out and refused.refused is not None
    assert tapped.refused is not None  # not theirs
    assert play(Setup(permanents=(land,)), a.TapForMana(0, "p1"))[-1].permanent("p1").tapped


def test_302_6_a_summoning_sick_land_creature_makes_no_mana() -> None:
    """A mana ability with {T} is a {T} ability of the creature (302.6),
    so it waits for the creature's controller's next turn."""
    dryad = Permanent("p1", types=("land", "creature"), power=1, toughness=1, sick=True)
    _, refused, _, _, tapped = play(
        Setup(permanents=(dryad,)),
        a.TapForMana(0, "p1"),
        a.PassTurn(),
        a.PassTurn(),
        a.TapForMana(0, "p1"),
    )
    assert refused.refused is not None and tapped.permanent("p1").tapped
    land = Permanent("p1", types=("land",), sick=True)
    assert play(Setup(permanents=(land,)), a.TapForMana(0, "p1"))[-1].permanent("p1").tapped


def test_509_1h_an_attacker_whose_blocker_phases_out_stays_blocked() -> None:
    setup = Setup(
        permanents=(bear("p1"), bear("p2"), bear("p3", owner=1, controller=1)),
    )
    _, _, blocks, out, damage = play(
        setup,
        a.DeclareAttackers(0, ("p1", "p2"), 1),
        a.DeclareBlockers(1, (("p3", "p1"),)),
        a.PhaseOut(1, ("p3",)),
        a.PassTurn(),
    )
    assert blocks.permanent("p3").blocking == "p1" and blocks.permanent("p1").blocked
    assert out.permanent("p3").blocking is None and out.permanent("p1").blocked
    assert damage.player(1).life == 18  # p2 only (510.1c)


def test_702_26b_a_phased_out_creature_cannot_block_and_blocks_deal_damage() -> None:
    setup = Setup(
        permanents=(
            bear("p1"),
            bear("p2", owner=1, controller=1, phased_out=PhasedOut("direct", 1)),
            Permanent("p3", owner=1, controller=1, power=1, toughness=1),
        ),
    )
    _, _, refused, _, damage = play(
        setup,
        a.DeclareAttackers(0, ("p1",), 1),
        a.DeclareBlockers(1, (("p2", "p1"),)),
        a.DeclareBlockers(1, (("p3", "p1"),)),
        a.PassTurn(),
    )
    assert refused.refused is not None
    assert damage.player(1).life == 20
    assert damage.permanent("p3").zone == "graveyard" and damage.permanent("p1").damage == 0


def test_302_6_phasing_in_under_a_new_controller_is_summoning_sick() -> None:
    x = bear("p1", controller=1, phased_out=PhasedOut("direct", 1), abilities=("tap_gain_life",))
    setup = Setup(permanents=(x,), effects=(ControlEffect("p1", 1, Duration("your_next_turn")),))
    _, back, sick, _, ready = play(
        setup, a.PassTurn(), a.Activate(0, "p1"), a.PassTurn(), a.Activate(0, "p1")
    )
    assert back.permanent("p1").phased_in and back.permanent("p1").controller == 0
    assert sick.refused is not None and ready.refused is None


def test_704_5j_a_legend_phasing_in_next_to_its_namesake_meets_the_legend_rule() -> None:
    legend = {"legendary": True, "name": "Isamaru"}
    setup = Setup(
        active=1,
        permanents=(bear("p1", **legend), bear("p2", phased_out=PhasedOut("direct", 0), **legend)),
    )
    start, back = play(setup, a.PassTurn())
    assert start.permanent("p2").phased_out and start.permanent("p1").phased_in
    zones = sorted((back.permanent(p).zone, back.permanent(p).phased_in) for p in ("p1", "p2"))
    assert zones == [("battlefield", True), ("graveyard", False)]


def test_two_phased_in_namesake_legends_are_an_illegal_position() -> None:
    legend = {"legendary": True, "name": "Isamaru"}
    problems = setup_problems(Setup(permanents=(bear("p1", **legend), bear("p2", **legend))))
    assert any("704.5j" in p for p in problems)
    theirs = bear("p2", owner=1, controller=1, **legend)
    assert not setup_problems(Setup(permanents=(bear("p1", **legend), theirs)))


def test_702_26b_a_phased_out_creature_outlives_the_anthem_it_needed() -> None:
    """702.26b: p1, 2/2 with +1/+1 from p2's anthem, is dealt 2 damage and
    phases out; p2 is destroyed: p1 stays, phased out (state-based actions
    don't see it), and an engine checking lethal damage on it destroys it."""
    anthem = Permanent("p2", types=("enchantment",), abilities=("anthem",))
    case = Scenario(
        Setup(permanents=(bear("p1"), anthem)),
        (a.DealDamage(1, "p1", 2), a.PhaseOut(0, ("p1",)), a.Destroy(1, "p2")),
    )
    prop = REGISTRY["state_based_actions_ignore_phased_out_creatures"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised(reference)
    with pytest.raises(
        Violation, match=r"action 3 \(Destroy\), p1: .* the engine showed graveyard"
    ):
        prop.check(trace_of(mutant_engine("lethal-damage-sees-phased-out"), case))


def test_702_26d_a_token_that_phased_out_and_in_still_entered_this_turn() -> None:
    """702.26d: in player 0's next turn, e1 is created, e2 too, which phases
    out until e3 leaves and back in as e3 is destroyed: both entered this
    turn and get a card, whereas an engine forgetting it as e2 phased out
    gives e1 one only."""
    case = Scenario(
        Setup(active=1),
        (
            a.PassTurn(),
            a.CreateToken(0, "e1", 0),
            a.CreateToken(0, "e2", 0),
            a.CreateToken(0, "e3", 0),
            a.PhaseOutUntil(0, "e3", "e2"),
            a.Destroy(0, "e3"),
            a.DrawPerEntered(0),
        ),
    )
    prop = REGISTRY["phasing_in_is_not_entering_this_turn"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised(reference)
    with pytest.raises(Violation, match="expected 2 card\\(s\\), for e1, e2; the engine showed 1"):
        prop.check(trace_of(mutant_engine("phasing-out-forgets-entering"), case))


def test_a_control_effect_ending_as_x_phases_out_removes_the_attacker_from_combat() -> None:
    """506.4: a permanent whose controller changes is removed from combat,
    also when "for as long as you control X" ends because X phased out
    (702.26f): y goes back to player 1 and deals its controller no damage."""
    setup = Setup(
        permanents=(
            Permanent("x", types=("artifact",)),
            bear("y", owner=1, controller=0),
        ),
        effects=(ControlEffect("y", 0, Duration("as_long_as_you_control", "x")),),
    )
    *_, out, damage = play(
        setup, a.DeclareAttackers(0, ("y",), 1), a.PhaseOut(0, ("x",)), a.PassTurn()
    )
    y = out.permanent("y")
    assert (y.controller, y.attacking) == (1, False)
    assert damage.player(1).life == 20


def test_702_26b_a_phased_in_creature_dies_as_its_anthem_phases_out() -> None:
    """702.26b, R2017-nonexistent: p1, 2/2 with +1/+1 from p2's anthem, is
    dealt 2 damage; p2 phases out, so p1 is 2/2 with 2 damage and dies
    (704.5g); an engine that counts the phased-out anthem for lethal damage
    keeps it, shown 2/2."""
    anthem = Permanent("p2", types=("enchantment",), abilities=("anthem",))
    case = Scenario(
        Setup(permanents=(bear("p1"), anthem)),
        (a.DealDamage(1, "p1", 2), a.PhaseOut(0, ("p2",))),
    )
    prop = REGISTRY["state_based_actions_ignore_phased_out_anthems"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised(reference)
    assert reference.steps[-1].after.permanent("p1").zone == "graveyard"
    with pytest.raises(
        Violation,
        match=r"action 2 \(PhaseOut\), p1 \(2 toughness, 2 damage marked\): .* p1 still on",
    ):
        prop.check(trace_of(mutant_engine("lethal-damage-counts-phased-out-anthems"), case))


#: x is player 0's (attacking) or player 1's (blocking); y is controlled by
#: that player for as long as they control x, and owned by the other one.
AS_LONG_AS_X = {"attacker": 0, "blocker": 1}


def _control_reverts(y_is: str) -> Scenario:
    """m and y (or at) attack player 1; y blocks at, or attacks unblocked;
    x phases out, and y goes back to its owner (702.26f); combat damage."""
    side = AS_LONG_AS_X[y_is]
    attacking = ("y", "m") if y_is == "attacker" else ("at", "m")
    return Scenario(
        Setup(
            permanents=(
                Permanent("x", owner=side, controller=side, types=("artifact",)),
                bear("y", owner=1 - side, controller=side),
                bear("m"),
                *((bear("at"),) if y_is == "blocker" else ()),
            ),
            effects=(ControlEffect("y", side, Duration("as_long_as_you_control", "x")),),
        ),
        (
            a.DeclareAttackers(0, attacking, 1),
            *((a.DeclareBlockers(1, (("y", "at"),)),) if y_is == "blocker" else ()),
            a.PhaseOut(side, ("x",)),
            a.PassTurn(),
        ),
    )


@pytest.mark.parametrize(
    ("y_is", "shown"), [("attacker", "still attacking"), ("blocker", "still blocking at")]
)
def test_506_4_a_control_effect_ending_as_x_phases_out_takes_y_out_of_combat(
    y_is: str, shown: str
) -> None:
    """506.4, 702.26f: y leaves combat as its controller changes; m alone
    deals combat damage; the mutant that removes from combat only for a
    control-changing spell leaves y in it."""
    prop = REGISTRY["control_change_removes_from_combat"]
    case = _control_reverts(y_is)
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised(reference)
    assert reference.steps[-1].after.player(1).life == 18
    with pytest.raises(
        Violation, match=f"y \\(control of it .* ended as x phased out \\(702.26f\\)\\).*{shown}"
    ):
        prop.check(trace_of(mutant_engine("control-effect-ending-keeps-combat"), case))


def test_506_4_an_attacker_stolen_by_the_defender_leaves_combat() -> None:
    """506.4: player 1 gains control of y, attacking them, by a spell; it
    deals no combat damage, m does. No phasing: it doesn't exercise the
    rule, which an engine that never phases would pass."""
    case = Scenario(
        Setup(permanents=(bear("y"), bear("m"))),
        (a.DeclareAttackers(0, ("y", "m"), 1), a.GainControl(1, "y"), a.PassTurn()),
    )
    prop = REGISTRY["control_change_removes_from_combat"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert reference.steps[-1].after.player(1).life == 18
    assert not prop.exercised(reference)
    with pytest.raises(Violation, match=r"y \(player 1 gained control of it\).*still attacking"):
        prop.check(trace_of(mutant_engine("control-change-keeps-combat"), case))


def _with_damage_step(trace: Trace, after: Observation) -> Trace:
    """`trace` with the combat damage (its last step) showing `after`."""
    last = trace.steps[-1]
    return replace(trace, steps=(*trace.steps[:-1], Step(last.action, last.before, after)))


def test_506_4_a_creature_out_of_combat_deals_and_is_dealt_no_damage() -> None:
    """An engine showing y out of combat but dealing its damage anyway, or
    dealing it damage, fails too."""
    prop = REGISTRY["control_change_removes_from_combat"]
    reference = trace_of(ReferenceEngine(), _control_reverts("attacker"))
    after = reference.steps[-1].after
    hit = replace(after, players=(after.player(0), replace(after.player(1), life=16)))
    with pytest.raises(Violation, match="expected 2 damage, from m \\(y left combat"):
        prop.check(_with_damage_step(reference, hit))
    blocked = trace_of(ReferenceEngine(), _control_reverts("blocker"))
    after = blocked.steps[-1].after
    dead = replace(
        after,
        permanents=tuple(
            replace(p, zone="graveyard") if p.id == "at" else p for p in after.permanents
        ),
    )
    with pytest.raises(Violation, match="at: expected dealt no combat damage: y, which alone"):
        prop.check(_with_damage_step(blocked, dead))


@pytest.mark.parametrize("setup_sick", [False, True])
def test_302_6_phasing_in_mid_turn_does_not_cure_what_came_this_turn(setup_sick: bool) -> None:
    """302.6, 610.4: t (a token created this turn, or p1 set up sick) phases
    out until p2 leaves; p2 is destroyed and t phases in mid-turn: its
    attack is refused, and carried out in player 0's next turn (R2017-haste
    is about phasing in as that turn begins). A mutant whose "until" release
    cures sickness fails `phasing_in_does_not_cure_summoning_sickness`."""
    creature = "p1" if setup_sick else "t1"
    made = () if setup_sick else (a.CreateToken(0, "t1", 0),)
    bears = (bear("p1", sick=True),) if setup_sick else ()
    case = Scenario(
        Setup(permanents=(*bears, Permanent("p2", types=("artifact",)))),
        (
            *made,
            a.PhaseOutUntil(0, "p2", creature),
            a.Destroy(0, "p2"),
            a.DeclareAttackers(0, (creature,), 1),
            a.PassTurn(),
            a.PassTurn(),
            a.DeclareAttackers(0, (creature,), 1),
        ),
    )
    prop = REGISTRY["phasing_in_does_not_cure_summoning_sickness"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised(reference)
    refused = [s.after.refused is not None for s in reference.steps[-4:]]
    assert refused == [True, False, False, False]
    bugged = trace_of(mutant_engine("until-release-cures-sickness"), case)
    with pytest.raises(
        Violation, match=f"{creature} came under its controller's control this turn"
    ):
        prop.check(bugged)


def test_302_6_a_land_that_is_no_creature_taps_for_mana_whoever_controlled_it() -> None:
    """302.6 holds back creatures only: L, player 1's "until your next turn"
    and phased out under them, comes back to player 0 as player 1's turn
    begins and phases in at their untap step; player 0 taps it for mana at
    once. A mutant holding back every permanent whose control changed fails
    `phasing_in_does_not_cure_summoning_sickness`."""
    land = Permanent("L", owner=0, controller=1, types=("land",), phased_out=PhasedOut("direct", 1))
    case = Scenario(
        Setup(permanents=(land,), effects=(ControlEffect("L", 1, Duration("your_next_turn")),)),
        (a.PassTurn(), a.TapForMana(0, "L")),
    )
    prop = REGISTRY["phasing_in_does_not_cure_summoning_sickness"]
    reference = trace_of(ReferenceEngine(), case)
    prop.check(reference)
    assert reference.steps[-1].after.refused is None
    with pytest.raises(Violation, match="summoning sickness holds back creatures only"):
        prop.check(trace_of(mutant_engine("sick-lands-cannot-tap"), case))


def test_replay_fails_a_refused_legal_action_as_certify_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`phasecert replay` holds the engine to what `certify` does: an action
    it refused that the reference engine carries out fails the property,
    even where its own check says nothing of that action (here 702.26a's
    check judges untap steps, and the engine refused a PhaseOut spell)."""
    bear = Permanent("p1", 0, 0, ("creature",), phasing=1, power=1, toughness=1)
    case = Scenario(Setup(permanents=(bear,)), (a.PhaseOut(0, ("p1",)), a.PassTurn()))
    stored = tmp_path / "untap_step_phases_out_and_in_at_once.0123456789ab.json"
    stored.write_text(dumps(case))
    assert main(["replay", str(stored), "--engine", "degenerate:untap-only-refusing"]) == 1
    assert "it refused a legal action" in capsys.readouterr().out
    assert main(["replay", str(stored), "--engine", "reference"]) == 0


def test_a_refusal_to_tap_a_phased_in_land_is_blamed_on_sickness_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the position the same, an engine refusing {T} of a phased-in
    permanent holds it summoning sick: the sickness property fails (302.6),
    not the property of 702.26b that tapped it on the way (an outside
    tester's engine, which kept sick what phased out sick, failed 702.26b)."""
    land = Permanent("L", owner=0, controller=1, types=("land",), phased_out=PhasedOut("direct", 1))
    case = Scenario(
        Setup(permanents=(land,), effects=(ControlEffect("L", 1, Duration("your_next_turn")),)),
        (a.PassTurn(), a.TapForMana(0, "L")),
    )
    engine = "mutant:sick-lands-cannot-tap"
    for prop, code in [
        ("phased_out_lands_cannot_be_tapped_for_mana", 0),
        ("phasing_in_does_not_cure_summoning_sickness", 1),
    ]:
        stored = tmp_path / f"{prop}.0123456789ab.json"
        stored.write_text(dumps(case))
        assert main(["replay", str(stored), "--engine", engine]) == code, prop
    assert "302.6" in capsys.readouterr().out
