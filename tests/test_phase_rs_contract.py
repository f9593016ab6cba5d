"""The phase.rs adapter keeps the protocol's contract: a generated setup is
observed back as it was set up, and the engine plays phasing itself."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from importlib import metadata

import pytest
from hypothesis import HealthCheck, given, settings

from adapters.phase_rs import CAPABILITIES, MISSING, PhaseRsEngine
from adapters.phase_rs.engine import INSTALL_HINT
from adapters.protocol import Engine, Inexpressible
from conformance import actions as a
from conformance.capabilities import Capability
from conformance.observation import Observation
from conformance.setup import (
    STARTING_LIFE,
    BoostEffect,
    ControlEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
)
from conformance.strategies import setups

requires_phase = pytest.mark.skipif(
    importlib.util.find_spec("phase") is None,
    reason="phase-python is not installed; pip install 'phasecert[phase-rs]'",
)


def test_engine_without_phase_python_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RuntimeError, match="pip install 'phasecert\\[phase-rs\\]'") as raised:
        PhaseRsEngine()
    assert str(raised.value) == INSTALL_HINT


@requires_phase
def test_engine_is_named_and_versioned() -> None:
    engine = PhaseRsEngine()
    assert isinstance(engine, Engine)
    assert engine.name == "phase-rs"
    assert engine.version == metadata.version("phase-python")
    assert engine.capabilities == CAPABILITIES


def test_every_capability_is_declared_or_missing_with_a_reason() -> None:
    """Missing: phase.rs lacks it, a probe shows it (tests/test_phase_rs_probes.py)."""
    assert not CAPABILITIES & MISSING.keys()
    assert CAPABILITIES | MISSING.keys() == set(Capability)
    assert all(reason for reason in MISSING.values())
    assert PhaseRsEngine.missing == MISSING


@requires_phase
def test_a_position_phase_rs_cant_express_is_refused_clearly() -> None:
    """R2017-control: phased out under its owner, then stolen."""
    out = PhasedOut("direct", under=1)
    stolen = Setup(
        permanents=(Permanent("p1", owner=1, controller=0, power=1, toughness=1, phased_out=out),)
    )
    with pytest.raises(ValueError, match="phased-out-under-other"):
        PhaseRsEngine().start(stolen)
    with pytest.raises(ValueError, match="color chosen"):
        PhaseRsEngine().start(Setup(permanents=(Permanent("p1", chosen="odd"),)))


def expected_power_toughness(setup: Setup, p: Permanent) -> tuple[int, int] | None:
    """613.4: printed, +1/+1 counters, boosts, and anthems of other phased-in
    permanents with the same controller (702.26b)."""
    if not p.is_creature or p.phased_out is not None:
        return None
    assert p.power is not None and p.toughness is not None
    bonus = dict(p.counters).get("+1/+1", 0) + sum(
        1
        for q in setup.permanents
        if q.id != p.id
        and "anthem" in q.abilities
        and q.phased_out is None
        and q.controller == p.controller
    )
    power, toughness = p.power + bonus, p.toughness + bonus
    for e in setup.effects:
        if isinstance(e, BoostEffect) and p.id in e.targets:
            power, toughness = power + e.power, toughness + e.toughness
    return power, toughness


def assert_shows(setup: Setup, seen: Observation) -> None:
    assert (seen.turn, seen.active, seen.events, seen.refused) == (
        setup.turn,
        setup.active,
        (),
        None,
    )
    assert [(v.in_game, v.life, v.cards_drawn) for v in seen.players] == [
        (True, STARTING_LIFE, 0)
    ] * setup.players
    assert [v.id for v in seen.permanents] == [p.id for p in setup.permanents]
    for p, view in zip(setup.permanents, seen.permanents, strict=True):
        cause = None if p.phased_out is None else p.phased_out.cause
        expected = expected_power_toughness(setup, p)
        assert view.zone == "battlefield", p.id
        assert (view.phased_out, view.cause) == (p.phased_out is not None, cause), p.id
        assert (view.controller, view.tapped, view.attached_to) == (
            p.controller,
            p.tapped,
            p.attached_to,
        ), p.id
        assert (view.counters, view.chosen) == (p.counters, p.chosen), p.id
        assert (view.power, view.toughness) == (expected or (None, None)), p.id


@requires_phase
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(CAPABILITIES, max_permanents=5))
def test_a_setup_is_observed_as_it_was_set_up(setup: Setup) -> None:
    assert_shows(setup, PhaseRsEngine().start(setup).observe())


@requires_phase
def test_phasing_creature_phases_out_on_its_controllers_next_untap_step() -> None:
    """702.26a, played by the engine: not in the opponent's untap step, then
    out (directly) in its controller's."""
    game = PhaseRsEngine().start(
        Setup(active=0, permanents=(Permanent("p1", phasing=1, power=2, toughness=2),))
    )
    theirs = game.perform(a.PassTurn())
    assert (theirs.active, theirs.permanent("p1").phased_out) == (1, False)
    ours = game.perform(a.PassTurn())
    assert ours.active == 0
    assert (ours.permanent("p1").phased_out, ours.permanent("p1").cause) == (True, "direct")
    assert ours.events_of("phased_out", "p1")


@requires_phase
def test_directly_phased_out_permanent_phases_in_under_its_controller() -> None:
    """702.26a: it phased out under player 1, so it is back in player 1's
    untap step, with its +1/+1 counter (702.26d)."""
    out = PhasedOut("direct", under=1)
    setup = Setup(
        active=0,
        permanents=(
            Permanent(
                "p1",
                owner=1,
                controller=1,
                power=1,
                toughness=1,
                counters=(("+1/+1", 1),),
                phased_out=out,
            ),
        ),
    )
    game = PhaseRsEngine().start(setup)
    seen = game.perform(a.PassTurn()).permanent("p1")
    assert (seen.phased_out, seen.counters, seen.power) == (False, (("+1/+1", 1),), 2)


@requires_phase
@pytest.mark.parametrize(
    ("kind", "controllers"),
    [
        ("end_of_turn", [1, 1]),
        ("your_next_turn", [0, 1]),
        ("indefinitely", [0, 0]),
    ],
)
def test_gain_control_is_cast_and_ended_by_the_engine(kind: str, controllers: list[int]) -> None:
    """613.1b: player 0 steals p1 for a duration; the engine ends it at
    cleanup (514.2) or as player 0's next turn begins (611.2a)."""
    stolen = Setup(
        active=0, permanents=(Permanent("p1", owner=1, controller=1, power=1, toughness=1),)
    )
    game = PhaseRsEngine().start(stolen)
    seen = game.perform(a.GainControl(0, "p1", Duration(kind)))
    assert (seen.refused, seen.permanent("p1").controller) == (None, 0)
    later = [game.perform(a.PassTurn()).permanent("p1").controller for _ in controllers]
    assert later == controllers


@requires_phase
def test_a_setup_control_effect_lasts_its_duration() -> None:
    """613.1b: player 0 controls player 1's creature until end of turn
    (514.2), so it is back with player 1 in player 1's turn."""
    setup = Setup(
        active=0,
        permanents=(Permanent("p1", owner=1, controller=0, power=1, toughness=1),),
        effects=(ControlEffect("p1", 0, Duration("end_of_turn")),),
    )
    game = PhaseRsEngine().start(setup)
    assert game.observe().permanent("p1").controller == 0
    assert game.perform(a.PassTurn()).permanent("p1").controller == 1


@requires_phase
def test_gain_control_for_as_long_as_is_x_s_ability_and_ends_as_x_phases_out() -> None:
    """611.2b, R2017-for-as-long-as: played as X's own ability; the engine
    ends it when X phases out (702.26b)."""
    setup = Setup(
        permanents=(
            Permanent("x", types=("artifact",)),
            Permanent("c", owner=1, controller=1, power=1, toughness=1),
        )
    )
    game = PhaseRsEngine().start(setup)
    seen = game.perform(a.GainControl(0, "c", Duration("as_long_as_you_control", "x")))
    assert (seen.refused, seen.permanent("c").controller) == (None, 0)
    assert game.perform(a.PhaseOut(0, ("x",))).permanent("c").controller == 1


@requires_phase
def test_gain_control_for_as_long_as_another_players_x_is_set_aside() -> None:
    """611.2b: phase.rs has no way to say "for as long as you control X" for
    an X the caster doesn't control (probes/control_for_as_long_as_other.py):
    not a refusal (the rules allow the spell), but an action the adapter
    can't express, which sets the example aside."""
    lands = (Permanent("p1", types=("land",)), Permanent("p2", types=("land",)))
    game = PhaseRsEngine().start(Setup(permanents=lands))
    with pytest.raises(Inexpressible, match="only as an ability of p2"):
        game.perform(a.GainControl(1, "p1", Duration("as_long_as_you_control", "p2")))
    assert game.observe().permanent("p1").controller == 0


@requires_phase
def test_a_setup_control_effect_for_as_long_as_ends_as_x_phases_out() -> None:
    """611.2b: the setup's effect has X as its source, as the engine's own
    ability would; the engine ends it when X phases out."""
    setup = Setup(
        permanents=(
            Permanent("x", types=("artifact",)),
            Permanent("c", owner=1, controller=0, power=1, toughness=1),
        ),
        effects=(ControlEffect("c", 0, Duration("as_long_as_you_control", "x")),),
    )
    game = PhaseRsEngine().start(setup)
    assert game.observe().permanent("c").controller == 0
    assert game.perform(a.PhaseOut(0, ("x",))).permanent("c").controller == 1


@requires_phase
def test_a_setup_boost_for_as_long_as_ends_as_x_phases_out() -> None:
    """611.2b, R2017-for-as-long-as: a boost's X is its source too, not the
    creature it boosts; the engine ends it when X phases out."""
    setup = Setup(
        permanents=(
            Permanent("x", types=("artifact",)),
            Permanent("c", power=1, toughness=1),
        ),
        effects=(BoostEffect(("c",), 0, duration=Duration("as_long_as_you_control", "x")),),
    )
    game = PhaseRsEngine().start(setup)
    assert game.observe().permanent("c").power == 2
    assert game.perform(a.PhaseOut(0, ("x",))).permanent("c").power == 1


@requires_phase
def test_phase_out_until_is_the_sources_ability() -> None:
    """610.4: the source's ability phases the target out (directly). That
    phase.rs then phases it in at the next untap step is D10."""
    setup = Setup(
        permanents=(
            Permanent("src", types=("artifact",)),
            Permanent("c", owner=1, controller=1, power=1, toughness=1),
        )
    )
    game = PhaseRsEngine().start(setup)
    seen = game.perform(a.PhaseOutUntil(0, "src", "c"))
    assert seen.refused is None
    assert (seen.permanent("c").phased_out, seen.permanent("c").cause) == (True, "direct")
    assert game.perform(a.PhaseOutUntil(1, "src", "c")).refused is not None


#: What the engine's own activation adds to its state besides the phase-out:
#: activation counts, the stack object's id, priority and the rules journal.
ACTIVATION_BOOKKEEPING = {
    "abilities_activated_this_turn_by_player",
    "ability_resolutions_this_turn",
    "activated_abilities_this_game",
    "activated_abilities_this_turn",
    "next_object_id",
    "players",
    "resolved_rules_journal",
}


@requires_phase
def test_a_setup_phased_out_until_is_what_the_engines_own_ability_leaves() -> None:
    """610.4: phase.rs records no link to X (D10), so the adapter writes a
    permanent phased out "until X leaves" as phased out directly; that is
    the state the engine's own ability leaves, bookkeeping aside. A field
    for the link in a later phase.rs fails this test."""
    source = Permanent("s", types=("artifact",))
    target = Permanent("c", owner=1, controller=1, power=1, toughness=1)
    waiting = replace(target, phased_out=PhasedOut("direct", 1, "s"))
    written = PhaseRsEngine().start(Setup(permanents=(source, waiting)))
    played = PhaseRsEngine().start(Setup(permanents=(source, target)))
    assert played.perform(a.PhaseOutUntil(0, "s", "c")).refused is None
    ours, theirs = written.driver.game.state()["state"], played.driver.game.state()["state"]
    differ = {k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k)}
    assert differ <= ACTIVATION_BOOKKEEPING
    assert ours["objects"] == theirs["objects"]
