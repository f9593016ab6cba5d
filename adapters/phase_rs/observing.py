"""Reading phase.rs back as an `Observation`: its objects, players and events
in the suite's vocabulary.

Two engine representations are translated: a player who left the game
(800.4a) has their objects moved to exile, reported here as zone "none"; a
token off the battlefield (704.5d) is "none" too. Triggered abilities are
identified by the life they gain (`TRIGGER_LIFE`), or, where the gain
changed no life total, by the cards drawn instead or by being their
permanent's only one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from adapters.phase_rs.position import COUNTER_FROM_ENGINE
from conformance.observation import Event, PermanentView, PlayerView, Zone
from conformance.setup import TRIGGER_LIFE, Ability

_ZONE: dict[str, Zone] = {"Battlefield": "battlefield", "Graveyard": "graveyard", "Exile": "exile"}
_TRIGGER_BY_LIFE = {life: kind for kind, life in TRIGGER_LIFE.items()}


def lookup(game: Any, oid: int) -> dict[str, Any] | None:
    """The engine's object `oid`, or None once it ceased to exist (704.5d)."""
    try:
        return game.object(oid)
    except ValueError:
        return None


def phased_in_on_battlefield(obj: dict[str, Any] | None) -> bool:
    """`obj` is a phased-in permanent: on the battlefield, its `phase_status`
    absent or PhasedIn (702.26a)."""
    if obj is None or obj["zone"] != "Battlefield":
        return False
    return (obj.get("phase_status") or {"status": "PhasedIn"})["status"] == "PhasedIn"


def _chosen_color(obj: dict[str, Any]) -> str | None:
    """The color chosen as it entered (R2017-choices), in the suite's
    lower case."""
    return next(
        (c["value"].lower() for c in obj.get("chosen_attributes", []) if c["type"] == "Color"),
        None,
    )


class Reader:
    """Translates one game's engine ids into setup ids."""

    def __init__(
        self, ids: dict[str, int], players: int, abilities: Mapping[str, tuple[Ability, ...]] = {}
    ) -> None:
        """`abilities`: the setup permanents' abilities, by setup id."""
        self.ids = dict(ids)
        # Reverse map: events name engine ids, and scanning `ids` per event
        # made reading a big board's untap step quadratic.
        self._names = {eid: pid for pid, eid in self.ids.items()}
        self.players = players
        self.tokens: set[str] = set()
        # A permanent whose life gains are all one trigger's: its gain is
        # that trigger even where it changed no life total.
        self._only_trigger = {
            pid: gains[0]
            for pid, held in abilities.items()
            if len(gains := [x for x in held if x in TRIGGER_LIFE or x == "tap_gain_life"]) == 1
            and gains[0] in TRIGGER_LIFE
        }

    def name_of(self, oid: int) -> str | None:
        return self._names.get(oid)

    def add_card(self, pid: str, oid: int) -> None:
        """A card the suite cast onto the battlefield, now known by `pid`."""
        self.ids[pid] = oid
        self._names[oid] = pid

    def add_token(self, pid: str, oid: int) -> None:
        """A token the suite created (R2017-tokens), now known by `pid`."""
        self.ids[pid] = oid
        self._names[oid] = pid
        self.tokens.add(pid)

    def left_game(self, game: Any) -> set[int]:
        return {s for s in range(self.players) if game.player(s)["is_eliminated"]}

    def zone(self, obj: dict[str, Any] | None, pid: str, gone: set[int]) -> Zone:
        if obj is None or obj["zone"] not in _ZONE:
            return "none"
        if obj["owner"] in gone or (pid in self.tokens and obj["zone"] != "Battlefield"):
            return "none"
        return _ZONE[obj["zone"]]

    def permanents(self, game: Any, attacking: set[int]) -> tuple[PermanentView, ...]:
        gone = self.left_game(game)
        return tuple(self._view(game, pid, eid, gone, attacking) for pid, eid in self.ids.items())

    def _view(
        self, game: Any, pid: str, eid: int, gone: set[int], attacking: set[int]
    ) -> PermanentView:
        obj = lookup(game, eid)
        zone = self.zone(obj, pid, gone)
        if zone != "battlefield":
            return PermanentView(pid, zone)
        status = obj.get("phase_status") or {"status": "PhasedIn"}
        out = status["status"] == "PhasedOut"
        creature = "Creature" in obj["card_types"]["core_types"]
        shown = creature and not out
        return PermanentView(
            id=pid,
            zone="battlefield",
            phased_out=out,
            cause=("direct" if status["cause"] == "Directly" else "indirect") if out else None,
            controller=obj["controller"],
            tapped=obj["tapped"],
            counters=tuple(
                sorted(
                    (COUNTER_FROM_ENGINE.get(k, k), n) for k, n in obj["counters"].items() if n > 0
                )
            ),
            attached_to=self._host(obj.get("attached_to")),
            power=obj["power"] if shown else None,
            toughness=obj["toughness"] if shown else None,
            attacking=eid in attacking,
            chosen=_chosen_color(obj),
            damage=obj.get("damage_marked", 0) if shown else 0,
        )

    def _host(self, ref: dict[str, Any] | None) -> str | int | None:
        if ref is None:
            return None
        if ref["type"] == "Player":
            return int(ref["data"])
        return self.name_of(ref["data"])

    def players_view(
        self, game: Any, drawn: list[int], discarded: list[int]
    ) -> tuple[PlayerView, ...]:
        """Each seat's life and poison counters from the engine's player
        state; the cards drawn and discarded as counted from its events
        (`PhaseRsGame._count_cards`)."""
        views = []
        for seat in range(self.players):
            player = game.player(seat)
            views.append(
                PlayerView(
                    seat,
                    not player["is_eliminated"],
                    player["life"],
                    drawn[seat],
                    poison=player["poison_counters"],
                    cards_discarded=discarded[seat],
                )
            )
        return tuple(views)

    def events(self, raw: Iterable[dict[str, Any]], gone: set[int]) -> tuple[Event, ...]:
        """The engine's events about setup permanents and tokens. A resolved
        life gain (`LifeChanged`, then `EffectResolved` GainLife naming its
        source) of a `TRIGGER_LIFE` amount is that source's trigger, unless
        it is what a replacement ability of that source did instead
        (`ReplacementApplied` of a draw, R2017-replaced-by-life). A gain an
        opponent's "you draw that many cards instead" replaced
        (`ReplacementApplied` of a GainLife) had the amount of the cards
        drawn since; one that changed nothing (R2017-life-no-effect) is its
        source's only trigger, if it has one. A resolved `Tap` effect is its
        "whenever this phases in, tap it"."""
        raw = list(raw)
        left = {
            e["data"]["object_id"]
            for e in raw
            if e["type"] == "ZoneChanged" and e["data"]["from"] == "Battlefield"
        }
        out: list[Event] = []
        life = 0
        replacing: set[int] = set()
        drawn_instead: int | None = None
        for e in raw:
            kind, data = e["type"], e.get("data") or {}
            if kind in ("ReplacementApplied", "CardDrawn"):
                if kind == "ReplacementApplied" and data.get("event_type") == "GainLife":
                    drawn_instead = 0  # the gain becomes draws: count them
                    continue
                if kind == "ReplacementApplied":
                    replacing.add(data["source_id"])  # a draw becomes this source's gain
                if drawn_instead is not None:
                    drawn_instead += 1  # a card drawn instead, or what replaced its draw
                continue
            if kind == "LifeChanged":
                life = data["amount"]
                continue
            if kind == "EffectResolved" and data["kind"] == "GainLife":
                if data["source_id"] in replacing:
                    # A draw replaced by this gain: the draws go on counting.
                    replacing.discard(data["source_id"])
                    life = 0
                    continue
                pid = self.name_of(data["source_id"])
                gained = life if drawn_instead is None else drawn_instead
                trigger = _TRIGGER_BY_LIFE.get(gained) if gained else self._only_trigger.get(pid)
                if pid is not None and trigger is not None:
                    out.append(Event("trigger", pid, trigger))
                life, drawn_instead = 0, None
                continue
            if kind == "EffectResolved" and data["kind"] == "Tap":
                # The only tapping effect of the suite's cards: "Whenever
                # this phases in, tap it." (upkeep-triggers, 502.4).
                pid = self.name_of(data["source_id"])
                if pid is not None:
                    out.append(Event("trigger", pid, "phases_in_tap"))
                continue
            event = self._event(kind, data, gone, left)
            if event is not None:
                out.append(event)
        return tuple(out)

    def _event(
        self, kind: str, data: dict[str, Any], gone: set[int], left: set[int]
    ) -> Event | None:
        """One engine event; `Unattached` only for an attachment that stays
        on the battlefield (704.5n), not one that leaves it."""
        subject = data.get("object_id", data.get("attachment_id"))
        pid = None if subject is None else self.name_of(subject)
        if pid is None:
            return None
        if kind == "PermanentPhasedOut":
            return Event("phased_out", pid, "indirect" if data["indirect"] else "direct")
        if kind == "PermanentPhasedIn":
            return Event("phased_in", pid)
        if kind == "Unattached":
            return None if subject in left else Event("unattached", pid)
        if kind == "Attached":
            return Event("attached", pid, str(self._host(data.get("target")) or ""))
        if kind == "ZoneChanged" and "Battlefield" in (data["from"], data["to"]):
            return Event(
                "zone_change",
                pid,
                f"{self._side(data['from'], data, gone)}->{self._side(data['to'], data, gone)}",
            )
        return None

    def _side(self, zone: str | None, data: dict[str, Any], gone: set[int]) -> str:
        if zone is None:
            return "none"
        if zone == "Exile" and data["record"].get("owner") in gone:
            return "none"
        return _ZONE.get(zone, zone.lower())
