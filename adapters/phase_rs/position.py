"""Building a `Setup` in phase.rs: a new game whose decks hold only filler,
then the starting position written into the engine's exported state (each
permanent an engine object of its invented card) and loaded back.

Only the starting position is written this way; everything the suite tests
(phasing, untapping, spells, state-based actions) is then played by the
engine. Each player's library holds filler (drawn in draw steps) and, at
its bottom, the cards the scenario's actions will give them (`supply`), and
their hand starts empty: `Driver.ensure_in_hand` gives a player the spell
they cast, or the keepsake a discard finds (`players`), as it is needed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adapters.phase_rs.cards import (
    FILLER,
    SPELLS,
    CardSpec,
    card_database,
    new_object,
    permanent_card,
)
from adapters.phase_rs.player_cards import KEEPSAKE, PLAYER_SPELLS
from conformance.setup import (
    STARTING_LIFE,
    BoostEffect,
    ControlEffect,
    Duration,
    Permanent,
    Setup,
    SkipUntap,
)

#: Filler cards in each library as a game starts. Few: phase.rs's moves,
#: exports and loads slow down with every object in the game, library
#: cards included, more than in proportion (benchmarks/findings.md). The
#: driver refills a library before an action that may draw from it
#: (`Driver.restock`), and a game whose player drew more than their whole
#: library in one action is dealt again with more (`PhaseRsGame.perform`).
FILLER_CARDS = 3
#: Counter kinds the engine spells differently from the suite.
COUNTER_TO_ENGINE = {"+1/+1": "P1P1", "-1/-1": "M1M1"}
COUNTER_FROM_ENGINE = {v: k for k, v in COUNTER_TO_ENGINE.items()}
#: The colors a permanent can have chosen as it entered (105.1).
COLORS = ("White", "Blue", "Black", "Red", "Green")
CHANGE_CONTROL = {"type": "ChangeController"}
_DURATION = {
    "end_of_turn": "UntilEndOfTurn",
    "your_next_turn": {"UntilNextTurnOf": {"player": {"type": "Controller"}}},
    "indefinitely": "Permanent",
    # The engine's parse of "for as long as you control this" (611.2b), with
    # the effect's source as "this" (see `cards._source_lines`).
    "as_long_as_you_control": "WhileControllingHost",
}


#: The cards every game's database holds: the spells and the cards players
#: are given. The spells are known to the engine but not in the libraries,
#: which they would triple in size (every state export and load slower),
#: except those a scenario's actions will cast (`supply`): the driver
#: stocks a copy when an action needs it. The setup permanents are
#: not in it: each is an engine object of its card, made from the card's
#: face (`cards.card_object`), and the engine plays an object from what it
#: holds, looking a card up in the database only to refresh an object's
#: printed face as a game loads, which it skips for a card it doesn't hold.
#: One database for every game: phase.rs doesn't give back the memory of a
#: dropped `Engine`, and one per set of permanent cards grew a long run's
#: process past 1.9 GB.
PLAYED_CARDS = frozenset([*SPELLS, *PLAYER_SPELLS, FILLER, KEEPSAKE])


@dataclass
class Position:
    """A loaded game, the engine object id of each setup permanent, and of
    each card stocked in a library, by (seat, card name)."""

    database: Any
    game: Any
    ids: dict[str, int]
    stocked: dict[tuple[int, str], int]


def setup_problems(setup: Setup) -> list[str]:
    """What in `setup` phase.rs has no state for, as readable sentences
    (beyond the capabilities it lacks)."""
    return [
        f"{p.id}: phase.rs records a color chosen as a permanent entered, not {p.chosen!r}"
        for p in setup.permanents
        if p.chosen is not None and p.chosen.capitalize() not in COLORS
    ]


def build(
    setup: Setup, stock: Iterable[tuple[int, CardSpec]] = (), filler: int = FILLER_CARDS
) -> Position:
    """Start a phase.rs game in the position `setup` describes (legal, and
    free of `setup_problems`), with `filler` filler cards in each library
    and a copy of each card of `stock` at the bottom of its seat's library
    (`supply`)."""
    cards = {p.id: permanent_card(p) for p in setup.permanents}
    database = card_database(PLAYED_CARDS)
    exported = json.loads(_filler_game(setup.players, setup.active, filler))
    state = exported["state"]
    ids = _place_cards(state, setup, cards)
    for p in setup.permanents:
        _write_permanent(state, p, ids, setup.turn)
    _write_effects(state, setup, ids)
    _write_turn(state, setup)
    stocked = _stock_libraries(state, setup, stock)
    return Position(database, database.load_game(exported), ids, stocked)


@lru_cache(maxsize=32)
def _filler_game(players: int, first_player: int, filler: int) -> str:
    """A new game of `players` players, `first_player` first, whose decks
    hold only `filler` filler cards each, past the opening hands, with
    every hand empty and its history forgotten, as exported JSON text. It
    is the same for every setup of these players: made once, it saves each
    build a new game and an export, about half of its time."""
    decks = [[FILLER.name] * filler] * players
    game = card_database(frozenset([FILLER])).new_game(
        decks[0],
        decks[1],
        extra_players=decks[2:] or None,
        seed=1,
        format="FreeForAll" if players > 2 else "Standard",
        first_player=first_player,
    )
    _keep_opening_hands(game)
    exported = game.state()
    state = exported["state"]
    for player in state["players"]:
        library = sorted(player["hand"] + player["library"])
        for oid in library:
            state["objects"][str(oid)]["zone"] = "Library"
        player["hand"], player["library"], player["graveyard"] = [], library, []
        player["life"] = STARTING_LIFE
    # The opening draws are not the history of the position written over
    # them (not this turn's zone changes, nor the rules journal's); the
    # deck lists only serve later games of a match. All of them made every
    # state() and load_game() of the game slower (the journal was half).
    state["zone_changes_this_turn"] = []
    state["deck_pools"] = []
    journal = state["resolved_rules_journal"]
    journal["entries"], journal["nodes"] = [], []
    journal["next_command_ordinal"] = journal["next_settlement_node_ordinal"] = 0
    # `Driver.ensure_in_hand` gives a player back a spell they cast with the
    # engine's debug move, which saves exporting and loading the game.
    state["debug_mode"] = True
    return json.dumps(exported)


def _keep_opening_hands(game: Any) -> None:
    while (waiting := game.waiting_for())["type"] == "MulliganDecision":
        seat = waiting["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})


def _place_cards(state: dict[str, Any], setup: Setup, cards: dict[str, CardSpec]) -> dict[str, int]:
    """Give each setup permanent a new object of its card, its owner's
    (`_write_permanent` puts it on the battlefield)."""
    return {p.id: new_object(state, cards[p.id], p.owner, "Battlefield") for p in setup.permanents}


def _stock_libraries(
    state: dict[str, Any], setup: Setup, stock: Iterable[tuple[int, CardSpec]]
) -> dict[tuple[int, str], int]:
    """Put a new copy of each card of `stock` at the bottom of its seat's
    library: under the filler, it is drawn only after all of it. A seat not
    in the game gets nothing (its action will be refused)."""
    stocked = {}
    for seat, spec in stock:
        if 0 <= seat < setup.players:
            oid = new_object(state, spec, seat, "Library")
            state["players"][seat]["library"].append(oid)
            stocked[seat, spec.name] = oid
    return stocked


def _write_permanent(state: dict[str, Any], p: Permanent, ids: dict[str, int], turn: int) -> None:
    obj = state["objects"][str(ids[p.id])]
    obj["zone"] = "Battlefield"
    # Control other than the default controller's (110.2: usually the
    # owner) comes from a continuous effect, written in `_write_effects`.
    obj["controller"], obj["base_controller"] = p.controller, p.controller_by_default
    obj["tapped"] = p.tapped
    obj["summoning_sick"] = p.sick
    obj["entered_battlefield_turn"] = turn if p.sick else 0
    obj["counters"] = {COUNTER_TO_ENGINE.get(k, k): n for k, n in p.counters}
    if p.token:
        obj["is_token"] = True
    if p.chosen is not None:  # R2017-choices
        obj["chosen_attributes"] = [{"type": "Color", "value": p.chosen.capitalize()}]
    if p.phasing > 1:  # 702.26p: Oracle text would merge the instances.
        for key in ("keywords", "base_keywords"):
            obj[key] = [k for k in obj[key] if k != "Phasing"] + ["Phasing"] * p.phasing
    if p.phased_out is not None:
        # "Until X leaves" (610.4) has no state in phase.rs: its own "phases
        # out until this leaves" ability leaves just this status (D10).
        cause = "Directly" if p.phased_out.cause == "direct" else "Indirectly"
        obj["phase_status"] = {"status": "PhasedOut", "cause": cause}
    if isinstance(p.attached_to, int):
        obj["attached_to"] = {"type": "Player", "data": p.attached_to}
    elif p.attached_to is not None:
        host = ids[p.attached_to]
        obj["attached_to"] = {"type": "Object", "data": host}
        state["objects"][str(host)]["attachments"].append(ids[p.id])
    state["battlefield"].append(ids[p.id])


def _write_effects(state: dict[str, Any], setup: Setup, ids: dict[str, int]) -> None:
    """Boosts and control effects become the engine's transient continuous
    effects (613.1b, 613.4c); a permanent controlled by someone other than its
    owner without a `ControlEffect` is under an indefinite one, as in the
    reference. Skipped untap steps become its `steps_to_skip` (702.26m)."""
    skips = Counter(e.player for e in setup.effects if isinstance(e, SkipUntap))
    for player, n in skips.items():
        state["steps_to_skip"][player]["Untap"] = n
    explicit = {e.target: e for e in setup.effects if isinstance(e, ControlEffect)}
    for p in setup.permanents:
        if p.controller_by_default != p.controller:
            control = explicit.get(p.id, ControlEffect(p.id, p.controller))
            anchor = control.duration.of
            source = ids[p.id] if anchor is None else ids[anchor]
            _add_effect(
                state, ids[p.id], control.controller, control.duration, [CHANGE_CONTROL], source
            )
    for e in setup.effects:
        if isinstance(e, BoostEffect):
            boost = [
                {"type": "AddPower", "value": e.power},
                {"type": "AddToughness", "value": e.toughness},
            ]
            # "For as long as you control X" names X as the effect's source.
            anchor = e.duration.of
            source = None if anchor is None else ids[anchor]
            for target in e.targets:
                _add_effect(state, ids[target], e.controller, e.duration, boost, source)


def _add_effect(
    state: dict[str, Any],
    oid: int,
    controller: int,
    duration: Duration,
    modifications: list[dict[str, Any]],
    source: int | None = None,
) -> None:
    """One continuous effect on object `oid`, in the shape the engine gives
    the effects of its own resolved spells and abilities; `source` (the
    object itself by default) is what "for as long as you control this"
    names."""
    effect_id = state["next_continuous_effect_id"]
    timestamp = state["next_timestamp"]
    state["next_continuous_effect_id"] = effect_id + 1
    state["next_timestamp"] = timestamp + 1
    state["transient_continuous_effects"].append(
        {
            "affected": {"type": "SpecificObject", "id": oid},
            "controller": controller,
            "duration": _DURATION[duration.kind],
            "id": effect_id,
            "modifications": modifications,
            "source_id": oid if source is None else source,
            "source_name": "phasecert setup",
            "timestamp": timestamp,
        }
    )


def _write_turn(state: dict[str, Any], setup: Setup) -> None:
    """The active player's first main phase, with priority (505.1)."""
    state["active_player"] = state["priority_player"] = setup.active
    state["turn_number"] = setup.turn
    state["phase"] = "PreCombatMain"
    state["waiting_for"] = {"type": "Priority", "data": {"player": setup.active}}
