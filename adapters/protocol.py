"""The adapter protocol: how phasecert drives an engine.

An adapter is an `Engine` (name, version, capabilities, and a way to start a
game from a `Setup`) whose games perform one `Action` at a time and report an
`Observation`. The engine itself must do the phasing: an adapter may build
the starting position by editing the engine's state, but it plays every
action through the engine's own moves.

An engine may also say why it lacks a capability, in an optional `missing`
mapping (capability → reason); reports print the reason next to every
"not applicable" it causes.

And an engine may say which observations it does not report, in an optional
`unreported` set of names from `OPTIONAL_OBSERVATIONS` (no event log, no
draw count, ...): the comparison with the reference engine then ignores
those fields, and a property that reads one is "not applicable" instead of
passing or failing on values the engine never meant (docs/observations.md).

And an engine may say which editions of the phasing rules it plays
(`conformance.editions`), in an optional `editions` set (default: today's
only); one playing several gives the engine playing one through
`with_edition(edition)` (`engine_for_edition`).

And it may cap the boards `phasecert bench` gives it, in an optional
`bench_max_size` (permanents).

And it may start a game knowing the actions that will follow, in an optional
`start_scenario(scenario)` (`start_game`): an adapter whose engine wants every
card in place before play (a test harness's "add this card to that hand")
can put there what the actions will need. The actions are still performed
one at a time, by `perform`, and the game must play them as a game from
`start(scenario.setup)` would: what was prepared may only spare the adapter
work. The comparison with the reference engine draws its actions as it
goes, so it starts its games with `start`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from conformance.actions import Action
from conformance.capabilities import Capability
from conformance.observation import Observation
from conformance.scenario import Scenario
from conformance.setup import Setup


class Inexpressible(Exception):
    """Raised by `Game.perform` for an action the adapter can't express in
    its engine in this position, where it has a capability only in part
    (a probe of the engine's own moves shows why). Not a refusal: the
    engine judged nothing; not an error. The example is set aside, counting
    toward neither a pass nor a failure, so this can never earn a pass."""


@runtime_checkable
class Game(Protocol):
    """One game in progress, created by `Engine.start`."""

    def observe(self) -> Observation:
        """The game now; events are those since the previous observation."""
        ...

    def perform(self, action: Action) -> Observation:
        """Play `action` through the engine and observe the result. An action
        the engine refuses is reported in `Observation.refused`, not raised."""
        ...


@runtime_checkable
class Engine(Protocol):
    """An engine under test, as its adapter presents it."""

    name: str
    version: str
    capabilities: frozenset[Capability]

    def start(self, setup: Setup) -> Game:
        """A new game in the position `setup` describes."""
        ...


def wants_actions(engine: Any) -> bool:
    """Whether `engine` starts its games knowing their actions: it has the
    optional `start_scenario`."""
    return callable(getattr(engine, "start_scenario", None))


def start_game(engine: Any, scenario: Scenario) -> Any:
    """A new game of `engine` in `scenario`'s position, for its actions: by
    the engine's optional `start_scenario(scenario)`, else by
    `start(scenario.setup)`."""
    if wants_actions(engine):
        return engine.start_scenario(scenario)
    return engine.start(scenario.setup)


def missing_capabilities(engine: Any) -> dict[Capability, str]:
    """Why `engine` lacks each capability its optional `missing` attribute
    names, for those it really lacks. ValueError names a key that is not a
    capability, or a reason that is not text."""
    declared = getattr(engine, "missing", None) or {}
    if not isinstance(declared, Mapping):
        raise ValueError(f"`missing` must map capabilities to reasons, not {declared!r}")
    reasons = {}
    for key, reason in declared.items():
        try:
            capability = Capability(key)
        except ValueError:
            known = ", ".join(sorted(Capability))
            raise ValueError(f"`missing` names {key!r}, not a capability ({known})") from None
        if not isinstance(reason, str):
            raise ValueError(f"`missing[{key!r}]` must be a reason, as text, not {reason!r}")
        if capability not in engine.capabilities:
            reasons[capability] = reason
    return reasons


#: The observations an engine may leave unreported (its `unreported`
#: attribute), each with what it is; docs/observations.md says what the
#: engine shows in their place.
OPTIONAL_OBSERVATIONS: dict[str, str] = {
    "events": "event log (Observation.events)",
    "cards_drawn": "count of cards drawn (PlayerView.cards_drawn)",
    "life": "life totals (PlayerView.life)",
}


def unreported_observations(engine: Any) -> frozenset[str]:
    """The observations `engine` declares it does not report, in its
    optional `unreported` attribute. ValueError names one that is not an
    optional observation, or an attribute that is not a set of names."""
    declared = getattr(engine, "unreported", None) or frozenset()
    if isinstance(declared, str) or not isinstance(declared, (set, frozenset, tuple, list)):
        raise ValueError(f"`unreported` must be a set of observation names, not {declared!r}")
    for name in declared:
        if name not in OPTIONAL_OBSERVATIONS:
            known = ", ".join(OPTIONAL_OBSERVATIONS)
            raise ValueError(f"`unreported` names {name!r}, not an optional observation ({known})")
    return frozenset(declared)


def engine_editions(engine: Any) -> frozenset[str]:
    """The editions `engine` declares it plays, in its optional `editions`
    attribute (default: today's rules only). ValueError names one that is
    not an edition, or an attribute that is not a set of names."""
    from conformance.editions import CURRENT, EDITIONS

    declared = getattr(engine, "editions", None) or frozenset({CURRENT})
    if isinstance(declared, str) or not isinstance(declared, (set, frozenset, tuple, list)):
        raise ValueError(f"`editions` must be a set of edition names, not {declared!r}")
    for name in declared:
        if name not in EDITIONS:
            raise ValueError(f"`editions` names {name!r}, not an edition ({', '.join(EDITIONS)})")
    return frozenset(declared)


def engine_for_edition(engine: Any, edition: str) -> Any:
    """`engine` playing `edition`: its `with_edition(edition)` if it plays
    several, else itself. ValueError if it does not declare `edition`."""
    editions = engine_editions(engine)
    if edition not in editions:
        raise ValueError(
            f"engine {engine.name!r} does not play the {edition} edition of the rules "
            f"(it declares: {', '.join(sorted(editions))})"
        )
    choose = getattr(engine, "with_edition", None)
    return choose(edition) if callable(choose) else engine


def bench_max_size(engine: Any) -> int | None:
    """The largest board `phasecert bench` should give `engine`, from its
    optional `bench_max_size` attribute (permanents): where starting and
    playing a bigger position takes the engine too long for a benchmark.
    ValueError for one that is not a positive whole number."""
    declared = getattr(engine, "bench_max_size", None)
    if declared is None:
        return None
    if isinstance(declared, bool) or not isinstance(declared, int) or declared <= 0:
        raise ValueError(
            f"`bench_max_size` must be a positive number of permanents, not {declared!r}"
        )
    return declared
