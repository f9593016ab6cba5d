"""D17, outside the suite's observations — 603.2, 702.26a: "whenever this
phases in" triggers when its permanent phases in, whatever happened in the
turn before. In phase.rs, when the active player discards to hand size in
the cleanup step (514.1), the next untap step still phases the permanent in
but its "whenever this phases in" ability never triggers. Outside what the
suite observes (its scenarios hold no hand-size discards: the adapter keeps
hands at 7 or fewer so its phase-in triggers stay judgeable); found while
adding opening hands for discard.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import DIRECT, card, next_main_phase, place, start, status

TRIGGER_LIFE = 3


def life_after_phasing_in(hand: int) -> tuple[int, str, int]:
    """Player 1 (active) holds `hand` cards and ends their turn; player 0's
    Bear, phased out, phases in in player 0's untap step and should gain
    them 3 life. Returns (cards player 1 discarded, the Bear's status,
    player 0's life)."""
    cards = [
        card("Bear", "Whenever this creature phases in, you gain 3 life.", pt=(2, 2)),
        card("Filler", pt=(1, 1)),
    ]
    engine, exported = start(cards, [["Bear"] + ["Filler"] * 15, ["Filler"] * 20], active=1)
    bear = place(exported, "Bear", controller=0, base_controller=0, owner=0, phase_status=DIRECT)
    state = exported["state"]
    p1 = state["players"][1]
    for oid in p1["library"][:hand]:
        state["objects"][str(oid)]["zone"] = "Hand"
    p1["hand"], p1["library"] = p1["library"][:hand], p1["library"][hand:]
    game = engine.load_game(exported)
    events = next_main_phase(game)
    discarded = sum(e["type"] == "Discarded" for e in events)
    return discarded, status(game, bear), game.player(0)["life"]


kept, status_kept, life_kept = life_after_phasing_in(7)
discarded, status_discarded, life_discarded = life_after_phasing_in(9)
for hand, (n, bear, life) in (
    (7, (kept, status_kept, life_kept)),
    (9, (discarded, status_discarded, life_discarded)),
):
    print(f"hand of {hand}: {n} discarded, the Bear {bear}, player 0's life {life}")
if (kept, discarded, life_kept) != (0, 2, 20 + TRIGGER_LIFE) or status_discarded != status_kept:
    sys.exit("setup broke: the control game didn't play as expected")
if life_discarded == 20 + TRIGGER_LIFE:
    print("conformant: the Bear's phase-in trigger fired after the cleanup discard")
    sys.exit(1)
print(
    "DEVIATION D17: after player 1 discarded to hand size in cleanup, the Bear "
    "phased in in player 0's untap step and its 'whenever this phases in' never triggered"
)
