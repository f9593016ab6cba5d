"""The rule catalog: every rule the suite certifies, by ID.

IDs are those of ../shared/rules/phasing.md: today's Comprehensive Rules
numbers (702.26 and the related rules) and the 2017-08-25 rulings. Every
entry must be cited by at least one property, and every property may cite
only these IDs (tests/test_catalog.py checks both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Edition = Literal["current", "pre-2017", "mirage"]

#: Version of the catalog; bump when entries change meaning.
CATALOG_VERSION = "2026-12-01"


@dataclass(frozen=True)
class Rule:
    """A rule of one edition. An older edition's rule that today's rules
    still make (under other numbers) `carries` today's IDs: the properties of
    those certify it. One carrying them `jointly` says what today's rules
    say only together: only a property citing all of them certifies it.
    `uncertified` says why no property can judge it yet (empty when one
    does)."""

    id: str
    summary: str
    edition: Edition = "current"
    carries: tuple[str, ...] = ()
    uncertified: str = ""
    jointly: bool = False


_RULES = [
    Rule(
        "702.26a",
        "In its controller's untap step a phasing permanent phases out and what phased out under that player phases in, simultaneously.",
    ),
    Rule(
        "702.26b",
        "A phased-out permanent is treated as though it doesn't exist: not counted, destroyed, targeted, able to attack, or affecting the game.",
    ),
    Rule(
        "702.26c",
        "Phasing in restores the permanent: it counts, can be targeted and its static abilities apply again.",
    ),
    Rule(
        "702.26d",
        "Phasing is neither a zone change nor a control change: no enter/leave triggers, tokens stay, counters and tapped status are kept.",
    ),
    Rule("702.26e", "Effects created by resolving spells don't include phased-out permanents."),
    Rule(
        "702.26f",
        "Effects can expire while a permanent is phased out; 'for as long as' effects tracking it end when it phases out.",
    ),
    Rule(
        "702.26g",
        "Attachments of a permanent that phases out phase out indirectly with it and phase in only with it.",
    ),
    Rule("702.26h", "Phasing out both directly and indirectly at once is phasing out indirectly."),
    Rule(
        "702.26i",
        "A directly phased-out attachment phases in attached if its object is still there, else unattached (then state-based actions apply).",
    ),
    Rule("702.26j", "Phasing in or out never triggers 'becomes attached' or 'becomes unattached'."),
    Rule(
        "702.26k",
        "Phased-out permanents owned by a player who leaves the game leave too, without zone-change triggers.",
    ),
    Rule("702.26m", "A player who skips their untap step has no phasing event that turn."),
    Rule(
        "702.26n",
        "What phased out under a player who left phases in at the next untap step after that player's turn would have begun.",
    ),
    Rule("702.26p", "Several instances of phasing on one permanent are redundant."),
    Rule("110.5", "Phased in/out is a status; permanents enter phased in."),
    Rule(
        "502.1",
        "Phasing is the first thing in the untap step; permanents that phase in then untap.",
    ),
    Rule(
        "302.6",
        "A creature can attack or pay {T} only if its controller has controlled it continuously since their most recent turn began; phasing in cures nothing.",
    ),
    Rule(
        "502.4",
        "No player gets priority in the untap step: abilities that trigger there (on phasing) go on the stack in the upkeep, after untapping (603.3).",
    ),
    Rule("506.4", "A permanent that phases out is removed from combat."),
    Rule(
        "509.1h",
        "An attacking creature stays blocked once the creatures blocking it are removed from combat, and then deals no combat damage (510.1c).",
    ),
    Rule(
        "514.2",
        "At cleanup all damage marked on permanents is removed, phased-out permanents included.",
    ),
    Rule("603.10b", "'Whenever this phases out' triggers look back in time and do trigger."),
    Rule("610.4", "'Phases out until X' phases in right after X, not at the untap step."),
    Rule("611.2b", "A 'for as long as' effect whose duration never starts does nothing."),
    Rule(
        "704.5d",
        "A token outside the battlefield ceases to exist; a phased-out token is on the battlefield.",
    ),
    Rule(
        "704.3",
        "State-based actions are checked whenever a player would receive priority, not after every event.",
    ),
    Rule(
        "704.5j",
        "Of a player's phased-in legendary permanents with one name they keep one; the rest go to the graveyard. Phasing in is not entering, but the rule applies.",
    ),
    Rule("704.5m", "An unattached Aura, or one attached illegally, goes to its owner's graveyard."),
    Rule("704.5n", "Equipment or a Fortification attached illegally becomes unattached and stays."),
    Rule(
        "800.4a",
        "A player who leaves the game takes everything they own with them; effects giving them control end; what they still control is exiled.",
    ),
    Rule(
        "800.4c",
        "A control effect for a player still in the game ends, none gives the object to another player in the game, and its default controller has left: it is exiled.",
    ),
    Rule("800.4m", "'Until that player's next turn' lasts until that turn would have begun."),
    Rule(
        "R2017-targets",
        "A spell whose only target phased out doesn't resolve; none of its effects happen.",
    ),
    Rule(
        "R2017-until-leaves",
        "Effects waiting 'until this leaves the battlefield' don't happen on phasing out.",
    ),
    Rule("R2017-tokens", "A phased-out token phases in at its controller's next untap step."),
    Rule(
        "R2017-nonexistent",
        "Phased out: can't be targeted, static abilities don't apply, triggers don't trigger, can't attack or block.",
    ),
    Rule(
        "R2017-haste",
        "Creatures that phase in as your turn begins can attack and pay {T} that turn.",
    ),
    Rule(
        "R2017-control",
        "A control effect that ended while the permanent was out: it phases in under its owner at the former controller's next untap step.",
    ),
    Rule(
        "R2017-auras",
        "Auras and Equipment on a permanent that isn't phasing out phase in attached if still legal, else unattached.",
    ),
    Rule(
        "R2017-attached",
        "Attachments of a permanent that phases out phase in with it, still attached.",
    ),
    Rule("R2017-counters", "Counters stay on a permanent that phases out and in."),
    Rule(
        "R2017-for-as-long-as",
        "'For as long as' effects ignore phased-out objects and end if their condition fails.",
    ),
    Rule(
        "R2017-no-etb-ltb",
        "No leaves-the-battlefield trigger on phasing out, no enters trigger on phasing in.",
    ),
    Rule(
        "R2017-skip-untap",
        "A skipped untap step delays phasing in until the next untap step you actually have.",
    ),
    Rule("R2017-choices", "Choices made as a permanent entered are remembered when it phases in."),
    Rule(
        "R2017-protection",
        "Protection from everything on a player: damage to them is prevented, Auras can't be attached to them, they can't be targeted.",
    ),
    Rule(
        "R2017-protection-targets",
        "A player gaining protection makes a spell targeting them have an illegal target; with other legal targets it does what it can, and its other effects happen.",
    ),
    Rule(
        "R2017-nothing-else",
        "Protection from everything prevents nothing else: creatures can still attack you (their damage is prevented), effects that don't target you still apply.",
    ),
    Rule(
        "R2017-life-no-effect",
        "While your life total can't change, spells that would make you gain or lose life still resolve; the life part has no effect.",
    ),
    Rule(
        "R2017-set-life",
        "While your life total can't change, an effect setting it to another number does nothing.",
    ),
    Rule(
        "R2017-exchange",
        "While your life total can't change, an exchange of life totals with you doesn't happen: neither total changes.",
    ),
    Rule(
        "R2017-pay-life",
        "While your life total can't change, you can't pay a cost of any life other than 0.",
    ),
    Rule(
        "R2017-gain-life-cost",
        "While your life total can't change, a cost of your gaining life (an opponent's Invigorate) can't be paid.",
    ),
    Rule(
        "R2017-replaced-by-life",
        "While your life total can't change, effects replacing an event with your gaining or losing life apply, replacing it with nothing.",
    ),
    Rule(
        "R2017-life-replacement",
        "While your life total can't change, effects replacing your gaining or losing life with another event can't apply.",
    ),
    Rule(
        "R2017-unpreventable",
        "Damage to you that can't be prevented is dealt, with its other effects (lifelink, infect), though your life total doesn't change.",
    ),
]

CATALOG: dict[str, Rule] = {r.id: r for r in _RULES}

#: The rulings on Teferi's Protection: protection from everything, a life
#: total that can't change, and spells whose target gains it in response.
#: They are about players; no phasing takes part in them.
TEFERI_RULINGS = frozenset(
    {
        "R2017-protection",
        "R2017-protection-targets",
        "R2017-nothing-else",
        "R2017-life-no-effect",
        "R2017-set-life",
        "R2017-exchange",
        "R2017-pay-life",
        "R2017-gain-life-cost",
        "R2017-replaced-by-life",
        "R2017-life-replacement",
        "R2017-unpreventable",
    }
)


def marker_name(rule_id: str) -> str:
    """The pytest marker of a rule ID: 702.26g → rule_702_26g."""
    return "rule_" + re.sub(r"[^0-9A-Za-z]", "_", rule_id)
