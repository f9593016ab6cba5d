"""D6b — D6 on a token (702.26a, R2017-tokens): player 1 borrows player 0's
token with phasing "until your next turn". That effect ends as player 1's
next turn begins, before its untap step, so the token is player 0's again
and player 1's untap step doesn't phase it out; it phases out at player 0's
next untap step, and a phased-out token stays on the battlefield (702.26d,
704.5d). phase.rs ends the effect after the untap step's phasing: the token
phases out under player 1 and waits for player 1's untap step to phase in.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import card, cast, next_main_phase, resolve_stack, start, status, to_hand

SUMMON = "Create a 1/1 colorless Spirit creature token with phasing."
cards = [
    card("Summon", SUMMON, types=("Instant",)),
    card("Borrow", "Gain control of target creature until your next turn.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Summon"] + ["Filler"] * 9, ["Borrow"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase: player 0 holds Summon, player 1 holds Borrow.
to_hand(exported, "Summon")
to_hand(exported, "Borrow")
game = engine.load_game(exported)

[summon] = [o["id"] for o in game.hand(0) if o["name"] == "Summon"]
[move] = [m for m in game.actions() if m.kind == "CastSpell" and m.object_id == summon]
game.apply(0, move)
resolve_stack(game)
tokens = [o["id"] for o in game.battlefield() if o.get("is_token")]
if len(tokens) != 1 or "Phasing" not in game.object(tokens[0])["keywords"]:
    sys.exit(f"setup broke: expected one token with phasing, got {tokens}")
[token] = tokens
game.apply(0, {"type": "PassPriority"})  # player 1 gets priority
cast(game, 1, "Borrow", token)
if game.object(token)["controller"] != 1:
    sys.exit("setup broke: player 1 should control the token")

next_main_phase(game)  # player 1's turn: the effect ended as it began
shown = f"token {status(game, token)}, controlled by {game.object(token)['controller']}"
print(f"player 1's turn: {shown} (702.26a: player 0's again, not phased out)")
if status(game, token) == "in" and game.object(token)["controller"] == 0:
    print("conformant: the control effect ended before player 1's untap step (702.26a)")
    sys.exit(1)
print(
    "DEVIATION D6b: the control effect still applied in player 1's untap step, "
    "so player 0's token phased out under player 1"
)
