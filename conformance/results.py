"""The result of checking one property against one engine.

The pytest plugin records one `PropertyResult` per property it runs; the
certification reports (`phasecert certify`) are built from these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["pass", "fail", "not-exercised", "not-applicable", "engine-error"]

#: Every status, worst first: how a rule's status follows from its
#: properties' (the first that any of them has).
STATUSES: tuple[Status, ...] = ("fail", "engine-error", "not-exercised", "pass", "not-applicable")


@dataclass(frozen=True)
class PropertyResult:
    """`counterexample` is the shrunk scenario as JSON data (see
    conformance.codec), `message` the assertion or engine error with the rule
    ID, `missing` the capabilities the engine lacks when not applicable.

    `exercised` counts the examples whose trace showed the engine doing what
    the rule is about (the property's `exercised` predicate): a property
    passes only when enough did, else it is "not-exercised". `refusals`
    counts the actions the engine refused, over all examples.

    `further` holds the stateful comparison's minimal scenarios for its
    further kinds of difference (JSON data, in the message's order), so each
    is kept in the corpus and replayable, not only quoted in the message."""

    property: str
    rules: tuple[str, ...]
    status: Status
    examples: int = 0
    message: str = ""
    counterexample: Any = None
    missing: tuple[str, ...] = ()
    duration: float = 0.0
    exercised: int = 0
    refusals: int = 0
    further: tuple[Any, ...] = ()

    def scenarios(self) -> tuple[Any, ...]:
        """Every counterexample, the shrunk one first (JSON data)."""
        return () if self.counterexample is None else (self.counterexample, *self.further)
