"""Small phase.rs games built from invented cards, for the deviation scripts.

Uses the `phase` API alone (phase-python), like the scripts beside it: no
phasecert imports. A script builds its cards with `card` (`aura` for an
Aura), starts a game with `start`, writes its starting position into the
exported state (`place`, `attach`, `to_hand`), loads it with
`engine.load_game`, and from then on only makes engine moves (`cast`,
`resolve_stack`, `next_main_phase`).
"""

import json
from typing import Any

import phase

DIRECT = {"status": "PhasedOut", "cause": "Directly"}
"""A `phase_status` for `place`: phased out directly."""


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


def aura(
    name: str, enchant: str = "permanent", *, phasing: bool = False
) -> tuple[str, dict[str, Any]]:
    """An invented Aura: "Enchant <enchant>", with phasing if asked."""
    text, keywords = f"Enchant {enchant}", ["Enchant"]
    if phasing:
        text, keywords = f"Phasing\n{text}", ["Phasing", *keywords]
    return card(name, text, types=("Enchantment",), subtypes=["Aura"], keywords=keywords)


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


def _in_library(state: dict[str, Any], name: str) -> int:
    """The id of the first card `name` still in a library."""
    return next(
        int(k) for k, o in state["objects"].items() if o["name"] == name and o["zone"] == "Library"
    )


def place(exported: dict[str, Any], name: str, **fields: Any) -> int:
    """Starting position only: put the card `name` onto the battlefield with
    these object fields; returns its id."""
    state = exported["state"]
    oid = _in_library(state, name)
    for player in state["players"]:
        player["library"] = [i for i in player["library"] if i != oid]
    state["objects"][str(oid)].update(zone="Battlefield", summoning_sick=False, **fields)
    state["battlefield"].append(oid)
    return oid


def attach(exported: dict[str, Any], aura: int, host: int, kind: str = "Object") -> None:
    """Starting position only: `aura` is attached to `host`, an object id or,
    with kind="Player", a player's seat."""
    objects = exported["state"]["objects"]
    objects[str(aura)]["attached_to"] = {"type": kind, "data": host}
    if kind == "Object":
        objects[str(host)]["attachments"].append(aura)


def to_hand(exported: dict[str, Any], name: str) -> None:
    """Starting position only: the card `name` is in its owner's hand."""
    state = exported["state"]
    oid = _in_library(state, name)
    player = state["players"][state["objects"][str(oid)]["owner"]]
    player["library"].remove(oid)
    player["hand"].append(oid)
    state["objects"][str(oid)]["zone"] = "Hand"


def status(game: Any, oid: int) -> str:
    """Its phasing: in, out:Directly or out:Indirectly."""
    s = game.object(oid).get("phase_status") or {"status": "PhasedIn"}
    return "in" if s["status"] == "PhasedIn" else "out:" + s["cause"]


def resolve_stack(game: Any) -> None:
    """Everyone passes until the stack is empty."""
    while game.stack():
        game.apply(game.priority_player(), {"type": "PassPriority"})


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
    resolve_stack(game)


def next_main_phase(game: Any) -> list[dict[str, Any]]:
    """Everyone passes and nobody attacks until the next turn's main phase,
    and a player over their maximum hand size discards their first cards
    (514.1); returns the engine's events on the way."""
    turn, events = game.turn, []
    while not (
        game.turn != turn
        and game.phase == "PreCombatMain"
        and game.waiting_for()["type"] == "Priority"
        and not game.stack()
    ):
        waiting = game.waiting_for()
        data = waiting.get("data") or {}
        seat = data.get("player", game.priority_player())
        if waiting["type"] == "DeclareAttackers":
            move = {"type": "DeclareAttackers", "data": {"attacks": [], "bands": []}}
        elif waiting["type"] == "DiscardToHandSize":
            move = {"type": "SelectCards", "data": {"cards": data["cards"][: data["count"]]}}
        else:
            move = {"type": "PassPriority"}
        events += game.apply(seat, move).events
    return events


def cast_untargeted(game: Any, seat: int, name: str, alternative_cost: bool = False) -> list[Any]:
    """`seat` casts the spell `name` from hand with no target (for its
    alternative cost, if asked), and everyone passes until it has resolved;
    returns the engine's events of the cast."""
    hand = [o["id"] for o in game.hand(seat) if o["name"] == name]
    move = next(m for m in game.actions() if m.kind == "CastSpell" and m.object_id in hand)
    events = list(game.apply(seat, move).events)
    if alternative_cost:
        decide = {"type": "DecideOptionalCost", "data": {"pay": True}}
        events += game.apply(seat, decide).events
    resolve_stack(game)
    return events
