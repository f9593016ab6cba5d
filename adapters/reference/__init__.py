"""The reference engine: a pure-Python implementation of today's phasing
rules (CR 702.26 and the 2017 rulings), written for clarity. It is the oracle
the suite is checked against and the engine that runs when none is named."""

from __future__ import annotations

from dataclasses import dataclass, field

from adapters.reference.game import ReferenceGame
from adapters.reference.rules import Rules
from conformance import __version__
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.setup import Setup


@dataclass(frozen=True)
class ReferenceEngine:
    """Implements `adapters.protocol.Engine`; `rules` is swapped by mutants."""

    name: str = "reference"
    version: str = __version__
    capabilities: frozenset[Capability] = ALL_CAPABILITIES
    rules: type[Rules] = field(default=Rules, repr=False)

    def start(self, setup: Setup) -> ReferenceGame:
        return ReferenceGame(setup, self.rules)


__all__ = ["ReferenceEngine", "ReferenceGame", "Rules"]
