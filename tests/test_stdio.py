"""Engines in their own process (adapters/stdio.py, `phasecert serve`): the
same verdicts as in process, and a faulty engine process costs one
engine-error verdict with its stderr, never the run."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from adapters.discovery import EngineNotFound, load_engine
from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from adapters.stdio import VALIDATE_ENV, Connection, EngineProcessError, connection_of
from conformance import actions as a
from conformance.checking import profile, run_property
from conformance.cli.serving import serve
from conformance.properties import REGISTRY
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

ROOT = Path(__file__).resolve().parents[1]
FAULTY = Path(__file__).with_name("engines") / "faulty.py"
SERVE = f"{shlex.quote(sys.executable)} -m conformance.cli serve --engine"
SCENARIO = Scenario(
    Setup(permanents=(Permanent("p1", phasing=1, power=1, toughness=1),)),
    (a.PassTurn(), a.PassTurn(), a.PassTurn()),
)
#: Two properties, each with a mutant it fails, for in-process vs stdio
#: (the whole suite under ci: tests/test_stdio_suite.py, opt-in).
SAMPLE = {
    "untap_step_phases_out_and_in_at_once": "sequential-phasing",
    "phased_out_permanents_cannot_be_targeted": "targets-phased-out",
}


def connection_file(tmp_path: Path, *command: str, timeout: float = 3.0) -> str:
    path = tmp_path / "engine.json"
    connection = {"command": list(command), "cwd": str(ROOT), "timeout": timeout, "memory_mb": 512}
    path.write_text(json.dumps(connection))
    return f"stdio:@{path}"


def test_connection_specs(tmp_path: Path) -> None:
    assert connection_of("stdio:node engine.mjs --fast") == Connection(
        ("node", "engine.mjs", "--fast")
    )
    spec = connection_file(tmp_path, "node", "e.mjs")
    assert connection_of(spec) == Connection(("node", "e.mjs"), str(ROOT), 3.0, 512)
    for bad, says in [
        ("stdio:", "names no command"),
        ("stdio:'unclosed", "No closing quotation"),
        (f"stdio:@{tmp_path / 'absent.json'}", "No such file"),
    ]:
        with pytest.raises(ValueError, match=says):
            connection_of(bad)
    (tmp_path / "bad.json").write_text('{"command": ["x"], "timeout": -1}')
    with pytest.raises(ValueError, match="timeout must be"):
        connection_of(f"stdio:@{tmp_path / 'bad.json'}")
    (tmp_path / "typo.json").write_text('{"comand": ["x"]}')
    with pytest.raises(ValueError, match="unknown field"):
        connection_of(f"stdio:@{tmp_path / 'typo.json'}")


def test_an_engine_that_does_not_start_is_a_load_error() -> None:
    with pytest.raises(EngineNotFound, match="can't run no-such-engine-binary"):
        load_engine("stdio:no-such-engine-binary")
    with pytest.raises(EngineNotFound, match="exited with code 4"):
        load_engine(f"stdio:{shlex.quote(sys.executable)} -c 'import sys; sys.exit(4)'")
    with pytest.raises(EngineNotFound, match="hello: not a JSON object: '1'"):
        load_engine(f"stdio:{shlex.quote(sys.executable)} -c 'print(1)'")


def test_served_reference_plays_like_the_reference() -> None:
    engine = load_engine(f"stdio:{SERVE} reference")
    try:
        assert (engine.name, engine.capabilities) == ("reference", ReferenceEngine().capabilities)
        assert not engine.wants_actions
        assert play(engine, SCENARIO) == play(ReferenceEngine(), SCENARIO)
    finally:
        engine.close()


def test_an_engine_that_wants_the_actions_gets_them_with_start(tmp_path: Path) -> None:
    """Its `hello` says `wants_actions`; every `start` then carries the
    scenario's actions (docs/protocol.md), which it checks each `perform`
    against."""
    path = tmp_path / "engine.json"
    command = [sys.executable, "-m", "conformance.cli", "serve", "--engine"]
    connection = {
        "command": [*command, "forecasting:ForecastingEngine"],
        "cwd": str(FAULTY.parent),
        "timeout": 10.0,
    }
    path.write_text(json.dumps(connection))
    engine = load_engine(f"stdio:@{path}")
    try:
        assert engine.wants_actions
        assert play(engine, SCENARIO) == play(ReferenceEngine(), SCENARIO)
    finally:
        engine.close()


# Shrinking sequential-phasing's counterexample through the pipe takes
# minutes: that one is in the thorough tier.
@pytest.mark.parametrize(
    "prop",
    [
        pytest.param(p, marks=pytest.mark.thorough if p.startswith("untap_step") else ())
        for p in sorted(SAMPLE)
    ],
)
def test_same_verdicts_in_process_and_through_serve(prop: str) -> None:
    using = settings(profile("ci"), max_examples=15)
    for in_process, spec in [
        (ReferenceEngine(), "reference"),
        (mutant_engine(SAMPLE[prop]), f"mutant:{SAMPLE[prop]}"),
    ]:
        served = load_engine(f"stdio:{SERVE} {spec}")
        try:
            inside = run_property(REGISTRY[prop], in_process, using=using)
            outside = run_property(REGISTRY[prop], served, using=using)
        finally:
            served.close()
        assert (outside.status, outside.examples, outside.message, outside.counterexample) == (
            inside.status,
            inside.examples,
            inside.message,
            inside.counterexample,
        )


FAULTS = {
    "crash": "exited with code 3",
    "hang": "no answer within 3 s",
    "garbage": "not a JSON line",
    "partial": "partial line",
    "wrong-id": "answered request",
    "twice": "answered request",
    "child-stdout": "not a JSON line",
    "huge-memory": "exited with code",
    "bad-field": "$.observation.permanents[0].zone: expected one of",
}


def timeout_for(fault: str) -> float:
    """Seconds a request may take: 3, so a hang is quick to see; filling the
    engine's 512 MB can take longer on a loaded machine."""
    return 20.0 if fault == "huge-memory" else 3.0


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_faulty_engine_process_is_one_engine_error(fault: str, tmp_path: Path) -> None:
    engine = load_engine(
        connection_file(tmp_path, sys.executable, str(FAULTY), fault, timeout=timeout_for(fault))
    )
    try:
        prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
        result = run_property(prop, engine, replay=(SCENARIO,), using=profile("dev"))
        assert result.status == "engine-error"
        assert FAULTS[fault] in result.message
        assert f"faulty engine: committing {fault}" in result.message  # its stderr
        # The run goes on: the next game runs in a fresh process.
        assert play(engine, Scenario(SCENARIO.setup, SCENARIO.actions[:1])).steps
    finally:
        engine.close()


def test_an_engine_that_exits_on_stop_without_answering_is_a_warning(tmp_path: Path) -> None:
    engine = load_engine(connection_file(tmp_path, sys.executable, str(FAULTY), "silent-stop"))
    play(engine, SCENARIO)
    with pytest.warns(UserWarning, match="did not stop cleanly: stop: the engine process exited"):
        engine.close()


def test_validate_protocol_names_the_field_against_the_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VALIDATE_ENV, "1")
    engine = load_engine(connection_file(tmp_path, sys.executable, str(FAULTY), "bad-field"))
    try:
        with pytest.raises(EngineProcessError) as e:
            play_raw(engine)
    finally:
        engine.close()
    assert "ObservationReply breaks the schema at $.observation.permanents[0].zone" in str(e.value)


def play_raw(engine: object) -> None:
    """Play SCENARIO without the suite's guard, to see the adapter's own error."""
    game = engine.start(SCENARIO.setup)  # type: ignore[attr-defined]
    for action in SCENARIO.actions:
        game.perform(action)


def test_certify_isolate_gives_the_in_process_verdicts(tmp_path: Path) -> None:
    def certify(*extra: str) -> dict[str, str]:
        out = tmp_path / ("isolated" if extra else "inside")
        # A mutant's failing rule costs minutes of shrinking through stdio;
        # failures and counterexamples are compared in the test above.
        command = ["certify", "--engine", "mutant:phased-out-untap", "--rule", "702.26p"]
        command += ["--profile", "dev", "--seed", "3", "--out", str(out), *extra]
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli", *command],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads((out / "report.json").read_text())
        return {p["name"]: (p["status"], p["message"]) for p in report["properties"]}

    assert certify("--isolate", "--validate-protocol") == certify()


def test_serve_answers_a_line_that_is_not_utf8_and_goes_on() -> None:
    replies = io.StringIO()
    serve("reference", [b"\xff\xfe\n", b'{"cmd":"stop","id":2}\n'], replies)
    first, second = (json.loads(line) for line in replies.getvalue().splitlines())
    assert first["error"].startswith("bad request: not a JSON line")
    assert second == {"id": 2, "stopped": True}
