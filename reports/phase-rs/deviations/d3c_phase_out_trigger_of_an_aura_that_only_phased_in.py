"""D3c — 603.10b, 702.26a: D3b's phantom phase-out triggers "whenever this
phases out". In player 0's untap step, a directly phased-out Aura phases in
as its host phases out (702.26a: one simultaneous event), so by the rules it
only phased in and its "Whenever this Aura phases out" ability has nothing to
trigger on (603.10b looks back at phase-outs that happened). phase.rs phases
it in, then out again "indirectly" with its host (D3b), and the ability
triggers: player 0 gains its life once.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import json
import sys

from minimal_game import DIRECT, attach, card, next_main_phase, place, start

LIFE = 128
cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1)),
    card(
        "Watchful Charm",
        f"Enchant permanent\nWhenever this Aura phases out, you gain {LIFE} life.",
        types=("Enchantment",),
        subtypes=["Aura"],
        keywords=["Enchant"],
    ),
    card("Filler", pt=(1, 1)),
]
if any(m in json.dumps(cards[1][1]) for m in ('"Unimplemented"', '"Unknown"')):
    sys.exit("setup broke: the engine did not parse the Aura's trigger")
engine, exported = start(
    cards, [["Phasing Bear", "Watchful Charm"] + ["Filler"] * 8, ["Filler"] * 10], active=1
)
# Player 1's main phase. Player 0 controls a phased-in creature with phasing
# and, attached to it, an Aura that phased out directly under player 0.
bear = place(exported, "Phasing Bear")
charm = place(exported, "Watchful Charm", phase_status=DIRECT)
attach(exported, charm, bear)
game = engine.load_game(exported)

before = game.player(0)["life"]
events = next_main_phase(game)  # player 0's untap step: bear out and Aura in, at once
gained = game.player(0)["life"] - before
phasing = [(e["type"], e["data"]) for e in events if e["type"].startswith("PermanentPhased")]
print(f"untap step events: {phasing}")
print(f"player 0's life: {before} -> {before + gained}")
if not any(e == ("PermanentPhasedOut", {"object_id": bear, "indirect": False}) for e in phasing):
    sys.exit("setup broke: the bear did not phase out")
if gained == 0:
    print("conformant: the Aura only phased in; its phase-out ability did not trigger (603.10b)")
    sys.exit(1)
if gained != LIFE:
    sys.exit(f"setup broke: player 0 gained {gained} life, not {LIFE}")
print(f"DEVIATION D3c: the Aura that phased in triggered 'whenever this phases out' (+{LIFE} life)")
