"""A scenario: a starting position and the actions played from it."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.actions import Action, GainControl, action_needs
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
            if self._anchor_of_another(action):
                need.add(Capability.CONTROL_AS_LONG_AS_OTHER)
        return frozenset(need)

    def _anchor_of_another(self, action: Action) -> bool:
        """A "for as long as you control X" whose X its caster didn't control
        at the start (611.2b: the duration may never start). Judged on the
        setup alone: an X the caster lost or phased out later is the
        adapter's to refuse as inexpressible, as it plays the action."""
        if not isinstance(action, GainControl) or action.duration.of is None:
            return False
        start = {p.id: p.controller for p in self.setup.permanents}
        return start.get(action.duration.of) != action.player
