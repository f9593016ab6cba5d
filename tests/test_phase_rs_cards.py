"""The phase.rs adapter's invented cards parse into the abilities we meant.

The engine parses Oracle text itself, so a card that silently parsed into
something else would make every scenario using it test the wrong thing.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import cards
from conformance.setup import TAP_LIFE, TRIGGER_LIFE, Permanent

#: The engine's trigger mode for each triggered ability of the vocabulary.
TRIGGER_MODE = {
    "etb": "ChangesZone",
    "ltb": "LeavesBattlefield",
    "dies": "ChangesZone",
    "attached": "Attached",
    "unattached": "Unattach",
    "phases_in": "PhaseIn",
    "phases_out": "PhaseOut",
}

#: One permanent of each kind that can carry the ability.
HOSTS = {
    "creature": Permanent("c", power=2, toughness=3),
    "land": Permanent("l", types=("land",)),
    "artifact": Permanent("a", types=("artifact",)),
    "enchantment": Permanent("e", types=("enchantment",)),
    "aura": Permanent("u", types=("enchantment",), attachment="aura", attached_to="c"),
    "player-aura": Permanent("v", types=("enchantment",), attachment="aura", attached_to=1),
    "equipment": Permanent("q", types=("artifact",), attachment="equipment"),
    "fortification": Permanent("f", types=("artifact",), attachment="fortification"),
}


def parse(p: Permanent) -> dict[str, Any]:
    face = cards.face(cards.permanent_card(p))
    assert cards.unparsed(face) == [], face["oracle_text"]
    return face


def ability(face: dict[str, Any], effect: str) -> dict[str, Any]:
    """The card's only activated ability with this effect type."""
    [found] = [a for a in face["abilities"] if a["effect"]["type"] == effect]
    return found


def gains(execute: dict[str, Any]) -> int:
    effect = execute["effect"]
    assert effect["type"] == "GainLife"
    return effect["amount"]["value"]


ATTACHMENTS = ("aura", "player-aura", "equipment", "fortification")
#: Every (kind, ability) pair a setup can have (see conformance.strategies).
TRIGGER_CASES = [
    (kind, ability)
    for kind in sorted(HOSTS)
    for ability in sorted(TRIGGER_MODE)
    if (ability not in ("attached", "unattached") or kind in ATTACHMENTS)
    and (ability != "dies" or kind == "creature")
]


@pytest.mark.parametrize(("kind", "ability"), TRIGGER_CASES)
def test_each_trigger_parses_with_its_life(kind: str, ability: str) -> None:
    """603.2 / 603.10b: the trigger, and the TRIGGER_LIFE that identifies it."""
    face = parse(replace(HOSTS[kind], abilities=(ability,)))
    [trigger] = face["triggers"]
    assert trigger["mode"] == TRIGGER_MODE[ability]
    assert trigger["valid_card"] == {"type": "SelfRef"}
    assert gains(trigger["execute"]) == TRIGGER_LIFE[ability]
    if ability == "etb":
        assert trigger["destination"] == "Battlefield"
    if ability == "dies":
        assert (trigger["origin"], trigger["destination"]) == ("Battlefield", "Graveyard")


def test_phasing_keyword_and_characteristics() -> None:
    """702.26a: Phasing is a keyword; power and toughness are printed."""
    face = parse(Permanent("c", phasing=1, power=2, toughness=3))
    assert face["keywords"] == ["Phasing"]
    assert face["card_type"]["core_types"] == ["Creature"]
    assert (face["power"]["value"], face["toughness"]["value"]) == (2, 3)


def test_anthem_is_a_static_boost_for_other_creatures_you_control() -> None:
    """613.4c; 702.26b: its source must be phased in for it to apply."""
    face = parse(Permanent("c", power=1, toughness=1, abilities=("anthem",)))
    [static] = face["static_abilities"]
    assert static["mode"] == "Continuous"
    assert static["affected"]["controller"] == "You"
    assert static["affected"]["properties"] == [{"type": "Another"}]
    assert static["modifications"] == [
        {"type": "AddPower", "value": 1},
        {"type": "AddToughness", "value": 1},
    ]


def test_tap_ability_is_activated_with_a_tap_cost() -> None:
    face = parse(Permanent("l", types=("land",), abilities=("tap_gain_life",)))
    tap = ability(face, cards.TAP_EFFECT)
    assert tap["kind"] == "Activated"
    assert tap["cost"] == {"type": "Tap"}
    assert gains(tap) == TAP_LIFE


FREE = {"type": "Mana", "cost": {"type": "Cost", "shards": [], "generic": 0}}
#: 610.4 / 611.2b: the engine's durations bound to the ability's source.
SOURCE_DURATIONS = {
    cards.PHASE_OUT_UNTIL_EFFECT: "UntilHostLeavesPlay",
    cards.CONTROL_WHILE_EFFECT: "WhileControllingHost",
}


def assert_source_abilities(abilities: list[dict[str, Any]]) -> None:
    """Free, targeting any permanent, with the duration bound to "this"."""
    by_effect = {a["effect"]["type"]: a for a in abilities}
    for effect, duration in SOURCE_DURATIONS.items():
        found = by_effect[effect]
        assert (found["kind"], found["cost"], found["duration"]) == ("Activated", FREE, duration)
        assert found["effect"]["target"]["type_filters"] == ["Permanent"]


@pytest.mark.parametrize("kind", sorted(HOSTS))
def test_every_permanent_can_be_the_source_of_until_and_as_long_as(kind: str) -> None:
    """610.4, 611.2b: any permanent can be a PhaseOutUntil source or the X
    of "for as long as you control X"; a parse that dropped the duration
    (the engine does for "this Fortification") would test nothing."""
    assert_source_abilities(parse(HOSTS[kind])["abilities"])


@pytest.mark.parametrize(
    ("kind", "keyword"),
    [
        (
            "aura",
            {
                "Enchant": {
                    "type": "Typed",
                    "type_filters": ["Permanent"],
                    "controller": None,
                    "properties": [],
                }
            },
        ),
        ("player-aura", {"Enchant": {"type": "Player"}}),
    ],
)
def test_auras_enchant_what_they_may_be_attached_to(kind: str, keyword: dict[str, Any]) -> None:
    """303.4a: an Aura on any permanent of the setup, or on a player."""
    face = parse(HOSTS[kind])
    assert face["keywords"] == [keyword]
    assert face["card_type"]["subtypes"] == ["Aura"]


@pytest.mark.parametrize(("kind", "host"), [("equipment", "Creature"), ("fortification", "Land")])
def test_equipment_and_fortifications_attach_to_their_host_type(kind: str, host: str) -> None:
    """301.5, 301.6: Equip attaches to a creature, Fortify to a land."""
    face = parse(HOSTS[kind])
    attach = ability(face, "Attach")
    assert attach["effect"]["target"]["type_filters"] == [host]
    assert face["card_type"]["subtypes"] == [kind.capitalize()]


def spell(spec: cards.CardSpec) -> dict[str, Any]:
    face = cards.face(spec)
    assert cards.unparsed(face) == [], spec.text
    assert face["card_type"]["core_types"] == ["Instant"]
    assert face["mana_cost"] == {"type": "Cost", "shards": [], "generic": 0}
    [ability] = face["abilities"]
    return ability


def test_targeted_phase_out_spells() -> None:
    """702.26b: "Target permanent(s) phase out." — one target, or up to two."""
    one, two = spell(cards.PHASE_OUT), spell(cards.PHASE_OUT_TWO)
    for ability in (one, two):
        assert ability["effect"]["type"] == "PhaseOut"
        assert ability["effect"]["target"]["type_filters"] == ["Permanent"]
        assert ability["effect"]["target"]["controller"] is None
    assert one.get("multi_target") is None
    assert two["multi_target"] == {"min": 0, "max": {"type": "Fixed", "value": 2}}


def test_phase_out_all_is_your_permanents() -> None:
    ability = spell(cards.PHASE_OUT_ALL)
    assert ability["effect"]["type"] == "PhaseOut"
    assert ability["effect"]["target"]["controller"] == "You"


def test_destroy_spells() -> None:
    wrath, kill = spell(cards.DESTROY_ALL), spell(cards.DESTROY)
    assert wrath["effect"]["type"] == "DestroyAll"
    assert wrath["effect"]["target"]["type_filters"] == ["Creature"]
    assert kill["effect"]["type"] == "Destroy"
    assert kill["effect"]["target"]["type_filters"] == ["Permanent"]
    assert kill["sub_ability"]["effect"]["type"] == "Draw"


def test_census_counts_creatures_you_control() -> None:
    count = spell(cards.DRAW_PER_CREATURE)["effect"]["count"]
    assert count["qty"]["type"] == "ObjectCount"
    assert count["qty"]["filter"]["type_filters"] == ["Creature"]
    assert count["qty"]["filter"]["controller"] == "You"


def test_rally_pumps_until_end_of_turn() -> None:
    """702.26e: a resolution effect on creatures you control."""
    ability = spell(cards.PUMP_TEAM)
    assert ability["effect"]["type"] == "PumpAll"
    assert ability["duration"] == "UntilEndOfTurn"


@pytest.mark.parametrize(
    ("spec", "keywords"), [(cards.TOKEN, []), (cards.PHASING_TOKEN, ["Phasing"])]
)
def test_token_spells(spec: cards.CardSpec, keywords: list[str]) -> None:
    effect = spell(spec)["effect"]
    assert effect["type"] == "Token"
    assert (effect["power"]["value"], effect["toughness"]["value"]) == (1, 1)
    assert effect["keywords"] == keywords
    granted = [m["definition"] for s in effect["static_abilities"] for m in s["modifications"]]
    assert_source_abilities(granted)


@pytest.mark.parametrize(
    ("kind", "duration"),
    [
        ("end_of_turn", "UntilEndOfTurn"),
        ("your_next_turn", {"UntilNextTurnOf": {"player": {"type": "Controller"}}}),
        ("indefinitely", None),
    ],
)
def test_gain_control_spells_carry_their_duration(kind: str, duration: Any) -> None:
    """613.1b; 514.2 / 611.2a: the engine ends the effect from this parse."""
    ability = spell(cards.GAIN_CONTROL[kind])  # type: ignore[index]
    assert ability["effect"]["type"] == "GainControl"
    assert ability["effect"]["target"]["type_filters"] == ["Permanent"]
    assert ability["duration"] == duration


@pytest.mark.parametrize("kind", ["creature", "enchantment", "aura"])
def test_a_chosen_color_comes_from_an_as_it_enters_choice(kind: str) -> None:
    """R2017-choices: the card really makes the choice as it enters."""
    face = parse(replace(HOSTS[kind], chosen="blue"))
    [replacement] = face["replacements"]
    assert replacement["valid_card"] == {"type": "SelfRef"}
    assert replacement["destination_zone"] == "Battlefield"
    assert replacement["execute"]["effect"] == {
        "type": "Choose",
        "choice_type": "Color",
        "persist": True,
    }


def test_a_cards_engine_object_is_the_same_in_every_database() -> None:
    """`cards.card_object` keeps one object per card for every database:
    the engine builds it from the card's face alone."""
    from adapters.phase_rs import player_cards

    spells = {*cards.SPELLS, *player_cards.PLAYER_SPELLS, player_cards.KEEPSAKE, cards.FILLER}
    other = cards.permanent_card(Permanent("p1", phasing=1, power=3, toughness=3))
    for pool in (frozenset(spells), frozenset([*spells, other])):
        database = cards.card_database(pool)
        for spec in (cards.PHASE_OUT, player_cards.DISCARD, player_cards.KEEPSAKE, *pool - spells):
            game = database.new_game([spec.name] * 6, [spec.name] * 6, seed=1)
            made = next(
                o for o in game.state()["state"]["objects"].values() if o["name"] == spec.name
            )
            ids = ("id", "card_id", "owner", "controller", "base_controller", "zone")
            kept = cards.card_object(spec)
            assert {k: v for k, v in made.items() if k not in ids} == {
                k: v for k, v in kept.items() if k not in ids
            }, spec.name


def _printed_variants(kind: str, ability: str) -> list[Permanent]:
    host = replace(HOSTS[kind], abilities=(ability,))
    if not host.is_creature:
        return [host]
    return [replace(host, power=p, toughness=t) for p, t in ((0, 1), (4, 2))]


#: Cards that differ in name, power and toughness, of every kind and with
#: every ability, which `cards.card_object` makes from one parse each.
PRINTED_CASES = [p for kind, ability in TRIGGER_CASES for p in _printed_variants(kind, ability)] + [
    replace(HOSTS["creature"], phasing=1, name="namesake", legendary=True, power=5, toughness=5),
    replace(HOSTS["creature"], abilities=("anthem", "tap_gain_life"), chosen="red", power=3),
    replace(HOSTS["land"], types=("land", "creature"), power=2, toughness=2),
]


@pytest.mark.parametrize("permanent", PRINTED_CASES, ids=lambda p: cards.permanent_card(p).name)
def test_a_cards_object_is_its_own_with_one_parse_for_its_kind(permanent: Permanent) -> None:
    """`cards.card_object` writes a card's name, power and toughness into the
    object of a card that differs only there: the result is exactly the
    object the engine deals for the card itself."""
    spec = cards.permanent_card(permanent)
    dealt = json.loads(cards._object_text(spec))
    assert cards.card_object(spec) == dealt
