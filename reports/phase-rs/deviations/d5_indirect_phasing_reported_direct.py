"""D5 — 702.26h (event only): an Aura with phasing on a host with phasing
phases out indirectly; phase.rs ends in the right state but its
PermanentPhasedOut event says indirect=false when the Aura comes before its
host in the battlefield order (a hand-made position).

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys

from minimal_game import attach, aura, card, next_main_phase, place, start, status

cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1)),
    aura("Phasing Charm", phasing=True),
    card("Filler", pt=(1, 1)),
]
decks = [["Phasing Bear", "Phasing Charm"] + ["Filler"] * 8, ["Filler"] * 10]
engine, exported = start(cards, decks, active=1)
# Player 1's main phase. Player 0 controls a creature with phasing and an Aura
# with phasing on it; the Aura comes first in the engine's battlefield order.
charm = place(exported, "Phasing Charm")
bear = place(exported, "Phasing Bear")
attach(exported, charm, bear)
game = engine.load_game(exported)

events = next_main_phase(game)  # player 0's untap step: both phase out
reported = [
    e["data"]["indirect"]
    for e in events
    if e["type"] == "PermanentPhasedOut" and e["data"]["object_id"] == charm
]
print(f"Aura: final state {status(game, charm)}, PermanentPhasedOut indirect flags {reported}")
if status(game, charm) != "out:Indirectly":
    sys.exit(f"setup broke: the Aura is {status(game, charm)}")
if reported == [True]:
    print("conformant: the event says the Aura phased out indirectly (702.26h)")
    sys.exit(1)
print(
    "DEVIATION D5: the engine's event reports the Aura as phasing out directly, "
    "though it phased out indirectly (702.26h)"
)
