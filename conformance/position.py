"""The position an observation shows, apart from how an engine logs events.

Two uses. The *start check*: before any property looks at a trace, the
engine's first observation must show the position the setup describes; a
mismatch is the adapter's setup, not a rule (it would otherwise surface as a
violation of whatever rule looks first). And *agreement*: whether two engines
show the same position, which decides whether a refusal can be blamed on the
engine (`conformance.refusals`).
"""

from __future__ import annotations

from conformance.observation import Observation, PermanentView
from conformance.setup import STARTING_LIFE, Permanent, Setup


def start_problems(setup: Setup, first: Observation) -> list[str]:
    """Where `first`, an engine's observation before any action, differs from
    `setup`, one field each ("p2 controller: setup 1, engine 0")."""
    problems = []
    if first.active != setup.active:
        problems.append(f"active player: setup {setup.active}, engine {first.active}")
    if len(first.players) != setup.players:
        problems.append(f"players: setup {setup.players}, engine {len(first.players)}")
    for player in first.players:
        if not player.in_game or player.life != STARTING_LIFE:
            problems.append(
                f"player {player.index}: setup in the game at {STARTING_LIFE} life, engine "
                f"{'in the game' if player.in_game else 'out of the game'} at {player.life}"
            )
    shown = {p.id: p for p in first.permanents}
    for permanent in setup.permanents:
        view = shown.pop(permanent.id, None)
        if view is None:
            problems.append(f"{permanent.id}: missing from the engine's observation")
        else:
            problems += _permanent_problems(permanent, view)
    problems += [f"{pid}: on the engine's battlefield, not in the setup" for pid in shown]
    return problems


def _permanent_problems(p: Permanent, v: PermanentView) -> list[str]:
    expected = {
        "zone": "battlefield",
        "phased_out": p.phased_out is not None,
        "cause": None if p.phased_out is None else p.phased_out.cause,
        "controller": p.controller,
        "tapped": p.tapped,
        "counters": dict(p.counters),
        "attached_to": p.attached_to,
        "chosen": p.chosen,
    }
    shown = {name: getattr(v, name) for name in expected}
    shown["counters"] = dict(v.counters)
    return [
        f"{p.id} {name}: setup {expected[name]!r}, engine {shown[name]!r}"
        for name in expected
        if expected[name] != shown[name]
    ]


def position_of(obs: Observation) -> tuple[object, ...]:
    """What the certified rules govern in an observation, as a comparable
    value: whose turn it is, who is in the game, and each permanent's zone,
    status, controller, tapped status and attachment. Events, life and
    draws are left out: engines log and count them in their own ways."""
    return (
        obs.active,
        tuple(p.in_game for p in obs.players),
        tuple(
            sorted(
                (p.id, p.zone, p.phased_out, p.controller, p.tapped, repr(p.attached_to))
                for p in obs.permanents
            )
        ),
    )


def same_position(a: Observation, b: Observation) -> bool:
    return position_of(a) == position_of(b)
