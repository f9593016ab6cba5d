"""The reference engine on effects with a limited duration on a permanent
that phases out and back in before they would end: today they go on
(702.26d, 702.26f); in the Mirage edition they stop affecting it as it
phases out, directly or with its host, while effects without a limited
duration go on (502.15g), and it phases in at the untap step of the player
who controlled it as it phased out (502.15h)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.reference import reference_of
from conformance import actions as a
from conformance.catalog import Edition
from conformance.observation import Observation
from conformance.setup import BoostEffect, ControlEffect, Duration, Permanent, Setup

AURA: dict[str, object] = {"types": ("enchantment",), "attachment": "aura"}
SOURCE = Permanent("s", types=("artifact",))
THEIRS = Permanent("p1", owner=1, controller=1, power=2, toughness=2)


def play(edition: Edition, setup: Setup, *actions: a.Action) -> Observation:
    game = reference_of(edition).start(setup)
    after = game.observe()
    for action in actions:
        after = game.perform(action)
        assert after.refused is None, (action, after.refused)
    return after


def out_and_in(target: str) -> tuple[a.Action, ...]:
    """`target` phases out until the source leaves, which it does."""
    return (a.PhaseOutUntil(0, "s", target), a.Destroy(0, "s"))


@pytest.mark.parametrize(("edition", "kept"), [("current", True), ("mirage", False)])
@pytest.mark.parametrize("kind", ["end_of_turn", "your_next_turn"])
def test_limited_control_and_boost_on_what_phases_out_and_in(
    edition: Edition, kept: bool, kind: str
) -> None:
    setup = Setup(permanents=(SOURCE, THEIRS))
    grant = a.GainControl(0, "p1", Duration(kind))  # type: ignore[arg-type]
    after = play(edition, setup, grant, a.PumpTeam(0), *out_and_in("p1"))
    back = after.permanent("p1")
    assert back.phased_in
    assert (back.controller, back.power) == ((0, 3) if kept else (1, 2))


@pytest.mark.parametrize("edition", ["current", "mirage"])
def test_effects_without_a_limited_duration_go_on(edition: Edition) -> None:
    setup = Setup(
        permanents=(SOURCE, replace(THEIRS, controller=0)),
        effects=(
            ControlEffect("p1", 0),
            BoostEffect(("p1",), 0, 2, 2, Duration("indefinitely")),
        ),
    )
    back = play(edition, setup, *out_and_in("p1")).permanent("p1")
    assert (back.controller, back.power) == (0, 4)


@pytest.mark.parametrize(("edition", "kept"), [("current", True), ("mirage", False)])
def test_what_phases_out_with_its_host_loses_its_limited_effects_too(
    edition: Edition, kept: bool
) -> None:
    aura = Permanent("u", owner=1, controller=1, attached_to="p1", **AURA)  # type: ignore[arg-type]
    setup = Setup(permanents=(SOURCE, THEIRS, aura))
    grant = a.GainControl(0, "u", Duration("end_of_turn"))
    after = play(edition, setup, grant, *out_and_in("p1"))
    assert after.permanent("u").phased_in
    assert after.permanent("u").controller == (0 if kept else 1)


def test_mirage_it_phases_in_at_its_controllers_untap_step_as_it_phased_out() -> None:
    """502.15h: player 0 borrowed it until their next turn and phased it
    out; it stays out through player 1's untap step and phases in at player
    0's, under its owner: the control effect ended as it phased out."""
    setup = Setup(permanents=(THEIRS,))
    grant = a.GainControl(0, "p1", Duration("your_next_turn"))
    after_one = play("mirage", setup, grant, a.PhaseOut(0, ("p1",)), a.PassTurn())
    assert after_one.permanent("p1").phased_out
    back = play("mirage", setup, grant, a.PhaseOut(0, ("p1",)), a.PassTurn(), a.PassTurn())
    assert back.permanent("p1").phased_in and back.permanent("p1").controller == 1
