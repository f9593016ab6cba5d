"""The reference engine: a pure-Python implementation of today's phasing
rules (CR 702.26 and the 2017 rulings), written for clarity, and of the
older editions (`adapters.reference.editions`). It is the oracle the suite is
checked against and the engine that runs when none is named."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from adapters.reference.editions import EDITION_RULES
from adapters.reference.game import ReferenceGame
from adapters.reference.rules import Rules
from adapters.reference.state import Card
from conformance import __version__
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.catalog import Edition
from conformance.setup import Setup


@dataclass(frozen=True)
class ReferenceEngine:
    """Implements `adapters.protocol.Engine`; `rules` is swapped by mutants.
    It plays every edition (`editions`); `with_edition` gives the engine
    playing one, whose `rules` are that edition's."""

    name: str = "reference"
    version: str = __version__
    capabilities: frozenset[Capability] = ALL_CAPABILITIES
    rules: type[Rules] = field(default=Rules, repr=False)
    edition: Edition = "current"
    editions: frozenset[Edition] = frozenset(EDITION_RULES)

    def start(self, setup: Setup) -> ReferenceGame:
        return ReferenceGame(setup, self.rules)

    def with_edition(self, edition: Edition) -> ReferenceEngine:
        """The engine playing `edition`: the reference's rules of that edition
        (a mutant declares only its own edition, and plays it already)."""
        if edition == self.edition:
            return self
        return replace(self, rules=EDITION_RULES[edition], edition=edition)


def reference_of(edition: Edition) -> ReferenceEngine:
    """The oracle of `edition`."""
    return ReferenceEngine().with_edition(edition)


def choosing_otherwise(engine: ReferenceEngine) -> ReferenceEngine:
    """`engine` whose players, offered replacement effects of different
    controllers for one event (616.1), pick one of another controller than
    `engine`'s players do: where its play parts ways with `engine`'s, the
    outcome was a player's free pick (readings M, `conformance.unsettled`)."""
    return replace(
        engine, name=f"{engine.name}, choosing otherwise", rules=_otherwise(engine.rules)
    )


@cache
def _otherwise(rules: type[Rules]) -> type[Rules]:
    class ChoosingOtherwise(rules):  # type: ignore[valid-type, misc]
        def chosen_replacement(self, sources: list[Card]) -> Card:
            first = super().chosen_replacement(sources)
            return next((c for c in sources if c.controller != first.controller), first)

    return ChoosingOtherwise


__all__ = ["ReferenceEngine", "ReferenceGame", "Rules", "choosing_otherwise", "reference_of"]
