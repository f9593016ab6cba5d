"""Running a scenario through an engine, guarding the suite against the engine.

An engine that raises, returns a malformed observation, or hangs is turned
into an `EngineError` carrying its message, so the property reports an
engine error and the rest of the run goes on.
"""

from __future__ import annotations

import os
import pickle
import queue
import threading
import time
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
from conformance.well_formed import is_well_formed

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
    """A daemon thread that runs one engine's jobs for one caller, one at a
    time. Starting a thread per call was most of the runner's own cost per
    scenario, and handing each call over and back still cost about 0.2 ms
    (two thread switches), so a whole scenario is one job; a worker whose
    call hangs is abandoned with its engine."""

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
            job, box, done = self.jobs.get()
            try:
                box["value"] = job()
            except BaseException as e:  # raised as it is in the caller's thread
                box["error"] = e
            done.set()
            del job, box, done  # the engine's game is not kept alive here

    @property
    def usable(self) -> bool:
        """Not inherited through a fork (the thread stayed in the parent)."""
        return self.pid == os.getpid() and self.thread.is_alive()


_workers: dict[tuple[str, int], _Worker] = {}


class _Calls:
    """Makes a job's engine calls in the worker, wrapping each failure as an
    `EngineError` naming the call, and shows the caller's watchdog which
    call is under way and since when."""

    def __init__(self, engine_name: str) -> None:
        self.engine_name = engine_name
        self.under_way: tuple[str, float] | None = None

    def __call__(self, what: str, fn: Callable[[], T]) -> T:
        self.under_way = (what, time.monotonic())
        try:
            return fn()
        except Inexpressible:
            raise
        except BaseException as e:  # the engine's failure, whatever it is
            said = cut(str(e))
            raise EngineError(
                f"{self.engine_name} raised {type(e).__name__} on {what}: {said}"
            ) from e
        finally:
            self.under_way = None


def _in_worker(engine_name: str, what: str, job: Callable[[_Calls], T], timeout: float) -> T:
    """Run `job` in the engine's worker thread, each engine call through the
    `_Calls` it is given; an engine call that takes over `timeout` seconds
    ends the wait (the engine counts as hung)."""
    if engine_name in _hung:
        raise EngineError(f"{engine_name} hung earlier in this run; not called again ({what})")
    key = (engine_name, threading.get_ident())
    worker = _workers.get(key)
    if worker is None or not worker.usable:
        worker = _workers[key] = _Worker(engine_name)
    calls = _Calls(engine_name)
    box: dict[str, Any] = {}
    done = threading.Event()
    worker.jobs.put((lambda: job(calls), box, done))
    while True:
        under_way = calls.under_way
        left = timeout if under_way is None else under_way[1] + timeout - time.monotonic()
        if left <= 0 and under_way is not None:
            _hung.add(engine_name)
            del _workers[key]
            raise EngineError(
                f"{engine_name} hung: no answer to {under_way[0]} within {timeout:g} s"
            )
        if done.wait(max(left, 0.0)):
            break
    if "error" in box:
        raise box["error"]
    return box["value"]


def call_engine(engine_name: str, what: str, fn: Callable[[], T], timeout: float) -> T:
    """Run `fn` in a worker thread; wrap its failure or silence as EngineError."""
    return _in_worker(engine_name, what, lambda call: call(what, fn), timeout)


def checked_observation(engine_name: str, what: str, value: object) -> Observation:
    """The observation, if it is one with well-formed fields: read in place
    where every field is exactly as declared (`is_well_formed`), otherwise
    encoded and decoded again, which accepts it or names the bad field."""
    if not isinstance(value, Observation):
        raise EngineError(
            f"{engine_name} returned {type(value).__name__} instead of an Observation on {what}"
        )
    if is_well_formed(Observation, value):
        return value
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
    return _in_worker(name, "start", lambda call: _played(engine, scenario, name, call), timeout)


def _copy_of(value: T) -> T:
    """A deep copy of a vocabulary value: pickled and unpickled, which for
    these dataclasses is twice as fast as `copy.deepcopy`."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _played(engine: Any, scenario: Scenario, name: str, call: _Calls) -> Trace:
    """`play`'s work, in the engine's worker thread."""
    players = scenario.setup.players

    def start() -> tuple[Any, Observation]:
        game = start_game(engine, _copy_of(scenario))
        return game, game.observe()

    game, first = call("start", start)
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
        mine = _copy_of(action)
        answer = call(what, lambda a=mine: game.perform(a))
        after = _shaped(name, what, checked_observation(name, what, answer), players)
        steps.append(Step(action, before, after))
        before = after
    return Trace(scenario, steps[0].before if steps else before, tuple(steps))
