"""Properties of what phasing triggers: "whenever this phases in/out"
abilities trigger, for permanents that phase directly or indirectly, in an
untap step or as the source they waited for leaves (610.4), and their
controllers gain the life (603.10b, 603.3a); enters- and
leaves-the-battlefield abilities never do (702.26d, R2017-no-etb-ltb)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import pairwise, product

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.draw_step import draw_step_gainers
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import (
    Grant,
    control_grants,
    controller_as_untap_begins,
    controller_at,
    observations,
    untap_step_controllers,
)
from conformance.properties.history import (
    abilities,
    default_controllers,
    fell_off_in_place,
    shown_phased_out,
    view,
)
from conformance.properties.identity import (
    PHASING,
    TURNS,
    UNATTACHED,
    came_in,
    phasing_caps,
    went_out,
)
from conformance.properties.players import protected, replaced_around
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import TRIGGER_LIFE
from conformance.strategies import plans, scenarios
from conformance.strategies.phase_triggers import RELEASE, phase_trigger_plan


@dataclass(frozen=True)
class _Trigger:
    """A "whenever this phases out/in" trigger of `source` (603.10b): the
    life it gains and who may control it (603.3a: the controller of its
    source as it phased; more than one where the rules leave it open)."""

    source: str
    kind: str
    life: int
    controllers: tuple[int, ...]


#: For each permanent, who may have controlled it as an untap step began
#: (`_untap_controllers`), the likeliest first.
Untap = dict[str, tuple[int, ...]]


def _phase_triggers(trace: Trace, k: int, step: Step, untap: Untap) -> list[_Trigger]:
    """The phase triggers of action k (`step`): each permanent that phased,
    with the ability, still on the battlefield after it, and each one that
    phased in and then left (`_phased_in_then_left`); `untap` is who may
    have controlled what as the step's untap step began, if it is a
    PassTurn."""
    found = []
    for b in step.before.permanents:
        c = view(step.after, b.id)
        if c is not None and c.on_battlefield and c.controller is not None:
            out, back = went_out(step, b), came_in(step, b)
            kind = "phases_out" if out else "phases_in" if back else None
            controllers = _trigger_controllers(untap, b, c)
        elif _phased_in_then_left(step, b):
            kind = "phases_in"
            before = untap.get(b.id, (b.controller,))
            # 603.3a: its controller as it phased in, before or after the
            # phasing ended a control effect (`_trigger_controllers`); gone,
            # it shows neither, so the scenario's effects say who.
            options = (*before, controller_at(trace, b.id, k))
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
    logged_in = bool(step.after.events_of("phased_in", b.id))
    return b.on_battlefield and b.phased_out and gone and logged_in


def _trigger_controllers(untap: Untap, b: PermanentView, c: PermanentView) -> tuple[int, ...]:
    """Who may control the phase trigger of `b` (`c` after it phased), from the
    scenario's history. In an untap step, "until end of turn" and "until
    your next turn" control ended before the phasing (514.2, 611.2a): its
    controller as the step began (`_untap_controllers`) controls a
    "phases out" trigger. A "phases in" trigger is its controller as it
    phased in, which the phasing itself may change at the same moment (a
    "for as long as you control X" effect ending as X phases out, 702.26f):
    the controller before or after that change."""
    before = untap.get(b.id, (b.controller,))
    options = [*before] if c.phased_out else [*before, c.controller]
    return tuple(dict.fromkeys(p for p in options if p is not None))


def _untap_controllers(trace: Trace) -> dict[int, Untap]:
    """For each PassTurn k carried out: who may have controlled each
    permanent as its untap step began. `untap_step_controllers` says who by
    the scenario's control effects; where one with a limited duration saw
    its permanent phase out, also who without it: the Mirage edition ends
    such an effect as the permanent phases out (502.15g), which that
    history doesn't follow."""
    grants, seen = control_grants(trace), observations(trace)
    defaults = default_controllers(trace.scenario)
    found: dict[int, Untap] = {}
    for k, controllers in untap_step_controllers(trace).items():
        found[k] = {pid: (player,) for pid, player in controllers.items()}
        lasting = [g for g in grants if not _ended_by_phasing(g, seen, k)]
        if len(lasting) == len(grants):
            continue
        before = trace.steps[k - 1].before
        for pid, player in controllers.items():
            mirage = controller_as_untap_begins(lasting, defaults, before, pid, k)
            found[k][pid] = tuple(dict.fromkeys((player, mirage)))
    return found


def _ended_by_phasing(g: Grant, seen: list[Observation], k: int) -> bool:
    """Mirage 502.15g: `g` has a limited duration and its permanent was
    shown phasing out while it lasted, before action k."""
    if g.duration.kind == "indefinitely":
        return False
    shown = [shown_phased_out(view(obs, g.target)) for obs in seen[g.start : k]]
    return any(out and not was for was, out in pairwise(shown))


#: The actions whose phasing is checked: those of `PHASING`, "phases out
#: until" and a Destroy, whose target's leaving phases in what waited for
#: it (610.4).
_CHECKED = (*PHASING, a.PhaseOutUntil, a.Destroy)


def _checked_steps(trace: Trace) -> Iterator[tuple[int, Step, Untap, set[int]]]:
    """Each action k of `_CHECKED` carried out, with who controlled what as
    its untap step began (PassTurn, `_untap_controllers`; else empty),
    and the players whose life shows only triggered abilities there: not
    the defender in a turn with combat damage (510), nor a player whose
    draw step draw, or a Destroy's draw, an opponent may replace with life
    (`draw_step_gainers`, `draw_to_life`), nor one whose gains an
    opponent's "gain_to_draw" turns into draws (614.1a,
    docs/vocabulary.md), nor one whose life total can't change (Teferi's
    Protection, R2017-protection), nor the controller of an attachment with
    "whenever this becomes unattached" that fell off though neither it nor
    its host phased (`fell_off_in_place`: 704.5n's business), nor the
    controller of a permanent that left the battlefield in that step (its
    leaving may trigger, or hide that it phased in first: an Aura whose
    host is gone, 704.5m), unless that leaving shows nothing
    (`_leaving_shows_nothing`). Control changes are no reason to skip a
    step: the triggers' controllers are worked out from the history
    (`_trigger_controllers`)."""
    defender = None
    controllers = _untap_controllers(trace)
    shield = protected(trace)
    for k, step in enumerate(trace.steps, 1):
        x = step.action
        if isinstance(x, a.DeclareAttackers) and step.after.refused is None:
            defender = x.defender
        if not isinstance(x, _CHECKED) or step.after.refused is not None:
            continue
        unseen: set[int] = set()
        if isinstance(x, a.Destroy) and replaced_around(trace, step, "draw_to_life", x.caster):
            unseen.add(x.caster)
        if isinstance(x, a.PassTurn):
            if defender is not None:
                unseen.add(defender)
            defender = None
            # The engine's draw step may change life too (`conformance.draw_step`).
            unseen |= draw_step_gainers(trace.scenario.setup, step)
        unseen |= shield[k - 1] | shield[k]
        unseen |= {
            p.index
            for p in step.after.players
            if replaced_around(trace, step, "gain_to_draw", p.index)
        }
        unseen |= {
            c.controller
            for c in step.after.permanents
            if "unattached" in abilities(trace.scenario, c.id) and fell_off_in_place(step, c.id)
        }
        untap = controllers.get(k, {})
        for b in step.before.permanents:
            c = view(step.after, b.id)
            left = b.on_battlefield and (c is None or not c.on_battlefield)
            if left and not _leaving_shows_nothing(trace, step, b):
                # Its controller before the action, or as the untap step
                # began (cleanup may have ended a control effect, 514.2).
                unseen |= {p for p in (b.controller, *untap.get(b.id, ())) if p is not None}
        players = {p.index for p in step.after.players} - unseen
        yield k, step, untap, players


def _leaving_shows_nothing(trace: Trace, step: Step, b: PermanentView) -> bool:
    """`b`, which left the battlefield in `step`, has no leaves-the-battlefield
    or dies ability and nothing attached to it (an Aura would go with it,
    704.5m; Equipment would become unattached), and left as the target of a
    Destroy, phased in before it (its controller's life still shows the
    phase triggers of what waited for it to leave, 610.4), or right after
    the engine showed it phase in (`_phased_in_then_left`: an Aura whose
    host phased out as it phased in, 702.26a, 704.5m): its leaving changes
    no life, so its controller's shows its phase triggers."""
    x = step.action
    destroyed = isinstance(x, a.Destroy) and x.target == b.id and b.phased_in
    return (
        (destroyed or _phased_in_then_left(step, b))
        and not {"ltb", "dies"} & set(abilities(trace.scenario, b.id))
        and not any(p.attached_to == b.id for p in step.before.permanents)
    )


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


def check_trigger_life(
    trace: Trace,
    rule: str,
    only: Collection[int] | None = None,
    controllers_rule: str | None = None,
) -> None:
    """Each phasing action carried out (only actions k in `only`, if given)
    changes the life of the players it can show it for by what the phase
    triggers of the permanents that phased gain: one trigger per permanent
    and phasing (603.10b), controlled as `_trigger_controllers` says. A
    violation names `rule`, or `controllers_rule` (if given) where the
    players gained as much life in all as the triggers give, but not each
    their own: the triggers counted right, under other controllers."""
    for k, step, untap, players in _checked_steps(trace):
        if only is not None and k not in only:
            continue
        ways = _gains(_phase_triggers(trace, k, step, untap))
        delta = {
            c.index: c.life - b.life
            for b, c in zip(step.before.players, step.after.players, strict=True)
        }
        if any(all(delta[p] == gained[p] for p in players) for gained in ways):
            continue
        gained = ways[0]
        triggers = [f"{e.subject} {e.detail}" for e in step.after.events if e.kind == "trigger"]
        total = sum(delta[p] for p in players)
        counted = any(total == sum(w[p] for p in players) for w in ways)
        blamed = controllers_rule if controllers_rule and counted else rule
        for p in sorted(players):
            expect(
                delta[p] == gained[p],
                blamed,
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
    out = back = False
    for _, step, _, players in _checked_steps(trace):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if (
                c is not None
                and c.on_battlefield
                and c.controller in players
                and zone_triggers & set(abilities(trace.scenario, b.id))
            ):
                out = out or went_out(step, b)
                back = back or came_in(step, b)
    return out and back


@rule_property(
    "R2017-no-etb-ltb",
    "702.26d",
    needs={C.TRIGGERS},
    scenarios=lambda caps: scenarios(
        phasing_caps(caps, C.TRIGGERS),
        # Turns pass often: what phased out must come back for both halves.
        kinds=(*PHASING, *TURNS, *TURNS),
        min_actions=2,
        max_actions=6,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=UNATTACHED,
        abilities=("etb", "ltb", "dies"),
    ),
    exercised=_a_zone_trigger_permanent_phased,
    reads={"events", "life"},
)
def phasing_triggers_no_enter_or_leave_abilities(trace: Trace) -> None:
    """Phasing out is not leaving the battlefield and phasing in is not
    entering it: no enters-, leaves-the-battlefield or dies trigger."""
    check_trigger_life(trace, "R2017-no-etb-ltb")


@rule_property(
    "603.10b",
    needs={C.PHASE_TRIGGERS},
    scenarios=lambda caps: plans.planned_scenarios(
        # Control changes and several players: whose life a trigger changes
        # is its controller's (603.3a), not its owner's.
        phasing_caps(
            caps,
            C.PHASE_TRIGGERS,
            C.AURAS,
            C.EQUIPMENT,
            C.CONTROL_CHANGE,
            C.CONTROL_AS_LONG_AS,
            C.MULTIPLAYER,
        ),
        phase_trigger_plan,
        kinds=(*PHASING, a.GainControl),
        plan_only=set(caps) & set(RELEASE),
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
    trigger, for permanents that phase directly or indirectly, in an untap
    step or not: also as what phased out "until" a source leaves phases in
    when the source does (610.4), and not as an attachment phased out on
    its own phases in while its host phases out (the plans of
    `conformance.strategies.phase_triggers`)."""
    check_trigger_life(trace, "603.10b")
