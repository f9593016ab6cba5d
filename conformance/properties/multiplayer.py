"""Properties of players leaving a multiplayer game while permanents are
phased out: what leaves with them, whose control ends, what is exiled when
control falls to no one in the game, when what phased out under them phases
in, and how long their "until your next turn" effects last (702.26k,
702.26n, 800.4a, 800.4c, 800.4m).

State-based actions and triggered abilities wait for a player to receive
priority (704.3, 117.5), which a concession by a player who doesn't hold it
doesn't give (800.4a): checks of what a Concede leaves pending look at every
later observation, never only at the one right after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
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
    default_controllers,
    owners,
    per_permanent,
    skips_untap,
    until_waiting,
    view,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import BoostEffect, Duration, Permanent, PhasedOut, Setup
from conformance.strategies import conceding_scenarios, setups
from conformance.strategies._draw import pick, some

_LEAVING = (C.MULTIPLAYER, C.LEAVE_GAME)
#: Non-creature permanents too: everything a player owns leaves with them.
_EVERY_KIND = (C.AURAS, C.EQUIPMENT, C.FORTIFICATIONS, C.TOKENS, C.PLAYER_AURAS)


# Who concedes in the generated scenarios: the players each rule is about.


def _owners_of_phased_out(setup: Setup) -> list[int]:
    return [p.owner for p in setup.permanents if p.phased_out is not None]


def _controllers_of_others(setup: Setup) -> list[int]:
    return [p.controller for p in setup.permanents if p.controller != p.owner]


def _default_controllers_of_others(setup: Setup) -> list[int]:
    return [
        p.controller_by_default
        for p in setup.permanents
        if p.controller_by_default not in (p.owner, p.controller)
    ]


def _phased_out_under_non_owners(setup: Setup) -> list[int]:
    return [
        p.phased_out.under
        for p in setup.permanents
        if p.phased_out is not None and p.phased_out.under != p.owner
    ]


def _boost_creators(setup: Setup) -> list[int]:
    """Who made a boost on a creature they don't own (what they own leaves
    with them)."""
    owner = {p.id: p.owner for p in setup.permanents}
    return [
        e.controller
        for e in setup.effects
        if isinstance(e, BoostEffect) and any(owner[t] != e.controller for t in e.targets)
    ]


@st.composite
def _phased_out_under_a_non_owner(draw: st.DrawFn, caps: set[C]) -> Setup:
    """A setup of 3 or more players, when the engine plays them, with one
    more permanent, phased out directly under a player other than the
    active one who controls it and doesn't own it (702.26n)."""
    setup = draw(
        setups(
            caps,
            min_players=3,
            max_permanents=3,
            permanent_kinds=("creature", "artifact", "land"),
            effects=False,
        )
    )
    if C.CONTROL_CHANGE not in caps:
        return setup
    under = pick(draw, [p for p in range(setup.players) if p != setup.active])
    owner = pick(draw, [p for p in range(setup.players) if p != under])
    kind = pick(draw, ["creature", "artifact", "land"])
    extra = Permanent(
        f"p{len(setup.permanents) + 1}",
        owner=owner,
        controller=under,
        types=(kind,),  # type: ignore[arg-type]
        power=1 if kind == "creature" else None,
        toughness=1 if kind == "creature" else None,
        phased_out=PhasedOut("direct", under),
    )
    return replace(setup, permanents=(*setup.permanents, extra))


@st.composite
def _boosted_by_a_non_active_player(draw: st.DrawFn, caps: set[C]) -> Setup:
    """A setup of 3 or more players, when the engine plays them, where a
    player other than the active one made an "until your next turn" boost
    of creatures they don't own (800.4m)."""
    setup = draw(
        setups(
            caps,
            min_players=3,
            min_permanents=2,
            max_permanents=4,
            permanent_kinds=("creature",),
            phased_out=False,
            effects=False,
        )
    )
    creator = pick(draw, [p for p in range(setup.players) if p != setup.active])
    targets = [p.id for p in setup.permanents if p.owner != creator]
    if C.PT_BOOST not in caps or not targets:
        return setup
    chosen = tuple(some(draw, targets, 3)) or (targets[0],)
    boost = BoostEffect(chosen, creator, duration=Duration("your_next_turn"))
    return replace(setup, effects=(boost,))


def _concessions(trace: Trace) -> list[tuple[int, Step, int]]:
    """Each Concede the engine carried out: the observation after it, the
    step, and the player who left."""
    return [
        (k, step, step.action.player)
        for k, step in enumerate(trace.steps, 1)
        if isinstance(step.action, a.Concede) and step.after.refused is None
    ]


def _tokens(trace: Trace) -> set[str]:
    facts = per_permanent(trace.scenario, lambda p: p.token, lambda _: True)
    return {pid for pid, token in facts.items() if token}


def _exiled(c: PermanentView, token: bool) -> bool:
    """Exiled; a token exiled ceases to exist (704.5d)."""
    return c.zone == "exile" or (token and c.zone == "none")


def _shown(c: PermanentView) -> str:
    if not c.on_battlefield:
        return f"it in zone {c.zone}"
    return f"it controlled by player {c.controller}" + (" (phased out)" if c.phased_out else "")


def _left_with_owner(
    trace: Trace,
) -> Iterator[tuple[int, Step, int, PermanentView, PermanentView]]:
    """For each concession the engine carried out, each permanent on the
    battlefield that the leaver owned: (k, step, leaver, before, after)."""
    owner = owners(trace.scenario)
    for k, step, player in _concessions(trace):
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
    needs=_LEAVING,
    scenarios=lambda caps: conceding_scenarios(
        focus(
            caps,
            *_LEAVING,
            *_EVERY_KIND,
            C.CONTROL_CHANGE,
            C.TRIGGERS,
            C.PHASE_TRIGGERS,
            C.TARGETING,
            C.PHASED_OUT_UNDER_OTHER,
            C.PHASE_OUT_UNTIL,
        ),
        _owners_of_phased_out,
        kinds=(a.Concede, a.PhaseOut, a.PassTurn, a.CreateToken),
        min_actions=1,
        max_actions=4,
        min_permanents=2,
        max_permanents=5,
        effects=False,
        min_players=3,
    ),
    exercised=_a_phased_out_permanent_left_with_its_owner,
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


def _released(
    trace: Trace,
) -> Iterator[tuple[Step, int, PermanentView, PermanentView, set[int], int]]:
    """For each concession the engine carried out, each permanent on the
    battlefield, not owned by the leaver, that the leaver controlled by an
    effect or by default: (step, leaver, before, after, players an effect
    still in force gives it to, who controls it by default)."""
    owner = owners(trace.scenario)
    default = default_controllers(trace.scenario)
    grants = control_grants(trace)
    for k, step, player in _concessions(trace):
        in_game = {p.index for p in step.after.players if p.in_game}
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield or owner.get(b.id) == player:
                continue
            mine = [g for g in grants if g.target == b.id]
            leavers = any(g.player == player and g.in_force(k - 1) for g in mine)
            if not leavers and default[b.id] != player:
                continue
            live = {g.player for g in mine if g.in_force(k) and g.player in in_game} - {player}
            yield step, player, b, c, live, default[b.id]


def _control_left_with_the_leaver(trace: Trace) -> bool:
    """After a concession the engine carried out, a permanent the leaver
    controlled (and didn't own) was shown under another player's control or
    exiled (800.4a)."""
    return any(
        b.controller == player and (_exiled(c, False) or c.controller not in (None, player))
        for _, player, b, c, _, _ in _released(trace)
    )


@rule_property(
    "800.4a",
    needs=(*_LEAVING, C.CONTROL_CHANGE),
    scenarios=lambda caps: conceding_scenarios(
        focus(
            caps,
            *_LEAVING,
            C.CONTROL_CHANGE,
            C.TARGETING,
            C.PHASED_OUT_UNDER_OTHER,
            C.DEFAULT_CONTROLLER,
        ),
        _controllers_of_others,
        kinds=(a.Concede, a.PhaseOut, a.GainControl),
        min_actions=1,
        max_actions=4,
        min_permanents=2,
        max_permanents=4,
        permanent_kinds=("creature", "artifact", "land"),
        min_players=3,
        default_controllers=True,
    ),
    exercised=_control_left_with_the_leaver,
)
def leaving_players_control_ends(trace: Trace) -> None:
    """Effects giving a player who left control of something end, whether
    it is phased in or out: it goes to a player an effect still gives it
    to, else to the player who controls it by default (its owner, unless it
    entered under another player, 110.2); what the leaver still controls
    then is exiled."""
    tokens = _tokens(trace)
    for step, player, b, c, live, default in _released(trace):
        at = f"{where(trace, step)}, {b.id}{' (phased out)' if b.phased_out else ''}"
        in_game = {p.index for p in step.after.players if p.in_game}
        if live:
            players = " or ".join(f"player {p}" for p in sorted(live))
            expect(
                c.on_battlefield and c.controller in live,
                "800.4a",
                at,
                f"controlled by {players}, whose effect still applies, not by player {player}, "
                "who left",
                _shown(c),
            )
        elif default in in_game:
            expect(
                c.on_battlefield and c.controller == default,
                "800.4a",
                at,
                f"controlled by player {default}, who controls it by default, not by player "
                f"{player}, who left",
                _shown(c),
            )
        elif not b.phased_out:
            # A phased-out one left to a player who left: the rules don't
            # say whether the exile reaches it (docs/readings.md).
            expect(
                _exiled(c, b.id in tokens),
                "800.4a",
                at,
                f"exiled: player {player}, who left, still controls it",
                _shown(c),
            )


def _orphaned(trace: Trace) -> Iterator[tuple[Step, PermanentView, PermanentView, int, int]]:
    """Each permanent, phased in before an action the engine carried out and
    not shown phased out after it, whose control effect for a player still
    in the game ended in that action, with no other effect giving it to a
    player in the game, while the player who controls it by default (110.2)
    had left: (step, before, after, that player, whose effect ended)."""
    grants = control_grants(trace)
    default = default_controllers(trace.scenario)
    for k, step in enumerate(trace.steps, 1):
        if step.after.refused is not None:
            continue
        in_game = {p.index for p in step.after.players if p.in_game}
        for b in step.before.permanents:
            c = view(step.after, b.id)
            # Phased out after it: docs/readings.md leaves that case open.
            if c is None or not b.phased_in or (c.on_battlefield and c.phased_out):
                continue
            mine = [g for g in grants if g.target == b.id]
            ended = [g.player for g in mine if g.end == k and g.player in in_game]
            live = [g for g in mine if g.in_force(k) and g.player in in_game]
            if ended and not live and default[b.id] not in in_game:
                yield step, b, c, default[b.id], ended[-1]


def _an_orphan_was_exiled(trace: Trace) -> bool:
    """A control effect of a player still in the game ended, nothing else
    gave the permanent to a player in the game, the player who controls it
    by default had left, and the engine exiled it (800.4c)."""
    tokens = _tokens(trace)
    return any(_exiled(c, b.id in tokens) for _, b, c, _, _ in _orphaned(trace))


@rule_property(
    "800.4c",
    needs=(*_LEAVING, C.CONTROL_CHANGE, C.DEFAULT_CONTROLLER),
    scenarios=lambda caps: conceding_scenarios(
        focus(caps, *_LEAVING, C.CONTROL_CHANGE, C.DEFAULT_CONTROLLER, C.TARGETING),
        _default_controllers_of_others,
        kinds=(a.PassTurn, a.PassTurn, a.Concede, a.GainControl),
        min_actions=2,
        max_actions=5,
        min_permanents=2,
        max_permanents=4,
        permanent_kinds=("creature", "artifact"),
        phased_out=False,
        min_players=3,
        default_controllers=True,
        control_durations=(Duration("end_of_turn"), Duration("your_next_turn")),
    ),
    exercised=_an_orphan_was_exiled,
)
def control_ending_exiles_when_the_default_controller_left(trace: Trace) -> None:
    """When an effect giving a player still in the game control of a
    permanent ends, no other effect gives it to a player in the game, and
    the player who controls it by default has left, it is exiled at once
    rather than left to no one."""
    tokens = _tokens(trace)
    for step, b, c, default, ended in _orphaned(trace):
        expect(
            _exiled(c, b.id in tokens),
            "800.4c",
            f"{where(trace, step)}, {b.id} (player {ended}'s control effect ended)",
            f"exiled: no effect gives it to a player in the game, and player {default}, who "
            "controls it by default, has left",
            _shown(c),
        )


def _leaver_phased_out(
    trace: Trace,
) -> Iterator[tuple[Step, PermanentView, PermanentView, int, bool]]:
    """Each permanent on the battlefield after a step, phased out directly
    before it under a player who had left (who, from the scenario's history,
    not from the engine), not waiting "until": (step, before, after, that
    player, whether their turn would have begun in this step)."""
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
            yield step, b, c, under, under in skipped
        left -= skipped


def _phased_in_after_a_leavers_turn(trace: Trace) -> bool:
    """A permanent that phased out under a player who left phased in at the
    untap step after that player's turn would have begun (702.26n)."""
    return any(due and c.phased_in for _, _, c, _, due in _leaver_phased_out(trace))


@rule_property(
    "702.26n",
    needs=_LEAVING,
    scenarios=lambda caps: conceding_scenarios(
        focus(caps, *_LEAVING, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER),
        _phased_out_under_non_owners,
        kinds=(a.PassTurn, a.PassTurn, a.Concede),
        min_actions=2,
        max_actions=6,
        setup_strategy=_phased_out_under_a_non_owner(
            focus(caps, *_LEAVING, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER)
        ),
    ),
    exercised=_phased_in_after_a_leavers_turn,
)
def phased_out_under_a_leaver_returns_after_their_turn(trace: Trace) -> None:
    """What phased out under a player who left (and is owned by someone
    else) stays out until that player's turn would have begun, and phases in
    at the next untap step."""
    if skips_untap(trace.scenario):
        return
    for step, b, c, under, due in _leaver_phased_out(trace):
        at = f"{where(trace, step)}, {b.id} (phased out under player {under}, who left)"
        if due:
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
    needs=(*_LEAVING, C.PT_BOOST),
    scenarios=lambda caps: conceding_scenarios(
        focus(caps, *_LEAVING, C.PT_BOOST),
        _boost_creators,
        kinds=(a.PassTurn, a.PassTurn, a.Concede),
        min_actions=2,
        max_actions=6,
        setup_strategy=_boosted_by_a_non_active_player(focus(caps, *_LEAVING, C.PT_BOOST)),
    ),
    exercised=_a_leavers_boost_lasted_then_ended,
)
def leavers_until_next_turn_effects_last_until_that_turn(trace: Trace) -> None:
    """ "Until your next turn" effects of a player who left last until that
    turn would have begun: a boost they made applies until their seat is
    passed over, then no longer."""
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
