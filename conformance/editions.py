"""The editions of the phasing rules, each with its own rule catalog.

- `current`: today's rules (CR 702.26 and the 2017-08-25 rulings), the
  catalog of `conformance.catalog`.
- `pre-2017`: the CR 702.25 of before the 2017 change
  (../shared/seeds/000_a053807a61f6029b.txt): today's rules except that a
  phased-out token ceases to exist as a state-based action (702.25k).
- `mirage`: the Mirage-era rules 502.15 and 217.8
  (../shared/seeds/001_58e51963fca0a110.txt): a phased-out permanent goes to
  the phased-out zone, its damage is removed, a phased-out token ceases to
  exist, effects with a limited duration stop affecting a permanent as it
  phases out, what phases in plays as if it had haste, and two legends with
  one name phasing in together both go to the graveyard.

An older edition numbers its rules as its own text does. Where one still
says what today's rules say, it `carries` today's IDs, and the properties of
those certify it under its own number (`rules_in`); where it differs, a
property cites its ID directly (conformance/properties/editions.py). One
that only several of today's rules say together carries them `jointly`
(Mirage 502.15n: 702.26c and 702.26d), certified only by a property citing
them all. A rule the vocabulary cannot put to the test yet says so
(`Rule.uncertified`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import get_args

from conformance.catalog import CATALOG, Edition, Rule

EDITIONS: tuple[Edition, ...] = get_args(Edition)
CURRENT: Edition = "current"
#: How reports name each edition.
EDITION_TITLES: dict[Edition, str] = {
    "current": "current (CR 702.26 and the 2017-08-25 rulings)",
    "pre-2017": "pre-2017 (CR 702.25, before the 2017 change)",
    "mirage": "Mirage-era (rules 502.15 and 217.8)",
}

_SAME = "unchanged since; numbered as today (the seed quotes only 702.25)"


def _pre_2017() -> list[Rule]:
    def r(id: str, summary: str, *carries: str) -> Rule:
        return Rule(id, summary, "pre-2017", carries)

    own = [
        r(
            "702.25a",
            "In its controller's untap step a phasing permanent phases out and what phased out under that player phases in, simultaneously.",
            "702.26a",
        ),
        r(
            "702.25b",
            "A phased-out permanent is treated as though it doesn't exist: it can't affect or be affected by anything.",
            "702.26b",
            "702.26e",
            "R2017-nonexistent",
        ),
        r("702.25c", "A permanent that phases in is treated as existing again.", "702.26c"),
        r(
            "702.25d",
            "Phasing changes neither zone nor controller: no zone-change triggers, counters stay, the permanent's history is kept.",
            "702.26d",
            "R2017-no-etb-ltb",
            "R2017-counters",
            "R2017-choices",
        ),
        r(
            "702.25e",
            "Continuous effects may end while a permanent is phased out; 'for as long as' effects referring to it end when it phases out.",
            "702.26f",
            "R2017-for-as-long-as",
        ),
        r(
            "702.25f",
            "Equipment, Auras and Fortifications attached to a permanent that phases out phase out indirectly and phase in with it.",
            "702.26g",
            "R2017-attached",
        ),
        r(
            "702.25g",
            "Phasing out both directly and indirectly at once is phasing out indirectly.",
            "702.26h",
        ),
        r(
            "702.25h",
            "A directly phased-out attachment phases in attached if its object is still in the same zone, else unattached (then state-based actions apply).",
            "702.26i",
            "R2017-auras",
        ),
        r(
            "702.25i",
            "Phasing out doesn't trigger 'becomes attached' or 'becomes unattached'.",
            "702.26j",
        ),
        r(
            "702.25j",
            "A phased-out permanent leaves the game with its owner, without zone-change triggers.",
            "702.26k",
        ),
        Rule(
            "702.25k",
            "A phased-out token ceases to exist as a state-based action.",
            "pre-2017",
        ),
        r(
            "702.25m",
            "A player who skips their untap step has no phasing event.",
            "702.26m",
            "R2017-skip-untap",
        ),
        r("702.25n", "Several instances of phasing on one permanent are redundant.", "702.26p"),
    ]
    carried = {c for rule in own for c in rule.carries}
    # 704.5d and R2017-tokens are the 2017 change itself: not carried.
    changed = {"704.5d", "R2017-tokens"}
    same = [
        Rule(rule.id, f"{rule.summary} ({_SAME})", "pre-2017", (rule.id,))
        for rule in CATALOG.values()
        if rule.id not in carried | changed
    ]
    return own + same


def _mirage() -> list[Rule]:
    def r(
        id: str, summary: str, *carries: str, uncertified: str = "", jointly: bool = False
    ) -> Rule:
        return Rule(id, summary, "mirage", carries, uncertified, jointly)

    return [
        r(
            "502.15a",
            "Phasing is a static ability that modifies the rules of the untap step.",
            "702.26a",
        ),
        r(
            "502.15b",
            "In each player's untap step, before untapping, their permanents with phasing phase out and, simultaneously, what they controlled when it phased out phases in.",
            "702.26a",
            "502.1",
        ),
        r(
            "502.15c",
            "A player who skips their untap step has no phasing that turn.",
            "702.26m",
            "R2017-skip-untap",
        ),
        r(
            "502.15d",
            "Phasing in or out triggers no comes-into-play or leaves-play ability; abilities that refer to phasing work normally.",
            "R2017-no-etb-ltb",
            "603.10b",
        ),
        r("502.15e", "When a permanent phases out, all damage on it is removed."),
        r(
            "502.15f",
            "A card that comes back from the phased-out zone is the same permanent as when it left play.",
            "702.26d",
        ),
        r(
            "502.15g",
            "Effects with a limited duration and delayed triggered abilities stop affecting a permanent that phases out, even if it phases in before they would end (certified on the effects: control effects and boosts until end of turn or a player's next turn; the vocabulary has no delayed triggered abilities, so that half is not put to the test).",
        ),
        r(
            "502.15h",
            "A phased-out card remembers its counters, the choices made as it came into play, tapped or untapped, and its controller; it may phase in under another controller if a control effect ended.",
            "R2017-counters",
            "R2017-choices",
            "R2017-control",
        ),
        r(
            "502.15i",
            "Local enchantments on a permanent that phases out phase out indirectly with it and phase in only with it.",
            "702.26g",
            "R2017-attached",
        ),
        r(
            "502.15j",
            "A local enchantment that phased out directly phases in on the permanent it enchanted; if that is gone or can't legally be enchanted, it goes to the graveyard (a state-based effect).",
            "702.26i",
            "R2017-auras",
        ),
        r(
            "502.15k",
            "Permanents phasing in together: the active player chooses their timestamps, indirect Auras after their host; two legends with the same name phasing in together both go to the graveyard (certified on the legends: no effect of the vocabulary depends on timestamp order, so the choice itself shows nowhere).",
        ),
        r(
            "502.15m",
            "A permanent that phased in can attack and use {T} abilities as if it had haste, while it stays in play under the same controller.",
            "R2017-haste",
        ),
        r(
            "502.15n",
            "A spell or ability targeting a permanent that phased out and back in before it resolves resolves normally.",
            # The same object (702.26d), a legal target again (702.26c): only
            # a property judging both at once puts it to the test.
            "702.26c",
            "702.26d",
            jointly=True,
        ),
        r("502.15p", "Several instances of phasing on one permanent are redundant.", "702.26p"),
        r(
            "217.8a",
            "Permanents that phase out go to the phased-out zone: out of play, they can't be counted, targeted, destroyed or attack.",
            "702.26b",
            "702.26c",
            "702.26e",
            "R2017-nonexistent",
        ),
        r(
            "217.8b",
            "Any player may look at the cards in the phased-out zone at any time (the observation shows each phased-out permanent).",
            "702.26b",
        ),
        r(
            "217.8c",
            "Phased-out cards remember their previous state (tapped or untapped, counters, attachments) and return to play in that state.",
            "702.26d",
            "R2017-counters",
        ),
        r(
            "217.8d",
            "Tokens in the phased-out zone cease to exist (a state-based effect); a local enchantment on such a token stays in the phased-out zone for the rest of the game.",
        ),
    ]


CATALOGS: dict[Edition, dict[str, Rule]] = {
    "current": CATALOG,
    "pre-2017": {rule.id: rule for rule in _pre_2017()},
    "mirage": {rule.id: rule for rule in _mirage()},
}
#: Every rule ID a property may cite: today's and the older editions' own.
ALL_RULE_IDS: frozenset[str] = frozenset(r for c in CATALOGS.values() for r in c)


def check_edition(name: str) -> Edition:
    """`name` as an edition, or a ValueError naming the editions."""
    if name not in EDITIONS:
        raise ValueError(f"unknown edition {name!r}; editions: {', '.join(EDITIONS)}")
    return name  # type: ignore[return-value]


def _carriers(edition: Edition) -> dict[str, list[str]]:
    """Today's rule ID → the IDs of `edition` carrying it on its own (not
    `jointly` with others)."""
    found: dict[str, list[str]] = {}
    for rule in CATALOGS[edition].values():
        for current in () if rule.jointly else rule.carries:
            found.setdefault(current, []).append(rule.id)
    return found


def _joint(edition: Edition, cited: Iterable[str]) -> list[Rule]:
    """The rules of `edition` carrying today's IDs `jointly`, all of which
    are in `cited`."""
    given = set(cited)
    return [
        r for r in CATALOGS[edition].values() if r.jointly and r.carries and set(r.carries) <= given
    ]


def rules_in(cited: Iterable[str], edition: Edition) -> tuple[str, ...]:
    """The IDs of `edition` a property citing `cited` certifies there, or ()
    if it does not hold there: it holds when every rule it cites is one of
    the edition's own or a rule of today's the edition carries (on its own,
    or jointly with others it cites too)."""
    cited = tuple(cited)
    catalog = CATALOGS[edition]
    carriers = {} if edition == CURRENT else _carriers(edition)
    joint = [] if edition == CURRENT else _joint(edition, cited)
    jointly_carried = {c for r in joint for c in r.carries}
    found: list[str] = []
    for rule in cited:
        if rule in catalog:
            found.append(rule)  # the edition's own rule, cited directly
        elif rule in carriers:
            found += carriers[rule]
        elif rule not in jointly_carried:
            return ()  # a rule this edition does not make
    return tuple(dict.fromkeys(found + [r.id for r in joint]))


def translated(current: Iterable[str], edition: Edition) -> tuple[str, ...]:
    """Today's rule IDs (a comparison's differences) as `edition` numbers
    them; IDs it does not carry are left out."""
    if edition == CURRENT:
        return tuple(current)
    current = tuple(current)
    carriers = _carriers(edition)
    catalog = CATALOGS[edition]
    out = [x for r in current for x in carriers.get(r, [r] if r in catalog else [])]
    return tuple(dict.fromkeys(out + [r.id for r in _joint(edition, current)]))


def certified_by(rule: Rule, cited: dict[str, tuple[str, ...]]) -> list[str]:
    """The properties (name → rules they cite) certifying `rule` in its edition."""
    return [name for name, rules in cited.items() if rule.id in rules_in(rules, rule.edition)]
