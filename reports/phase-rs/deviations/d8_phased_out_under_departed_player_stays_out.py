"""D8 — 702.26n, 800.4a: a permanent that phased out under a player who then
left the game phases in at the next untap step after that player's next turn
would have begun, and the control effects giving it to that player end.
phase.rs leaves it phased out for good, still controlled by the departed
player.

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


def status(game: Any, oid: int) -> str:
    """Its phasing: in, out:Directly or out:Indirectly."""
    s = game.object(oid).get("phase_status") or {"status": "PhasedIn"}
    return "in" if s["status"] == "PhasedIn" else "out:" + s["cause"]


def to_hand(exported: dict[str, Any], name: str) -> None:
    """Starting position only: the card `name` is in its owner's hand."""
    state = exported["state"]
    oid = next(
        int(k) for k, o in state["objects"].items() if o["name"] == name and o["zone"] == "Library"
    )
    player = state["players"][state["objects"][str(oid)]["owner"]]
    player["library"].remove(oid)
    player["hand"].append(oid)
    state["objects"][str(oid)]["zone"] = "Hand"


def cast(game: Any, seat: int, name: str, target: int) -> None:
    """`seat` casts the spell `name` from hand on object `target` (the engine
    may pick the only legal target itself), and everyone passes until it has
    resolved."""
    hand = [o["id"] for o in game.hand(seat) if o["name"] == name]
    move = next(m for m in game.actions() if m.kind == "CastSpell" and m.object_id in hand)
    events = game.apply(seat, move).events
    if game.waiting_for()["type"] == "TargetSelection":
        choice = {"type": "ChooseTarget", "data": {"target": {"Object": target}}}
        events += game.apply(seat, choice).events
    targets = [e["data"]["target"] for e in events if e["type"] == "BecomesTarget"]
    assert targets == [{"Object": target}], f"{name} targeted {targets}"
    while game.stack():
        game.apply(game.priority_player(), {"type": "PassPriority"})


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
    card("Bear", pt=(1, 1)),
    card("Steal", "Gain control of target creature.", types=("Instant",)),
    card("Blink", "Target permanent phases out.", types=("Instant",)),
    card("Filler", pt=(1, 1)),
]
decks = [["Filler"] * 10, ["Steal", "Blink"] + ["Filler"] * 8, ["Bear"] + ["Filler"] * 9]
engine, exported = start(cards, decks, active=1)
# A 3-player game in player 1's main phase; player 2 controls a creature;
# player 1 holds "Gain control of target creature." and a phase-out spell.
bear = place(exported, "Bear", controller=2, base_controller=2)
to_hand(exported, "Steal")
to_hand(exported, "Blink")
game = engine.load_game(exported)

cast(game, 1, "Steal", bear)
cast(game, 1, "Blink", bear)  # phased out under player 1
next_main_phase(game)  # player 2's turn
game.apply(1, {"type": "Concede", "data": {"player_id": 1}})
for _ in range(3):  # player 0's turn, then player 1's would have begun, then player 2's
    next_main_phase(game)
    print(
        f"turn {game.turn}, player {game.state()['state']['active_player']} active: "
        f"bear {status(game, bear)}, controlled by {game.object(bear)['controller']}"
    )
if not game.player(1)["is_eliminated"]:
    sys.exit("setup broke: player 1 is still in the game")
if status(game, bear) == "in":
    print("conformant: it phased in after player 1's turn would have begun (702.26n)")
    sys.exit(1)
print(
    "DEVIATION D8: the creature that phased out under player 1, who left the game, "
    "never phases in, and is still controlled by player 1"
)
