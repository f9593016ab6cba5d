"""D1 — 702.26b / 502.3: a tapped permanent that phases out in its
controller's untap step stays tapped (nothing happens to a phased-out
permanent in the untap step but phasing); phase.rs untaps it.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, next_main_phase, place, start, status

cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(2, 2)),
    card("Filler", pt=(1, 1)),
]
engine, exported = start(cards, [["Phasing Bear"] + ["Filler"] * 9, ["Filler"] * 10], active=1)
# Player 1's main phase; player 0 controls a TAPPED creature with phasing.
bear = place(exported, "Phasing Bear", tapped=True)
game = engine.load_game(exported)

next_main_phase(game)  # player 0's untap step: the engine phases the bear out
tapped = game.object(bear)["tapped"]
print(f"after player 0's untap step: {status(game, bear)}, tapped={tapped}")
if status(game, bear) == "in":
    sys.exit("setup broke: the bear did not phase out")
if tapped:
    print("conformant: the phased-out permanent stayed tapped (702.26b)")
    sys.exit(1)
print("DEVIATION D1: the permanent phased out and was then untapped in the same untap step")
