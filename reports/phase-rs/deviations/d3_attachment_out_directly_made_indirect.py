"""D3 — 702.26a / 702.26g: an Aura that already phased out directly, under
its controller, phases in at that player's next untap step; its host
phasing out later can't phase it out again. phase.rs re-marks it as phased
out "indirectly" when the host phases out, and it never phases in.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import DIRECT, attach, aura, card, next_main_phase, place, start, status

cards = [
    card("Phasing Relic", "Phasing", types=("Artifact",), keywords=["Phasing"]),
    aura("Charm"),
    card("Filler", pt=(1, 1)),
]
engine, exported = start(
    cards, [["Charm"] + ["Filler"] * 9, ["Phasing Relic"] + ["Filler"] * 9], active=0
)
# Player 0's main phase. Player 1 controls an artifact with phasing; player
# 0's Aura on it is already phased out, directly, under player 0.
relic = place(exported, "Phasing Relic", controller=1, base_controller=1)
charm = place(exported, "Charm", phase_status=DIRECT)
attach(exported, charm, relic)
game = engine.load_game(exported)

next_main_phase(game)  # player 1's untap step: the relic phases out
print(f"after player 1's untap step: relic {status(game, relic)}, Aura {status(game, charm)}")
next_main_phase(game)  # player 0's untap step: the Aura phased out under 0
print(f"after player 0's untap step: Aura {status(game, charm)}")
if status(game, relic) == "in":
    sys.exit("setup broke: the relic did not phase out")
if status(game, charm) != "out:Indirectly":
    print("conformant: the Aura phased in at its controller's untap step (702.26a)")
    sys.exit(1)
print(
    "DEVIATION D3: the already phased-out Aura was re-marked as phased out indirectly "
    "with its host, and did not phase in at its controller's untap step"
)
