"""A broken adapter is reported as an engine error, never a crash of the
suite: one that raises, one that answers garbage, one that hangs."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.checking import profile, run_property
from conformance.properties import REGISTRY
from conformance.running import EngineError, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

SCENARIO = Scenario(
    Setup(permanents=(Permanent("p1", phasing=1, power=1, toughness=1),)), (a.PassTurn(),)
)


@dataclass
class BrokenEngine:
    """The reference engine, except that `perform` misbehaves as told."""

    behaviour: str
    name: str = "broken"
    version: str = "0"
    capabilities: frozenset[Capability] = field(default=ALL_CAPABILITIES)

    def start(self, setup: Setup) -> Any:
        game = ReferenceEngine().start(setup)
        behaviour = self.behaviour

        class Game:
            def observe(self) -> Any:
                return game.observe()

            def perform(self, action: a.Action) -> Any:
                if behaviour == "raises":
                    raise KeyError("no such card: p1")
                if behaviour == "garbage":
                    return {"permanents": "lots"}
                if behaviour == "malformed":
                    obs = game.perform(action)
                    return type(obs)(obs.turn, obs.active, obs.players, ("p1",))  # type: ignore[arg-type]
                time.sleep(60)
                return None

        return Game()


def test_an_engine_that_raises_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match=r"broken raised KeyError on action 0 \(PassTurn\)"):
        play(BrokenEngine("raises"), SCENARIO)


@pytest.mark.parametrize("behaviour", ["garbage", "malformed"])
def test_an_engine_that_answers_garbage_is_an_engine_error(behaviour: str) -> None:
    with pytest.raises(EngineError, match=r"instead of an Observation|malformed observation"):
        play(BrokenEngine(behaviour), SCENARIO)


def test_an_engine_that_hangs_is_an_engine_error_and_not_waited_for_twice() -> None:
    engine = BrokenEngine("hangs", name="sleepy")
    started = time.monotonic()
    with pytest.raises(EngineError, match="sleepy hung: no answer to action 0"):
        play(engine, SCENARIO, timeout=0.5)
    with pytest.raises(EngineError, match="hung earlier in this run"):
        play(engine, SCENARIO, timeout=0.5)
    assert time.monotonic() - started < 30  # not 2 × 60 s of sleep


def test_a_property_reports_the_engine_error_and_the_run_goes_on() -> None:
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    result = run_property(prop, BrokenEngine("raises", name="raiser"), using=profile("dev"))
    assert result.status == "engine-error"
    assert "raiser raised KeyError" in result.message
    assert result.counterexample is not None


@pytest.mark.thorough
def test_pytest_reports_engine_errors_and_carries_on(tmp_path: Any) -> None:
    module = tmp_path / "brokenadapter.py"
    module.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(__file__.rsplit('/', 1)[0])!r})\n"
        "from test_engine_errors import BrokenEngine\n"
        "def make():\n"
        "    return BrokenEngine('raises')\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--pyargs",
            "conformance.suite",
            "--engine",
            "brokenadapter:make",
            "--rule",
            "702.26a",
            "--phasecert-profile",
            "dev",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    out = done.stdout + done.stderr
    assert "engine-error" in out and "broken raised KeyError" in out, out
    assert "failed" in out and "Traceback" not in out, out
