"""Probe for `loss-replacement` (614.1a, R2017-life-replacement, its loss
half): phase.rs has no replacement of an opponent's life loss by draws.

"If an opponent would lose life, you draw that many cards instead." is
written like the adapter's `gain_to_draw` ("If an opponent would gain life,
you draw that many cards instead.", which phase.rs parses into a GainLife
replacement drawing EventContextAmount cards). phase.rs's parser leaves it
Unimplemented. Reworded "..., instead you draw that many cards." it parses
into a LoseLife replacement with nothing to execute: the draw is dropped,
and the replacement doesn't apply either.

Each wording is cast by player 0 through the engine's own moves, then
player 0 casts "Each opponent loses 2 life.": the rules replace player 1's
life loss with player 0 drawing 2 cards (614.1a). With either wording
phase.rs lets player 1 lose the life, and nobody draws.

Standalone: phase-python and reports/phase-rs/deviations/minimal_game.py
(phase API only). Exit 0 = the limitation is still there, 1 = phase.rs now
has a way, anything else = the probe broke.
"""

import sys
from pathlib import Path

# The deviation reproducers' helpers (phase API only, no phasecert imports).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "reports/phase-rs/deviations"))
from minimal_game import card, cast_untargeted, start, to_hand

WORDINGS = (
    "If an opponent would lose life, you draw that many cards instead.",
    "If an opponent would lose life, instead you draw that many cards.",
)
DRAIN = "Each opponent loses 2 life."
replaced = False
for text in WORDINGS:
    cards = [
        card("Ward", text, types=("Enchantment",)),
        card("Drain", DRAIN, types=("Instant",)),
        card("Filler", pt=(1, 1)),
    ]
    [ward_face] = [face for name, face in cards if name == "ward"]
    print(f"'{text}' parses to replacements {ward_face['replacements']}")
    # Player 0's main phase: Ward and Drain in player 0's hand.
    engine, exported = start(cards, [["Ward", "Drain"] + ["Filler"] * 8, ["Filler"] * 10], active=0)
    to_hand(exported, "Ward")
    to_hand(exported, "Drain")
    game = engine.load_game(exported)
    cast_untargeted(game, 0, "Ward")
    ward = [o for o in game.state()["state"]["objects"].values() if o["name"] == "Ward"]
    if not ward or ward[0]["zone"] != "Battlefield":
        sys.exit("probe broke: Ward didn't resolve onto the battlefield")
    cast_untargeted(game, 0, "Drain")
    life = game.player(1)["life"]
    drawn = game.player(0)["cards_drawn_this_turn"]
    print(
        f"  player 0 casts Drain: player 1's life 20 -> {life}, player 0 drew {drawn} "
        "(614.1a: 20, 2)"
    )
    replaced = replaced or (life == 20 and drawn == 2)
if replaced:
    print("phase.rs now replaces an opponent's life loss with draws")
    sys.exit(1)
print(
    "LIMITATION: phase.rs parses no 'if an opponent would lose life, you draw that many cards "
    "instead': the life is lost and nobody draws"
)
