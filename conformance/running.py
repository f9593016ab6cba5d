"""Running a scenario through an engine, guarding the suite against the engine.

An engine that raises, returns a malformed observation, or hangs is turned
into an `EngineError` carrying its message, so the property reports an
engine error and the rest of the run goes on.
"""

from __future__ import annotations

import copy
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from adapters.protocol import Inexpressible, start_game
from conformance.actions import Action
from conformance.codec import DecodeError, from_data, to_data
from conformance.escaping import cut
from conformance.observation import Observation
from conformance.position import start_problems
from conformance.scenario import Scenario

T = TypeVar("T")

#: Seconds one engine call may take before the engine counts as hung.
DEFAULT_TIMEOUT = 30.0


class EngineError(Exception):
    """The engine under test failed to play: it raised, hung, or answered
    with something that is not an `Observation`."""


class SetupMismatch(EngineError):
    """The engine's first observation is not the position of the setup: the
    adapter set it up wrong, and no rule was tested."""


@dataclass(frozen=True)
class Step:
    """One action and the observations around it."""

    action: Action
    before: Observation
    after: Observation


@dataclass(frozen=True)
class Trace:
    """Everything an engine showed while playing a scenario."""

    scenario: Scenario
    initial: Observation
    steps: tuple[Step, ...]


#: Engines that hung once in this process: later calls fail at once rather
#: than waiting out the timeout again on every shrink step.
_hung: set[str] = set()


class _Worker:
    """A daemon thread that plays one engine's calls for one caller, one at a
    time. Starting a thread per call was most of the runner's own cost per
    scenario; a worker whose call hangs is abandoned with its engine."""

    def __init__(self, engine_name: str) -> None:
        self.pid = os.getpid()
        self.jobs: queue.SimpleQueue[tuple[Callable[[], Any], dict[str, Any], threading.Event]]
        self.jobs = queue.SimpleQueue()
        self.thread = threading.Thread(
            target=self._serve, daemon=True, name=f"engine:{engine_name}"
        )
        self.thread.start()

    def _serve(self) -> None:
        while True:
            fn, box, done = self.jobs.get()
            try:
                box["value"] = fn()
            except BaseException as e:  # the engine's failure, whatever it is
                box["error"] = e
            done.set()
            del fn, box, done  # the engine's game is not kept alive here

    @property
    def usable(self) -> bool:
        """Not inherited through a fork (the thread stayed in the parent)."""
        return self.pid == os.getpid() and self.thread.is_alive()


_workers: dict[tuple[str, int], _Worker] = {}


def call_engine(engine_name: str, what: str, fn: Callable[[], T], timeout: float) -> T:
    """Run `fn` in a worker thread; wrap its failure or silence as EngineError."""
    if engine_name in _hung:
        raise EngineError(f"{engine_name} hung earlier in this run; not called again ({what})")
    key = (engine_name, threading.get_ident())
    worker = _workers.get(key)
    if worker is None or not worker.usable:
        worker = _workers[key] = _Worker(engine_name)
    box: dict[str, Any] = {}
    done = threading.Event()
    worker.jobs.put((fn, box, done))
    if not done.wait(timeout):
        _hung.add(engine_name)
        del _workers[key]
        raise EngineError(f"{engine_name} hung: no answer to {what} within {timeout:g} s")
    if "error" in box:
        e = box["error"]
        if isinstance(e, Inexpressible):
            raise e
        said = cut(str(e))
        raise EngineError(f"{engine_name} raised {type(e).__name__} on {what}: {said}") from e
    return box["value"]


def checked_observation(engine_name: str, what: str, value: object) -> Observation:
    """The observation, if it is one with well-formed fields."""
    if not isinstance(value, Observation):
        raise EngineError(
            f"{engine_name} returned {type(value).__name__} instead of an Observation on {what}"
        )
    try:
        from_data(Observation, to_data(value))
    except (DecodeError, TypeError) as e:
        raise EngineError(f"{engine_name} returned a malformed observation on {what}: {e}") from e
    return value


def shape_problem(observation: Observation, players: int) -> str | None:
    """What makes `observation` impossible for a game of `players` players,
    whatever the rules: the players shown are not those of the game, or two
    permanents share an id."""
    shown = [p.index for p in observation.players]
    if shown != list(range(players)):
        return f"it shows players {shown}, the game has players {list(range(players))}"
    ids = [p.id for p in observation.permanents]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        return f"it shows two permanents with the id {twice[0]!r}"
    return None


def _shaped(engine_name: str, what: str, observation: Observation, players: int) -> Observation:
    problem = shape_problem(observation, players)
    if problem:
        raise EngineError(f"{engine_name} returned an impossible observation on {what}: {problem}")
    return observation


def play(engine: Any, scenario: Scenario, timeout: float = DEFAULT_TIMEOUT) -> Trace:
    """Start `scenario.setup` on `engine` (`start_game`: knowing the actions,
    if the engine wants them) and play every action, observing after each;
    the engine does all the playing. It gets copies of the setup and
    actions: one that edits them can't change the scenario on record."""
    name = str(getattr(engine, "name", type(engine).__name__))
    players = scenario.setup.players

    def start() -> tuple[Any, Observation]:
        game = start_game(engine, copy.deepcopy(scenario))
        return game, game.observe()

    game, first = call_engine(name, "start", start, timeout)
    before = _shaped(name, "start", checked_observation(name, "start", first), players)
    problems = start_problems(scenario.setup, before)
    if problems:
        raise SetupMismatch(
            "the adapter did not set up the position (no rule was tested): "
            + cut("; ".join(problems))
        )
    steps = []
    for i, action in enumerate(scenario.actions):
        what = f"action {i} ({type(action).__name__})"
        mine = copy.deepcopy(action)
        answer = call_engine(name, what, lambda a=mine: game.perform(a), timeout)
        after = _shaped(name, what, checked_observation(name, what, answer), players)
        steps.append(Step(action, before, after))
        before = after
    return Trace(scenario, steps[0].before if steps else before, tuple(steps))
