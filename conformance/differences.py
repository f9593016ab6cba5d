"""What the comparison with the reference engine compares at one moment,
field by field, and the differences it finds there (docs/observations.md);
the rules each difference falls under are `conformance.difference_rules`'s.

Only what the certified rules govern is compared: whose turn it is and who
is in the game; each permanent's zone, phasing status and cause,
controller, tapped status, counters, attachment, power and toughness while
phased in, combat status and choices; the events that show phasing,
triggers and attachments; life as the evidence of triggers, abilities and
combat damage; cards drawn by the suite's spells; and whether an action was
refused. Not compared: the turn number (an engine counts turns its own way),
draws in the draw step (an engine may draw there), and `zone_change` events
where the permanent really changed zone (token creation, leaving the game:
an engine may log them or not). A `zone_change` logged for a permanent that
did not change zone is compared: phasing is not a zone change (702.26d).

Life and cards drawn are compared as their change during one action, so a
difference shows once, where it arises, and not after every later action.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields, replace

from conformance import actions as a
from conformance.catalog import TEFERI_RULINGS
from conformance.difference_rules import (
    DRAW_RULES,
    LIFE_RULES,
    LIFELINK_RULES,
    REFUSAL_RULES,
    action_type,
    damage_refusal_rules,
    event_rules,
    permanent_rules,
    permanents_used,
    sickness_rules,
    trigger_rules,
    was_phased_out,
)
from conformance.observation import Observation, PermanentView
from conformance.setup import DRAW_LIFE

#: Fields of `PermanentView` compared as they are; `power` and `toughness`
#: only while both engines show the creature phased in (the convention).
_PERMANENT_FIELDS = tuple(
    f.name for f in fields(PermanentView) if f.name not in ("id", "power", "toughness")
)
_VIEW_FIELDS = frozenset(f.name for f in fields(PermanentView))
#: Event kinds compared as multisets; `zone_change` is handled apart.
_COMPARED_EVENTS = ("phased_out", "phased_in", "trigger", "attached", "unattached")


@dataclass(frozen=True)
class Difference:
    """One field in which the engine showed something else than the
    reference engine, `where` in the scenario, and the rules that govern it
    (empty when no certified rule does, e.g. whose turn it is)."""

    where: str
    subject: str
    field: str
    reference: str
    engine: str
    rules: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        """What makes it the same difference in a smaller scenario: the
        field, the permanent or player, and the rules, wherever it shows."""
        return self.subject, self.field, self.rules

    @property
    def kind(self) -> str:
        """What makes it a distinct difference in another scenario: the field.
        Its rules follow from where it shows (a trigger's life on phasing in
        or on leaving), so one bug would fill the report with variants."""
        return self.field

    def __str__(self) -> str:
        rules = f"rules {', '.join(self.rules)}" if self.rules else "no certified rule"
        subject = f"{self.subject} " if self.subject else ""
        return (
            f"{self.where}: {subject}{self.field}: reference {self.reference}, "
            f"engine {self.engine} ({rules})"
        )


@dataclass(frozen=True)
class Moment:
    """One point of comparison: the observations of both engines after
    `action` (None at the start) and before it, and the scenario's tokens."""

    where: str
    reference: Observation
    engine: Observation
    action: a.Action | None = None
    reference_before: Observation | None = None
    engine_before: Observation | None = None
    tokens: frozenset[str] = frozenset()
    #: Players whose life the engine's draw step may also have changed by
    #: `DRAW_LIFE` (`conformance.draw_step`).
    draw_step: frozenset[int] = frozenset()
    #: Players under Teferi's Protection before or after `action`, by the
    #: reference engine's play (`conformance.properties.players.protected`).
    shielded: frozenset[int] = frozenset()
    #: What the reference engine phased in at the latest untap step before
    #: `action`: summoning sickness spares these (R2017-haste), and nothing
    #: else that phased in (302.6).
    untap_phased_in: frozenset[str] = frozenset()
    #: Legendary permanents sharing their name with another (704.5j).
    legends: frozenset[str] = frozenset()
    #: What the reference engine showed phased out until a permanent leaves
    #: the battlefield before `action` (610.4): no untap step phases it in.
    waiting: frozenset[str] = frozenset()


def parts_ways(found: list[Difference]) -> bool:
    """Whether one moment's differences are all governed by no certified
    rule (whose turn it is, a refusal of an action with no target): the two
    games part ways there in something the certificate doesn't judge. The
    comparison notes them and compares nothing after them, since what
    follows may follow from them and would be blamed on rules it is no
    evidence of (docs/observations.md, "Differences and rules")."""
    return bool(found) and not any(d.rules for d in found)


def differences(moment: Moment, unreported: frozenset[str] = frozenset()) -> list[Difference]:
    """Every governed field that differs at `moment`, ignoring the optional
    observations the engine declares `unreported`. Where one engine refused
    the action and the other carried it out, every other difference follows
    from that and is named by the refusal's rules."""
    refusal = _refusal_differences(moment) if moment.action is not None else []
    out = _turn_differences(moment) + refusal
    if moment.action is not None:
        events = [] if "events" in unreported else _event_differences(moment)
        out += _player_differences(moment, unreported, events)
        out += events
    theirs = {p.id: p for p in moment.engine.permanents}
    for p in moment.reference.permanents:
        out += _permanent_differences(moment, p, theirs.get(p.id))
    out = [d for d in out if not _already(moment, d)]
    if refusal:
        rules = refusal[0].rules
        out = [d if d in refusal else replace(d, rules=rules) for d in out]
    return [_unshielded(moment, d) for d in out]


def _unshielded(m: Moment, d: Difference) -> Difference:
    """`d` without the rulings on Teferi's Protection where no player was
    under it: a life payment that differs then is governed by no certified
    rule, not R2017-pay-life. Any player under it keeps them for every
    player: an exchange with a shielded player doesn't change the other's
    life either (R2017-exchange), and lifelink from damage to one does
    (R2017-unpreventable)."""
    if m.shielded:
        return d
    return replace(d, rules=tuple(r for r in d.rules if r not in TEFERI_RULINGS))


def _already(m: Moment, d: Difference) -> bool:
    """Whether a permanent's field differed before the action already: a
    difference is reported where it arises, not after every later action."""
    if m.reference_before is None or m.engine_before is None or d.field not in _VIEW_FIELDS:
        return False
    ref = next((p for p in m.reference_before.permanents if p.id == d.subject), None)
    eng = next((p for p in m.engine_before.permanents if p.id == d.subject), None)
    if ref is None or eng is None:
        return ref is not None
    return getattr(ref, d.field) != getattr(eng, d.field)


def _diff(
    m: Moment, subject: str, field: str, ref: object, eng: object, rules: tuple
) -> Difference:
    return Difference(m.where, subject, field, repr(ref), repr(eng), rules)


def _turn_differences(m: Moment) -> list[Difference]:
    out = []
    if m.reference.active != m.engine.active:
        out.append(_diff(m, "", "active player", m.reference.active, m.engine.active, ()))
    for ref, eng in zip(m.reference.players, m.engine.players, strict=False):
        if ref.in_game != eng.in_game:
            rules = ("800.4a",) if action_type(m) is a.Concede else ()
            out.append(_diff(m, f"player {ref.index}", "in_game", ref.in_game, eng.in_game, rules))
    if len(m.reference.players) != len(m.engine.players):
        out.append(_diff(m, "", "players", len(m.reference.players), len(m.engine.players), ()))
    return out


def _refusal_differences(m: Moment) -> list[Difference]:
    ref, eng = m.reference.refused, m.engine.refused
    if (ref is None) == (eng is None):
        return []
    rules = REFUSAL_RULES.get(type(m.action), ())
    if isinstance(m.action, a.DealDamage | a.TapAndDamage):
        rules = damage_refusal_rules(m.action)
    if isinstance(m.action, a.DeclareAttackers) and m.action.defender in m.shielded:
        # R2017-nothing-else: a player with protection from everything can
        # still be attacked.
        return [_diff(m, "", "refused", ref, eng, ("R2017-nothing-else",))]
    if "R2017-haste" in rules:
        # A phased-out permanent can't be used (R2017-nonexistent); a
        # phased-in one that can't is summoning sick (`sickness_rules`).
        used = permanents_used(m)
        if any(was_phased_out(m, pid) for pid in used):
            rules = tuple(r for r in rules if r != "R2017-haste")
        else:
            rules = sickness_rules(m, used)
    return [_diff(m, "", "refused", ref, eng, rules)]


def _player_differences(
    m: Moment, unreported: frozenset[str], events: list[Difference]
) -> list[Difference]:
    """Life, cards drawn, poison counters and cards discarded, as their
    change during the action; `events` are the action's event differences,
    whose triggers may explain a life change."""
    if m.reference_before is None or m.engine_before is None:
        return []
    out = []
    kind = type(m.action)
    players = zip(
        m.reference_before.players,
        m.reference.players,
        m.engine_before.players,
        m.engine.players,
        strict=False,
    )
    for rb, ra, eb, ea in players:
        subject = f"player {ra.index}"
        expected = {ra.life - rb.life}
        if ra.index in m.draw_step:  # a draw step draw replaced by life
            expected.add(ra.life - rb.life + DRAW_LIFE)
        if "life" not in unreported and ea.life - eb.life not in expected:
            rules = LIFE_RULES.get(kind, ("603.10b", "702.26d"))
            if isinstance(m.action, a.DamageOpponents) and ra.index == m.action.caster:
                rules = LIFELINK_RULES  # the caster's life changes by lifelink only
            if kind is a.PassTurn and not any(v.attacking for v in m.reference_before.permanents):
                rules = ("603.10b",)  # no combat this turn: triggers alone change life
            # Triggers that differ explain the life they gain: theirs are
            # the rules, where the engine shows them.
            rules = trigger_rules(events, rules)
            gained = (f"{ra.life - rb.life:+d}", f"{ea.life - eb.life:+d}")
            out.append(Difference(m.where, subject, "life change", *gained, rules))
        # The draw step is the engine's own business: draws are compared
        # only for the suite's spells.
        drawn = (ra.cards_drawn - rb.cards_drawn, ea.cards_drawn - eb.cards_drawn)
        if "cards_drawn" not in unreported and kind in DRAW_RULES and drawn[0] != drawn[1]:
            out.append(
                Difference(m.where, subject, "cards drawn", *map(str, drawn), DRAW_RULES[kind])
            )
        # Cleanup's discard to hand size (514.1) is the engine's own
        # business: discards are compared only for the suite's spell.
        gone = (ra.cards_discarded - rb.cards_discarded, ea.cards_discarded - eb.cards_discarded)
        if kind is a.OpponentsDiscard and gone[0] != gone[1]:
            rules = ("R2017-nothing-else",)
            out.append(Difference(m.where, subject, "cards discarded", *map(str, gone), rules))
        # Only damage from a source with infect gives poison counters (702.90b).
        poisoned = (ra.poison - rb.poison, ea.poison - eb.poison)
        if poisoned[0] != poisoned[1]:
            rules = ("R2017-unpreventable",)
            out.append(Difference(m.where, subject, "poison counters", *map(str, poisoned), rules))
    return out


def _event_differences(m: Moment) -> list[Difference]:
    def log(obs: Observation) -> Counter[tuple[str, str, str]]:
        return Counter(
            (e.kind, e.subject, e.detail) for e in obs.events if e.kind in _COMPARED_EVENTS
        )

    theirs, ours = log(m.reference), log(m.engine)
    out = []
    for kind, subject in sorted({(k, s) for k, s, _ in (theirs | ours)}):
        ref = sorted(d for k, s, d in theirs.elements() if (k, s) == (kind, subject))
        eng = sorted(d for k, s, d in ours.elements() if (k, s) == (kind, subject))
        if ref != eng:
            rules = event_rules(m, kind, subject, ref, eng)
            # An event with no detail (phased_in has none) shows as its kind,
            # not as an empty string.
            shown = (str([d or kind for d in details]) for details in (ref, eng))
            out.append(Difference(m.where, subject, f"{kind} events", *shown, rules))
    out += _false_zone_changes(m)
    return out


def _false_zone_changes(m: Moment) -> list[Difference]:
    """`zone_change` events the engine logged for a permanent that, for
    the reference, stayed where it was: phasing is not a zone change
    (702.26d). Where it did change zone, logging it is optional."""
    if m.reference_before is None:
        return []
    was = {p.id: p.zone for p in m.reference_before.permanents}
    now = {p.id: p.zone for p in m.reference.permanents}
    logged = Counter(
        e.subject
        for e in m.engine.events
        if e.kind == "zone_change" and e.subject in now and was.get(e.subject) == now[e.subject]
    )
    return [
        Difference(m.where, pid, "zone_change events", "[]", f"{n} zone change(s)", ("702.26d",))
        for pid, n in sorted(logged.items())
    ]


def _permanent_differences(
    m: Moment, ref: PermanentView, eng: PermanentView | None
) -> list[Difference]:
    if eng is None:
        # Phased-out permanents are listed too (702.26d): they still exist.
        rules = ("702.26d",) if ref.phased_out else ()
        return [Difference(m.where, ref.id, "listed", "yes", "missing", rules)]
    # Off the battlefield only the zone means something (docs/protocol.md:
    # listed "with only its zone"); an engine may keep other fields there.
    names = list(_PERMANENT_FIELDS) if ref.on_battlefield else ["zone"]
    if ref.phased_in and eng.phased_in:
        names += ["power", "toughness"]
    out = []
    for name in names:
        theirs, ours = getattr(ref, name), getattr(eng, name)
        if theirs != ours:
            out.append(_diff(m, ref.id, name, theirs, ours, permanent_rules(m, ref, name)))
    return _named_by_the_root(out)


#: A permanent's fields that, differing, make its others differ too.
_ROOTS = ("zone", "phased_out")


def _named_by_the_root(found: list[Difference]) -> list[Difference]:
    """One permanent's differences, each other field's named by the rules
    of its zone's or phased-out status's difference where that differs
    too: a permanent the engine left phased out is still tapped, still
    "indirect", because it didn't phase in (that rule's evidence), not
    because untapping or phasing causes went wrong."""
    root = next((d for name in _ROOTS for d in found if d.field == name), None)
    if root is None:
        return found
    return [d if d.field in _ROOTS else replace(d, rules=root.rules) for d in found]
