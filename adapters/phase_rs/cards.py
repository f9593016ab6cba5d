"""Invented cards for phase.rs, written in Oracle English and parsed by the
engine itself (`phase.build_oracle_face`).

Each setup permanent becomes a card whose text says exactly what the
`Permanent` says: its types, its instances of phasing (702.26a, 702.26p), its
abilities (with the life amounts of `TRIGGER_LIFE`, so a resolved trigger is
identified by what it gains), a color choice "as it enters" if it has one
(R2017-choices), and for an attachment its Enchant, Equip or Fortify ability
(301.5, 303.4). Every permanent also has the two free activated abilities
the suite's actions may ask of any permanent: "phases out until this leaves
the battlefield" (610.4) and "gain control for as long as you control this"
(611.2b). Spells are free instants, so any player can cast them whenever
they hold priority.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from conformance.setup import DRAW_LIFE, TAP_LIFE, TRIGGER_LIFE, Ability, DurationKind, Permanent

#: The noun an ability uses to name its own permanent ("this Aura").
_NOUN = {"aura": "Aura", "equipment": "Equipment", "fortification": "Fortification"}
_SUBTYPE = {"aura": "Aura", "equipment": "Equipment", "fortification": "Fortification"}
_ATTACH_KEYWORD = {"equipment": ("Equip", "Equip {1}"), "fortification": ("Fortify", "Fortify {1}")}


@dataclass(frozen=True)
class CardSpec:
    """One invented card, in the MTGJSON shape `build_oracle_face` reads."""

    name: str
    text: str
    types: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    mana: str = "{0}"
    supertypes: tuple[str, ...] = ()

    def mtgjson(self) -> dict[str, Any]:
        card: dict[str, Any] = {
            "name": self.name,
            "manaCost": self.mana,
            "types": list(self.types),
            "subtypes": list(self.subtypes),
            "supertypes": list(self.supertypes),
            "text": self.text,
            "layout": "normal",
            "colors": [],
            "colorIdentity": [],
            "keywords": list(self.keywords),
            "manaValue": 0.0,
            "convertedManaCost": 0.0,
            "legalities": {"standard": "Legal"},
            "identifiers": {},
            "foreignData": [],
            "printings": ["PCT"],
            "rulings": [],
            "type": " ".join((*self.supertypes, *self.types))
            + (" — " + " ".join(self.subtypes) if self.subtypes else ""),
        }
        if self.power is not None and self.toughness is not None:
            card["power"], card["toughness"] = str(self.power), str(self.toughness)
        return card


def _noun(p: Permanent) -> str:
    if p.attachment is not None:
        return f"this {_NOUN[p.attachment]}"
    return "this creature" if p.is_creature else f"this {p.types[0]}"


def _ability_line(ability: Ability, noun: str) -> str:
    """The Oracle text of one `Ability` (see conformance.setup)."""
    life = TRIGGER_LIFE.get(ability)
    lines = {
        "etb": f"When {noun} enters, you gain {life} life.",
        "ltb": f"When {noun} leaves the battlefield, you gain {life} life.",
        "dies": f"When {noun} dies, you gain {life} life.",
        "attached": f"Whenever {noun} becomes attached to a permanent, you gain {life} life.",
        "unattached": f"Whenever {noun} becomes unattached, you gain {life} life.",
        "phases_in": f"Whenever {noun} phases in, you gain {life} life.",
        "phases_out": f"Whenever {noun} phases out, you gain {life} life.",
        "anthem": "Other creatures you control get +1/+1.",
        "tap_gain_life": f"{{T}}: You gain {TAP_LIFE} life.",
        "phases_in_tap": f"Whenever {noun} phases in, tap it.",
        # R2017-replaced-by-life, R2017-life-replacement (614.1a).
        "draw_to_life": (
            f"If an opponent would draw a card, that player gains {DRAW_LIFE} life instead."
        ),
        "gain_to_draw": "If an opponent would gain life, you draw that many cards instead.",
    }
    return lines[ability]


#: The engine's effect type of each ability the driver activates.
PHASE_OUT_UNTIL_EFFECT = "PhaseOut"
CONTROL_WHILE_EFFECT = "GainControl"
TAP_EFFECT = "GainLife"


def _source_lines(noun: str) -> list[str]:
    """The abilities whose duration is tied to their source, with `noun`
    naming it: the engine parses "until this leaves the battlefield" (610.4)
    and "for as long as you control this" (611.2b) only about the ability's
    own source, so these are abilities of the permanent, not spells."""
    return [
        f"{{0}}: Target permanent phases out until {noun} leaves the battlefield.",
        f"{{0}}: Gain control of target permanent for as long as you control {noun}.",
    ]


def permanent_card(p: Permanent) -> CardSpec:
    """The card for setup permanent `p`. Two permanents with the same
    characteristics share a card; extra instances of phasing (702.26p) are
    added on the object at setup, since Oracle text dedupes them."""
    lines: list[str] = []
    keywords: list[str] = []
    if p.phasing:
        lines.append("Phasing")
        keywords.append("Phasing")
    if p.attachment == "aura":
        lines.append("Enchant player" if isinstance(p.attached_to, int) else "Enchant permanent")
        keywords.append("Enchant")
    elif p.attachment is not None:
        keywords.append(_ATTACH_KEYWORD[p.attachment][0])
    noun = _noun(p)
    if p.chosen is not None:
        lines.append(f"As {noun} enters, choose a color.")
    lines += [_ability_line(a, noun) for a in p.abilities]
    if "land" in p.types:
        # 305.6-style: every land of the suite taps for mana (TapForMana).
        lines.append("{T}: Add {C}.")
    # The engine drops "until this Fortification leaves" (no duration);
    # a Fortification is an artifact (301.6), and "this artifact" parses.
    lines += _source_lines("this artifact" if p.attachment == "fortification" else noun)
    if p.attachment in _ATTACH_KEYWORD:
        lines.append(_ATTACH_KEYWORD[p.attachment][1])
    text = "\n".join(lines)
    kind = p.attachment or "-".join(p.types)
    if p.attachment == "aura" and isinstance(p.attached_to, int):
        kind = "player-aura"
    pt = f" {p.power}/{p.toughness}" if p.is_creature else ""
    name = f"PC {kind}{pt}" + "".join(f" {a}" for a in p.abilities)
    name += " phasing" if p.phasing else ""
    name += " chooser" if p.chosen is not None else ""
    # 704.5j compares names: a named permanent's card carries its name (the
    # suite's namesakes are copies of one card).
    name += f" named {p.name}" if p.name is not None else ""
    name += " legendary" if p.legendary else ""
    return CardSpec(
        name=name,
        text=text,
        types=tuple(t.capitalize() for t in p.types),
        subtypes=(_SUBTYPE[p.attachment],) if p.attachment else (),
        keywords=tuple(keywords),
        power=p.power,
        toughness=p.toughness,
        supertypes=("Legendary",) if p.legendary else (),
    )


def _instant(name: str, text: str) -> CardSpec:
    return CardSpec(name=name, text=text, types=("Instant",))


PHASE_OUT = _instant("PC Phase Out", "Target permanent phases out.")
PHASE_OUT_TWO = _instant("PC Phase Out Two", "Up to two target permanents phase out.")
PHASE_OUT_ALL = _instant("PC Shelter", "All permanents you control phase out.")
DESTROY_ALL = _instant("PC Wrath", "Destroy all creatures.")
DESTROY = _instant("PC Kill", "Destroy target permanent. Draw a card.")
DRAW_PER_CREATURE = _instant("PC Census", "Draw a card for each creature you control.")
DRAW_PER_ENTERED = _instant(
    "PC Welcome",
    "Draw a card for each creature you control that entered the battlefield this turn.",
)
PUMP_TEAM = _instant("PC Rally", "Creatures you control get +1/+1 until end of turn.")
_TOKEN_ABILITIES = " and ".join(f'"{line}"' for line in _source_lines("this creature"))
TOKEN = _instant(
    "PC Spirit Call", f"Create a 1/1 colorless Spirit creature token with {_TOKEN_ABILITIES}."
)
PHASING_TOKEN = _instant(
    "PC Phasing Spirit Call",
    f"Create a 1/1 colorless Spirit creature token with phasing and {_TOKEN_ABILITIES}.",
)
#: "Gain control of target permanent" for each duration a spell can have
#: (613.1b); "for as long as you control X" is X's ability (`_source_lines`).
GAIN_CONTROL: dict[DurationKind, CardSpec] = {
    "end_of_turn": _instant("PC Borrow", "Gain control of target permanent until end of turn."),
    "your_next_turn": _instant(
        "PC Borrow Long", "Gain control of target permanent until your next turn."
    ),
    "indefinitely": _instant("PC Steal", "Gain control of target permanent."),
}
#: Library filler, drawn in draw steps; never cast.
FILLER = CardSpec(name="PC Filler", text="", types=("Creature",), power=1, toughness=1, mana="{9}")

SPELLS: tuple[CardSpec, ...] = (
    PHASE_OUT,
    PHASE_OUT_TWO,
    PHASE_OUT_ALL,
    DESTROY_ALL,
    DESTROY,
    DRAW_PER_CREATURE,
    DRAW_PER_ENTERED,
    PUMP_TEAM,
    TOKEN,
    PHASING_TOKEN,
    *GAIN_CONTROL.values(),
)


def face(spec: CardSpec) -> dict[str, Any]:
    """The engine's parse of `spec`."""
    return json.loads(_face_text(spec))  # type: ignore[no-any-return]


@lru_cache(maxsize=8192)
def _face_text(spec: CardSpec) -> str:
    """`face(spec)` as JSON text, cached: parsing takes the engine 1 to 12 ms
    a card, and a long run meets hundreds of cards (`_unprinted`), each kept
    in about 2 kB."""
    import phase

    return json.dumps(phase.build_oracle_face(spec.mtgjson(), None))


@lru_cache(maxsize=64)
def card_database(specs: frozenset[CardSpec]) -> Any:
    """A `phase.Engine` whose card pool is exactly `specs`."""
    return _engine(specs)


def _engine(specs: Iterable[CardSpec]) -> Any:
    import phase

    pool = ",".join(f"{json.dumps(s.name.lower())}:{_face_text(s)}" for s in specs)
    return phase.Engine.from_json("{" + pool + "}")


def card_object(spec: CardSpec) -> dict[str, Any]:
    """The engine's object for the card `spec`, as a new game deals it, to
    place in a game by editing its state (a setup permanent, a spell a
    player casts). The engine makes it from the card's face alone, the same
    in every database that holds the card, so it is made once per card, in
    a game of its own; and once for all the cards that differ only in their
    name, power and toughness (`_printed`)."""
    obj: dict[str, Any] = json.loads(_object_text(_unprinted(spec)))
    obj.update(_printed(spec))
    return obj


#: The name and the power and toughness every card is made with before its
#: own are written in (`card_object`). The suite's cards name themselves as
#: "this creature" and the like, never by name, so no text refers to either.
_UNPRINTED_NAME = "PC Card"
_UNPRINTED_POWER = _UNPRINTED_TOUGHNESS = 1
#: The object fields that hold a card's printed name, power and toughness:
#: all that differs between the objects of two cards whose faces differ only
#: there (tests/test_phase_rs_cards.py checks it against the engine).
_NAME_FIELDS = ("name", "base_name")
_POWER_FIELDS = ("power", "base_power", "layer_base_power")
_TOUGHNESS_FIELDS = ("toughness", "base_toughness", "layer_base_toughness")


def _unprinted(spec: CardSpec) -> CardSpec:
    """`spec` with the name and, for a creature, the power and toughness
    that `_printed` overwrites: parsing a card takes the engine about 10 ms,
    and creatures of one kind are drawn with many powers and toughnesses
    (a fifth of the parses of three slow properties under `certify`)."""
    if spec.power is None or spec.toughness is None:
        return replace(spec, name=_UNPRINTED_NAME)
    return replace(
        spec, name=_UNPRINTED_NAME, power=_UNPRINTED_POWER, toughness=_UNPRINTED_TOUGHNESS
    )


def _printed(spec: CardSpec) -> dict[str, Any]:
    """The object fields of `spec`'s name, power and toughness."""
    fields: dict[str, Any] = dict.fromkeys(_NAME_FIELDS, spec.name)
    if spec.power is not None and spec.toughness is not None:
        fields.update(dict.fromkeys(_POWER_FIELDS, spec.power))
        fields.update(dict.fromkeys(_TOUGHNESS_FIELDS, spec.toughness))
    return fields


def new_object(state: dict[str, Any], spec: CardSpec, owner: int, zone: str) -> int:
    """Add a new engine object of `spec` (`card_object`) to an exported
    `state`, owned and controlled by `owner`, in `zone` (the caller lists it
    there); return its id."""
    oid = state["next_object_id"]
    state["next_object_id"] = oid + 1
    state["objects"][str(oid)] = {
        **card_object(spec),
        "id": oid,
        "card_id": oid,
        "owner": owner,
        "controller": owner,
        "base_controller": owner,
        "zone": zone,
    }
    return oid


@lru_cache(maxsize=4096)
def _object_text(spec: CardSpec) -> str:
    """The engine's object for `spec`, dealt in a new game of its own, as
    JSON text."""
    game = _engine([spec, FILLER]).new_game(
        [spec.name, *[FILLER.name] * 5], [FILLER.name] * 6, seed=1
    )
    objects = game.state()["state"]["objects"].values()
    return json.dumps(next(o for o in objects if o["name"] == spec.name))


def unparsed(parsed: dict[str, Any]) -> list[str]:
    """Pieces of a parsed face the engine did not understand."""
    text = json.dumps(parsed)
    return [marker for marker in ('"Unimplemented"', '"Unknown"') if marker in text]
