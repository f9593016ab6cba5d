"""Properties of players leaving a multiplayer game while permanents are
phased out: what leaves with them, when what phased out under them phases
in, and how long their "until your next turn" effects last (702.26k,
702.26n, 800.4a, 800.4m). Control when players leave (800.4a, 800.4c) is in
`conformance.properties.leaving_control`.

State-based actions and triggered abilities wait for a player to receive
priority (704.3, 117.5), which a concession by a player who doesn't hold it
doesn't give (800.4a): checks of what a Concede leaves pending look at every
later observation, never only at the one right after it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import (
    boosts,
    expected_pt,
    focus,
    observations,
    passed_over,
    phased_out_under,
)
from conformance.properties.history import (
    owners,
    view,
)
from conformance.properties.leaving import (
    LEAVING,
    boost_creators,
    boosted_by_a_non_active_player,
    concessions,
    owners_of_phased_out,
    phased_out_under_a_non_owner,
    phased_out_under_non_owners,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import SkipUntap
from conformance.strategies import conceding_scenarios

#: Non-creature permanents too: everything a player owns leaves with them.
_EVERY_KIND = (C.AURAS, C.EQUIPMENT, C.FORTIFICATIONS, C.TOKENS, C.PLAYER_AURAS)


def _left_with_owner(
    trace: Trace,
) -> Iterator[tuple[int, Step, int, PermanentView, PermanentView]]:
    """For each concession the engine carried out, each permanent on the
    battlefield that the leaver owned: (k, step, leaver, before, after)."""
    owner = owners(trace.scenario)
    for k, step, player in concessions(trace):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is not None and b.on_battlefield and owner.get(b.id) == player:
                yield k, step, player, b, c


def _a_phased_out_permanent_left_with_its_owner(trace: Trace) -> bool:
    """A concession the engine carried out took a phased-out permanent the
    leaver owned out of the game with them (702.26k, 800.4a)."""
    return any(b.phased_out and c.zone == "none" for *_, b, c in _left_with_owner(trace))


@rule_property(
    "800.4a",
    "702.26k",
    needs=LEAVING,
    scenarios=lambda caps: conceding_scenarios(
        focus(
            caps,
            *LEAVING,
            *_EVERY_KIND,
            C.CONTROL_CHANGE,
            C.TRIGGERS,
            C.PHASE_TRIGGERS,
            C.TARGETING,
            C.PHASED_OUT_UNDER_OTHER,
            C.PHASE_OUT_UNTIL,
        ),
        owners_of_phased_out,
        kinds=(a.Concede, a.PhaseOut, a.PassTurn, a.CreateToken),
        min_actions=1,
        max_actions=4,
        min_permanents=2,
        max_permanents=5,
        effects=False,
        min_players=3,
    ),
    exercised=_a_phased_out_permanent_left_with_its_owner,
    reads={"events"},
)
def leaving_player_takes_what_they_own(trace: Trace) -> None:
    """Everything a leaving player owns leaves the game with them at once,
    phased-out permanents of every kind included, without triggers for
    those, which the game doesn't see: not as they leave, and not later (a
    permanent that waited "until" another one of theirs left doesn't phase
    in first)."""
    left_hidden: dict[str, int] = {}
    for k, step, player, b, c in _left_with_owner(trace):
        if b.phased_out:
            left_hidden.setdefault(b.id, k)
        expect(
            c.zone == "none",
            "702.26k" if b.phased_out else "800.4a",
            f"{where(trace, step)}, {b.id}{' (phased out)' if b.phased_out else ''}",
            f"leaves the game with its owner, player {player}",
            f"{c.zone}",
        )
    # Triggers wait for priority (117.5), which may come in a later action.
    for k, step in enumerate(trace.steps, 1):
        fired = [
            e
            for e in step.after.events_of("trigger")
            if e.subject in left_hidden and left_hidden[e.subject] <= k
        ]
        expect(
            not fired,
            "702.26k",
            f"{where(trace, step)}",
            "no trigger of a phased-out permanent that left the game with its owner",
            ", ".join(f"{e.subject} {e.detail}" for e in fired),
        )


def _leaver_phased_out(
    trace: Trace,
) -> Iterator[tuple[Step, PermanentView, PermanentView, int, bool, int | None]]:
    """Each permanent on the battlefield after a step, phased out directly
    before it under a player who had left (who, from the scenario's history,
    not from the engine), and not waiting "until" then: (step, before,
    after, that player, whether it is due to phase in in this step, and the
    player who skipped this step's untap step if it would have been due
    then)."""
    unders = phased_out_under(trace)
    waiting = _waiting_until(trace)
    to_skip = Counter(e.player for e in trace.scenario.setup.effects if isinstance(e, SkipUntap))
    left: set[int] = set()
    held: set[int] = set()
    for i, step in enumerate(trace.steps):
        carried_out = step.after.refused is None
        if isinstance(step.action, a.Concede) and carried_out:
            left.add(step.action.player)
        due: set[int] = set()
        skipper = None
        if isinstance(step.action, a.PassTurn) and carried_out:
            began = passed_over(step.before, step.after) & left
            if to_skip[step.after.active] > 0:
                # 702.26m: this untap step is skipped, so nothing phases in
                # it; what was due waits for the next untap step.
                to_skip[step.after.active] -= 1
                held |= began
                skipper = step.after.active
            else:
                due, held = began | held, set()
        for b in step.before.permanents:
            c = view(step.after, b.id)
            under = unders[i].get(b.id)
            if (
                c is None
                or not (b.on_battlefield and b.phased_out and b.cause == "direct")
                or b.id in waiting[i]
                or under not in left
                or not c.on_battlefield
            ):
                continue
            yield step, b, c, under, under in due, skipper if under in held else None
        left -= due


def _waiting_until(trace: Trace) -> list[set[str]]:
    """Before each step, the permanents phased out "until" something (610.4)
    that haven't phased in since: they phase in when it leaves, not by
    702.26n."""
    waiting = {
        p.id
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None and p.phased_out.until is not None
    }
    out = []
    for step in trace.steps:
        out.append(set(waiting))
        x = step.action
        if isinstance(x, a.PhaseOutUntil) and step.after.refused is None:
            waiting.add(x.target)
        waiting = {pid for pid in waiting if (v := view(step.after, pid)) and v.phased_out}
    return out


def _phased_in_after_a_leavers_turn(trace: Trace) -> bool:
    """A permanent that phased out under a player who left phased in at the
    untap step after that player's turn would have begun (702.26n)."""
    return any(due and c.phased_in for _, _, c, _, due, _ in _leaver_phased_out(trace))


@rule_property(
    "702.26n",
    # What phased out under a leaver and doesn't leave with them is
    # something they controlled and didn't own: a control change.
    needs={*LEAVING, C.CONTROL_CHANGE},
    scenarios=lambda caps: conceding_scenarios(
        focus(caps, *LEAVING, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER, C.SKIP_UNTAP),
        phased_out_under_non_owners,
        kinds=(a.PassTurn, a.PassTurn, a.Concede),
        min_actions=2,
        max_actions=6,
        in_a_row=True,
        setup_strategy=phased_out_under_a_non_owner(
            focus(caps, *LEAVING, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER, C.SKIP_UNTAP)
        ),
    ),
    exercised=_phased_in_after_a_leavers_turn,
)
def phased_out_under_a_leaver_returns_after_their_turn(trace: Trace) -> None:
    """What phased out under a player who left (and is owned by someone
    else) stays out until that player's turn would have begun, and phases in
    at the next untap step: the next one not skipped (702.26m,
    R2017-skip-untap), so the scenarios sometimes have the player whose
    untap step comes next skip it. When the turn passes over several players
    who left, seated in a row, each one's turn would have begun (800.4m):
    the scenarios sometimes have that player's neighbour leave too, before
    or after them in the turn order."""
    for step, b, c, under, due, skipper in _leaver_phased_out(trace):
        at = f"{where(trace, step)}, {b.id} (phased out under player {under}, who left)"
        if due:
            expect(
                c.phased_in,
                "702.26n",
                at,
                f"phases in: player {under}'s turn would have begun",
                "still phased out",
            )
        elif skipper is not None:
            expect(
                c.phased_out,
                "702.26n",
                at,
                f"stays out: player {under}'s turn would have begun, but player {skipper} "
                "skips this untap step (702.26m); it phases in at the next one that happens",
                "phased in",
            )
        else:
            expect(
                c.phased_out,
                "702.26n",
                at,
                f"stays out until player {under}'s turn would have begun",
                "phased in",
            )


def _leavers_boosted(trace: Trace) -> Iterator[tuple[int, str, int, tuple[int, int, list[str]]]]:
    """Each observation k at which a creature boosted by a player who had
    left is phased in with power and toughness the rules determine:
    (k, the creature, the boost's creator, expected power, toughness and
    the boosts in force)."""
    creators = {t: e.controller for e, _ in boosts(trace) for t in e.targets}
    for k, obs in enumerate(observations(trace)):
        for pid, creator in creators.items():
            v, pt = view(obs, pid), expected_pt(trace, k, pid)
            if obs.player(creator).in_game or v is None or pt is None or v.power is None:
                continue
            yield k, pid, creator, pt


def _a_leavers_boost_lasted_then_ended(trace: Trace) -> bool:
    """A creature showed an "until your next turn" boost of a player who had
    left while that player's turn was still to come, and not once it would
    have begun (800.4m)."""
    seen = [(k, pid, creator) for k, pid, creator, _ in _leavers_boosted(trace)]
    for e, end in boosts(trace):
        if end is None or e.duration.kind != "your_next_turn":
            continue
        ks = {k for k, pid, creator in seen if pid in e.targets and creator == e.controller}
        if any(k < end for k in ks) and any(k >= end for k in ks):
            return True
    return False


@rule_property(
    "800.4m",
    needs=(*LEAVING, C.PT_BOOST),
    scenarios=lambda caps: conceding_scenarios(
        focus(caps, *LEAVING, C.PT_BOOST),
        boost_creators,
        kinds=(a.PassTurn, a.PassTurn, a.Concede),
        min_actions=2,
        max_actions=6,
        in_a_row=True,
        setup_strategy=boosted_by_a_non_active_player(focus(caps, *LEAVING, C.PT_BOOST)),
    ),
    exercised=_a_leavers_boost_lasted_then_ended,
)
def leavers_until_next_turn_effects_last_until_that_turn(trace: Trace) -> None:
    """ "Until your next turn" effects of a player who left last until that
    turn would have begun: a boost they made applies until their seat is
    passed over, then no longer, as one of several seats in a row of
    players who left too (the scenarios sometimes have a neighbour leave)."""
    obs = observations(trace)
    for k, pid, creator, (power, toughness, live) in _leavers_boosted(trace):
        v = obs[k].permanent(pid)
        expect(
            (v.power, v.toughness) == (power, toughness),
            "800.4m",
            f"{where(trace, trace.steps[k - 1])}, {pid} (boosted by {creator}, who left)",
            f"{power}/{toughness} (boosts in force: {', '.join(live) or 'none'})",
            f"{v.power}/{v.toughness}",
        )
