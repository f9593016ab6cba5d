"""D16 — R2017-skip-untap (611.2a, 500.1): "until your next turn" ends as that
turn begins, whether or not its untap step is skipped. phase.rs ends such
effects in the untap step: when player 0 skips it, Teferi's Protection's
"your life total can't change" outlasts the start of player 0's turn.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast_untargeted, next_main_phase, start, to_hand

TEFERIS_PROTECTION = (
    "Until your next turn, your life total can't change and you gain protection from "
    "everything. All permanents you control phase out."
)
cards = [
    card("Teferi's Protection", TEFERIS_PROTECTION, types=("Instant",)),
    card("Salve", "You gain 1 life.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Teferi's Protection", "Salve"] + ["Filler"] * 9, ["Filler"] * 10]
engine, exported = start(cards, decks, active=0)
# Player 0 holds Teferi's Protection and a Salve, and skips their next untap
# step (the engine's own record of "skip your next untap step").
to_hand(exported, "Teferi's Protection")
to_hand(exported, "Salve")
exported["state"]["steps_to_skip"][0]["Untap"] = 1
game = engine.load_game(exported)

cast_untargeted(game, 0, "Teferi's Protection")
next_main_phase(game)  # player 1's turn
next_main_phase(game)  # player 0's next turn, its untap step skipped
if game.state()["state"]["active_player"] != 0:
    sys.exit("setup broke: it is not player 0's turn")
cast_untargeted(game, 0, "Salve")
life = game.player(0)["life"]
print(f"turn {game.turn}, player 0's: life after the Salve {life}")
if life == 21:
    print("conformant: Teferi's Protection ended as player 0's turn began")
    sys.exit(1)
print(
    "DEVIATION D16: player 0's untap step was skipped, and Teferi's Protection's "
    "'your life total can't change' outlasted the start of player 0's turn"
)
