"""D10 — 610.4: "phases out until this leaves the battlefield" is played as
a plain phase-out. phase.rs parses the duration (UntilHostLeavesPlay) on its
own "Target creature phases out until this artifact leaves the battlefield."
ability, phases the target out, and then ignores the duration: the creature
phases in at its controller's next untap step while the artifact is still on
the battlefield; and when the artifact leaves first, the creature doesn't
phase in as it leaves.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys
from typing import Any

from minimal_game import card, cast, next_main_phase, place, resolve_stack, start, status, to_hand

JAILER_TEXT = "{0}: Target creature phases out until this artifact leaves the battlefield."
cards = [
    card("Jailer", JAILER_TEXT, types=("Artifact",)),
    card("Bear", pt=(1, 1)),
    card("Kill", "Destroy target artifact.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
[jailer_face] = [face for name, face in cards if name == "jailer"]
if jailer_face["abilities"][0]["duration"] != "UntilHostLeavesPlay":
    sys.exit(f"setup broke: the engine parsed {jailer_face['abilities'][0]}")


def jail(kill_jailer: bool) -> tuple[Any, int, int]:
    """Player 0 activates the Jailer on player 1's Bear; with `kill_jailer`
    player 0 then destroys the Jailer. Returns the game, Jailer and Bear."""
    decks = [["Jailer", "Kill"] + ["Filler"] * 8, ["Bear"] + ["Filler"] * 9]
    engine, exported = start(cards, decks, active=0)
    # Player 0's main phase: player 0 controls the Jailer, player 1 the Bear.
    jailer = place(exported, "Jailer")
    bear = place(exported, "Bear", controller=1, base_controller=1)
    to_hand(exported, "Kill")
    game = engine.load_game(exported)
    [move] = [m for m in game.actions() if m.kind == "ActivateAbility"]
    game.apply(0, move)
    if game.waiting_for()["type"] == "TargetSelection":
        game.apply(0, {"type": "ChooseTarget", "data": {"target": {"Object": bear}}})
    resolve_stack(game)
    if status(game, bear) != "out:Directly":
        sys.exit(f"setup broke: the Bear is {status(game, bear)} after the ability")
    if kill_jailer:
        cast(game, 0, "Kill", jailer)
    return game, jailer, bear


game, jailer, bear = jail(kill_jailer=False)
next_main_phase(game)  # player 1's turn: their untap step has happened
waited = status(game, bear) != "in"
print(
    f"player 1's turn, Jailer on the {game.object(jailer)['zone']}: Bear {status(game, bear)} "
    "(610.4: stays out while the Jailer is there)"
)
game, jailer, bear = jail(kill_jailer=True)
returned = status(game, bear) == "in"
print(
    f"Jailer destroyed ({game.object(jailer)['zone']}): Bear {status(game, bear)} "
    "(610.4: phases in as the Jailer leaves)"
)
if waited and returned:
    print("conformant: the Bear waits for the Jailer and comes back as it leaves (610.4)")
    sys.exit(1)
print(
    "DEVIATION D10: 'phases out until this leaves the battlefield' is a plain phase-out: "
    f"waits for its source={waited}, phases in as its source leaves={returned}"
)
