"""D9 — 800.4m (not phasing itself): an effect lasting "until [a player's] next
turn" whose player left the game lasts until that turn would have begun.
phase.rs never ends it: player 1's +1/+1 "until your next turn" is still
there after player 1's turn would have begun.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, place, start, to_hand

cards = [
    card("Bear", pt=(1, 1)),
    card("Gift", "Target creature gets +1/+1 until your next turn.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Bear"] + ["Filler"] * 9, ["Gift"] + ["Filler"] * 9, ["Filler"] * 10]
engine, exported = start(cards, decks, active=1)
# A 3-player game in player 1's main phase; player 0 controls a 1/1; player 1
# holds "Target creature gets +1/+1 until your next turn."
bear = place(exported, "Bear")
to_hand(exported, "Gift")
game = engine.load_game(exported)

cast(game, 1, "Gift", bear)
next_main_phase(game)  # player 2's turn
game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
next_main_phase(game)  # player 0's turn
next_main_phase(game)  # player 1's turn would have begun; player 2's turn
size = (game.object(bear)["power"], game.object(bear)["toughness"])
print(f"turn {game.turn}, player {game.state()['state']['active_player']} active: bear {size}")
if not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 1 is still in the game")
if size == (1, 1):
    print("conformant: the boost ended when player 1's turn would have begun (800.4m)")
    sys.exit(1)
print(
    "DEVIATION D9: the 'until your next turn' boost of player 1, who left the game, "
    "outlasted the turn player 1 would have had"
)
