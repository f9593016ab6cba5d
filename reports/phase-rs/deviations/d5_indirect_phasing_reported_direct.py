"""D5 — 702.26h (event only): an Aura with phasing on a host with phasing
phases out indirectly; phase.rs ends in the right state but its
PermanentPhasedOut event says indirect=false when the Aura comes before its
host in the battlefield order (a hand-made position).

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


def attach(exported: dict[str, Any], aura: int, host: int) -> None:
    """Starting position only: `aura` is attached to object `host`."""
    objects = exported["state"]["objects"]
    objects[str(aura)]["attached_to"] = {"type": "Object", "data": host}
    objects[str(host)]["attachments"].append(aura)


def status(game: Any, oid: int) -> str:
    """Its phasing: in, out:Directly or out:Indirectly."""
    s = game.object(oid).get("phase_status") or {"status": "PhasedIn"}
    return "in" if s["status"] == "PhasedIn" else "out:" + s["cause"]


def next_main_phase(game: Any) -> list[dict[str, Any]]:
    """Everyone passes and nobody attacks until the next turn's main phase;
    returns the engine's events on the way."""
    turn, events = game.turn, []
    while not (
        game.turn != turn
        and game.phase == "PreCombatMain"
        and game.waiting_for()["type"] == "Priority"
        and not game.stack()
    ):
        waiting = game.waiting_for()
        seat = (waiting.get("data") or {}).get("player", game.priority_player())
        if waiting["type"] == "DeclareAttackers":
            move = {"type": "DeclareAttackers", "data": {"attacks": [], "bands": []}}
        else:
            move = {"type": "PassPriority"}
        events += game.apply(seat, move).events
    return events


cards = [
    card("Phasing Bear", "Phasing", keywords=["Phasing"], pt=(1, 1)),
    card(
        "Phasing Charm",
        "Phasing\nEnchant permanent",
        types=("Enchantment",),
        subtypes=["Aura"],
        keywords=["Phasing", "Enchant"],
    ),
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
