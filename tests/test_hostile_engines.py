"""Engines that misbehave, given as `--engine module:Factory` from the
current directory (as a third-party author would): each run ends with a
verdict blamed on the right party, and the rest of the run goes on.

The engines are the reference engine with one misdeed each; they live in a
module written into the test's directory, not on the import path.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis.errors import FlakyFailure

import conformance.suite
from adapters.reference import ReferenceEngine
from conformance.cli import isolation, main
from conformance.codec import dumps, to_data
from conformance.observation import Observation
from conformance.properties import REGISTRY
from conformance.running import EngineError, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

#: Seeded, so that two runs compared draw the same examples.
FAST = ["--profile", "dev", "--seed", "0", "--rule", "502.1", "--rule", "702.26p", "--out", "out/x"]
#: The properties FAST selects: those citing either rule.
SELECTED = [n for n, p in REGISTRY.items() if {"502.1", "702.26p"} & set(p.rules)]

ENGINES = textwrap.dedent(
    '''
    import os
    from pathlib import Path

    from adapters.reference import ReferenceEngine

    MARK = Path("already-misbehaved")


    def once() -> bool:
        """True the first time in this directory."""
        if MARK.exists():
            return False
        MARK.write_text("")
        return True


    class Engine:
        name = "mtgsim"  # no entry point has this name
        version = "1.0"

        def __init__(self):
            self.reference = ReferenceEngine()
            self.capabilities = self.reference.capabilities

        def start(self, setup):
            return self.reference.start(setup)


    class ExitsOnce(Engine):
        def start(self, setup):
            if once():
                os._exit(3)
            return super().start(setup)


    class HoldsTheInterpreterOnce(Engine):
        def start(self, setup):
            if once():
                sum(range(10**12))  # one C call: the GIL is never let go
            return super().start(setup)


    class Shouts(Engine):
        def start(self, setup):
            raise RuntimeError(
                "<script>alert(1)</script> <img src=x onerror=alert(2)> | [a](javascript:b) "
                + chr(27) + "[31mred" + chr(27) + "[0m " + chr(0) + chr(7) + "x" * 100_000
            )


    class Leaks(Engine):
        kept = []

        def start(self, setup):
            self.kept.append(bytearray(200 * 2**20))
            return super().start(setup)
    '''
)


@pytest.fixture(autouse=True)
def engines_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engines module in the current directory, which is not on the
    import path (phasecert puts it there for a module:Factory engine)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hostile_engines.py").write_text(ENGINES)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "hostile_engines", raising=False)
    yield
    sys.modules.pop("hostile_engines", None)


def certify(capsys: pytest.CaptureFixture[str], engine: str, *extra: str) -> tuple[int, str, str]:
    """A dev run of two rules (one with --rule given in `extra`)."""
    selection = FAST if "--rule" not in extra else [*FAST[:4], *FAST[-2:]]
    code = main(["certify", "--engine", f"hostile_engines:{engine}", *selection, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def properties() -> dict[str, dict]:
    report = json.loads(Path("out/x/report.json").read_text())
    return {p["name"]: p for p in report["properties"]}


def test_a_module_factory_adapter_certifies_from_its_directory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A correct adapter whose name no entry point has, from its directory,
    with no PYTHONPATH, gets the reference engine's own verdicts."""
    reference = main(["certify", "--engine", "reference", *FAST[:-2], "--out", "out/reference"])
    capsys.readouterr()
    code, out, err = certify(capsys, "Engine")
    assert code == reference, out + err
    assert "no engine named" not in out + err and "mtgsim: rules" in out
    own = json.loads(Path("out/reference/report.json").read_text())["properties"]
    assert {n: p["status"] for n, p in properties().items()} == {
        p["name"]: p["status"] for p in own
    }
    assert "engine-error" not in {p["status"] for p in own}


def test_an_engine_that_exits_loses_one_property_not_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    Path("out/x").mkdir(parents=True)
    Path("out/x/report.json").write_text('{"old": "a verdict of another run"}')
    code, out, err = certify(capsys, "ExitsOnce")
    assert code == 1, out + err
    killed = [p for p in properties().values() if p["status"] == "engine-error"]
    assert len(killed) == 1 and "the engine killed the run" in killed[0]["message"]
    assert "exit code 3" in killed[0]["message"]
    assert len(properties()) == len(SELECTED)  # the others got their own verdicts


def test_an_engine_that_holds_the_interpreter_is_hung(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = certify(capsys, "HoldsTheInterpreterOnce", "--engine-timeout", "0.5")
    assert code == 1, out + err
    hung = [p for p in properties().values() if p["status"] == "engine-error"]
    assert len(hung) == 1 and "the engine hung" in hung[0]["message"]
    assert len(properties()) == len(SELECTED)  # the others got their own verdicts


def test_an_engine_that_leaks_meets_the_memory_ceiling(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = certify(capsys, "Leaks", "--engine-memory", "512", "--rule", "502.1")
    assert code == 1, out + err
    errors = [p for p in properties().values() if p["status"] == "engine-error"]
    assert errors and all("MemoryError" in p["message"] for p in errors)


def test_hostile_text_is_cut_and_escaped_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = certify(capsys, "Shouts", "--rule", "502.1", "--matrix", "out")
    assert code == 1, out + err
    assert "\x1b" not in out + err and "\x00" not in out + err
    report = Path("out/x/report.json")
    assert report.stat().st_size < 100_000
    assert all("[cut: " in p["message"] for p in properties().values())
    markdown = Path("out/x/report.md").read_text()
    assert "<script" not in markdown and "<img" not in markdown and "&lt;script&gt;" in markdown
    assert "[a](javascript" not in markdown and "\x1b" not in markdown
    ElementTree.fromstring(Path("out/x/junit.xml").read_bytes())  # parses
    for index in ("index.md", "index.html"):
        assert "<script" not in Path("out", index).read_text()


def test_replay_reports_an_engine_error_as_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    Path("untap_step_untaps_after_phasing.json").write_text(dumps(SCENARIO))
    args = ["replay", "untap_step_untaps_after_phasing.json", "--engine", "hostile_engines:Shouts"]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 1 and "ENGINE ERROR" in out and "[cut: " in out, out + err
    assert "\x1b" not in out and len(out) < 10_000


def test_infrastructure_failure_stops_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def redis_went_away(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Error 111 connecting to localhost:6379. Connection refused.")

    monkeypatch.setattr(conformance.suite, "run_property", redis_went_away)
    code, out, err = certify(capsys, "Engine")
    assert code == 2 and err.count("\n") == 1, out + err
    assert "the run stopped, no report written" in err and "not the engine's fault" in err
    assert "ConnectionError: Error 111" in err
    assert not Path("out/x/report.json").exists()


def test_stopping_a_run_stops_its_workers_too() -> None:
    """A stopped child takes its xdist workers (its process group) with it:
    none is left to play on, or to print its closed channel's traceback."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            isolation._own_process_group()
            worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            os.write(write_end, f"{worker.pid}\n".encode())
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(write_end)
    worker = int(os.read(read_end, 64))
    os.close(read_end)
    isolation._kill(pid)
    for _ in range(100):
        if not Path(f"/proc/{worker}").exists() or "Z" in _state(worker):
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"worker {worker} outlived the child")


def _state(pid: int) -> str:
    """The process's state letter (Z: a zombie, already dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def test_a_flaky_failure_is_a_short_engine_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def flaky(*args: object, **kwargs: object) -> None:
        raise FlakyFailure("Inconsistent results" + " x" * 5000, [ValueError("first")])

    monkeypatch.setattr(conformance.suite, "run_property", flaky)
    code, out, err = certify(capsys, "Engine")
    assert code == 1, out + err
    messages = [p["message"] for p in properties().values()]
    assert messages and all(m.startswith("flaky: ") and len(m) < 1000 for m in messages)
    assert all("Traceback" not in m and "\n" not in m for m in messages), messages


# -- unit level: what play() guards against -------------------------------------


SCENARIO = Scenario(Setup(permanents=(Permanent("a", power=1, toughness=1),)))


class _Twisted:
    """The reference engine, with its observations passed through `twist`."""

    def __init__(self, twist: object, mutate: bool = False) -> None:
        self.reference = ReferenceEngine()
        self.name, self.version = "twisted", "1"
        self.capabilities = self.reference.capabilities
        self.twist, self.mutate = twist, mutate

    def start(self, setup: Setup) -> object:
        game = self.reference.start(setup)
        if self.mutate:
            object.__setattr__(setup, "players", 3)
            object.__setattr__(setup, "permanents", ())
        twist = self.twist

        class Game:
            def observe(self) -> Observation:
                return twist(game.observe())  # type: ignore[operator]

            def perform(self, action: object) -> Observation:
                return twist(game.perform(action))  # type: ignore[operator]

        return Game()


def test_an_engine_editing_its_setup_does_not_change_the_scenario() -> None:
    before = to_data(SCENARIO)
    play(_Twisted(lambda o: o, mutate=True), SCENARIO)
    assert to_data(SCENARIO) == before


@pytest.mark.parametrize(
    ("twist", "message"),
    [
        (lambda o: dataclasses.replace(o, players=()), "shows players [], the game has"),
        (lambda o: dataclasses.replace(o, players=o.players[:1]), "shows players [0]"),
        (
            lambda o: dataclasses.replace(o, permanents=o.permanents * 2),
            "two permanents with the id 'a'",
        ),
    ],
)
def test_an_impossible_observation_is_an_engine_error(twist: object, message: str) -> None:
    with pytest.raises(EngineError, match="impossible observation on start") as caught:
        play(_Twisted(twist), SCENARIO)
    assert message in str(caught.value)


def test_a_huge_exception_message_is_cut() -> None:
    def explode(o: Observation) -> Observation:
        raise RuntimeError("x" * 1_000_000)

    with pytest.raises(EngineError) as caught:
        play(_Twisted(explode), SCENARIO)
    assert len(str(caught.value)) < 5000 and "[cut: " in str(caught.value)
