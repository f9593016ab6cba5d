"""R2017-auras, R2017-protection, 704.5m: an Aura phased out on its own,
attached to a player who then casts Teferi's Protection, phases in at its
controller's untap step while that player still has protection from
everything: it can't be attached to them, so it phases in unattached and
goes to the graveyard. The reference engine passes and exercises both
properties about it; an engine dropping Auras only as the protection
resolves (the mutant auras-dropped-only-as-protection-resolves, an outside
engine's bug) fails both."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup

#: Player 1 (active) casts Teferi's Protection; the turn passes to player
#: 0, whose untap step phases in player 0's Aura au, on player 1.
AURA_PHASES_IN_ON_PROTECTED = Scenario(
    Setup(
        active=1,
        permanents=(
            Permanent("y", 1, 1, power=1, toughness=1),
            Permanent(
                "au",
                0,
                0,
                ("enchantment",),
                attachment="aura",
                attached_to=1,
                phased_out=PhasedOut("direct", 0),
            ),
        ),
    ),
    (a.TeferisProtection(1), a.PassTurn()),
)


@pytest.mark.parametrize(
    ("prop", "message"),
    [
        ("auras_cannot_stay_on_protected_players", r"R2017-protection after action 2.*Aura au"),
        (
            "directly_phased_out_attachments_find_their_host",
            r"R2017-auras after action 2.*aura au \(was on 1\).*protection from everything",
        ),
    ],
)
def test_an_aura_phasing_in_onto_a_protected_player_goes(prop: str, message: str) -> None:
    case = AURA_PHASES_IN_ON_PROTECTED
    checked = REGISTRY[prop]
    reference = play(ReferenceEngine(), case)
    checked.check(reference)
    assert checked.exercised is not None and checked.exercised(reference)
    assert reference.steps[-1].after.permanent("au").zone == "graveyard"
    with pytest.raises(Violation, match=message):
        checked.check(play(mutant_engine("auras-dropped-only-as-protection-resolves"), case))
