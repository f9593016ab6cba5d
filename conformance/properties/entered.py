"""Effects that look back over the turn (702.26d): a creature that phased in
this turn did not enter the battlefield this turn, so "for each creature you
control that entered the battlefield this turn" doesn't count it; and one
that entered this turn still did after phasing out and back in."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import view, was_out_came_in
from conformance.properties.leads import led, turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Setup
from conformance.strategies._draw import pick

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME}
#: The tokens the lead creates: one that stays, one that phases out and
#: back in, and the one it phases out until; drawn tokens are named t1, t2, ...
_TOKEN, _OUT_AND_IN, _SOURCE = "e1", "e2", "e3"


def _turns(trace: Trace) -> Iterator[tuple[Step, set[str], set[str], bool]]:
    """Each step, with what happened so far in the turn it is played in:
    the tokens created, the permanents that phased in, and whether that is
    the turn's whole history (not in the scenario's first turn, which began
    before the setup)."""
    created: set[str] = set()
    phased_in: set[str] = set()
    started = False
    for step in trace.steps:
        x = step.action
        yield step, set(created), set(phased_in), started
        if step.after.refused is not None:
            continue
        if isinstance(x, a.PassTurn):
            started, created, phased_in = True, set(), set()
        elif isinstance(x, a.CreateToken):
            created.add(x.id)
        phased_in |= {p.id for p in step.after.permanents if was_out_came_in(step, p.id)}


def _entered(step: Step, created: set[str], player: int) -> list[str]:
    """The creatures `player` controls, phased in, that entered the
    battlefield this turn: tokens created this turn (the only permanents
    that enter in a scenario)."""
    return [
        pid
        for pid in sorted(created)
        if (v := view(step.before, pid)) is not None and v.phased_in and v.controller == player
    ]


def _counted_what_entered_not_what_phased_in(trace: Trace) -> bool:
    """702.26d: after the scenario's first turn, a player cast "draw a card
    for each creature you control that entered this turn" and drew one card
    for each token they created that turn (at least one); and either a
    creature of theirs that had phased in that turn without entering was
    phased in and got no card, or one of those tokens had phased out and
    back in since it was created and still got one."""
    for step, created, phased_in, known in _turns(trace):
        x = step.action
        if not known or not isinstance(x, a.DrawPerEntered) or step.after.refused is not None:
            continue
        entered = _entered(step, created, x.player)
        came_back = [
            pid
            for pid in phased_in - created
            if (v := view(step.before, pid)) is not None
            and v.phased_in
            and v.controller == x.player
            and v.power is not None
        ]
        drawn = step.after.player(x.player).cards_drawn - step.before.player(x.player).cards_drawn
        if entered and (came_back or phased_in & set(entered)) and drawn == len(entered):
            return True
    return False


def _phase_in_then_count(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple:
    """A creature phased out under its controller (already, or now) phases
    in at their untap step; they create a token; if the engine plays
    "phases out until", they create two more, and the first of those phases
    out until the second leaves the battlefield, and back in as that one is
    destroyed (610.4; before 2017 a phased-out token ceases to exist
    instead, 702.25k, so the first token stays apart); then they draw a
    card for each creature of theirs that entered this turn."""
    waiting = [
        p
        for p in setup.permanents
        if p.is_creature
        and p.phased_out is not None
        and p.phased_out.cause == "direct"
        and p.phased_out.until is None
        and p.phased_out.under == p.controller
    ]
    ready = [p for p in setup.permanents if p.is_creature and p.phased_out is None]
    first: tuple[a.Action, ...] = ()
    if waiting:
        x = pick(draw, waiting)
    elif ready and C.TARGETING in caps:
        x = pick(draw, ready)
        first = (a.PhaseOut(x.controller, (x.id,)),)
    else:
        return ()
    player = x.controller
    out_and_in: tuple[a.Action, ...] = ()
    if {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps):
        out_and_in = (
            a.CreateToken(player, _OUT_AND_IN, 0),
            a.CreateToken(player, _SOURCE, 0),
            a.PhaseOutUntil(player, _SOURCE, _OUT_AND_IN),
            a.Destroy(player, _SOURCE),
        )
    return (
        *first,
        *turns_to_untap(setup, player),
        a.CreateToken(player, _TOKEN, 0),
        *out_and_in,
        a.DrawPerEntered(player),
    )


@rule_property(
    "702.26d",
    needs={C.HISTORY, C.TOKENS},
    scenarios=lambda caps: led(
        set(caps) - _QUIET,
        _phase_in_then_count,
        kinds=(a.PassTurn, a.CreateToken, a.DrawPerEntered, a.PhaseOut),
        max_actions=3,
        min_permanents=1,
        permanent_kinds=("creature",),
    ),
    exercised=_counted_what_entered_not_what_phased_in,
    reads={"cards_drawn"},
)
def phasing_in_is_not_entering_this_turn(trace: Trace) -> None:
    """702.26d: phasing in is not entering the battlefield, nor phasing out
    leaving it, so an effect counting the creatures that entered this turn
    counts the tokens created this turn (110.5: they enter phased in), those
    that phased out and back in since too, and not the creatures that
    phased in; phased-out creatures aren't counted at all (702.26b). In the
    scenario's first turn, whose start the scenario doesn't show, the
    tokens are only the least it counts."""
    for step, created, _, known in _turns(trace):
        x = step.action
        if not isinstance(x, a.DrawPerEntered) or step.after.refused is not None:
            continue
        entered = _entered(step, created, x.player)
        drawn = step.after.player(x.player).cards_drawn - step.before.player(x.player).cards_drawn
        expect(
            drawn == len(entered) if known else drawn >= len(entered),
            "702.26d",
            where(trace, step),
            f"{'' if known else 'at least '}{len(entered)} card(s), "
            f"for {', '.join(entered) or 'no creature'}",
            f"{drawn} drawn",
        )
