"""D4 — 704.5m / 800.4a (not phasing itself): an Aura attached to a player
who left the game is attached to an illegal player and goes to its owner's
graveyard; phase.rs leaves it on the battlefield.

Standalone: needs only phase-python. Exit 0 = the deviation is still there,
1 = phase.rs now follows the rule, anything else = the script broke.
"""

import json
import sys
from typing import Any

import phase


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
    card(
        "Curse", "Enchant player", types=("Enchantment",), subtypes=["Aura"], keywords=["Enchant"]
    ),
    card("Filler", pt=(1, 1)),
]
decks = [["Filler"] * 10, ["Filler"] * 10, ["Curse"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=0)
# Player 0's main phase in a 3-player game; player 2's Aura enchants player 1.
curse = place(exported, "Curse", controller=2, base_controller=2)
exported["state"]["objects"][str(curse)]["attached_to"] = {"type": "Player", "data": 1}
game = engine.load_game(exported)

game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
while game.stack():
    game.apply(game.priority_player(), {"type": "PassPriority"})
after = game.object(curse)
print(
    f"player 1 eliminated: {game.player(1)['is_eliminated']}; "
    f"Aura zone {after['zone']}, attached to {after.get('attached_to')}"
)
if not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 1 is still in the game")
if after["zone"] != "Battlefield":
    print("conformant: the Aura left the battlefield (704.5m)")
    sys.exit(1)
print("DEVIATION D4: an Aura attached to a player who left the game stayed on the battlefield")
