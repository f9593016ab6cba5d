"""D3 — 702.26a / 702.26g: an Aura that already phased out directly, under
its controller, phases in at that player's next untap step; its host
phasing out later can't phase it out again. phase.rs re-marks it as phased
out "indirectly" when the host phases out, and it never phases in.

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
    card("Phasing Relic", "Phasing", types=("Artifact",), keywords=["Phasing"]),
    card(
        "Charm",
        "Enchant permanent",
        types=("Enchantment",),
        subtypes=["Aura"],
        keywords=["Enchant"],
    ),
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
