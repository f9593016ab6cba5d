"""D2 — 702.26b / R2017-nonexistent: a phased-out permanent is treated as
though it doesn't exist, so its activated abilities can't be activated;
phase.rs offers and resolves the {T} ability of a phased-out artifact.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import DIRECT, card, place, resolve_stack, start

cards = [
    card("Life Tapper", "{T}: You gain 1 life.", types=("Artifact",)),
    card("Filler", pt=(1, 1)),
]
engine, exported = start(cards, [["Life Tapper"] + ["Filler"] * 9, ["Filler"] * 10], active=0)
# Player 0's main phase; player 0 controls an untapped, phased-out artifact.
tapper = place(exported, "Life Tapper", tapped=False, phase_status=DIRECT)
game = engine.load_game(exported)

offered = [
    m for m in game.actions() if m.kind == "ActivateAbility" and m.data.get("source_id") == tapper
]
print(f"activations offered for the phased-out artifact: {len(offered)}")
if not offered:
    print("conformant: a phased-out permanent's ability can't be activated (702.26b)")
    sys.exit(1)
game.apply(0, offered[0])
resolve_stack(game)
print(f"tapped={game.object(tapper)['tapped']}, life={game.player(0)['life']}")
print("DEVIATION D2: the {T} ability of a phased-out permanent was activated and resolved")
