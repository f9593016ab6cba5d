"""D2 — 702.26b / R2017-nonexistent: a phased-out permanent is treated as
though it doesn't exist, so its activated abilities can't be activated;
phase.rs offers and resolves the {T} ability of a phased-out artifact.

Standalone: needs only phase-python. Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import json
import sys
from typing import Any

import phase

DIRECT = {"status": "PhasedOut", "cause": "Directly"}


def card(
    name: str,
    text: str = "",
    types: tuple[str, ...] = ("Creature",),
    subtypes: list[str] | tuple[()] = (),
    keywords: list[str] | tuple[()] = (),
    pt: tuple[int, int] | None = None,
) -> tuple[str, dict[str, Any]]:
    """An invented card in the MTGJSON shape, parsed by the engine itself."""
    data = {
        "name": name,
        "manaCost": "{0}",
        "types": list(types),
        "subtypes": list(subtypes),
        "supertypes": [],
        "text": text,
        "layout": "normal",
        "colors": [],
        "colorIdentity": [],
        "keywords": list(keywords),
        "manaValue": 0.0,
        "convertedManaCost": 0.0,
        "legalities": {"standard": "Legal"},
        "identifiers": {},
        "foreignData": [],
        "printings": ["PCT"],
        "rulings": [],
        "type": " ".join(types),
    }
    if pt:
        data["power"], data["toughness"] = str(pt[0]), str(pt[1])
    return name.lower(), phase.build_oracle_face(data, None)


def start(
    cards: list[tuple[str, dict[str, Any]]], decks: list[list[str]], active: int
) -> tuple[Any, dict[str, Any]]:
    """A new game with these decks and empty hands (so no discards), as an
    exported state in `active`'s main phase with every card in a library."""
    engine = phase.Engine.from_json(json.dumps(dict(cards)))
    game = engine.new_game(
        decks[0],
        decks[1],
        extra_players=decks[2:] or None,
        seed=1,
        format="FreeForAll" if len(decks) > 2 else "Standard",
        first_player=active,
    )
    while (waiting := game.waiting_for())["type"] == "MulliganDecision":
        game.apply(
            waiting["data"]["pending"][0]["player"],
            {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}},
        )
    exported = game.state()
    state = exported["state"]
    for player in state["players"]:
        for oid in player["hand"]:
            state["objects"][str(oid)]["zone"] = "Library"
        player["library"], player["hand"] = player["hand"] + player["library"], []
    state.update(
        active_player=active,
        priority_player=active,
        phase="PreCombatMain",
        waiting_for={"type": "Priority", "data": {"player": active}},
    )
    return engine, exported


def place(exported: dict[str, Any], name: str, **fields: Any) -> int:
    """Starting position only: put the card `name` onto the battlefield with
    these object fields; returns its id."""
    state = exported["state"]
    oid = next(
        int(k) for k, o in state["objects"].items() if o["name"] == name and o["zone"] == "Library"
    )
    for player in state["players"]:
        player["library"] = [i for i in player["library"] if i != oid]
    state["objects"][str(oid)].update(zone="Battlefield", summoning_sick=False, **fields)
    state["battlefield"].append(oid)
    return oid


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
while game.stack():
    game.apply(game.priority_player(), {"type": "PassPriority"})
print(f"tapped={game.object(tapper)['tapped']}, life={game.player(0)['life']}")
print("DEVIATION D2: the {T} ability of a phased-out permanent was activated and resolved")
