"""D15 — R2017-replaced-by-life (614.1a, 121.1): "If an opponent would draw a
card, that player gains 2 life instead": the opponent who would draw gains
the life. phase.rs gives the 2 life to the replacement's controller.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast_untargeted, place, start, to_hand

FONT = "If an opponent would draw a card, that player gains 2 life instead."
cards = [
    card("Font", FONT, types=("Enchantment",)),
    card("Study", "Draw a card.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Study"] + ["Filler"] * 9, ["Font"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 1 controls the Font; player 0 holds "Draw a card."
place(exported, "Font")
to_hand(exported, "Study")
game = engine.load_game(exported)

events = cast_untargeted(game, 0, "Study")
lives = [game.player(p)["life"] for p in (0, 1)]
drawn = [e for e in events if e["type"] == "CardDrawn"]
print(f"life totals after player 0's draw was replaced: {lives}; cards drawn {len(drawn)}")
if lives == [22, 20]:
    print("conformant: player 0, who would have drawn, gained the 2 life")
    sys.exit(1)
print("DEVIATION D15: the 2 life went to player 1, the Font's controller, not to player 0")
