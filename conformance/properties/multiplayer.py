"""Properties of players leaving a multiplayer game while permanents are
phased out: what leaves with them, whose control ends, when what phased out
under them phases in, and how long their "until your next turn" effects
last (702.26k, 702.26n, 800.4a, 800.4c, 800.4m)."""

from __future__ import annotations

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.effects import (
    boosts,
    control_grants,
    expected_pt,
    focus,
    observations,
    passed_over,
    phased_out_under,
)
from conformance.properties.history import (
    owners,
    skips_untap,
    until_waiting,
    view,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import scenarios

_LEAVING = (C.MULTIPLAYER, C.LEAVE_GAME)


def _concessions(trace: Trace) -> list[tuple[Step, int]]:
    """Each Concede the engine carried out, with the player who left."""
    return [
        (step, step.action.player)
        for step in trace.steps
        if isinstance(step.action, a.Concede) and step.after.refused is None
    ]


@rule_property(
    "800.4a",
    "702.26k",
    needs=_LEAVING,
    scenarios=lambda caps: scenarios(
        focus(caps, *_LEAVING, C.CONTROL_CHANGE, C.TRIGGERS, C.TARGETING, C.PHASED_OUT_UNDER_OTHER),
        kinds=(a.Concede, a.PhaseOut, a.PassTurn),
        min_actions=1,
        max_actions=4,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=("creature",),
        effects=False,
    ),
    reads={"events"},
)
def leaving_player_takes_what_they_own(trace: Trace) -> None:
    """Everything a leaving player owns leaves the game with them, phased-out
    permanents included — without leaves-the-battlefield triggers for those,
    which the game doesn't see."""
    owner = owners(trace.scenario)
    for step, player in _concessions(trace):
        hidden = set()
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if owner.get(b.id) != player or not b.on_battlefield or c is None:
                continue
            rule = "702.26k" if b.phased_out else "800.4a"
            if b.phased_out:
                hidden.add(b.id)
            expect(
                c.zone == "none",
                rule,
                f"{where(trace, step)}, {b.id}{' (phased out)' if b.phased_out else ''}",
                f"leaves the game with its owner, player {player}",
                f"{c.zone}",
            )
        fired = [e for e in step.after.events_of("trigger") if e.subject in hidden]
        expect(
            not fired,
            "702.26k",
            f"{where(trace, step)} (player {player} leaves)",
            "no trigger for phased-out permanents leaving with their owner",
            ", ".join(f"{e.subject} {e.detail}" for e in fired),
        )


@rule_property(
    "800.4c",
    needs=(*_LEAVING, C.CONTROL_CHANGE),
    scenarios=lambda caps: scenarios(
        focus(caps, *_LEAVING, C.CONTROL_CHANGE, C.TARGETING, C.PHASED_OUT_UNDER_OTHER),
        kinds=(a.Concede, a.PhaseOut, a.GainControl),
        min_actions=1,
        max_actions=4,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=("creature", "artifact"),
    ),
)
def leaving_players_control_ends(trace: Trace) -> None:
    """Effects giving a player who left control of something end, whether
    it is phased in or out: it goes back to its owner, unless another
    player's effect gives them control."""
    owner = owners(trace.scenario)
    grants = control_grants(trace)
    for step, player in _concessions(trace):
        for c in step.after.permanents:
            if not c.on_battlefield or c.controller is None:
                continue
            others = {g.player for g in grants if g.target == c.id} - {player}
            expected = "anyone but" if others else f"its owner, player {owner[c.id]}, not"
            expect(
                c.controller != player if others else c.controller == owner[c.id],
                "800.4c",
                f"{where(trace, step)}, {c.id}{' (phased out)' if c.phased_out else ''}",
                f"controlled by {expected} player {player}, who left",
                f"controlled by player {c.controller}",
            )


@rule_property(
    "702.26n",
    needs=_LEAVING,
    scenarios=lambda caps: scenarios(
        focus(caps, *_LEAVING, C.CONTROL_CHANGE),
        kinds=(a.Concede, a.PassTurn),
        min_actions=2,
        max_actions=5,
        min_permanents=1,
        max_permanents=2,
        permanent_kinds=("creature",),
        effects=False,
    ),
)
def phased_out_under_a_leaver_returns_after_their_turn(trace: Trace) -> None:
    """What phased out under a player who left (and is owned by someone
    else) stays out until that player's turn would have begun, and phases in
    at the next untap step."""
    if skips_untap(trace.scenario):
        return
    unders = phased_out_under(trace)
    waiting = until_waiting(trace.scenario)
    left: set[int] = set()
    for i, step in enumerate(trace.steps):
        carried_out = step.after.refused is None
        if isinstance(step.action, a.Concede) and carried_out:
            left.add(step.action.player)
        passed = isinstance(step.action, a.PassTurn) and carried_out
        skipped = passed_over(step.before, step.after) & left if passed else set()
        for b in step.before.permanents:
            c = view(step.after, b.id)
            under = unders[i].get(b.id)
            if (
                c is None
                or not (b.on_battlefield and b.phased_out and b.cause == "direct")
                or b.id in waiting
                or under not in left
                or not c.on_battlefield
            ):
                continue
            at = f"{where(trace, step)}, {b.id} (phased out under player {under}, who left)"
            if under in skipped:
                expect(
                    c.phased_in,
                    "702.26n",
                    at,
                    f"phases in: player {under}'s turn would have begun",
                    "still phased out",
                )
            else:
                expect(
                    c.phased_out,
                    "702.26n",
                    at,
                    f"stays out until player {under}'s turn would have begun",
                    "phased in",
                )
        left -= skipped


@rule_property(
    "800.4m",
    needs=(*_LEAVING, C.PT_BOOST),
    scenarios=lambda caps: scenarios(
        focus(caps, *_LEAVING, C.PT_BOOST),
        kinds=(a.Concede, a.PassTurn),
        min_actions=2,
        max_actions=5,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=("creature",),
        boost_durations=("your_next_turn",),
    ),
)
def leavers_until_next_turn_effects_last_until_that_turn(trace: Trace) -> None:
    """ "Until your next turn" effects of a player who left last until that
    turn would have begun: a boost they made applies until their seat is
    passed over, then no longer."""
    creators = {t: e.controller for e, _ in boosts(trace) for t in e.targets}
    for k, obs in enumerate(observations(trace)):
        for pid, creator in creators.items():
            v, pt = view(obs, pid), expected_pt(trace, k, pid)
            if obs.player(creator).in_game or v is None or pt is None or v.power is None:
                continue
            power, toughness, live = pt
            expect(
                (v.power, v.toughness) == (power, toughness),
                "800.4m",
                f"{where(trace, trace.steps[k - 1])}, {pid} (boosted by {creator}, who left)",
                f"{power}/{toughness} (boosts in force: {', '.join(live) or 'none'})",
                f"{v.power}/{v.toughness}",
            )
