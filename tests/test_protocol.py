"""An adapter's optional parts (adapters.protocol): its `missing` mapping,
why it lacks a capability, checked when the engine is loaded; and its
`start_scenario`, which the runner starts a game with if it is there."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from adapters.discovery import EngineNotFound, load_engine
from adapters.protocol import missing_capabilities
from adapters.reference import ReferenceEngine
from conformance.actions import PassTurn, PhaseOut
from conformance.capabilities import Capability
from conformance.checking import run_property
from conformance.properties import REGISTRY
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

ADAPTER = """
from adapters.reference import ReferenceEngine
from conformance.capabilities import Capability


class Engine:
    name = "partial"
    version = "1"
    capabilities = ReferenceEngine().capabilities - {{Capability.TOKENS}}
    missing = {missing}

    def start(self, setup):
        return ReferenceEngine().start(setup)
"""


def adapter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, missing: str) -> str:
    (tmp_path / f"{name}.py").write_text(ADAPTER.format(missing=missing))
    monkeypatch.syspath_prepend(str(tmp_path))
    return f"{name}:Engine"


def test_reasons_reach_not_applicable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_engine(adapter(tmp_path, monkeypatch, "partial_ok", '{"tokens": "no tokens"}'))
    assert missing_capabilities(engine) == {Capability.TOKENS: "no tokens"}
    needing = next(p for p in REGISTRY.values() if Capability.TOKENS in p.needs)
    result = run_property(needing, engine)
    assert result.status == "not-applicable"
    assert result.message == "not applicable: needs tokens (no tokens)"


def test_a_reason_for_a_capability_it_has_is_ignored() -> None:
    engine = SimpleNamespace(capabilities={Capability.TOKENS}, missing={"tokens": "stale note"})
    assert missing_capabilities(engine) == {}


@pytest.mark.parametrize(
    ("module", "missing", "message"),
    [
        ("partial_bad_key", '{"tokenz": "typo"}', "`missing` names 'tokenz', not a capability"),
        ("partial_bad_reason", '{"tokens": 3}', "`missing['tokens']` must be a reason"),
        ("partial_bad_type", '["tokens"]', "`missing` must map capabilities to reasons"),
    ],
)
def test_malformed_missing_is_named_when_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, missing: str, message: str
) -> None:
    with pytest.raises(EngineNotFound, match="can't be loaded") as error:
        load_engine(adapter(tmp_path, monkeypatch, module, missing))
    assert message in str(error.value)


class _ForecastingEngine:
    """The reference engine, with `start_scenario`: records what it was given."""

    def __init__(self) -> None:
        self.reference = ReferenceEngine()
        self.name, self.version = "forecasting", "1"
        self.capabilities = self.reference.capabilities
        self.given: list[Scenario] = []

    def start(self, setup: Setup) -> Any:
        raise AssertionError("an engine with start_scenario is started by it")

    def start_scenario(self, scenario: Scenario) -> Any:
        self.given.append(scenario)
        return self.reference.start(scenario.setup)


def test_an_engine_is_started_for_its_actions_if_it_asks() -> None:
    engine = _ForecastingEngine()
    scenario = Scenario(
        Setup(permanents=(Permanent("p", power=1, toughness=1),)),
        (PhaseOut(0, ("p",)), PassTurn()),
    )
    trace = play(engine, scenario)
    assert engine.given == [scenario]
    assert engine.given[0] is not scenario  # a copy: editing it changes nothing on record
    assert trace.steps[-1].after == play(ReferenceEngine(), scenario).steps[-1].after
