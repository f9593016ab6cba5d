"""Degenerate engines: adapters that set up the position and then do little
or nothing.

A property's checks are implications ("if it phased in, then ..."), so they
hold vacuously on an engine where nothing happens. These engines are how the
meta-tests (tests/test_degenerate_engines.py) show that no rule is certified
on them, except the rules each really implements, written down as
`implements` with the reason. They load as `--engine degenerate:NAME`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from adapters.reference import ReferenceEngine, ReferenceGame, Rules
from adapters.reference.rules import Refused
from adapters.reference.state import Card
from conformance import __version__
from conformance import actions as a
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.catalog import TEFERI_RULINGS
from conformance.codec import to_data
from conformance.legality import check_setup
from conformance.observation import Observation, PermanentView, PlayerView
from conformance.setup import STARTING_LIFE, Setup

PREFIX = "degenerate:"


class StillGame:
    """A game that shows one observation forever: every action gets
    `refused` (None claims it was carried out) and changes nothing."""

    def __init__(self, shown: Observation, refused: str | None) -> None:
        self.shown = shown
        self.refused = refused

    def observe(self) -> Observation:
        return self.shown

    def perform(self, action: a.Action) -> Observation:
        return replace(self.shown, refused=self.refused)


def inert_game(setup: Setup) -> StillGame:
    """The reference engine's start, then every action refused."""
    return StillGame(ReferenceGame(setup).observe(), "inert: refuses every action")


def echo_game(setup: Setup) -> StillGame:
    """An observation the adapter builds from the setup itself, no engine
    behind it, echoed for every action as "not supported"."""
    return StillGame(setup_observation(setup), "not supported")


def frozen_game(setup: Setup) -> StillGame:
    """The setup's observation for every action, each claimed carried out:
    refusal verdicts can't see this one, only the properties can."""
    return StillGame(setup_observation(setup), None)


def setup_observation(setup: Setup) -> Observation:
    """The position `setup` describes, as a naive adapter would show it
    (printed power and toughness, nothing applied)."""
    return Observation(
        turn=setup.turn,
        active=setup.active,
        players=tuple(PlayerView(i, True, STARTING_LIFE, 0) for i in range(setup.players)),
        permanents=tuple(
            PermanentView(
                id=p.id,
                zone="battlefield",
                phased_out=p.phased_out is not None,
                cause=None if p.phased_out is None else p.phased_out.cause,
                controller=p.controller,
                tapped=p.tapped,
                counters=tuple(sorted(p.counters)),
                attached_to=p.attached_to,
                power=p.power if p.phased_out is None else None,
                toughness=p.toughness if p.phased_out is None else None,
                chosen=p.chosen,
            )
            for p in setup.permanents
        ),
    )


class RandomRefusalGame:
    """The reference engine, refusing each action with probability `rate`;
    the draws are seeded from the setup, so a scenario replays the same."""

    def __init__(self, setup: Setup, rate: float) -> None:
        self.game = ReferenceGame(setup)
        digest = hashlib.sha256(json.dumps(to_data(setup), sort_keys=True).encode()).digest()
        self.random = random.Random(digest)
        self.rate = rate

    def observe(self) -> Observation:
        return self.game.observe()

    def perform(self, action: a.Action) -> Observation:
        if self.random.random() < self.rate:
            return self.game.observe("refused at random")
        return self.game.perform(action)


class NoPhasing(Rules):
    """Untap steps untap and turns pass, but nothing ever phases: the
    phasing event is empty and phasing spells resolve doing nothing. What
    the setup shows phased out stays out, treated as the reference treats it."""

    def phasing_event(self, player: int) -> None:
        return None

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        return None

    def phase_in(self, roots: Iterable[Card]) -> None:
        return None


class NoPhasingRefused(NoPhasing):
    """`NoPhasing`, refusing every spell or ability that phases something."""

    def phase_out_targets(self, action: a.PhaseOut) -> None:
        raise _refused()

    def phase_out_all(self, action: a.PhaseOutAll) -> None:
        raise _refused()

    def phase_out_until(self, action: a.PhaseOutUntil) -> None:
        raise _refused()

    def destroy_target(self, action: a.Destroy) -> None:
        if action.phased_out_in_response:
            raise _refused()
        super().destroy_target(action)

    def destroy_through_phasing(self, action: a.DestroyThroughPhasing) -> None:
        raise _refused()


def _refused() -> Refused:
    return Refused("phasing is not supported")


class NeverPhasesIn(Rules):
    """Phases out as the reference does, and never phases anything in."""

    def phase_in(self, roots: Iterable[Card]) -> None:
        return None


@dataclass(frozen=True)
class DegenerateEngine:
    """Implements `adapters.protocol.Engine` with `game` for its games."""

    name: str
    game: Callable[[Setup], object]
    capabilities: frozenset[Capability] = ALL_CAPABILITIES
    version: str = __version__

    def start(self, setup: Setup) -> object:
        check_setup(setup)
        return self.game(setup)


@dataclass(frozen=True)
class Degenerate:
    """`implements`: the catalog rules the engine really implements (they
    may pass on it), `why` says why those and no others."""

    name: str
    does: str
    implements: frozenset[str]
    why: str
    engine: Callable[[str], object]


def _still(game: Callable[[Setup], object], caps: frozenset[Capability] = ALL_CAPABILITIES):
    return lambda name: DegenerateEngine(name, game, caps)


def _rules(rules: type[Rules]) -> Callable[[str], object]:
    return lambda name: ReferenceEngine(name=name, rules=rules)


#: Rules about how a permanent that is phased out is treated (702.26b and
#: the rulings that spell it out; 702.26k, it leaves the game with its
#: owner), which an engine that never phases anything still implements for
#: what the setup shows phased out.
PHASED_OUT_IS_NONEXISTENT = frozenset({"702.26b", "R2017-nonexistent", "702.26e", "702.26k"})
#: Rules no phasing takes part in: entering (110.5), state-based actions on
#: attachments and when they are checked (704.3, 704.5m, 704.5n) and players
#: leaving (800.4a, 800.4c, 800.4m), which the reference's own code plays for
#: these engines.
NOT_ABOUT_PHASING = frozenset({"110.5", "704.3", "704.5m", "704.5n", "800.4a", "800.4c", "800.4m"})

#: Rules whose every case is about phasing out: attachments go with their
#: host (702.26g, h), phasing out once (702.26p) and not in a skipped untap
#: step (702.26m), leaving combat (506.4) and the attacker a blocker that
#: phased out blocked staying blocked (509.1h), a spell's target phasing out
#: (R2017-targets), "for as long as" effects ending as X phases out or never
#: starting while it is out (702.26f, R2017-for-as-long-as, 611.2b), and
#: "whenever this phases out" triggering, looking back in time (603.10b).
PHASING_OUT = frozenset(
    {
        "702.26g",
        "702.26h",
        "702.26m",
        "702.26p",
        "506.4",
        "509.1h",
        "R2017-targets",
        "702.26f",
        "R2017-for-as-long-as",
        "611.2b",
        "603.10b",
    }
)

DEGENERATES: dict[str, Degenerate] = {
    d.name: d
    for d in (
        Degenerate(
            "inert",
            "starts the position correctly (the reference's start), then refuses every action",
            frozenset(),
            "it plays nothing",
            _still(inert_game),
        ),
        Degenerate(
            "inert-bare",
            "inert, declaring no capability",
            frozenset(),
            "it plays nothing",
            _still(inert_game, frozenset()),
        ),
        Degenerate(
            "echo",
            'shows the setup for every action, refused as "not supported"',
            frozenset(),
            "it plays nothing",
            _still(echo_game),
        ),
        Degenerate(
            "frozen",
            "shows the setup for every action and claims to have carried each out",
            frozenset(),
            "it plays nothing, and says it did",
            _still(frozen_game),
        ),
        Degenerate(
            "random-refusals",
            "the reference engine, refusing each action with probability 1/4 "
            "(seeded from the setup)",
            frozenset(),
            "every rule it plays, it plays right, but refusing a legal action fails the "
            "rule the action exercises (issue 9, item 2)",
            lambda name: DegenerateEngine(name, lambda s: RandomRefusalGame(s, 0.25)),
        ),
        Degenerate(
            "untap-only",
            "passes turns and untaps, never phases anything: phasing spells resolve as no-ops",
            PHASED_OUT_IS_NONEXISTENT | NOT_ABOUT_PHASING,
            "nothing of phasing itself; what the setup shows phased out it treats as the "
            "reference does (702.26b family), and rules without phasing are the reference's",
            _rules(NoPhasing),
        ),
        Degenerate(
            "untap-only-refusing",
            "passes turns and untaps, never phases anything: phasing spells are refused",
            PHASED_OUT_IS_NONEXISTENT | NOT_ABOUT_PHASING,
            "as untap-only",
            _rules(NoPhasingRefused),
        ),
        Degenerate(
            "never-phases-in",
            "phases permanents out as the reference does and never phases anything in",
            PHASED_OUT_IS_NONEXISTENT | NOT_ABOUT_PHASING | PHASING_OUT | TEFERI_RULINGS,
            "everything about phasing out, nothing about phasing in; Teferi's Protection's "
            "protection and life lock (the reference's code)",
            _rules(NeverPhasesIn),
        ),
    )
}


def degenerate_engine(name: str) -> object:
    """The degenerate engine `name` (without the `degenerate:` prefix)."""
    from adapters.discovery import EngineNotFound

    if name not in DEGENERATES:
        known = ", ".join(DEGENERATES)
        raise EngineNotFound(f"no degenerate engine named {name!r}; degenerate engines: {known}")
    return DEGENERATES[name].engine(PREFIX + name)
