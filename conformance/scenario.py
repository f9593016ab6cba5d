"""A scenario: a starting position and the actions played from it."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.actions import Action, action_needs
from conformance.capabilities import Capability
from conformance.setup import Setup


@dataclass(frozen=True)
class Scenario:
    setup: Setup
    actions: tuple[Action, ...] = ()

    def capabilities(self) -> frozenset[Capability]:
        """What an engine must support to play this scenario."""
        need = set(self.setup.capabilities())
        for action in self.actions:
            need |= action_needs(action)
        return frozenset(need)
