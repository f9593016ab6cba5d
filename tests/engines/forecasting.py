"""An engine that wants its scenario's actions as each game starts
(`start_scenario`, adapters.protocol): it plays the reference engine, and
fails on an action it wasn't told would come, so a test served with
`phasecert serve` sees whether the actions crossed the protocol."""

from __future__ import annotations

from typing import Any

from adapters.reference import ReferenceEngine
from conformance.actions import Action
from conformance.observation import Observation
from conformance.scenario import Scenario
from conformance.setup import Setup


class ForecastingEngine:
    name = "forecasting"
    version = "1"

    def __init__(self) -> None:
        self._reference = ReferenceEngine()
        self.capabilities = self._reference.capabilities

    def start(self, setup: Setup) -> Any:
        raise RuntimeError("started without the actions to come")

    def start_scenario(self, scenario: Scenario) -> ForecastGame:
        return ForecastGame(self._reference.start(scenario.setup), list(scenario.actions))


class ForecastGame:
    def __init__(self, game: Any, actions: list[Action]) -> None:
        self.game = game
        self.actions = actions

    def observe(self) -> Observation:
        return self.game.observe()  # type: ignore[no-any-return]

    def perform(self, action: Action) -> Observation:
        forecast = self.actions.pop(0) if self.actions else None
        if action != forecast:
            raise RuntimeError(f"{action} was not forecast (the next forecast: {forecast})")
        return self.game.perform(action)  # type: ignore[no-any-return]
