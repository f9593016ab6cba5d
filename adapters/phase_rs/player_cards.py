"""phase.rs's cards for the player actions (Teferi's Protection whole):
Teferi's Protection's own Oracle text and invented free instants, parsed by
the engine itself (see `cards`). Amounts are part of a card's text, so there
is one card per amount the suite's strategies draw."""

from __future__ import annotations

from adapters.phase_rs.cards import CardSpec

#: The printed card (Commander 2017), which phase.rs parses into "can't gain
#: life", "can't lose life", protection from everything and a phase-out of
#: all its controller's permanents (R2017-protection, R2017-life-no-effect).
#: Without its last line, "Exile Teferi's Protection.": the copy goes to the
#: graveyard, where the driver finds it for a scenario's second cast.
TEFERIS_PROTECTION = CardSpec(
    name="Teferi's Protection",
    text=(
        "Until your next turn, your life total can't change and you gain protection "
        "from everything. All permanents you control phase out. (While they're phased "
        "out, they're treated as though they don't exist. They phase in before you "
        "untap during your untap step.)"
    ),
    types=("Instant",),
)
#: The amounts `conformance.strategies.players` draws: life gained, lost or
#: dealt as damage, and the totals a life total is set to.
AMOUNTS = range(1, 4)
LIFE_TOTALS = range(10, 31)
#: Damage to a creature may be its lethal damage in one spell (the 610.4
#: plan's): its toughness (up to 3) plus its +1/+1 counters (up to 3).
DAMAGE_AMOUNTS = range(1, 10)


def _instant(name: str, text: str, keywords: tuple[str, ...] = ()) -> CardSpec:
    return CardSpec(name=name, text=text, types=("Instant",), keywords=keywords)


GAIN_LIFE = {n: _instant(f"PC Gain {n}", f"You gain {n} life. Draw a card.") for n in AMOUNTS}
LOSE_LIFE = {n: _instant(f"PC Lose {n}", f"You lose {n} life. Draw a card.") for n in AMOUNTS}
SET_LIFE = {
    n: _instant(f"PC Set {n}", f"Your life total becomes {n}. Draw a card.") for n in LIFE_TOTALS
}
EXCHANGE_LIFE = _instant("PC Swap", "Exchange life totals with target player. Draw a card.")
DEAL_DAMAGE = {
    n: _instant(f"PC Bolt {n}", f"PC Bolt {n} deals {n} damage to any target.")
    for n in DAMAGE_AMOUNTS
}

#: R2017-pay-life (119.4): "pay N life" as an additional cost, N from 0.
PAY_LIFE = {
    n: _instant(
        f"PC Pay {n}", f"As an additional cost to cast this spell, pay {n} life.\nDraw a card."
    )
    for n in range(0, 4)
}
#: R2017-gain-life-cost: Invigorate's alternative cost. Its mana cost is
#: real ({5}, which no scenario's player can pay), so only the alternative
#: cost casts it.
GIVE_LIFE = {
    n: CardSpec(
        name=f"PC Gift {n}",
        text=(
            f"You may have an opponent gain {n} life rather than pay this spell's mana "
            "cost.\nDraw a card."
        ),
        types=("Instant",),
        mana="{5}",
    )
    for n in AMOUNTS
}

#: R2017-targets, R2017-protection-targets: two "any number of target"
#: phrases (601.2c), permanents then players.
TAP_AND_DAMAGE = {
    n: _instant(
        f"PC Storm {n}",
        f"Tap any number of target permanents. PC Storm {n} deals {n} damage to any "
        "number of target players. Draw a card.",
    )
    for n in AMOUNTS
}

#: 303.4a, R2017-protection: an Aura spell targeting a player. It has flash,
#: as the suite's other spells are instants, so any player can cast it when
#: they hold priority. Copies enough for the Auras of one scenario, each its
#: own card (the driver fetches a spell by name).
PLAYER_AURAS = tuple(
    CardSpec(
        name=f"PC Curse {k}",
        text="Flash\nEnchant player",
        types=("Enchantment",),
        subtypes=("Aura",),
        keywords=("Flash", "Enchant"),
    )
    for k in range(1, 4)
)


def _drain(n: int, unpreventable: bool, infect: bool) -> CardSpec:
    """R2017-protection, R2017-unpreventable: a lifelink spell (702.15b:
    its damage gains its controller that much life); with infect, its
    damage to a player gives poison counters instead (702.90b)."""
    name = f"PC Drain {n}" + (" Fierce" if unpreventable else "") + (" Venom" if infect else "")
    keywords = ("Infect", "Lifelink") if infect else ("Lifelink",)
    text = "\n".join((*keywords, f"{name} deals {n} damage to each opponent."))
    if unpreventable:
        text += " This damage can't be prevented."
    return _instant(name, text, keywords)


DAMAGE_OPPONENTS = {
    (n, u, i): _drain(n, u, i) for n in AMOUNTS for u in (False, True) for i in (False, True)
}

#: R2017-nothing-else: "each opponent discards a card" (701.9a), untargeted.
DISCARD = _instant("PC Mind Rot", "Each opponent discards a card.")
#: What "each opponent discards a card" finds in a hand that is empty only
#: in the engine (`players`; the suite's players begin with
#: `conformance.setup.OPENING_HAND` cards, 103.5): a card of no use, which
#: no player can cast ({9}) and the driver never moves (it is not in
#: `stocking.SUPPLY`).
KEEPSAKE = CardSpec(
    name="PC Keepsake", text="", types=("Creature",), power=1, toughness=1, mana="{9}"
)

PLAYER_SPELLS: tuple[CardSpec, ...] = (
    TEFERIS_PROTECTION,
    *GAIN_LIFE.values(),
    *LOSE_LIFE.values(),
    *SET_LIFE.values(),
    EXCHANGE_LIFE,
    *DEAL_DAMAGE.values(),
    *DAMAGE_OPPONENTS.values(),
    *PAY_LIFE.values(),
    *GIVE_LIFE.values(),
    *TAP_AND_DAMAGE.values(),
    *PLAYER_AURAS,
    DISCARD,
)
