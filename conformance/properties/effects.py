"""When continuous effects end, worked out from a trace: the control effects
and boosts of a scenario, and the observation at which each stops applying.

Durations are the rules' own (514.2, 611.2a, 611.2b, 702.26f, 800.4a,
800.4m); what they depend on — turns passing, players leaving, a permanent
being phased in and controlled — is read from the observations, so the
result holds for any engine that follows the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import default_controllers, view
from conformance.running import Trace
from conformance.setup import BoostEffect, ControlEffect, Duration, SkipUntap


@dataclass(frozen=True)
class Grant:
    """A control effect giving `player` control of `target`, in force from
    observation `start` (0 is the initial one) until observation `end`
    (None: to the end of the trace)."""

    target: str
    player: int
    duration: Duration
    start: int
    end: int | None

    def in_force(self, k: int) -> bool:
        return self.start <= k and (self.end is None or k < self.end)


def focus(caps: Collection[C], *kept: C) -> set[C]:
    """`caps` cut down to what a property is about: fewer choices to draw
    make a failure quick to find and shrink to a readable scenario."""
    return set(caps) & set(kept)


def observations(trace: Trace) -> list[Observation]:
    """Observation k: 0 is the initial one, k the one after action k."""
    return [trace.initial, *(s.after for s in trace.steps)]


def passed_over(before: Observation, after: Observation) -> set[int]:
    """The seats skipped when the turn passed from `before.active` to
    `after.active`: players who left, whose turn would have begun (800.4m)."""
    n = len(after.players)
    seats = set()
    seat = (before.active + 1) % n
    while seat != after.active:
        seats.add(seat)
        seat = (seat + 1) % n
    return seats


def holds(obs: Observation, duration: Duration, player: int) -> bool:
    """611.2b, 702.26f, R2017-for-as-long-as: "for as long as you control X"
    holds while X is phased in and controlled by `player`."""
    if duration.kind != "as_long_as_you_control" or duration.of is None:
        return True
    x = view(obs, duration.of)
    return x is not None and x.phased_in and x.controller == player


def effect_end(
    trace: Trace, player: int, duration: Duration, start: int, *, control: bool
) -> int | None:
    """The first observation, from `start` on, at which an effect `player`
    created with `duration` no longer applies: "until end of turn" at the
    next cleanup (514.2); "until your next turn" when the player's turn
    begins or would have begun (611.2a, 800.4m); "for as long as" once its
    condition fails (611.2b); a control effect when `player` leaves (800.4a)."""
    obs = observations(trace)
    for k in range(start, len(obs)):
        if not holds(obs[k], duration, player):
            return k
        if k == start:
            continue
        step = trace.steps[k - 1]
        if step.after.refused is not None:
            continue
        if isinstance(step.action, a.PassTurn):
            if duration.kind == "end_of_turn":
                return k
            turn_began = step.after.active == player or player in passed_over(
                step.before, step.after
            )
            if duration.kind == "your_next_turn" and turn_began:
                return k
        if control and isinstance(step.action, a.Concede) and step.action.player == player:
            return k
    return None


def control_grants(trace: Trace) -> list[Grant]:
    """The scenario's control effects: those of the setup (a permanent set up
    under another player's control without an explicit one has an
    indefinite one) and each GainControl carried out whose duration could
    start (611.2b)."""
    setup = trace.scenario.setup
    explicit = [e for e in setup.effects if isinstance(e, ControlEffect)]
    named = {e.target for e in explicit}
    implicit = [
        ControlEffect(p.id, p.controller)
        for p in setup.permanents
        if p.controller != p.controller_by_default and p.id not in named
    ]
    grants = [
        Grant(e.target, e.controller, e.duration, 0, _end(trace, e, 0))
        for e in (*implicit, *explicit)
    ]
    for i, step in enumerate(trace.steps):
        x = step.action
        if (
            isinstance(x, a.GainControl)
            and step.after.refused is None
            and holds(step.before, x.duration, x.player)
        ):
            effect = ControlEffect(x.target, x.player, x.duration)
            grants.append(Grant(x.target, x.player, x.duration, i + 1, _end(trace, effect, i + 1)))
    return grants


def control_changes(trace: Trace) -> set[tuple[int, str | None]]:
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


def control_unchanged(
    changes: set[tuple[int, str | None]], pid: str, first: int, last: int
) -> bool:
    """No action from `first` to `last` may change who controls `pid` by
    the rules (`changes`, from `control_changes`). Across a phased-out
    span, this is what makes the controller an engine showed while the
    permanent was out comparable with the one it shows as it phases in:
    an effect that ends meanwhile (702.26f) changes the controller then,
    and an engine that shows the change only as the permanent phases in
    differs from the reference while it is out, which is the comparison's
    to see, not phasing in's (docs/observations.md)."""
    return not any({(m, pid), (m, None)} & changes for m in range(first, last + 1))


def limited_control(trace: Trace) -> set[tuple[int, str]]:
    """(k, permanent): a control effect with a limited duration (not
    "indefinitely") is in force on the permanent at observation k, by its
    own duration: today it goes on through phasing (702.26d, 702.26f); in
    the Mirage edition phasing out ends it (502.15g)."""
    last = len(trace.steps)
    return {
        (k, g.target)
        for g in control_grants(trace)
        if g.duration.kind != "indefinitely"
        for k in range(g.start, last + 1 if g.end is None else g.end)
    }


def controller_as_untap_begins(
    grants: list[Grant],
    defaults: dict[str, int],
    before: Observation,
    pid: str,
    k: int,
    seen: frozenset[str] = frozenset(),
) -> int:
    """Who controls `pid` as the untap step of action k (a PassTurn) begins,
    `before` being the observation before that action. Cleanup and the start
    of the turn have ended "until end of turn" and "until your next turn"
    control (514.2, 611.2a) before any phasing (502.1); a "for as long as you
    control X" effect ending in that step still applied then if X was phased
    in and controlled by that player as the step began: only the phasing
    itself can have ended it (702.26f)."""
    controller = defaults.get(pid, 0)
    for g in grants:
        if g.target != pid or not g.in_force(k - 1):
            continue
        if g.end == k and g.duration.kind in ("end_of_turn", "your_next_turn"):
            continue
        x = g.duration.of
        if g.end == k and g.duration.kind == "as_long_as_you_control" and x is not None:
            x_before = view(before, x)
            if x_before is None or not x_before.phased_in:
                continue
            # Effects that depend on each other: as the step began, X's
            # controller was still the one shown before the action.
            if x in seen:
                x_controller = x_before.controller
            else:
                x_controller = controller_as_untap_begins(
                    grants, defaults, before, x, k, seen | {pid}
                )
            if x_controller != g.player:
                continue
        controller = g.player
    return controller


def untap_step_controllers(trace: Trace) -> dict[int, dict[str, int]]:
    """For each PassTurn k the engine carried out: who controlled each
    permanent on the battlefield as its untap step began
    (`controller_as_untap_begins`). The observation after the step can't
    say: the phasing itself may end "for as long as" control (702.26f)."""
    grants = control_grants(trace)
    default = default_controllers(trace.scenario)
    return {
        k: {
            p.id: controller_as_untap_begins(grants, default, step.before, p.id, k)
            for p in step.before.permanents
            if p.on_battlefield
        }
        for k, step in enumerate(trace.steps, 1)
        if isinstance(step.action, a.PassTurn) and step.after.refused is None
    }


def controller_at(trace: Trace, pid: str, k: int) -> int:
    """Who controls `pid` at observation k by the scenario's control effects:
    the latest one still in force then (613.7, timestamp order in layer 2),
    else the player it entered under (110.2). For a permanent the
    observation can't show a controller of: one that has left the
    battlefield in action k, after the effects ending there ended."""
    controller = default_controllers(trace.scenario).get(pid, 0)
    for g in control_grants(trace):
        if g.target == pid and g.in_force(k):
            controller = g.player
    return controller


def phased_out_under(trace: Trace) -> list[dict[str, int]]:
    """For each step, before it: who each phased-out permanent phased out
    under (702.26a), its controller as it phased out. In a PassTurn that is
    its controller as the untap step began (`untap_step_controllers`);
    otherwise its controller before the action."""
    under = {
        p.id: p.phased_out.under
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None
    }
    controllers = untap_step_controllers(trace)
    out = []
    for k, step in enumerate(trace.steps, 1):
        out.append(dict(under))
        for q in step.after.permanents:
            if q.phased_out and q.id not in under:
                if k in controllers:
                    under[q.id] = controllers[k][q.id]
                else:
                    then = view(step.before, q.id) or q
                    under[q.id] = then.controller if then.controller is not None else 0
            elif not q.phased_out:
                under.pop(q.id, None)
    return out


def _end(trace: Trace, effect: ControlEffect, start: int) -> int | None:
    return effect_end(trace, effect.controller, effect.duration, start, control=True)


def boosts(trace: Trace) -> Iterator[tuple[BoostEffect, int | None]]:
    """Each boost of the setup with the observation at which it ends; a boost
    outlasts the player who created it (800.4m)."""
    for e in trace.scenario.setup.effects:
        if isinstance(e, BoostEffect):
            yield e, effect_end(trace, e.controller, e.duration, 0, control=False)


def expected_pt(trace: Trace, k: int, pid: str) -> tuple[int, int, list[str]] | None:
    """Power and toughness a setup creature `pid` has at observation k when
    the only things changing them are +1/+1 counters and the setup's boosts
    (613.4), with the boosts still in force named; None if anything else
    could (an anthem, a PumpTeam) or `pid` isn't a setup creature."""
    scenario = trace.scenario
    if any("anthem" in p.abilities for p in scenario.setup.permanents) or any(
        isinstance(x, a.PumpTeam) for x in scenario.actions
    ):
        return None
    base = next((p for p in scenario.setup.permanents if p.id == pid), None)
    v = view(observations(trace)[k], pid)
    if base is None or base.power is None or base.toughness is None or v is None:
        return None
    plus = dict(v.counters).get("+1/+1", 0)
    power, toughness, live = base.power + plus, base.toughness + plus, []
    for e, end in boosts(trace):
        if pid in e.targets and (end is None or k < end):
            power, toughness = power + e.power, toughness + e.toughness
            live.append(f"+{e.power}/+{e.toughness} {e.duration.kind} of player {e.controller}")
    return power, toughness, live


# How permanents phased out, from the scenario's history rather than from
# what an engine says about itself.


@dataclass(frozen=True)
class Out:
    """How a permanent phased out: `cause` "direct" or "indirect"; `host`,
    what it was attached to as it phased out (702.26i); `until`, the
    permanent whose leaving phases it in (610.4), if any."""

    cause: str
    host: str | int | None
    until: str | None = None


def phased_out_history(trace: Trace) -> list[dict[str, Out]]:
    """For each observation k (0 the initial one): how each permanent then
    phased out came to be out. From the setup, then for each permanent an
    action shows going from phased in to phased out: "indirect" if what it
    was attached to went out in the same action (702.26g, 702.26h), else
    "direct", "until" the source of a PhaseOutUntil that phased it out
    directly (610.4)."""
    current = {
        p.id: Out(p.phased_out.cause, p.attached_to, p.phased_out.until)
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None
    }
    history = [dict(current)]
    for step in trace.steps:
        went_out = {
            q.id
            for q in step.after.permanents
            if q.phased_out and q.on_battlefield and was_phased_in(step.before, q.id)
        }
        x = step.action
        until = x.source if isinstance(x, a.PhaseOutUntil) and step.after.refused is None else None
        for q in step.after.permanents:
            if not (q.on_battlefield and q.phased_out):
                current.pop(q.id, None)
            elif q.id in went_out:
                b = view(step.before, q.id)
                host = b.attached_to if b is not None else None
                if isinstance(host, str) and host in went_out:
                    current[q.id] = Out("indirect", host)
                else:
                    target = isinstance(x, a.PhaseOutUntil) and x.target == q.id
                    current[q.id] = Out("direct", host, until if target else None)
        history.append(dict(current))
    return history


def was_phased_in(obs: Observation, pid: str) -> bool:
    """`obs` shows `pid` phased in."""
    b = view(obs, pid)
    return b is not None and b.phased_in


def sba_may_wait(trace: Trace, k: int) -> bool:
    """Whether observation k may show state-based actions not yet performed:
    they are checked only when a player would receive priority (704.3), and
    a player leaving the game (800.4a) moves priority only if they held it.
    In our scenarios the active player holds it and can't concede, so after
    a Concede, and after refused actions right behind it (nothing happened,
    nobody received priority), an engine may not have checked them yet."""
    for step in reversed(trace.steps[:k]):
        if step.after.refused is not None:
            continue
        return isinstance(step.action, a.Concede)
    return False


def skipped_untap_steps(trace: Trace) -> set[int]:
    """Indices of the PassTurn steps whose untap step is skipped (702.26m):
    each SkipUntap of the setup skips that player's next one."""
    skips = Counter(e.player for e in trace.scenario.setup.effects if isinstance(e, SkipUntap))
    skipped = set()
    for i, step in enumerate(trace.steps):
        player = step.after.active
        if isinstance(step.action, a.PassTurn) and step.after.refused is None and skips[player]:
            skips[player] -= 1
            skipped.add(i)
    return skipped
