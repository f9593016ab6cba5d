"""The stateful comparison with the reference engine: it can fail, says
where and how the engine differs, keeps its minimal scenario, and replays it
(conformance.differential, `phasecert replay`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance.checking import profile
from conformance.cli import main
from conformance.codec import dumps, from_data
from conformance.differential import COMPARISON, differences, first_disagreement, run_agreement
from conformance.observation import Event, Observation, PermanentView
from conformance.running import play
from conformance.scenario import Scenario

#: Untaps its phased-out permanents too (502.1): any board with a tapped
#: phased-out permanent of the untapping player shows it.
MUTANT = "phased-out-untap"


def test_differences_name_the_fields_that_differ() -> None:
    out = PermanentView("p1", "battlefield", phased_out=True)
    base = Observation(turn=2, active=1, players=(), permanents=(out,))
    tapped = Observation(
        turn=2,
        active=1,
        players=(),
        permanents=(PermanentView("p1", "battlefield", True, tapped=True),),
    )
    assert differences(tapped, base) == ["p1 tapped: reference True, engine False"]
    assert differences(base, Observation(turn=2, active=1, players=(), permanents=())) == [
        "p1: missing from the engine's observation"
    ]


def test_reference_agrees_with_itself() -> None:
    result = run_agreement(ReferenceEngine(), using=profile("dev"), timeout=10)
    assert (result.property, result.status, result.counterexample) == (COMPARISON, "pass", None)
    assert result.examples > 0


def test_a_mutant_disagrees_with_a_scenario_that_replays() -> None:
    engine = mutant_engine(MUTANT)
    result = run_agreement(engine, using=profile("ci"), timeout=10)
    assert result.status == "fail" and result.counterexample is not None
    assert result.message.startswith("after action ")
    assert "tapped: reference True, engine False" in result.message
    scenario = from_data(Scenario, result.counterexample)
    assert len(scenario.actions) <= 3
    found = first_disagreement(play(ReferenceEngine(), scenario), play(engine, scenario))
    assert found == result.message

    replayed = run_agreement(engine, using=profile("ci"), timeout=10, replay=(scenario,))
    assert (replayed.status, replayed.examples) == ("fail", 1)
    assert replayed.counterexample == result.counterexample


def test_replay_shows_the_disagreement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = mutant_engine(MUTANT)
    result = run_agreement(engine, using=profile("ci"), timeout=10)
    stored = tmp_path / f"{COMPARISON}.0123456789ab.json"
    stored.write_text(dumps(from_data(Scenario, result.counterexample)))
    assert main(["replay", str(stored), "--engine", f"mutant:{MUTANT}"]) == 1
    out = capsys.readouterr().out
    assert f"{COMPARISON}: DISAGREES {result.message}" in out
    assert main(["replay", str(stored), "--engine", "reference"]) == 0
    assert f"{COMPARISON}: agrees with the reference engine now" in capsys.readouterr().out


def test_events_differ_as_multisets() -> None:
    def with_events(*events: Event) -> Observation:
        return Observation(turn=1, active=0, players=(), permanents=(), events=events)

    out, back = Event("phased_out", "p1", "direct"), Event("phased_in", "p2")
    assert differences(with_events(out, back), with_events(back, out)) == []
    assert differences(with_events(out, out), with_events(out, back)) == [
        "events: reference only phased_out p1 direct; engine only phased_in p2"
    ]
