"""D3b — 702.26a: in the untap step, phasing out and phasing in happen at
once, so a permanent that phases in doesn't also phase out in that step.
phase.rs phases a directly phased-out Aura in and then out again
("indirectly") when its host phases out in the same untap step.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import DIRECT, attach, aura, card, next_main_phase, place, start, status

cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1)),
    aura("Charm"),
    card("Filler", pt=(1, 1)),
]
engine, exported = start(
    cards, [["Phasing Bear", "Charm"] + ["Filler"] * 8, ["Filler"] * 10], active=1
)
# Player 1's main phase. Player 0 controls a phased-in creature with phasing
# and, attached to it, an Aura that phased out directly under player 0.
bear = place(exported, "Phasing Bear")
charm = place(exported, "Charm", phase_status=DIRECT)
attach(exported, charm, bear)
game = engine.load_game(exported)

events = next_main_phase(game)  # player 0's untap step: bear out and Aura in, at once
phasing = [(e["type"], e["data"]) for e in events if e["type"].startswith("PermanentPhased")]
print(f"untap step events: {phasing}")
print(f"after player 0's untap step: bear {status(game, bear)}, Aura {status(game, charm)}")
if status(game, bear) == "in":
    sys.exit("setup broke: the bear did not phase out")
if status(game, charm) == "in" or game.object(charm)["zone"] != "Battlefield":
    print("conformant: the Aura phased in and did not also phase out (702.26a)")
    sys.exit(1)
print("DEVIATION D3b: the Aura phased in and then out again in the same untap step")
