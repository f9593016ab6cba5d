"""Probe for `control-for-as-long-as-other` (611.2b): phase.rs can
say "gain control of T for as long as you control X" only as an ability of
X, so only X's controller can play it.

The suite's action is a spell naming any permanent X; when its caster
doesn't control X (or X is phased out) the duration never starts and the
spell does nothing (611.2b). phase.rs has no move for that:

- a spell can't name X: the parser turns "for as long as you control
  Anchor" into WhileControllingHost, a duration tied to the ability's own
  source (the spell), dropping Anchor; cast by Anchor's controller, it
  gains nothing, where the rules give control for as long as they control
  Anchor;
- Anchor's own "{0}: Gain control of target creature for as long as you
  control this artifact." is offered to Anchor's controller only (and
  while Anchor is phased out it shouldn't be offered at all, 702.26b;
  phase.rs offers it anyway, D2).

So the adapter plays the action as X's ability when the caster controls X
phased in, and refuses it otherwise.

Standalone: phase-python and reports/phase-rs/deviations/minimal_game.py
(phase API only). Exit 0 = the limitation is still there, 1 = phase.rs now
has a way, anything else = the probe broke.
"""

import sys
from pathlib import Path

# The deviation reproducers' helpers (phase API only, no phasecert imports).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "reports/phase-rs/deviations"))
from minimal_game import card, cast, place, start, to_hand

STEAL = "Gain control of target creature for as long as you control Anchor."
ANCHOR = "{0}: Gain control of target creature for as long as you control this artifact."
cards = [
    card("Anchor", ANCHOR, types=("Artifact",)),
    card("Steal", STEAL, types=("Instant",)),
    card("Bear", pt=(1, 1)),
    card("Filler", pt=(1, 1)),
]
[steal_face] = [face for name, face in cards if name == "steal"]
[spell] = steal_face["abilities"]
print(f"'{STEAL}' parses to duration {spell['duration']}")

# Player 0's main phase: player 0 controls Anchor and holds Steal; player 1
# controls the Bear.
engine, exported = start(cards, [["Anchor", "Steal"] + ["Filler"] * 8, ["Bear"] * 10], active=0)
anchor = place(exported, "Anchor")
bear = place(exported, "Bear", controller=1, base_controller=1)
to_hand(exported, "Steal")
game = engine.load_game(exported)
cast(game, 0, "Steal", bear)
spell_works = game.object(bear)["controller"] == 0
print(
    f"player 0, who controls Anchor, casts Steal: the Bear's controller is now "
    f"{game.object(bear)['controller']} (611.2b: player 0)"
)

# Player 1's priority: can they activate player 0's Anchor?
game.apply(0, {"type": "PassPriority"})
offered = [
    m.data
    for m in game.actions()
    if m.kind == "ActivateAbility" and m.data.get("source_id") == anchor
]
print(f"player {game.priority_player()} holds priority; Anchor activations offered: {offered}")
if game.priority_player() != 1:
    sys.exit("probe broke: player 1 should hold priority")
if spell_works or offered:
    print("phase.rs now has a way to say 'for as long as you control X' for any X")
    sys.exit(1)
print(
    "LIMITATION: a spell's 'for as long as you control X' is tied to the spell itself, and X's "
    "ability is offered to X's controller only"
)
