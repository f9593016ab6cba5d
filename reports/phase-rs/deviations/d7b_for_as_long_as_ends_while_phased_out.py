"""D7b — 702.26f, R2017-for-as-long-as: "gain control for as long as you
control X" ends when X phases out; a stolen permanent phased out at that
moment is then its owner's (their default controller, 110.2), though it
phases in at the stealer's untap step (it phased out under them). phase.rs
ends the effect but keeps showing the stealer as its controller until it
phases in. Same root as D7: the controller of a phased-out permanent is not
recomputed.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, place, resolve_stack, start, status, to_hand

ANCHOR_TEXT = "{0}: Gain control of target permanent for as long as you control this artifact."
cards = [
    card("Anchor", ANCHOR_TEXT, types=("Artifact",)),
    card("Prize", types=("Artifact",)),
    card("Shelter", "All permanents you control phase out.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Prize"] + ["Filler"] * 9, ["Anchor", "Shelter"] + ["Filler"] * 8]
engine, exported = start(cards, decks, active=1)
# Player 1's main phase: player 1 controls the Anchor, player 0 the Prize.
anchor = place(exported, "Anchor", controller=1, base_controller=1)
prize = place(exported, "Prize", controller=0, base_controller=0)
to_hand(exported, "Shelter")
game = engine.load_game(exported)
[move] = [m for m in game.actions() if m.kind == "ActivateAbility"]
game.apply(1, move)
if game.waiting_for()["type"] == "TargetSelection":
    game.apply(1, {"type": "ChooseTarget", "data": {"target": {"Object": prize}}})
resolve_stack(game)
if game.object(prize)["controller"] != 1:
    sys.exit("setup broke: player 1 should control the Prize through the Anchor")

# The Anchor and the Prize phase out together: the effect ends (702.26f).
[shelter] = [o["id"] for o in game.hand(1) if o["name"] == "Shelter"]
[move] = [m for m in game.actions() if m.kind == "CastSpell" and m.object_id == shelter]
game.apply(1, move)
resolve_stack(game)
effects = game.state()["state"]["transient_continuous_effects"]
controller = game.object(prize)["controller"]
print(
    f"after Shelter: Anchor {status(game, anchor)}, Prize {status(game, prize)}, "
    f"Prize controlled by {controller}, control effects left: {len(effects)}"
)
if status(game, prize) == "in" or status(game, anchor) == "in" or effects:
    sys.exit("setup broke: both should be phased out and the control effect over")
if controller == 0:
    print("conformant: the Prize is its owner's once the effect ended (702.26f)")
    sys.exit(1)
print(
    "DEVIATION D7b: 'for as long as you control the Anchor' ended as the Anchor phased out, "
    "but phase.rs still shows the phased-out Prize as player 1's"
)
