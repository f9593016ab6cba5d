"""D13 — R2017-unpreventable (615.12, 702.15b): "~ deals 2 damage to each
opponent. This damage can't be prevented." deals its damage to a player with
protection from everything; with lifelink its controller gains 2 life, though
the protected player's life total doesn't change. phase.rs resolves "this
damage can't be prevented" after the damage, as a separate step: the damage
is prevented by protection and lifelink gains nothing.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast_untargeted, start, to_hand

DRAIN = "Lifelink\nDrain deals 2 damage to each opponent. This damage can't be prevented."
TEFERIS_PROTECTION = (
    "Until your next turn, your life total can't change and you gain protection from "
    "everything. All permanents you control phase out."
)
cards = [
    card("Teferi's Protection", TEFERIS_PROTECTION, types=("Instant",)),
    card("Drain", DRAIN, types=("Instant",), keywords=["Lifelink"]),
    card("Filler", pt=(1, 1)),
]
decks = [["Teferi's Protection"] + ["Filler"] * 9, ["Drain"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0 holds Teferi's Protection, player 1 the unpreventable lifelink Drain.
to_hand(exported, "Teferi's Protection")
to_hand(exported, "Drain")
game = engine.load_game(exported)

cast_untargeted(game, 0, "Teferi's Protection")
game.apply(0, {"type": "PassPriority"})  # player 1 gets priority
cast_untargeted(game, 1, "Drain")
lives = [game.player(p)["life"] for p in (0, 1)]
print(f"life totals after the Drain: {lives}")
if lives[0] != 20:
    sys.exit("setup broke: player 0's life total changed")
if lives[1] == 22:
    print("conformant: the damage was dealt and lifelink gained player 1 2 life")
    sys.exit(1)
print(
    "DEVIATION D13: the unpreventable damage to player 0 (protection from everything) "
    "was prevented: lifelink gained player 1 nothing"
)
