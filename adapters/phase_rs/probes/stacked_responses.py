"""Probe for `stacked-responses` (702.26d, Mirage 502.15n): a destroy
spell waits while its target phases out in response and phases back in in a
second response; then it resolves on that same permanent.

The only move of phase.rs that phases a permanent out and lets another move
phase it back in is an ability "phases out until this leaves the
battlefield" (610.4), and phase.rs ignores that duration (D10): when the
source leaves, the target stays phased out. So the target never comes back
while the spell waits, and the spell has no legal target as it resolves
(R2017-targets' situation, not 502.15n's).

Player 0 casts Doom on player 1's Bear; player 1 answers with the Jailer's
ability on the Bear, which resolves; player 0 casts Kill on the Jailer; the
stack resolves. By the rules the Bear phases in as the Jailer leaves and
Doom destroys it.

Standalone: phase-python and reports/phase-rs/deviations/minimal_game.py
(phase API only). Exit 0 = the limitation is still there, 1 = phase.rs now
has a way, anything else = the probe broke.
"""

import sys
from pathlib import Path

# The deviation reproducers' helpers (phase API only, no phasecert imports).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "reports/phase-rs/deviations"))
from minimal_game import card, cast, place, start, status, to_hand

JAILER = "{0}: Target creature phases out until this artifact leaves the battlefield."
cards = [
    card("Jailer", JAILER, types=("Artifact",)),
    card("Bear", pt=(1, 1)),
    card("Doom", "Destroy target creature.", types=("Instant",)),
    card("Kill", "Destroy target artifact.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Doom", "Kill"] + ["Filler"] * 8, ["Jailer", "Bear"] + ["Filler"] * 8]
engine, exported = start(cards, decks, active=0)
jailer = place(exported, "Jailer", controller=1, base_controller=1)
bear = place(exported, "Bear", controller=1, base_controller=1)
to_hand(exported, "Doom")
to_hand(exported, "Kill")
game = engine.load_game(exported)

# Player 0 casts Doom on the Bear and passes; player 1 responds.
hand = [o["id"] for o in game.hand(0) if o["name"] == "Doom"]
move = next(m for m in game.actions() if m.kind == "CastSpell" and m.object_id in hand)
game.apply(0, move)
if game.waiting_for()["type"] == "TargetSelection":
    game.apply(0, {"type": "ChooseTarget", "data": {"target": {"Object": bear}}})
game.apply(0, {"type": "PassPriority"})
if game.priority_player() != 1:
    sys.exit("probe broke: player 1 should hold priority with Doom on the stack")
[activate] = [m for m in game.actions() if m.kind == "ActivateAbility"]
game.apply(1, activate)
if game.waiting_for()["type"] == "TargetSelection":
    game.apply(1, {"type": "ChooseTarget", "data": {"target": {"Object": bear}}})
# Both pass: the Jailer's ability resolves, Doom still waits.
while len(game.stack()) > 1:
    game.apply(game.priority_player(), {"type": "PassPriority"})
print(f"the Jailer's ability resolved, Doom waits: Bear {status(game, bear)}")
if status(game, bear) != "out:Directly":
    sys.exit(f"probe broke: the Bear is {status(game, bear)} after the Jailer's ability")

# Player 0 destroys the Jailer in a second response; the stack resolves.
cast(game, 0, "Kill", jailer)
zone = game.object(bear)["zone"]
print(
    f"Jailer on the {game.object(jailer)['zone']}, stack resolved: Bear {status(game, bear)} "
    f"on the {zone} (610.4, 502.15n: phased in as the Jailer left, then destroyed by Doom)"
)
if zone == "Graveyard":
    print("phase.rs now phases the target back in while its spell waits")
    sys.exit(1)
print(
    "LIMITATION: the target phased out 'until' the Jailer leaves stays out when it leaves (D10), "
    "so no move phases a waiting spell's target back in"
)
