"""The supply of a phase.rs player: filler cards and the invented spells,
drawn, cast and discarded, never part of the position under test. These are
the driver's only changes to the game that are not a player's moves: a
spell is put in its caster's hand before it is cast (`ensure_in_hand`), and
a library that could run out is refilled before an action (`restock`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from adapters.phase_rs.cards import FILLER, SPELLS, CardSpec, new_object
from adapters.phase_rs.observing import lookup

#: The maximum hand size (402.2): more cards in hand at cleanup are
#: discarded (514.1).
MAX_HAND_SIZE = 7
#: The cards of a player's supply (see `Driver.restock`): drawn, cast,
#: discarded, and never part of the position under test.
SUPPLY = frozenset([FILLER.name, *(s.name for s in SPELLS)])


class Stocking:
    """The supply moves of `adapters.phase_rs.driving.Driver`, whose game,
    exported states and concessions they share."""

    game: Any
    given: dict[tuple[int, str], int]
    before_concessions: dict[str, Any] | None
    _exported: dict[str, Any] | None
    _waiting: dict[str, Any] | None
    snapshot: Callable[[], dict[str, Any]]
    load: Callable[[dict[str, Any]], None]

    def ensure_in_hand(self, wanted: list[tuple[int, CardSpec]]) -> None:
        """Put a copy of each wanted card in its player's hand. The copy it
        gave them before, once cast (in their graveyard or library), or the
        one stocked in their library as the game started (`supply`), comes
        by the engine's debug move. Otherwise one setup edit, with nothing
        of theirs on the stack, moves another copy from there or makes a
        new object, the engine's own for the card: an export and a load of
        the game, several times the cost of the move. Libraries hold no
        other spells: each would make every state export and load slower.
        While concessions may be replayed from the position before them
        (`give_priority`), only the edit, which changes that position too,
        will do."""
        missing = [
            (seat, spec)
            for seat, spec in wanted
            if not any(o["name"] == spec.name for o in self.game.hand(seat))
        ]
        if self.before_concessions is None:
            missing = [(seat, spec) for seat, spec in missing if not self._give_back(seat, spec)]
        if not missing:
            return
        self._edit(lambda state: _move_to_hand(state, missing))
        state = self.snapshot()["state"]  # the one just loaded
        for seat, spec in missing:
            hand = state["players"][seat]["hand"]
            self.given[seat, spec.name] = next(
                oid for oid in hand if state["objects"][str(oid)]["name"] == spec.name
            )

    def _give_back(self, seat: int, spec: CardSpec) -> bool:
        """Move the copy of `spec` given to `seat` before back to their hand
        with the engine's debug move, if it is in their graveyard or library.
        The move's events are not the game's: they are not kept."""
        oid = self.given.get((seat, spec.name))
        obj = None if oid is None else lookup(self.game, oid)
        if obj is None or obj["zone"] not in ("Graveyard", "Library"):
            return False
        self._move(seat, oid, "Hand")
        return True

    def _move(self, seat: int, oid: int, zone: str) -> None:
        """Move object `oid` to `zone` by the engine's debug move, for the
        supply only. Its events are not the game's: they are not kept."""
        move = {"object_id": oid, "to_zone": zone, "simulate": False}
        self.game.apply(seat, {"type": "Debug", "data": {"type": "MoveToZone", "data": move}})
        self._exported = self._waiting = None

    def restock(self, seats: Iterable[int], draws: int) -> None:
        """Before an action that may draw `draws` cards for a player, give
        each of `seats` whose library is shorter, or whose hand holds more
        than `MAX_HAND_SIZE` cards, back the filler and spells in their hand
        and graveyard, at the bottom of their library. Drawing from an empty
        library loses the game (704.5b), and the suite's scenarios have no
        libraries: a long one would otherwise end with a loss the reference
        engine doesn't have. Nor do the suite's hands have a maximum size:
        drawn filler would otherwise be discarded in cleanup (514.1), which
        in phase.rs also loses the "whenever this phases in" triggers of the
        next untap step. The engine's debug moves, at a quiet moment, or a
        setup edit while concessions may be replayed from the position
        before them (`give_priority`); nothing observed changes (draws are
        counted from events)."""
        players = {s: self.game.player(s) for s in seats}
        low = [
            s
            for s, player in players.items()
            if len(player["library"]) < draws or len(player["hand"]) > MAX_HAND_SIZE
        ]
        if low and self.before_concessions is not None:
            self._edit(lambda state: _restock(state, low))
        else:
            for seat in low:
                for oid in players[seat]["hand"] + players[seat]["graveyard"]:
                    if self.game.object(oid)["name"] in SUPPLY:
                        self._move(seat, oid, "Library")

    def _edit(self, change: Callable[[dict[str, Any]], None]) -> None:
        """Apply `change` to the exported state and load it back; also to
        the position before the latest concessions, which may be replayed
        (`give_priority`)."""
        exported = self.game.state()
        change(exported["state"])
        if self.before_concessions is not None:
            change(self.before_concessions["state"])
        self.load(exported)


def _move_to_hand(state: dict[str, Any], wanted: list[tuple[int, CardSpec]]) -> None:
    """Move one copy of each wanted card from its player's library or
    graveyard to their hand, in an exported state; or give them a new one
    (`new_object`)."""
    objects = state["objects"]
    for seat, spec in wanted:
        player = state["players"][seat]
        for zone in ("library", "graveyard"):
            found = [i for i in player[zone] if objects[str(i)]["name"] == spec.name]
            if found:
                player[zone].remove(found[0])
                player["hand"].append(found[0])
                objects[str(found[0])]["zone"] = "Hand"
                break
        else:
            player["hand"].append(new_object(state, spec, seat, "Hand"))


def _restock(state: dict[str, Any], seats: list[int]) -> None:
    """Move the supply cards (`SUPPLY`) in each seat's hand and graveyard
    to the bottom of their library, in an exported state."""
    objects = state["objects"]
    for seat in seats:
        player = state["players"][seat]
        for zone in ("hand", "graveyard"):
            back = [i for i in player[zone] if objects[str(i)]["name"] in SUPPLY]
            player[zone] = [i for i in player[zone] if i not in back]
            player["library"] += back
            for i in back:
                objects[str(i)]["zone"] = "Library"
