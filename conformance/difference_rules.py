"""The rules each difference `conformance.differences` finds falls under,
by the kind of action (the tables) and by what the reference engine showed
before and during it (the `*_rules` functions). They are kept apart from
the comparison so that what is compared and which rules a difference names
can each be read, and changed, on its own."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from conformance import actions as a
from conformance.observation import PermanentView

if TYPE_CHECKING:  # annotations only: `conformance.differences` imports this module
    from conformance.differences import Difference, Moment

#: The rules whose abilities or spells refuse an action of this kind.
REFUSAL_RULES: dict[type, tuple[str, ...]] = {
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
#: The life actions' own rules: what a change of life, or a draw their
#: replacements make, during one of them is the evidence of.
_LIFE_ACTIONS: dict[type, tuple[str, ...]] = {
    a.GainLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.LoseLife: ("R2017-life-no-effect", "R2017-replaced-by-life", "R2017-life-replacement"),
    a.SetLife: ("R2017-set-life",),
    a.ExchangeLife: ("R2017-exchange",),
    a.PayLife: ("R2017-pay-life",),
    a.GiveLife: ("R2017-gain-life-cost",),
}
#: What a change of life during an action is the evidence of.
LIFE_RULES: dict[type, tuple[str, ...]] = {
    a.PassTurn: ("603.10b", "506.4", "509.1h"),
    a.DealDamage: ("702.26b", "R2017-protection"),
    a.Activate: ("702.26b", "R2017-nonexistent"),
    a.Concede: ("702.26k", "800.4a"),
    a.Destroy: ("702.26b",),
    a.DestroyThroughPhasing: ("702.26d", "702.26b"),
    a.DestroyAll: ("702.26b",),
    **_LIFE_ACTIONS,
    a.DamageOpponents: ("R2017-protection", "R2017-unpreventable"),
    a.TapAndDamage: ("R2017-targets", "R2017-protection-targets"),
}
#: A lifelink caster's gain: none while their own life total can't change
#: (R2017-life-no-effect), the whole damage dealt to a locked opponent
#: (R2017-unpreventable: the damage is dealt, and lifelink sees it).
LIFELINK_RULES = ("R2017-life-no-effect", "R2017-unpreventable")
#: The spells whose draws `cards_drawn` counts, and the rule each shows.
DRAW_RULES: dict[type, tuple[str, ...]] = {
    a.Destroy: ("R2017-targets",),
    a.DestroyThroughPhasing: ("702.26c", "702.26d"),
    a.DrawPerCreature: ("702.26b",),
    **_LIFE_ACTIONS,
    a.TapAndDamage: ("R2017-targets", "R2017-protection-targets"),
    a.DrawPerEntered: ("702.26d", "702.26b"),
}


def damage_refusal_rules(action: a.DealDamage | a.TapAndDamage) -> tuple[str, ...]:
    """A damage spell's refusal names the rules of what it targets:
    R2017-protection for a player (only protection makes one illegal), the
    phasing rules for a permanent (only phasing out makes one illegal):
    refusing to damage an unprotected player is no evidence of 702.26b."""
    targets = action.targets if isinstance(action, a.TapAndDamage) else (action.target,)
    kinds = {isinstance(t, int) for t in targets}
    return tuple(r for r in REFUSAL_RULES[type(action)] if (r == "R2017-protection") in kinds)


def sickness_rules(m: Moment, used: tuple[str, ...]) -> tuple[str, ...]:
    """302.6 for a creature's summoning sickness; R2017-haste where what is
    used phased in at the latest untap step (it has been under its
    controller's control since the turn began)."""
    return ("302.6", "R2017-haste") if set(used) & m.untap_phased_in else ("302.6",)


def permanents_used(m: Moment) -> tuple[str, ...]:
    """The permanents an `Activate`, `TapForMana` or `DeclareAttackers` uses."""
    if isinstance(m.action, a.Activate):
        return (m.action.source,)
    if isinstance(m.action, a.TapForMana):
        return (m.action.land,)
    if isinstance(m.action, a.DeclareAttackers):
        return m.action.attackers
    return ()


def trigger_rules(events: list[Difference], otherwise: tuple[str, ...]) -> tuple[str, ...]:
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
            return event_rules(m, kind, pid, ref, eng)
    return None


def _phased_now(m: Moment, pid: str) -> bool:
    """Whether the reference shows `pid` phasing during the action."""
    return any(
        e.kind in ("phased_in", "phased_out") and e.subject == pid for e in m.reference.events
    )


def event_rules(m: Moment, kind: str, subject: str, ref: list[str], eng: list[str]) -> tuple:
    action = type(m.action)
    if kind in ("phased_in", "phased_out"):
        if len(ref) == len(eng):
            return ("702.26g", "702.26h")  # the same phasing, another cause
        if not ref and subject in m.waiting:
            # 610.4: it waits for its source to leave, whatever else happens;
            # any phasing the engine shows it in comes of releasing it early.
            return ("610.4",)
        if action is a.PassTurn:
            rules = ("702.26a", "702.26p") if max(len(ref), len(eng)) > 1 else ("702.26a",)
            # An attachment phases out and in with its host (702.26g), as
            # the phased_out field's differences say too.
            return (*rules, "702.26g") if _attached(m, subject) else rules
        if _attached(m, subject):
            return ("702.26g",)
        # Out of the untap step, what phases in on its own was waiting for
        # an "until" source to leave (610.4), as the phased_out field says.
        return ("610.4",) if kind == "phased_in" and was_phased_out(m, subject) else ()
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
        if was_phased_out(m, subject):
            return ("702.26k", "800.4a")
        return ("800.4a",) if Counter(eng) - Counter(ref) else ()
    if _phased_now(m, subject):
        return ("R2017-no-etb-ltb", "702.26d")
    return ("702.26b",) if action in (a.Destroy, a.DestroyAll) else ("702.26d",)


def _attached(m: Moment, pid: str) -> bool:
    before = m.reference_before
    views = [m.reference] + ([before] if before is not None else [])
    return any(p.id == pid and p.attached_to is not None for obs in views for p in obs.permanents)


def permanent_rules(m: Moment, ref: PermanentView, name: str) -> tuple[str, ...]:
    """The rules that govern field `name` of `ref` after the action."""
    action = action_type(m)
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
        if ref.id in m.waiting and ref.phased_out:
            # 610.4: it waits for its source to leave, whatever else happens.
            return ("610.4", "702.26g") if attached else ("610.4",)
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
            return ("R2017-nonexistent",) if was_out else sickness_rules(m, (ref.id,))
        return ("702.26d",) if phased else ()
    if name in ("attacking", "blocking"):
        # 506.4: removed from combat by phasing out or by a change of
        # controller; nothing certified says more (readings.md, L). A
        # phased-out creature can't attack or block (R2017-nonexistent);
        # one back in doesn't rejoin combat (506.4 alone).
        if phased or was_out:
            return ("506.4", "R2017-nonexistent") if ref.phased_out else ("506.4",)
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


def was_phased_out(m: Moment, pid: str) -> bool:
    """Whether the reference showed `pid` phased out before the action."""
    before = _before(m, pid)
    return before is not None and before.phased_out


def action_type(m: Moment) -> type | None:
    return None if m.action is None else type(m.action)


def _before(m: Moment, pid: str) -> PermanentView | None:
    if m.reference_before is None:
        return None
    return next((p for p in m.reference_before.permanents if p.id == pid), None)
