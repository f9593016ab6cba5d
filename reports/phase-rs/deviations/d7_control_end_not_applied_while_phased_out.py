"""D7 — 702.26f: a control effect can end while the permanent is phased out;
from then on its owner controls it (it phases in at the former controller's
untap step, R2017-control). phase.rs ends the effect but keeps the former
controller as the permanent's controller until it phases in.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, place, start, status, to_hand

cards = [
    card("Bear", pt=(1, 1)),
    card("Borrow", "Gain control of target creature until end of turn.", types=("Instant",)),
    card("Blink", "Target permanent phases out.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Borrow", "Blink"] + ["Filler"] * 8, ["Bear"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase; player 1 controls a creature; player 0 holds
# "Gain control of target creature until end of turn." and a phase-out spell.
bear = place(exported, "Bear", controller=1, base_controller=1)
to_hand(exported, "Borrow")
to_hand(exported, "Blink")
game = engine.load_game(exported)

cast(game, 0, "Borrow", bear)
cast(game, 0, "Blink", bear)
next_main_phase(game)  # cleanup ended the control effect; player 1's turn
effects = game.state()["state"]["transient_continuous_effects"]
controller = game.object(bear)["controller"]
print(
    f"player 1's turn: bear {status(game, bear)}, controlled by {controller}, "
    f"control effects left: {len(effects)}"
)
if status(game, bear) == "in" or effects:
    sys.exit("setup broke: the bear should be phased out and the effect over")
if controller == 1:
    print("conformant: its owner controls it once the effect ended (702.26f)")
    sys.exit(1)
print(
    "DEVIATION D7: the control effect ended while the creature was phased out, "
    "but phase.rs still has player 0 controlling it"
)
