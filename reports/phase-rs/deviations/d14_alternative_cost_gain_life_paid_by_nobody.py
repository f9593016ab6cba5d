"""D14 — R2017-gain-life-cost (118.9, 119.10): a spell cast for Invigorate's
alternative cost "you may have an opponent gain 3 life rather than pay this
spell's mana cost" makes an opponent gain 3 life (and can't be cast that way
if no opponent can gain life). phase.rs casts it for that cost and nobody
gains life.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast_untargeted, start, to_hand

GIFT = "You may have an opponent gain 3 life rather than pay this spell's mana cost.\nDraw a card."
cards = [card("Gift", GIFT, types=("Instant",)), card("Filler", pt=(1, 1))]
cards[0][1]["mana_cost"] = {"type": "Cost", "shards": [], "generic": 5}
decks = [["Gift"] + ["Filler"] * 9, ["Filler"] * 10]
engine, exported = start(cards, decks, active=0)
# Player 0 holds the Gift and has no mana: only the alternative cost casts it.
to_hand(exported, "Gift")
game = engine.load_game(exported)

events = cast_untargeted(game, 0, "Gift", alternative_cost=True)
if not any(e["type"] == "SpellCast" for e in events):
    sys.exit("setup broke: the Gift was not cast")
lives = [game.player(p)["life"] for p in (0, 1)]
print(f"life totals after casting the Gift for its alternative cost: {lives}")
if lives == [20, 23]:
    print("conformant: the opponent gained 3 life as the spell's cost")
    sys.exit(1)
print("DEVIATION D14: the Gift was cast for 'an opponent gains 3 life' and nobody gained life")
