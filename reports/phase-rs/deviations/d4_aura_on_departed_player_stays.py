"""D4 — 704.5m / 800.4a (not phasing itself): an Aura attached to a player
who left the game is attached to an illegal player and goes to its owner's
graveyard; phase.rs leaves it on the battlefield.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import attach, aura, card, place, resolve_stack, start

cards = [
    aura("Curse", "player"),
    card("Filler", pt=(1, 1)),
]
decks = [["Filler"] * 10, ["Filler"] * 10, ["Curse"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase in a 3-player game; player 2's Aura enchants player 1.
curse = place(exported, "Curse", controller=2, base_controller=2)
attach(exported, curse, 1, kind="Player")
game = engine.load_game(exported)

game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
resolve_stack(game)
after = game.object(curse)
print(
    f"player 1 eliminated: {game.player(1)['is_eliminated']}; "
    f"Aura zone {after['zone']}, attached to {after.get('attached_to')}"
)
if not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 1 is still in the game")
if after["zone"] != "Battlefield":
    print("conformant: the Aura left the battlefield (704.5m)")
    sys.exit(1)
print("DEVIATION D4: an Aura attached to a player who left the game stayed on the battlefield")
