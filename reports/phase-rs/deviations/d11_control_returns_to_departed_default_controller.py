"""D11 — 800.4c: player 0 owns an artifact that entered under player 1
(player 1 controls it by default, 110.2); player 0 gains control of it
until end of turn; player 1 leaves the game. When player 0's effect ends,
no effect gives the artifact to a player in the game and the player who
would control it by default has left, so it is exiled (800.4c). phase.rs
gives it back to player 1, who is no longer in the game.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, place, start, to_hand

cards = [
    card("Relic", types=("Artifact",)),
    card("Borrow", "Gain control of target artifact until end of turn.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Relic", "Borrow"] + ["Filler"] * 8, ["Filler"] * 10, ["Filler"] * 10]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase, three players: player 0 owns the Relic, which
# entered under player 1's control; player 0 holds Borrow.
relic = place(exported, "Relic", controller=1, base_controller=1)
to_hand(exported, "Borrow")
game = engine.load_game(exported)
if game.object(relic)["owner"] != 0:
    sys.exit("setup broke: player 0 should own the Relic")

cast(game, 0, "Borrow", relic)
game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
if game.object(relic)["controller"] != 0 or not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 0 should control the Relic and player 1 be gone")
next_main_phase(game)  # cleanup ends player 0's effect; player 2's turn
relic_now = game.object(relic)
print(
    f"player 2's turn: Relic in {relic_now['zone']}, controlled by {relic_now['controller']} "
    "(800.4c: exiled, its default controller has left)"
)
if relic_now["zone"] == "Exile":
    print("conformant: the Relic is exiled once player 0's control effect ended (800.4c)")
    sys.exit(1)
print(
    "DEVIATION D11: player 0's control effect ended and the Relic went back to player 1, "
    f"who left the game (zone {relic_now['zone']}, controller {relic_now['controller']})"
)
