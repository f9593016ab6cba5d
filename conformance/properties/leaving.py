"""What the multiplayer properties share: the concessions of a trace, how
a permanent's fate is shown, and the scenarios they generate, in which the
players a rule is about are the ones who concede (702.26k, 702.26n, 800.4a,
800.4c, 800.4m)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.history import per_permanent
from conformance.running import Step, Trace
from conformance.setup import BoostEffect, Duration, Permanent, PhasedOut, Setup, SkipUntap
from conformance.strategies import setups
from conformance.strategies._draw import composite, maybe, pick, some

LEAVING = (C.MULTIPLAYER, C.LEAVE_GAME)


def concessions(trace: Trace) -> list[tuple[int, Step, int]]:
    """Each Concede the engine carried out: the observation after it, the
    step, and the player who left."""
    return [
        (k, step, step.action.player)
        for k, step in enumerate(trace.steps, 1)
        if isinstance(step.action, a.Concede) and step.after.refused is None
    ]


def token_ids(trace: Trace) -> set[str]:
    facts = per_permanent(trace.scenario, lambda p: p.token, lambda _: True)
    return {pid for pid, token in facts.items() if token}


def exiled(c: PermanentView, token: bool) -> bool:
    """Exiled; a token exiled ceases to exist (704.5d)."""
    return c.zone == "exile" or (token and c.zone == "none")


def shown(c: PermanentView) -> str:
    if not c.on_battlefield:
        return f"it in zone {c.zone}"
    return f"it controlled by player {c.controller}" + (" (phased out)" if c.phased_out else "")


# Who concedes in the generated scenarios: the players each rule is about.


def owners_of_phased_out(setup: Setup) -> list[int]:
    return [p.owner for p in setup.permanents if p.phased_out is not None]


def controllers_of_others(setup: Setup) -> list[int]:
    return [p.controller for p in setup.permanents if p.controller != p.owner]


def default_controllers_of_others(setup: Setup) -> list[int]:
    return [
        p.controller_by_default
        for p in setup.permanents
        if p.controller_by_default not in (p.owner, p.controller)
    ]


def phased_out_under_non_owners(setup: Setup) -> list[int]:
    return [
        p.phased_out.under
        for p in setup.permanents
        if p.phased_out is not None and p.phased_out.under != p.owner
    ]


def boost_creators(setup: Setup) -> list[int]:
    """Who made a boost on a creature they don't own (what they own leaves
    with them)."""
    owner = {p.id: p.owner for p in setup.permanents}
    return [
        e.controller
        for e in setup.effects
        if isinstance(e, BoostEffect) and any(owner[t] != e.controller for t in e.targets)
    ]


@composite
def phased_out_under_a_non_owner(draw: st.DrawFn, caps: set[C]) -> Setup:
    """A setup of 3 or more players, when the engine plays them, with one
    more permanent, phased out directly under a player other than the
    active one who controls it and doesn't own it (702.26n). Sometimes the
    player seated right after that one (or the next, with 4 or more players:
    the neighbour may leave too) skips their next untap step, once or twice,
    which is where the permanent would phase in once that player's turn
    would have begun: it waits for the next untap step that happens
    (702.26m, R2017-skip-untap)."""
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
    skips: tuple[SkipUntap, ...] = ()
    if C.SKIP_UNTAP in caps and maybe(draw):
        after = [(under + 1) % setup.players, (under + 2) % setup.players]
        skipper = pick(draw, after[: 2 if setup.players >= 4 else 1])
        skips = (SkipUntap(skipper),) * (2 if maybe(draw) else 1)
    return replace(setup, permanents=(*setup.permanents, extra), effects=skips)


@composite
def boosted_by_a_non_active_player(draw: st.DrawFn, caps: set[C]) -> Setup:
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
