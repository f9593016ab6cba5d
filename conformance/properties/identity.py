"""Properties of what phasing keeps and what it triggers: a permanent that
phases out and in stays the same object on the battlefield, with its
counters, tapped status, choices and controller; it triggers "whenever this
phases in/out" abilities, never enters- or leaves-the-battlefield ones
(702.26d, 603.10b; R2017-counters, R2017-choices, R2017-no-etb-ltb)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import product

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import (
    control_grants,
    controller_at,
    focus,
    untap_step_controllers,
)
from conformance.properties.history import abilities, ceased_while_phased_out, view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import TRIGGER_LIFE
from conformance.strategies import scenarios

_PHASING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll)
#: One more PassTurn among the kinds (drawn uniformly): a permanent phased
#: out comes back only at an untap step.
_TURNS = (a.PassTurn,)
#: Permanents without attach triggers, so life shows only the triggers
#: these properties are about (702.26j is another property's).
_UNATTACHED = ("creature", "artifact", "land", "enchantment")


def _only(caps: Collection[C], *kept: C) -> set[C]:
    return focus(caps, *kept, C.TARGETING, C.PHASE_OUT_ALL)


def _went_out(step: Step, b: PermanentView) -> bool:
    """`b` was phased in and phased out in this step, wherever it ended up."""
    c = view(step.after, b.id)
    phased = c is not None and c.on_battlefield and c.phased_out
    return b.phased_in and (phased or bool(step.after.events_of("phased_out", b.id)))


def _came_in(step: Step, b: PermanentView) -> bool:
    c = view(step.after, b.id)
    return b.on_battlefield and b.phased_out and c is not None and c.phased_in


def _untapped_by_step(step: Step, c: PermanentView) -> bool:
    """502.3: the active player's permanents untap in the untap step, after
    phasing; a permanent that phased in then is untapped too."""
    return isinstance(step.action, a.PassTurn) and c.controller == step.after.active


def _control_changes(trace: Trace) -> set[tuple[int, str | None]]:
    """(k, permanent): action k may change who controls the permanent by the
    rules, as a control effect on it starts or ends there (611.2, 702.26f);
    (k, None): a player leaves the game in action k, ending the control
    effects giving them anything (800.4a). Elsewhere phasing must not."""
    changes: set[tuple[int, str | None]] = set()
    for g in control_grants(trace):
        changes |= {(g.start, g.target)} | ({(g.end, g.target)} if g.end is not None else set())
    for k, step in enumerate(trace.steps, 1):
        if isinstance(step.action, a.Concede) and step.after.refused is None:
            changes.add((k, None))
    return changes


def _kept(at: str, then: PermanentView, c: PermanentView, untapped: bool) -> None:
    """What phasing keeps (702.26d, R2017-counters, R2017-choices): `c` shows
    the counters, the choice and (unless the untap step untapped it) the
    tapped status `then` had."""
    if not untapped:
        expect(
            c.tapped == then.tapped,
            "702.26d",
            at,
            "tapped" if then.tapped else "untapped, as before",
            "tapped" if c.tapped else "untapped",
        )
    expect(
        c.counters == then.counters,
        "R2017-counters",
        at,
        f"counters kept: {list(then.counters)}",
        f"counters {list(c.counters)}",
    )
    expect(
        c.chosen == then.chosen,
        "R2017-choices",
        at,
        f"the choice made as it entered kept: {then.chosen}",
        f"choice {c.chosen}",
    )


def _round_trips(trace: Trace) -> Iterator[tuple[Step, PermanentView, PermanentView]]:
    """Each phasing in of a permanent the engine showed phase out earlier in
    the trace and stay on the battlefield since: the step it came back in,
    how it was just before it phased out, and how it came back."""
    left: dict[str, PermanentView] = {}
    for step in trace.steps:
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if b.id in left and _came_in(step, b) and c is not None:
                yield step, left.pop(b.id), c
            elif _went_out(step, b) and c is not None and c.on_battlefield:
                left[b.id] = b
            elif c is None or not c.on_battlefield:
                left.pop(b.id, None)


def _a_permanent_went_out_and_came_back(trace: Trace) -> bool:
    """702.26d, R2017-counters, R2017-choices: a permanent with counters, a
    choice made as it entered, or tapped, phased out and later phased back
    in, on the battlefield all along."""
    return any(
        then.counters or then.chosen is not None or then.tapped
        for _, then, _ in _round_trips(trace)
    )


@rule_property(
    "702.26d",
    "R2017-counters",
    "R2017-choices",
    scenarios=lambda caps: scenarios(
        _only(caps, C.TOKENS, C.COUNTERS, C.CHOICES, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER),
        kinds=(*_TURNS, *_PHASING, a.GainControl),
        min_actions=4,
        max_actions=8,
        min_permanents=1,
        max_permanents=3,
    ),
    exercised=_a_permanent_went_out_and_came_back,
    reads={"events"},
)
def phasing_keeps_the_same_permanent(trace: Trace) -> None:
    """Phasing is neither a zone change nor a control change: a permanent
    that phases out or in stays on the battlefield as the same object, with
    its counters, tapped status, the choice made as it entered, and (while
    its control effects last) its controller; after phasing out and back in,
    it has what it had as it phased out."""
    changes = _control_changes(trace)
    for k, step in enumerate(trace.steps, 1):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            out, back = _went_out(step, b), _came_in(step, b)
            if c is None or not (out or back):
                continue
            at = f"{where(trace, step)}, {b.id} phased {'out' if out else 'in'}"
            if out and ceased_while_phased_out(step, b.id):
                continue  # a phased-out token ceasing to exist: 702.25k, 217.8d
            expect(not out or c.on_battlefield, "702.26d", at, "still on the battlefield", c.zone)
            if not c.on_battlefield:
                continue
            _kept(at, b, c, not out and _untapped_by_step(step, c))
            stable = not {(k, b.id), (k, None)} & changes
            if stable and None not in (b.controller, c.controller):
                expect(
                    c.controller == b.controller,
                    "702.26d",
                    at,
                    f"not a control change: still controlled by player {b.controller}",
                    f"controlled by player {c.controller}",
                )
    for step, then, c in _round_trips(trace):
        at = f"{where(trace, step)}, {c.id} phased back in (compared with before it phased out)"
        _kept(at, then, c, _untapped_by_step(step, c))


@dataclass(frozen=True)
class _Trigger:
    """A "whenever this phases out/in" trigger of `source` (603.10b): the
    life it gains and who may control it (603.3a: the controller of its
    source as it phased; more than one where the rules leave it open)."""

    source: str
    kind: str
    life: int
    controllers: tuple[int, ...]


def _phase_triggers(trace: Trace, k: int, step: Step, untap: dict[str, int]) -> list[_Trigger]:
    """The phase triggers of action k (`step`): each permanent that phased,
    with the ability, still on the battlefield after it, and each one that
    phased in and then left (`_phased_in_then_left`); `untap` is who
    controlled what as the step's untap step began, if it is a PassTurn."""
    found = []
    for b in step.before.permanents:
        c = view(step.after, b.id)
        if c is not None and c.on_battlefield and c.controller is not None:
            out, back = _went_out(step, b), _came_in(step, b)
            kind = "phases_out" if out else "phases_in" if back else None
            controllers = _trigger_controllers(untap, b, c)
        elif _phased_in_then_left(step, b):
            kind = "phases_in"
            before = untap.get(b.id, b.controller)
            # 603.3a: its controller as it phased in, before or after the
            # phasing ended a control effect (`_trigger_controllers`); gone,
            # it shows neither, so the scenario's effects say who.
            options = (before, controller_at(trace, b.id, k))
            controllers = tuple(dict.fromkeys(p for p in options if p is not None))
        else:
            continue
        if kind is None or kind not in abilities(trace.scenario, b.id):
            continue
        found.append(_Trigger(b.id, kind, TRIGGER_LIFE[kind], controllers))
    return found


def _phased_in_then_left(step: Step, b: PermanentView) -> bool:
    """`b`, phased out, phased in in this step and then left the battlefield:
    an Aura phasing in, in an untap step, on a host phasing out at the same
    moment (702.26a: one event; 702.26i: it phases in attached to a host
    that is treated as though it doesn't exist, 702.26b) goes to its owner's
    graveyard (704.5m). Its "whenever this phases in" ability triggered all
    the same: the event happened (603.2), and the ability exists apart from
    its source once triggered (113.7a). The engine's events show that it
    phased in first (engines reporting events log each phasing,
    docs/observations.md)."""
    c = view(step.after, b.id)
    gone = c is None or not c.on_battlefield
    came_in = bool(step.after.events_of("phased_in", b.id))
    return b.on_battlefield and b.phased_out and gone and came_in


def _trigger_controllers(
    untap: dict[str, int], b: PermanentView, c: PermanentView
) -> tuple[int, ...]:
    """Who may control the phase trigger of `b` (`c` after it phased), from the
    scenario's history. In an untap step, "until end of turn" and "until
    your next turn" control ended before the phasing (514.2, 611.2a): its
    controller as the step began (`untap_step_controllers`) controls a
    "phases out" trigger. A "phases in" trigger is its controller as it
    phased in, which the phasing itself may change at the same moment (a
    "for as long as you control X" effect ending as X phases out, 702.26f):
    the controller before or after that change."""
    before = untap.get(b.id, b.controller)
    went_out = c.phased_out
    options = [before] if went_out else [before, c.controller]
    return tuple(dict.fromkeys(p for p in options if p is not None))


def _checked_steps(trace: Trace) -> Iterator[tuple[int, Step, dict[str, int], set[int]]]:
    """Each phasing action k carried out, with who controlled what as its
    untap step began (PassTurn, `untap_step_controllers`; else empty), and
    the players whose life shows only triggered abilities there: not the
    defender in a turn with combat damage (510), nor the controller of a
    permanent that left the battlefield in that step (its leaving may
    trigger, or hide that it phased in first: an Aura whose host is gone,
    704.5m). Control changes are no reason to skip a step: the triggers'
    controllers are worked out from the history (`_trigger_controllers`)."""
    defender = None
    controllers = untap_step_controllers(trace)
    for k, step in enumerate(trace.steps, 1):
        x = step.action
        if isinstance(x, a.DeclareAttackers) and step.after.refused is None:
            defender = x.defender
        if not isinstance(x, _PHASING) or step.after.refused is not None:
            continue
        unseen: set[int] = set()
        if isinstance(x, a.PassTurn):
            if defender is not None:
                unseen.add(defender)
            defender = None
        untap = controllers.get(k, {})
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if b.on_battlefield and (c is None or not c.on_battlefield):
                # Its controller before the action, or as the untap step
                # began (cleanup may have ended a control effect, 514.2).
                unseen |= {p for p in (b.controller, untap.get(b.id)) if p is not None}
        players = {p.index for p in step.after.players} - unseen
        yield k, step, untap, players


def _gains(triggers: list[_Trigger]) -> list[Counter[int]]:
    """Every way the triggers' life can be shared out among the players who
    may control them; the first is the likeliest (controllers as it began)."""
    ways = []
    for chosen in product(*(t.controllers for t in triggers)):
        gained: Counter[int] = Counter()
        for t, player in zip(triggers, chosen, strict=True):
            gained[player] += t.life
        ways.append(gained)
    return ways


def _check_trigger_life(trace: Trace, rule: str) -> None:
    for k, step, untap, players in _checked_steps(trace):
        ways = _gains(_phase_triggers(trace, k, step, untap))
        delta = {
            c.index: c.life - b.life
            for b, c in zip(step.before.players, step.after.players, strict=True)
        }
        if any(all(delta[p] == gained[p] for p in players) for gained in ways):
            continue
        gained = ways[0]
        triggers = [f"{e.subject} {e.detail}" for e in step.after.events if e.kind == "trigger"]
        for p in sorted(players):
            expect(
                delta[p] == gained[p],
                rule,
                f"{where(trace, step)}, player {p}",
                f"life +{gained[p]}, from 'phases in/out' triggers only",
                f"life {delta[p]:+d}, triggers {triggers}",
            )


def _a_phase_trigger_gained_life(trace: Trace) -> bool:
    """603.10b: a permanent with "whenever this phases out" or "whenever this
    phases in" phased that way, and its controller gained the life."""
    for k, step, untap, players in _checked_steps(trace):
        for t in _phase_triggers(trace, k, step, untap):
            if any(p in players and _life_delta(step, p) >= t.life for p in t.controllers):
                return True
    return False


def _life_delta(step: Step, player: int) -> int:
    return step.after.player(player).life - step.before.player(player).life


def _a_zone_trigger_permanent_phased(trace: Trace) -> bool:
    """R2017-no-etb-ltb: permanents with an enters-, leaves-the-battlefield
    or dies ability phased out and phased in (both halves of the rule), their
    controllers' life checked."""
    zone_triggers = {"etb", "ltb", "dies"}
    went_out = came_in = False
    for _, step, _, players in _checked_steps(trace):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if (
                c is not None
                and c.on_battlefield
                and c.controller in players
                and zone_triggers & set(abilities(trace.scenario, b.id))
            ):
                went_out = went_out or _went_out(step, b)
                came_in = came_in or _came_in(step, b)
    return went_out and came_in


@rule_property(
    "R2017-no-etb-ltb",
    "702.26d",
    needs={C.TRIGGERS},
    scenarios=lambda caps: scenarios(
        _only(caps, C.TRIGGERS),
        # Turns pass often: what phased out must come back for both halves.
        kinds=(*_PHASING, *_TURNS, *_TURNS),
        min_actions=2,
        max_actions=6,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=_UNATTACHED,
        abilities=("etb", "ltb", "dies"),
    ),
    exercised=_a_zone_trigger_permanent_phased,
    reads={"events", "life"},
)
def phasing_triggers_no_enter_or_leave_abilities(trace: Trace) -> None:
    """Phasing out is not leaving the battlefield and phasing in is not
    entering it: no enters-, leaves-the-battlefield or dies trigger."""
    _check_trigger_life(trace, "R2017-no-etb-ltb")


@rule_property(
    "603.10b",
    needs={C.PHASE_TRIGGERS},
    scenarios=lambda caps: scenarios(
        # Control changes and several players: whose life a trigger changes
        # is its controller's (603.3a), not its owner's.
        _only(
            caps,
            C.PHASE_TRIGGERS,
            C.AURAS,
            C.EQUIPMENT,
            C.CONTROL_CHANGE,
            C.CONTROL_AS_LONG_AS,
            C.MULTIPLAYER,
        ),
        kinds=(*_PHASING, a.GainControl),
        min_actions=2,
        max_actions=5,
        min_permanents=2,
        max_permanents=4,
        permanent_kinds=("creature", "aura", "equipment"),
        # A creature with an Aura first: what is attached phases out and in
        # with it indirectly, and triggers too (702.26g).
        lead=("creature", "aura"),
    ),
    exercised=_a_phase_trigger_gained_life,
    reads={"events", "life"},
)
def phase_triggers_trigger(trace: Trace) -> None:
    """ "Whenever this phases out/in" abilities look back in time and do
    trigger, for permanents that phase directly or indirectly."""
    _check_trigger_life(trace, "603.10b")
