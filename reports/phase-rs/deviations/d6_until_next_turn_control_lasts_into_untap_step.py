"""D6 — 702.26a with a control duration: an effect lasting "until your next
turn" ends as that turn begins, before its untap step, so that player's
untap step doesn't phase out what the effect gave them. phase.rs ends it
after the untap step: a borrowed creature with phasing phases out under the
borrower (and later phases in under its owner at the borrower's untap step).

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, place, start, status, to_hand

cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1)),
    card("Borrow", "Gain control of target creature until your next turn.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Borrow"] + ["Filler"] * 9, ["Phasing Bear"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase; player 1 controls a creature with phasing; player 0
# holds "Gain control of target creature until your next turn."
bear = place(exported, "Phasing Bear", controller=1, base_controller=1)
to_hand(exported, "Borrow")
game = engine.load_game(exported)

cast(game, 0, "Borrow", bear)
print(f"player 0's turn: bear controlled by {game.object(bear)['controller']}")
next_main_phase(game)  # player 1's turn
next_main_phase(game)  # player 0's next turn: the effect ends as it begins
print(
    f"player 0's next turn: bear {status(game, bear)}, "
    f"controlled by {game.object(bear)['controller']}"
)
if status(game, bear) == "in":
    print("conformant: the control effect ended before player 0's untap step (702.26a)")
    sys.exit(1)
print(
    "DEVIATION D6: the control effect still applied in player 0's untap step, "
    "so player 1's creature phased out under player 0"
)
