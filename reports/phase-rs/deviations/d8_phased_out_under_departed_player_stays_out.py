"""D8 — 702.26n, 800.4a: a permanent that phased out under a player who then
left the game phases in at the next untap step after that player's next turn
would have begun, and the control effects giving it to that player end.
phase.rs leaves it phased out for good, still controlled by the departed
player.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, place, start, status, to_hand

cards = [
    card("Bear", pt=(1, 1)),
    card("Steal", "Gain control of target creature.", types=("Instant",)),
    card("Blink", "Target permanent phases out.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Filler"] * 10, ["Steal", "Blink"] + ["Filler"] * 8, ["Bear"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=1)
# A 3-player game in player 1's main phase; player 2 controls a creature;
# player 1 holds "Gain control of target creature." and a phase-out spell.
bear = place(exported, "Bear", controller=2, base_controller=2)
to_hand(exported, "Steal")
to_hand(exported, "Blink")
game = engine.load_game(exported)

cast(game, 1, "Steal", bear)
cast(game, 1, "Blink", bear)  # phased out under player 1
next_main_phase(game)  # player 2's turn
game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
for _ in range(3):  # player 0's turn, then player 1's would have begun, then player 2's
    next_main_phase(game)
    print(
        f"turn {game.turn}, player {game.state()['state']['active_player']} active: "
        f"bear {status(game, bear)}, controlled by {game.object(bear)['controller']}"
    )
if not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 1 is still in the game")
if status(game, bear) == "in":
    print("conformant: it phased in after player 1's turn would have begun (702.26n)")
    sys.exit(1)
print(
    "DEVIATION D8: the creature that phased out under player 1, who left the game, "
    "never phases in, and is still controlled by player 1"
)
