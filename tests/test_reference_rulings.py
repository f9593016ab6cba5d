"""The reference engine on the worked examples of the rules and of the
2017-08-25 rulings (../shared/rules/phasing.md), one explicit test each: the
oracle must be right on these before it judges anyone else."""

from __future__ import annotations

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.observation import Observation
from conformance.setup import (
    TRIGGER_LIFE,
    ControlEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
    SkipUntap,
)


def play(setup: Setup, *actions: a.Action) -> list[Observation]:
    game = ReferenceEngine().start(setup)
    return [game.observe(), *(game.perform(x) for x in actions)]


def bear(pid: str, **kw: object) -> Permanent:
    return Permanent(pid, power=2, toughness=2, **kw)  # type: ignore[arg-type]


def test_702_26a_phasing_permanent_phases_out_then_in() -> None:
    obs = play(
        Setup(active=1, permanents=(bear("p1", phasing=1),)),
        a.PassTurn(),
        a.PassTurn(),
        a.PassTurn(),
    )
    assert [o.permanent("p1").phased_out for o in obs] == [False, True, True, False]


def test_702_26a_in_and_out_at_once() -> None:
    setup = Setup(
        active=1,
        permanents=(
            bear("p1", phasing=1),
            bear("p2", phasing=1, phased_out=PhasedOut("direct", 0)),
        ),
    )
    after = play(setup, a.PassTurn())[-1]
    assert after.permanent("p1").phased_out and after.permanent("p2").phased_in


def test_702_26b_not_counted_not_destroyed_not_targeted() -> None:
    setup = Setup(permanents=(bear("p1"), bear("p2", phased_out=PhasedOut("direct", 0))))
    _, drew, target, wrath = play(
        setup, a.DrawPerCreature(0), a.PhaseOut(0, ("p2",)), a.DestroyAll(0)
    )
    assert drew.player(0).cards_drawn == 1
    assert target.refused is not None
    assert wrath.permanent("p1").zone == "graveyard" and wrath.permanent("p2").phased_out


def test_702_26d_tokens_counters_tapped_kept_no_etb_ltb() -> None:
    token = bear("p1", token=True, tapped=True, counters=(("+1/+1", 2),), abilities=("etb", "ltb"))
    obs = play(Setup(permanents=(token,)), a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn())
    back = obs[-1].permanent("p1")
    assert back.phased_in and back.counters == (("+1/+1", 2),)
    assert not any(e.kind in ("zone_change", "trigger") for o in obs for e in o.events)
    assert obs[-1].player(0).life == 20


def test_702_26e_pump_skips_phased_out_creature() -> None:
    setup = Setup(permanents=(bear("p1"), bear("p2")))
    *_, back = play(setup, a.PhaseOutUntil(0, "p1", "p2"), a.PumpTeam(0), a.Destroy(0, "p1"))
    assert back.permanent("p2").phased_in and back.permanent("p2").power == 2


def test_702_26g_and_r2017_attached_aura_follows_its_host() -> None:
    aura = Permanent("p2", types=("enchantment",), attachment="aura", attached_to="p1")
    obs = play(
        Setup(active=1, permanents=(bear("p1", phasing=1), aura)),
        a.PassTurn(),
        a.PassTurn(),
        a.PassTurn(),
    )
    out, back = obs[1].permanent("p2"), obs[3].permanent("p2")
    assert out.phased_out and out.cause == "indirect"
    assert back.phased_in and back.attached_to == "p1"


def test_702_26h_direct_and_indirect_is_indirect() -> None:
    aura = Permanent("p2", types=("enchantment",), attachment="aura", attached_to="p1", phasing=1)
    after = play(Setup(active=1, permanents=(bear("p1", phasing=1), aura)), a.PassTurn())[-1]
    assert after.permanent("p2").cause == "indirect"


def test_702_26i_aura_whose_host_died_goes_to_graveyard() -> None:
    aura = Permanent("p2", types=("enchantment",), attachment="aura", attached_to="p1")
    obs = play(
        Setup(permanents=(bear("p1"), aura)),
        a.PhaseOut(0, ("p2",)),
        a.DestroyAll(0),
        a.PassTurn(),
        a.PassTurn(),
    )
    assert obs[2].permanent("p2").phased_out
    assert obs[-1].permanent("p2").zone == "graveyard"


def test_702_26i_equipment_whose_host_died_stays_unattached() -> None:
    gear = Permanent("p2", types=("artifact",), attachment="equipment", attached_to="p1")
    obs = play(
        Setup(permanents=(bear("p1"), gear)),
        a.PhaseOut(0, ("p2",)),
        a.DestroyAll(0),
        a.PassTurn(),
        a.PassTurn(),
    )
    back = obs[-1].permanent("p2")
    assert back.phased_in and back.attached_to is None
    assert not any(e.kind == "unattached" for o in obs[3:] for e in o.events)  # 702.26j


def test_702_26m_and_r2017_skip_untap_waits() -> None:
    setup = Setup(
        active=1,
        permanents=(bear("p1", phased_out=PhasedOut("direct", 0)),),
        effects=(SkipUntap(0),),
    )
    obs = play(setup, a.PassTurn(), a.PassTurn(), a.PassTurn())
    assert [o.permanent("p1").phased_out for o in obs] == [True, True, True, False]


def test_702_26p_two_instances_phase_out_once() -> None:
    after = play(Setup(active=1, permanents=(bear("p1", phasing=2),)), a.PassTurn())[-1]
    assert after.permanent("p1").phased_out
    assert len(after.events_of("phased_out", "p1")) == 1


def test_506_4_phased_out_attacker_deals_no_damage() -> None:
    obs = play(
        Setup(permanents=(bear("p1"), bear("p2"))),
        a.DeclareAttackers(0, ("p1", "p2"), 1),
        a.PhaseOut(0, ("p1",)),
        a.PassTurn(),
    )
    assert obs[-1].player(1).life == 18


def test_603_10b_phases_out_trigger_triggers() -> None:
    after = play(
        Setup(permanents=(bear("p1", abilities=("phases_out",)),)), a.PhaseOut(0, ("p1",))
    )[-1]
    assert (
        after.events_of("trigger", "p1") and after.player(0).life == 20 + TRIGGER_LIFE["phases_out"]
    )


def test_610_4_and_r2017_until_leaves() -> None:
    setup = Setup(permanents=(bear("p1"), bear("p2")))
    obs = play(
        setup,
        a.PhaseOutUntil(0, "p1", "p2"),
        a.PhaseOut(0, ("p1",)),  # the source phasing out doesn't release p2
        a.PassTurn(),
        a.PassTurn(),  # p2 doesn't phase in at the untap step; p1 does
        a.Destroy(0, "p1"),
    )
    assert obs[2].permanent("p2").phased_out
    assert obs[4].permanent("p2").phased_out and obs[4].permanent("p1").phased_in
    assert obs[5].permanent("p2").phased_in


def test_611_2b_control_for_as_long_as_never_starts() -> None:
    setup = Setup(
        permanents=(
            bear("p1"),
            bear("p2", owner=1, controller=1, phased_out=PhasedOut("direct", 1)),
        )
    )
    after = play(setup, a.GainControl(1, "p1", Duration("as_long_as_you_control", "p2")))[-1]
    assert after.refused is None and after.permanent("p1").controller == 0


def test_702_26f_control_as_long_as_ends_when_anchor_phases_out() -> None:
    setup = Setup(permanents=(bear("p1"), bear("p2", owner=1, controller=1)))
    _, stolen, lost = play(
        setup,
        a.GainControl(1, "p1", Duration("as_long_as_you_control", "p2")),
        a.PhaseOut(1, ("p2",)),
    )
    assert stolen.permanent("p1").controller == 1 and lost.permanent("p1").controller == 0


def test_r2017_targets_spell_fizzles() -> None:
    after = play(Setup(permanents=(bear("p1"),)), a.Destroy(1, "p1", phased_out_in_response=True))[
        -1
    ]
    assert after.permanent("p1").phased_out and after.player(1).cards_drawn == 0


def test_r2017_haste_phased_in_creature_can_tap_and_attack() -> None:
    setup = Setup(
        active=1,
        permanents=(
            bear("p1", abilities=("tap_gain_life",), phased_out=PhasedOut("direct", 0)),
            bear("p2", phased_out=PhasedOut("direct", 0)),
        ),
    )
    obs = play(setup, a.PassTurn(), a.Activate(0, "p1"), a.DeclareAttackers(0, ("p2",), 1))
    assert obs[2].refused is None and obs[3].refused is None


def test_r2017_control_ends_while_out_returns_to_owner_at_thiefs_untap() -> None:
    setup = Setup(
        active=0,
        permanents=(bear("p1", owner=1, controller=0),),
        effects=(ControlEffect("p1", 0, Duration("end_of_turn")),),
    )
    obs = play(setup, a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn())
    assert obs[2].permanent("p1").phased_out and obs[2].permanent("p1").controller == 1
    back = obs[3].permanent("p1")
    assert back.phased_in and back.controller == 1  # at player 0's untap step


def test_r2017_choices_remembered() -> None:
    setup = Setup(active=1, permanents=(bear("p1", phasing=1, chosen="blue"),))
    obs = play(setup, a.PassTurn(), a.PassTurn(), a.PassTurn())
    assert obs[-1].permanent("p1").chosen == "blue"


def test_702_26k_and_702_26n_leaving_player() -> None:
    setup = Setup(
        players=3,
        active=0,
        permanents=(
            bear(
                "p1", owner=1, controller=1, phased_out=PhasedOut("direct", 1), abilities=("ltb",)
            ),
            bear("p2", owner=2, controller=1, phased_out=PhasedOut("direct", 1)),
        ),
    )
    obs = play(setup, a.Concede(1), a.PassTurn())
    assert obs[1].permanent("p1").zone == "none" and not obs[1].events_of("trigger")  # 702.26k
    # Player 1's turn would have begun between player 0's and player 2's, so
    # player 2's untap step phases p2 in, under its owner (702.26n, 800.4a).
    back = obs[2].permanent("p2")
    assert obs[2].active == 2 and back.phased_in and back.controller == 2


def test_702_26j_a_state_based_unattach_triggers_within_the_action_that_caused_it() -> None:
    # The Fortification becomes unattached by a state-based action after its
    # land is destroyed (704.5n); its trigger resolves in that same action
    # (117.5), not in the next one, where it phases out.
    fort = Permanent(
        "p2",
        types=("artifact",),
        attachment="fortification",
        attached_to="p1",
        abilities=("unattached",),
    )
    setup = Setup(permanents=(Permanent("p1", types=("land",)), fort))
    _, destroyed, phased = play(setup, a.Destroy(0, "p1"), a.PhaseOutAll(0))
    assert [(e.subject, e.detail) for e in destroyed.events_of("trigger")] == [("p2", "unattached")]
    assert destroyed.player(0).life == 20 + TRIGGER_LIFE["unattached"]
    assert not phased.events_of("trigger")


def test_702_26k_what_waits_for_a_permanent_leaving_with_it_leaves_without_phasing_in() -> None:
    # Issue 9: x waits "until src" leaves (610.4); both are player 2's, so
    # both leave at once (800.4a): x never phases in, nothing triggers.
    x = bear(
        "x",
        owner=2,
        controller=0,
        abilities=("ltb", "phases_in"),
        phased_out=PhasedOut("direct", 0, "src"),
    )
    src = Permanent("src", owner=2, controller=2, types=("artifact",))
    setup = Setup(players=3, active=1, permanents=(src, x), effects=(ControlEffect("x", 0),))
    _, left, after = play(setup, a.Concede(2), a.PassTurn())
    assert left.permanent("x").zone == "none" and not left.events_of("phased_in")
    assert not left.events_of("trigger") and not after.events_of("trigger")
    assert left.player(0).life == after.player(0).life == 20


def test_704_3_no_state_based_actions_after_a_concession_until_priority() -> None:
    # Player 1 doesn't hold priority (the active player 0 does), so their
    # leaving gives nobody priority (800.4a): the Aura on their creature
    # stays until the next action gives a player priority (704.3, 704.5m).
    aura = Permanent(
        "p2",
        types=("enchantment",),
        attachment="aura",
        attached_to="p1",
        abilities=("ltb",),
    )
    setup = Setup(players=3, permanents=(bear("p1", owner=1, controller=1), aura))
    _, left, passed = play(setup, a.Concede(1), a.PassTurn())
    assert left.permanent("p2").on_battlefield and left.player(0).life == 20
    assert passed.permanent("p2").zone == "graveyard"
    assert passed.player(0).life == 20 + TRIGGER_LIFE["ltb"]


def test_704_3_a_spell_cast_after_a_concession_sees_the_state_based_actions_first() -> None:
    # The caster receives priority once the spell is cast (117.3c): the
    # Aura goes to the graveyard then, and the spell targeting it does
    # nothing (608.2b), although it was a legal target when cast.
    aura = Permanent("p2", types=("enchantment",), attachment="aura", attached_to="p1")
    setup = Setup(players=3, permanents=(bear("p1", owner=1, controller=1), aura))
    _, _, cast = play(setup, a.Concede(1), a.PhaseOut(0, ("p2",)))
    assert cast.refused is None and cast.permanent("p2").zone == "graveyard"
    assert not cast.events_of("phased_out")


def test_610_4_a_source_may_phase_itself_out_until_it_leaves() -> None:
    # No rule forbids the source as its own target; phasing out is not
    # leaving (702.26d), so it waits through untap steps, and leaves
    # without phasing in when its owner leaves (702.26k).
    setup = Setup(players=3, permanents=(bear("p1", owner=1, controller=0, phasing=1),))
    obs = play(setup, a.PhaseOutUntil(0, "p1", "p1"), a.PassTurn(), a.PassTurn(), a.PassTurn())
    assert obs[1].refused is None and obs[1].permanent("p1").phased_out
    assert all(o.permanent("p1").phased_out for o in obs[1:])
    assert (
        play(setup, a.PhaseOutUntil(0, "p1", "p1"), a.Concede(1))[-1].permanent("p1").zone == "none"
    )


def test_110_2_and_800_4a_control_returns_to_the_default_controller() -> None:
    # p1 is player 0's card that entered under player 1 (110.2); player 2
    # took it. When player 2 leaves, it goes back to player 1, not its owner.
    p1 = bear("p1", owner=0, default_controller=1, controller=2)
    setup = Setup(players=3, permanents=(p1,))
    assert play(setup, a.Concede(2))[-1].permanent("p1").controller == 1
    # Player 1 leaving with it under their control exiles it (800.4a).
    mine = Setup(players=3, permanents=(bear("p1", owner=0, default_controller=1, controller=1),))
    assert play(mine, a.Concede(1))[-1].permanent("p1").zone == "exile"


def test_800_4c_control_ending_with_the_default_controller_gone_exiles() -> None:
    # Player 2's "until end of turn" control ends at cleanup; player 1, who
    # controls p1 by default, has left, and no effect gives it to anyone
    # still in the game: it is exiled at once.
    p1 = bear("p1", owner=0, default_controller=1, controller=2)
    setup = Setup(
        players=3,
        permanents=(p1,),
        effects=(ControlEffect("p1", 2, Duration("end_of_turn")),),
    )
    _, left, passed = play(setup, a.Concede(1), a.PassTurn())
    assert left.permanent("p1").controller == 2
    assert passed.permanent("p1").zone == "exile"
