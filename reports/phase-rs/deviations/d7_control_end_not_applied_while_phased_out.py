"""D7 — 702.26f: a control effect can end while the permanent is phased out;
from then on its owner controls it (it phases in at the former controller's
untap step, R2017-control). phase.rs ends the effect but keeps the former
controller as the permanent's controller until it phases in, and the former
controller's untap step, where it phases in, also untaps it (502.3: the
active player untaps only what they control once phasing is done).

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
# Player 0's main phase; player 1 controls a tapped creature; player 0 holds
# "Gain control of target creature until end of turn." and a phase-out spell.
bear = place(exported, "Bear", controller=1, base_controller=1, tapped=True)
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
stale = controller == 0
next_main_phase(game)  # player 0's untap step: the bear phases in (R2017-control)
back = game.object(bear)
print(
    f"player 0's turn: bear {status(game, bear)}, controlled by {back['controller']}, "
    f"tapped {back['tapped']} (502.3: player 0 doesn't untap player 1's bear)"
)
if status(game, bear) != "in":
    sys.exit("setup broke: the bear should have phased in at player 0's untap step")
untapped = not back["tapped"]
if not stale and not untapped:
    print("conformant: its owner controls it once the effect ended (702.26f)")
    sys.exit(1)
print(
    "DEVIATION D7: the control effect ended while the creature was phased out, but phase.rs "
    f"still has player 0 controlling it: shown as player 0's={stale}, "
    f"untapped by player 0's untap step={untapped}"
)
