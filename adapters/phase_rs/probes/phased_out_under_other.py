"""Probe for the missing capability `phased-out-under-other` (R2017-control):
phase.rs can't hold "controlled by player 0, phased out under player 1".

A directly phased-out permanent phases in at the untap step of the player it
phased out under, and meanwhile is controlled by whoever its control effects
say. phase.rs keeps one controller per object, which it doesn't recompute
while the object is phased out, and phases the object in at that
controller's untap step: the object has no other field for "under" (its
phase status is only {status, cause}). So the position can be written in
two ways only, and neither is it:

- controller field = 0 (the controller): it phases in at player 0's untap
  step, not player 1's;
- controller field = 1 (the player it phased out under), with player 0's
  control effect: it phases in at the right step, but until then the
  engine shows player 1 as its controller (the root of D7).

Standalone: phase-python and reports/phase-rs/deviations/minimal_game.py
(phase API only). Exit 0 = the limitation is still there, 1 = one of the
two encodings now holds the position, anything else = the probe broke.
"""

import sys
from pathlib import Path
from typing import Any

# The deviation reproducers' helpers (phase API only, no phasecert imports).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "reports/phase-rs/deviations"))
from minimal_game import DIRECT, card, next_main_phase, place, start, status

CARDS = [card("Bear", pt=(1, 1)), card("Filler", pt=(1, 1))]


def control_effect(state: dict[str, Any], oid: int, controller: int) -> None:
    """Starting position only: `controller` controls `oid` indefinitely, in
    the shape the engine gives its own "Gain control of target creature."."""
    state["transient_continuous_effects"].append(
        {
            "affected": {"type": "SpecificObject", "id": oid},
            "controller": controller,
            "duration": "Permanent",
            "id": state["next_continuous_effect_id"],
            "modifications": [{"type": "ChangeController"}],
            "source_id": oid,
            "source_name": "probe",
            "timestamp": state["next_timestamp"],
        }
    )
    state["next_continuous_effect_id"] += 1
    state["next_timestamp"] += 1


def written_with(field: int) -> tuple[int, list[str], set[str]]:
    """Player 0's main phase; player 1's Bear, controlled by player 0 through
    a control effect, phased out directly, with `field` as its controller
    field. Returns the controller shown at the start, the Bear's status at
    player 1's and then player 0's turn, and its phase-status fields."""
    engine, exported = start(CARDS, [["Filler"] * 10, ["Bear"] + ["Filler"] * 9], active=0)
    bear = place(exported, "Bear", controller=field, base_controller=1, phase_status=DIRECT)
    control_effect(exported["state"], bear, 0)
    game = engine.load_game(exported)
    shown = game.object(bear)["controller"]
    fields = set(game.object(bear)["phase_status"])
    seen = []
    for _ in range(2):  # player 1's untap step, then player 0's
        next_main_phase(game)
        seen.append(status(game, bear))
    return shown, seen, fields


wanted = ["in", "in"]  # phases in at player 1's untap step, stays in
as_controller = written_with(0)
as_under = written_with(1)
print(f"controller field 0: shown controller {as_controller[0]}, at turns 1/0: {as_controller[1]}")
print(f"controller field 1: shown controller {as_under[0]}, at turns 1/0: {as_under[1]}")
print(f"phase status fields: {sorted(as_controller[2])}")
if as_controller[2] != {"status", "cause"}:
    print("the phase status has new fields: look for a 'phased out under' there")
    sys.exit(1)
if (as_controller[0], as_controller[1]) == (0, wanted) or (as_under[0], as_under[1]) == (0, wanted):
    print("phase.rs now holds the position: declare phased-out-under-other")
    sys.exit(1)
print(
    "LIMITATION: with its controller field as the controller, the Bear phases in at player 0's "
    "untap step; as the player it phased out under, phase.rs shows player 1 controlling it"
)
