"""D12 — R2017-protection (Teferi's Protection, 702.16b, 611.2a): "Until your
next turn, ... you gain protection from everything" lasts until its caster's
next turn. phase.rs gives the protection until end of turn only (its life
clauses do last until that next turn): in the next player's turn, a spell
can target the caster.

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
    card("Bolt", "Bolt deals 1 damage to any target.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Teferi's Protection"] + ["Filler"] * 9, ["Bolt"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase, no permanents; player 0 holds Teferi's Protection,
# player 1 a Bolt.
to_hand(exported, "Teferi's Protection")
to_hand(exported, "Bolt")
game = engine.load_game(exported)

cast_untargeted(game, 0, "Teferi's Protection")
next_main_phase(game)  # player 1's turn: player 0's next turn hasn't begun
bolt = next(o["id"] for o in game.hand(1) if o["name"] == "Bolt")
move = next(m for m in game.actions() if m.kind == "CastSpell" and m.object_id == bolt)
events = game.apply(1, move).events
waiting = game.waiting_for()
legal = (
    waiting["data"]["selection"]["current_legal_targets"]
    if waiting["type"] == "TargetSelection"
    else []
)
picked = [e["data"]["target"] for e in events if e["type"] == "BecomesTarget"]
print(f"turn {game.turn}: Bolt's legal targets {legal}, picked by the engine {picked}")
if {"Player": 0} not in legal + picked:
    print("conformant: player 0 still has protection from everything (can't be targeted)")
    sys.exit(1)
print(
    "DEVIATION D12: player 0's protection from everything from Teferi's Protection "
    "ended before player 0's next turn: Bolt can target player 0"
)
