"""What the comparison with the reference engine compares, field by field,
and the rules each difference falls under (docs/observations.md).

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
#: The rules whose abilities or spells refuse an action of this kind.
_REFUSAL_RULES: dict[type, tuple[str, ...]] = {
    a.PhaseOut: ("702.26b", "R2017-nonexistent"),
    a.PhaseOutUntil: ("610.4", "702.26b"),
    a.Destroy: ("702.26b", "R2017-targets"),
    a.DestroyThroughPhasing: ("702.26b", "R2017-targets", "610.4"),
    a.GainControl: ("702.26b", "R2017-nonexistent"),
    a.Activate: ("702.26b", "R2017-nonexistent", "R2017-haste"),
    a.DeclareAttackers: ("R2017-nonexistent", "R2017-haste"),
    a.DealDamage: ("R2017-protection", "702.26b", "R2017-nonexistent"),
    a.EnchantPlayer: ("R2017-protection",),
    a.ExchangeLife: ("R2017-protection", "R2017-exchange"),
    a.TapAndDamage: ("R2017-protection", "702.26b"),
    a.GainLife: ("R2017-life-no-effect",),
    a.LoseLife: ("R2017-life-no-effect",),
    a.SetLife: ("R2017-set-life",),
    a.PayLife: ("R2017-pay-life",),
    a.GiveLife: ("R2017-gain-life-cost",),
    a.DeclareBlockers: ("R2017-nonexistent", "702.26b"),
    a.TapForMana: ("702.26b", "R2017-nonexistent", "R2017-haste"),
}
#: What a change of life during an action is the evidence of.
_LIFE_RULES: dict[type, tuple[str, ...]] = {
    a.PassTurn: ("603.10b", "506.4", "509.1h"),
    a.DealDamage: ("702.26b", "R2017-protection"),
    a.Activate: ("702.26b", "R2017-nonexistent"),
    a.Concede: ("702.26k", "800.4a"),
    a.Destroy: ("702.26b",),
    a.DestroyThroughPhasing: ("702.26d", "702.26b"),
    a.DestroyAll: ("702.26b",),
    a.GainLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.LoseLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.SetLife: ("R2017-set-life",),
    a.ExchangeLife: ("R2017-exchange",),
    a.PayLife: ("R2017-pay-life",),
    a.GiveLife: ("R2017-gain-life-cost",),
    a.DamageOpponents: ("R2017-protection", "R2017-unpreventable"),
    a.TapAndDamage: ("R2017-targets", "R2017-protection-targets"),
}
#: A lifelink caster's gain: none while their own life total can't change
#: (R2017-life-no-effect), the whole damage dealt to a locked opponent
#: (R2017-unpreventable: the damage is dealt, and lifelink sees it).
_LIFELINK_RULES = ("R2017-life-no-effect", "R2017-unpreventable")
#: The spells whose draws `cards_drawn` counts, and the rule each shows.
_DRAW_RULES: dict[type, tuple[str, ...]] = {
    a.Destroy: ("R2017-targets",),
    a.DestroyThroughPhasing: ("702.26c", "702.26d"),
    a.DrawPerCreature: ("702.26b",),
    a.GainLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.LoseLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.SetLife: ("R2017-set-life",),
    a.ExchangeLife: ("R2017-exchange",),
    a.PayLife: ("R2017-pay-life",),
    a.GiveLife: ("R2017-gain-life-cost",),
    a.TapAndDamage: ("R2017-targets", "R2017-protection-targets"),
    a.DrawPerEntered: ("702.26d", "702.26b"),
}


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


def _kind(m: Moment) -> type | None:
    return None if m.action is None else type(m.action)


def _turn_differences(m: Moment) -> list[Difference]:
    out = []
    if m.reference.active != m.engine.active:
        out.append(_diff(m, "", "active player", m.reference.active, m.engine.active, ()))
    for ref, eng in zip(m.reference.players, m.engine.players, strict=False):
        if ref.in_game != eng.in_game:
            rules = ("800.4a",) if _kind(m) is a.Concede else ()
            out.append(_diff(m, f"player {ref.index}", "in_game", ref.in_game, eng.in_game, rules))
    if len(m.reference.players) != len(m.engine.players):
        out.append(_diff(m, "", "players", len(m.reference.players), len(m.engine.players), ()))
    return out


def _refusal_differences(m: Moment) -> list[Difference]:
    ref, eng = m.reference.refused, m.engine.refused
    if (ref is None) == (eng is None):
        return []
    rules = _REFUSAL_RULES.get(type(m.action), ())
    if isinstance(m.action, a.DeclareAttackers) and m.action.defender in m.shielded:
        # R2017-nothing-else: a player with protection from everything can
        # still be attacked.
        return [_diff(m, "", "refused", ref, eng, ("R2017-nothing-else",))]
    if "R2017-haste" in rules:
        # A phased-out permanent can't be used (R2017-nonexistent); a
        # phased-in one that can't is summoning sick (`_sickness_rules`).
        used = _used(m)
        if any(_was_out(m, pid) for pid in used):
            rules = tuple(r for r in rules if r != "R2017-haste")
        else:
            rules = _sickness_rules(m, used)
    return [_diff(m, "", "refused", ref, eng, rules)]


def _sickness_rules(m: Moment, used: tuple[str, ...]) -> tuple[str, ...]:
    """302.6 for a creature's summoning sickness; R2017-haste where what is
    used phased in at the latest untap step (it has been under its
    controller's control since the turn began)."""
    return ("302.6", "R2017-haste") if set(used) & m.untap_phased_in else ("302.6",)


def _used(m: Moment) -> tuple[str, ...]:
    """The permanents an `Activate`, `TapForMana` or `DeclareAttackers` uses."""
    if isinstance(m.action, a.Activate):
        return (m.action.source,)
    if isinstance(m.action, a.TapForMana):
        return (m.action.land,)
    if isinstance(m.action, a.DeclareAttackers):
        return m.action.attackers
    return ()


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
            rules = _LIFE_RULES.get(kind, ("603.10b", "702.26d"))
            if isinstance(m.action, a.DamageOpponents) and ra.index == m.action.caster:
                rules = _LIFELINK_RULES  # the caster's life changes by lifelink only
            if kind is a.PassTurn and not any(v.attacking for v in m.reference_before.permanents):
                rules = ("603.10b",)  # no combat this turn: triggers alone change life
            # Triggers that differ explain the life they gain: theirs are
            # the rules, where the engine shows them.
            rules = _trigger_rules(events, rules)
            gained = (f"{ra.life - rb.life:+d}", f"{ea.life - eb.life:+d}")
            out.append(Difference(m.where, subject, "life change", *gained, rules))
        # The draw step is the engine's own business: draws are compared
        # only for the suite's spells.
        drawn = (ra.cards_drawn - rb.cards_drawn, ea.cards_drawn - eb.cards_drawn)
        if "cards_drawn" not in unreported and kind in _DRAW_RULES and drawn[0] != drawn[1]:
            out.append(
                Difference(m.where, subject, "cards drawn", *map(str, drawn), _DRAW_RULES[kind])
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


def _trigger_rules(events: list[Difference], otherwise: tuple[str, ...]) -> tuple[str, ...]:
    """The rules of the differing triggers among `events`, in order, even
    none (a trigger no certified rule governs gains life no rule governs);
    `otherwise` if no trigger differs."""
    triggers = [d for d in events if d.field == "trigger events"]
    if not triggers:
        return otherwise
    return tuple(dict.fromkeys(r for d in triggers for r in d.rules))


def _phasing_rules(m: Moment, pid: str) -> tuple[str, ...] | None:
    """The rules of `pid`'s phasing difference in this action, if the engine
    phased it in or out another number of times than the reference; None
    if it phased the same. A phase trigger that differs because of it is
    evidence of that difference, not of 603.10b."""
    for kind in ("phased_in", "phased_out"):
        ref = [e.detail for e in m.reference.events if (e.kind, e.subject) == (kind, pid)]
        eng = [e.detail for e in m.engine.events if (e.kind, e.subject) == (kind, pid)]
        if len(ref) != len(eng):
            return _event_rules(m, kind, pid, ref, eng)
    return None


def _phased_now(m: Moment, pid: str) -> bool:
    """Whether the reference shows `pid` phasing during the action."""
    return any(
        e.kind in ("phased_in", "phased_out") and e.subject == pid for e in m.reference.events
    )


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
            rules = _event_rules(m, kind, subject, ref, eng)
            # An event with no detail (phased_in has none) shows as its kind,
            # not as an empty string.
            shown = (str([d or kind for d in details]) for details in (ref, eng))
            out.append(Difference(m.where, subject, f"{kind} events", *shown, rules))
    out += _false_zone_changes(m)
    return out


def _event_rules(m: Moment, kind: str, subject: str, ref: list[str], eng: list[str]) -> tuple:
    action = type(m.action)
    if kind in ("phased_in", "phased_out"):
        if len(ref) == len(eng):
            return ("702.26g", "702.26h")  # the same phasing, another cause
        if action is a.PassTurn:
            rules = ("702.26a", "702.26p") if max(len(ref), len(eng)) > 1 else ("702.26a",)
            # An attachment phases out and in with its host (702.26g), as
            # the phased_out field's differences say too.
            return (*rules, "702.26g") if _attached(m, subject) else rules
        if _attached(m, subject):
            return ("702.26g",)
        # Out of the untap step, what phases in on its own was waiting for
        # an "until" source to leave (610.4), as the phased_out field says.
        return ("610.4",) if kind == "phased_in" and _was_out(m, subject) else ()
    if kind in ("attached", "unattached"):
        return ("702.26j",) if _phased_now(m, subject) else ("702.26i", "704.5n")
    details = set(ref) ^ set(eng) or set(ref) | set(eng)
    if details & {"phases_in", "phases_out"}:
        phasing = _phasing_rules(m, subject)
        return ("603.10b",) if phasing is None else phasing
    if details & {"attached", "unattached"}:
        return ("702.26j",)
    if _player_left(m) or _left_with_a_player(m, subject):
        # 702.26k: a phased-out permanent leaves with its owner without
        # triggers. A phased-in one another player controls triggers as it
        # leaves (603.6c, not certified: no rule names a missing one), and
        # what the leaver controlled triggers nothing (800.4a).
        if _was_out(m, subject):
            return ("702.26k", "800.4a")
        return ("800.4a",) if Counter(eng) - Counter(ref) else ()
    if _phased_now(m, subject):
        return ("R2017-no-etb-ltb", "702.26d")
    return ("702.26b",) if action in (a.Destroy, a.DestroyAll) else ("702.26d",)


def _attached(m: Moment, pid: str) -> bool:
    before = m.reference_before
    views = [m.reference] + ([before] if before is not None else [])
    return any(p.id == pid and p.attached_to is not None for obs in views for p in obs.permanents)


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
            out.append(_diff(m, ref.id, name, theirs, ours, _permanent_rules(m, ref, name)))
    return out


def _permanent_rules(m: Moment, ref: PermanentView, name: str) -> tuple[str, ...]:
    """The rules that govern field `name` of `ref` after the action."""
    action = _kind(m)
    before = _before(m, ref.id)
    attached = ref.attached_to is not None or (
        before is not None and before.attached_to is not None
    )
    was_out = before is not None and before.phased_out
    phased = was_out != ref.phased_out
    if name == "zone":
        if _player_left(m):
            return ("800.4a", "702.26k") if was_out or ref.phased_out else ("800.4a",)
        if ref.id in m.tokens:
            return ("704.5d", "R2017-tokens")
        if ref.id in m.legends and action not in (a.Destroy, a.DestroyAll):
            return ("704.5j",)
        if was_out:
            return ("702.26b",) if action in (a.Destroy, a.DestroyAll) else ("702.26d",)
        return ("704.5m",) if attached else ()
    if name == "phased_out":
        if action is a.PassTurn:
            return ("702.26a", "702.26g") if attached else ("702.26a",)
        if action is a.Concede:
            return ("702.26k", "702.26n")
        if attached:
            return ("702.26g",)
        return ("610.4",) if was_out else ()
    if name == "cause":
        return ("702.26g", "702.26h")
    if name == "controller":
        if _player_left(m):
            return ("800.4a", "800.4c")
        if action is a.PassTurn:
            return ("R2017-control", "702.26f", "800.4m")
        if phased or was_out:
            return ("702.26d", "R2017-for-as-long-as")
        # 702.26f: a "for as long as" effect ends as the permanent it names
        # phases out, directly or with its host.
        return ("702.26f", "R2017-for-as-long-as") if _anything_phased(m) else ()
    if name == "tapped":
        if action is a.PassTurn:
            return ("502.1",)
        if action in (a.Activate, a.DeclareAttackers):
            return ("R2017-nonexistent",) if was_out else _sickness_rules(m, (ref.id,))
        return ("702.26d",) if phased else ()
    if name in ("attacking", "blocking"):
        # 506.4: removed from combat by phasing out or by a change of
        # controller; nothing certified says more (readings.md, L).
        if phased or was_out:
            return ("506.4", "R2017-nonexistent")
        changed = before is not None and before.controller != ref.controller
        return ("506.4",) if changed else ()
    if name == "attached_to":
        if action is a.PassTurn or phased:
            return ("702.26g", "702.26i", "R2017-attached")
        return ("704.5n", "702.26i")
    return {
        "counters": ("R2017-counters", "702.26d"),
        "power": ("702.26e",) if action is a.PumpTeam else ("702.26c", "R2017-nonexistent"),
        "toughness": ("702.26e",) if action is a.PumpTeam else ("702.26c", "R2017-nonexistent"),
        "chosen": ("R2017-choices",),
        "damage": ("514.2",),
        "blocked": ("509.1h",),
    }.get(name, ())


def _anything_phased(m: Moment) -> bool:
    """Whether the reference showed any permanent phase out or in during the
    action."""
    if m.reference_before is None:
        return False
    was = {p.id: p.phased_out for p in m.reference_before.permanents}
    return any(p.id in was and was[p.id] != p.phased_out for p in m.reference.permanents)


def _player_left(m: Moment) -> bool:
    """Whether a player left the game during the action, for the reference:
    by conceding, or by losing (704.5a) in a turn passed or to a spell.
    What they owned left with them (800.4a), whatever the action was."""
    if m.action is None or m.reference_before is None:
        return False
    if isinstance(m.action, a.Concede):
        return True
    before = zip(m.reference_before.players, m.reference.players, strict=False)
    return any(b.in_game and not after.in_game for b, after in before)


def _left_with_a_player(m: Moment, pid: str) -> bool:
    """Whether `pid`, not a token, had left the game before the action, as a
    player had: its leaves trigger may resolve only now, when a player next
    receives priority (603.3)."""
    before = _before(m, pid)
    gone = m.reference_before is not None and any(not p.in_game for p in m.reference_before.players)
    return gone and before is not None and before.zone == "none" and pid not in m.tokens


def _was_out(m: Moment, pid: str) -> bool:
    """Whether the reference showed `pid` phased out before the action."""
    before = _before(m, pid)
    return before is not None and before.phased_out


def _before(m: Moment, pid: str) -> PermanentView | None:
    if m.reference_before is None:
        return None
    return next((p for p in m.reference_before.permanents if p.id == pid), None)
