"""The legend rule and phasing (704.5j, 702.26b, 702.26d, 704.3): a phased-out
legendary permanent is ignored by the legend rule, and one that phases in
while its controller controls a namesake is not entering the battlefield,
yet the legend rule, a state-based action, still applies to the two of them
at the next priority: one stays, the controller's choice, and the other goes
to the graveyard."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import phased_out_under
from conformance.properties.history import (
    ceased_while_phased_out,
    in_game,
    indirectly_out,
    released_by_leaving,
    shown_phased_out,
    until_sources,
    view,
)
from conformance.properties.leads import turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Permanent, PhasedOut, Setup
from conformance.strategies._draw import Caps, maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME, C.DESTROY}
_NAME = "Legend"


def namesake(x: Permanent, card: Permanent, player: int, *, token: bool, phasing: int) -> Permanent:
    """`x` made another copy of `card`'s legendary card, named `_NAME` (one
    name, one set of characteristics), phased out directly under `player`,
    who owns and controls it (702.26a: it phases in at their untap step)."""
    return replace(
        x,
        types=card.types,
        attachment=card.attachment,
        power=card.power,
        toughness=card.toughness,
        abilities=card.abilities,
        chosen=card.chosen,
        token=token,
        legendary=True,
        name=_NAME,
        owner=player,
        controller=player,
        default_controller=None,
        phasing=phasing,
        phased_out=PhasedOut("direct", player),
    )


def _legend_names(scenario: Scenario) -> dict[str, str]:
    """The legendary permanents of the setup, with their names."""
    return {p.id: p.card_name for p in scenario.setup.permanents if p.legendary}


def _phased_in_groups(obs: Observation, names: dict[str, str]) -> dict[tuple, list[str]]:
    """Phased-in legendary permanents by (controller, name)."""
    groups: dict[tuple, list[str]] = defaultdict(list)
    for pid, name in names.items():
        v = view(obs, pid)
        if v is not None and v.phased_in:
            groups[(v.controller, name)].append(pid)
    return groups


def _legend_meetings(trace: Trace) -> Iterator[tuple[Step, str, str]]:
    """Each carried-out step in which legendary L, phased out before, was no
    longer phased out after (it phased in, and may then have met the legend
    rule), while namesake M, phased in before or phasing in with L, was not
    phased out after and had the same controller as L then: the two met
    under the legend rule."""
    names = _legend_names(trace.scenario)
    for _, step, pid, name, b, c in _legend_views(trace):
        if not (b and c and b.on_battlefield and b.phased_out and not c.phased_out):
            continue
        if ceased_while_phased_out(step, pid):
            continue  # never phased in: an older edition's token (702.25k)
        for other, other_name in names.items():
            m, n = view(step.before, other), view(step.after, other)
            met = other != pid and other_name == name and m and n and m.on_battlefield
            met = met and not ceased_while_phased_out(step, other)
            if met and not n.phased_out and _controller(m, n) == _controller(b, c):  # type: ignore[arg-type]
                yield step, pid, other


def _legends_gone_beside_phased_out_namesakes(
    trace: Trace,
) -> Iterator[tuple[Step, str, list[str]]]:
    """Each carried-out step in which a legendary permanent went to the
    graveyard (or, a token, ceased to exist) while it was phased out, or
    while every namesake of its controller was phased out before and after:
    the legend rule saw a phased-out permanent (702.26b). One phased out
    "until" a source that left the battlefield in that step phased in then
    (610.4; readings.md I), before the legend rule looked: it is judged as
    a phased-in one. In this property's scenarios nothing else moves a
    permanent (no destruction, damage or departure)."""
    names = _legend_names(trace.scenario)
    waiting, indirect = until_sources(trace), indirectly_out(trace)
    unders = phased_out_under(trace)
    for i, step, pid, name, b, c in _legend_views(trace):
        if not (b and c and b.on_battlefield and c.zone in ("graveyard", "none")):
            continue
        if b.phased_out and not released_by_leaving(step, waiting[i], indirect[i], pid):
            # Not if the untap step may have phased it in first, nor an
            # older edition's token ceasing (702.25k).
            untapped = _untap_step_may_phase_in(step, unders[i].get(pid))
            if not untapped and not ceased_while_phased_out(step, pid):
                yield step, pid, [o for o, n in names.items() if o != pid and n == name]
            continue
        twins = {
            o: (view(step.before, o), view(step.after, o))
            for o, n in names.items()
            if o != pid and n == name
        }
        mine = {o: (m, n) for o, (m, n) in twins.items() if m and m.controller == b.controller}
        if mine and all(shown_phased_out(m) and shown_phased_out(n) for m, n in mine.values()):
            yield step, pid, sorted(mine)


def _untap_step_may_phase_in(step: Step, under: int | None) -> bool:
    """Whether `step` is an untap step that may phase in a permanent that
    phased out under `under`: that player's (702.26a), whoever controls it
    by then (R2017-control: where a control effect ended while it was out,
    it phases in under its owner at the former controller's untap step), or
    any once `under` has left the game (702.26n: after their turn would
    have begun)."""
    if not isinstance(step.action, a.PassTurn):
        return False
    active = step.after.active
    return under is None or active in (under, None) or not in_game(step.after, under)


def _legend_views(
    trace: Trace,
) -> Iterator[tuple[int, Step, str, str, PermanentView | None, PermanentView | None]]:
    """Each carried-out step, with its index and each legendary permanent of
    the setup: its name and how it was shown before and after the step."""
    names = _legend_names(trace.scenario)
    for i, step in enumerate(trace.steps):
        if step.after.refused is None:
            for pid, name in names.items():
                yield i, step, pid, name, view(step.before, pid), view(step.after, pid)


def _controller(before: PermanentView, after: PermanentView) -> int | None:
    """Its controller after a step, or as it left the battlefield in it."""
    return after.controller if after.on_battlefield else before.controller


def _one_kept_one_to_the_graveyard(step: Step, first: str, second: str) -> bool:
    """One of the two phased in on the battlefield, the other put into the
    graveyard ("none" for a token, which then ceases to exist, 704.5d)."""
    shown = [step.after.permanent(first), step.after.permanent(second)]
    kept = [v for v in shown if v.phased_in]
    gone = [v for v in shown if v.zone in ("graveyard", "none")]
    return len(kept) == 1 and len(gone) == 1


def _a_legend_phased_in_next_to_its_namesake(trace: Trace) -> bool:
    """704.5j: a legendary permanent phased in while its controller
    controlled a phased-in namesake, and after that action one of the two
    was on the battlefield, phased in, and the other in the graveyard."""
    return any(_one_kept_one_to_the_graveyard(*m) for m in _legend_meetings(trace))


def _namesake_phased_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """Two copies of a legendary card under one controller: M phased in, L
    phased out under that player; turns pass until their untap step phases
    L in. Sometimes the card has phasing, and then M phases out as L phases
    in (no legend rule then: they are never both phased in); or M is phased
    out too, and both phase in together (704.5j: one of them stays)."""
    free = [p for p in setup.permanents if p.attached_to is None]
    if len(free) < 2:
        return setup, ()
    m, x = free[0], pick(draw, free[1:])
    player = m.controller
    keep = replace(m, legendary=True, name=_NAME, phased_out=None, phasing=int(maybe(draw)))
    if not keep.phasing and maybe(draw):
        keep = replace(keep, phased_out=PhasedOut("direct", player))
    # L is another copy of M's card (one name, one set of characteristics).
    out = namesake(x, m, player, token=m.token, phasing=keep.phasing)
    hosts = {m.id, x.id}
    if any(p.attached_to in hosts for p in setup.permanents):
        return setup, ()
    given = {m.id: keep, x.id: out}
    # L's own control effects go (it is its owner's now), and so do those
    # lasting "for as long as" their controller controls L, or M if M is
    # phased out too: phased out, X would end them at once (702.26f),
    # unlike the position says.
    out_anchors = {x.id, m.id} if keep.phased_out else {x.id}
    effects = tuple(
        e
        for e in setup.effects
        if not (isinstance(e, ControlEffect) and (e.target == x.id or e.duration.of in out_anchors))
    )
    setup = replace(
        setup,
        permanents=tuple(given.get(p.id, p) for p in setup.permanents),
        effects=effects,
    )
    return setup, turns_to_untap(setup, player)


@rule_property(
    "704.5j",
    "702.26b",
    needs={C.LEGEND_RULE},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _namesake_phased_out,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll),
        max_actions=3,
        min_permanents=2,
        permanent_kinds=("creature", "artifact", "land"),
    ),
    exercised=_a_legend_phased_in_next_to_its_namesake,
)
def legend_rule_applies_once_a_legend_phases_in(trace: Trace) -> None:
    """704.5j: after any action, no player controls two phased-in legendary
    permanents with one name. A phased-out one is ignored (702.26b); one
    that phases in next to its namesake is not entering the battlefield
    (702.26d), but the state-based action applies at the next priority
    (704.3): the controller keeps one of the two, either, and the other goes
    to its owner's graveyard. Until then neither goes: not the phased-out
    one, nor its namesake for its sake (702.26b)."""
    names = _legend_names(trace.scenario)
    for step in trace.steps:
        if step.after.refused is not None:
            continue
        for (player, name), ids in _phased_in_groups(step.after, names).items():
            expect(
                len(ids) <= 1,
                "704.5j",
                where(trace, step),
                f"player {player} keeps one legendary permanent named {name!r}",
                f"{', '.join(ids)} all phased in",
            )
    for step, pid, twins in _legends_gone_beside_phased_out_namesakes(trace):
        expect(
            False,
            "702.26b",
            f"{where(trace, step)}, {pid}",
            f"{pid} stays: the legend rule ignores what is phased out "
            f"({pid} or its namesakes {', '.join(twins)})",
            f"{pid} {step.after.permanent(pid).zone}",
        )
    for step, first, second in _legend_meetings(trace):
        shown = [step.after.permanent(first), step.after.permanent(second)]
        expect(
            _one_kept_one_to_the_graveyard(step, first, second),
            "704.5j",
            f"{where(trace, step)}, {first} and {second}",
            "one of them phased in on the battlefield, the other put into the graveyard",
            "; ".join(f"{v.id} {v.zone}{' phased in' if v.phased_in else ''}" for v in shown),
        )
