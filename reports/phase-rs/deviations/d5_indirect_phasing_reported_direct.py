"""D5 — 702.26h (event only): an Aura or Equipment with phasing on a host
with phasing phases out indirectly; phase.rs ends in the right state but its
PermanentPhasedOut event says indirect=false when the attachment comes before
its host in the battlefield order. Shown twice: an Aura in a hand-made
position, and an Equipment the engine attached itself through its Equip
ability.

Standalone: needs only phase-python and minimal_game.py beside it.
Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import sys
from typing import Any

from minimal_game import attach, aura, card, next_main_phase, place, resolve_stack, start, status

BEAR = card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1))
FILLER = card("Filler", pt=(1, 1))
BLADE = card(
    "Phasing Blade",
    "Phasing\nEquip {0}",
    types=("Artifact",),
    subtypes=["Equipment"],
    keywords=["Phasing", "Equip"],
)


def indirect_flags(events: list[dict[str, Any]], oid: int) -> list[bool]:
    return [
        e["data"]["indirect"]
        for e in events
        if e["type"] == "PermanentPhasedOut" and e["data"]["object_id"] == oid
    ]


def aura_case() -> tuple[str, list[bool]]:
    """Player 1's main phase; player 0 controls a creature with phasing and
    an Aura with phasing on it, the Aura first in the battlefield order."""
    cards = [BEAR, aura("Phasing Charm", phasing=True), FILLER]
    decks = [["Phasing Bear", "Phasing Charm"] + ["Filler"] * 8, ["Filler"] * 10]
    engine, exported = start(cards, decks, active=1)
    charm = place(exported, "Phasing Charm")
    bear = place(exported, "Phasing Bear")
    attach(exported, charm, bear)
    game = engine.load_game(exported)
    events = next_main_phase(game)  # player 0's untap step: both phase out
    return status(game, charm), indirect_flags(events, charm)


def equipment_case() -> tuple[str, list[bool]]:
    """Player 0's main phase; player 0 controls an unattached Equipment with
    phasing and a creature with phasing, and activates Equip {0}."""
    cards = [BEAR, BLADE, FILLER]
    decks = [["Phasing Bear", "Phasing Blade"] + ["Filler"] * 8, ["Filler"] * 10]
    engine, exported = start(cards, decks, active=0)
    blade = place(exported, "Phasing Blade")
    bear = place(exported, "Phasing Bear")
    game = engine.load_game(exported)
    [equip] = [m for m in game.actions() if m.kind == "ActivateAbility"]
    game.apply(0, equip)
    if game.waiting_for()["type"] == "TargetSelection":
        game.apply(0, {"type": "ChooseTarget", "data": {"target": {"Object": bear}}})
    resolve_stack(game)
    if game.object(blade)["attached_to"] != {"type": "Object", "data": bear}:
        sys.exit(
            f"setup broke: Equip left the Blade attached to {game.object(blade)['attached_to']}"
        )
    next_main_phase(game)  # player 1's turn
    events = next_main_phase(game)  # player 0's untap step: both phase out
    return status(game, blade), indirect_flags(events, blade)


wrong = []
for name, (final, flags) in (("Aura", aura_case()), ("Equipment", equipment_case())):
    print(f"{name}: final state {final}, PermanentPhasedOut indirect flags {flags}")
    if final != "out:Indirectly":
        sys.exit(f"setup broke: the {name} is {final}")
    if flags != [True]:
        wrong.append(name)
if not wrong:
    print("conformant: the events say the attachments phased out indirectly (702.26h)")
    sys.exit(1)
print(
    f"DEVIATION D5: the engine's event reports the {' and the '.join(wrong)} as phasing out "
    "directly, though it phased out indirectly (702.26h)"
)
