"""The reference engine on a spell waiting while its target phases out and
back in (`DestroyThroughPhasing`; 702.26d, Mirage 502.15n), in both
editions, and on the positions where the action can't be played."""

from __future__ import annotations

import pytest

from adapters.reference import reference_of
from conformance import actions as a
from conformance.catalog import Edition
from conformance.observation import Observation
from conformance.setup import Permanent, Setup

AURA: dict[str, object] = {"types": ("enchantment",), "attachment": "aura"}


def play(edition: Edition, setup: Setup, action: a.Action) -> Observation:
    return reference_of(edition).start(setup).perform(action)


def position(*extra: Permanent) -> Setup:
    return Setup(
        permanents=(
            Permanent("p1", owner=1, controller=1, power=2, toughness=2),
            Permanent("p2", owner=1, controller=1, types=("artifact",)),
            *extra,
        )
    )


@pytest.mark.parametrize("edition", ["current", "mirage"])
def test_the_spell_resolves_on_the_permanent_that_phased_back_in(edition: Edition) -> None:
    after = play(edition, position(), a.DestroyThroughPhasing(0, "p1", "p2"))
    assert after.refused is None
    assert after.events_of("phased_out", "p1") and after.events_of("phased_in", "p1")
    assert after.permanent("p1").zone == "graveyard" == after.permanent("p2").zone
    assert after.player(0).cards_drawn == 1


def test_mirage_a_token_target_ceases_to_exist_and_the_spell_does_nothing() -> None:
    """217.8d: the phased-out token is gone before the source leaves."""
    setup = Setup(
        permanents=(Permanent("p1", token=True, types=("artifact",)), position().permanents[1])
    )
    after = play("mirage", setup, a.DestroyThroughPhasing(0, "p1", "p2"))
    assert after.permanent("p1").zone == "none" and not after.events_of("phased_in", "p1")
    assert after.player(0).cards_drawn == 0


@pytest.mark.parametrize(
    ("setup", "source"),
    [
        (position(), "p1"),  # the target itself
        (position(Permanent("u", owner=1, controller=1, attached_to="p1", **AURA)), "u"),
    ],
    ids=["itself", "attached-to-it"],
)
def test_a_source_that_would_phase_out_with_the_target_is_refused(
    setup: Setup, source: str
) -> None:
    after = play("current", setup, a.DestroyThroughPhasing(0, "p1", source))
    assert after.refused is not None
