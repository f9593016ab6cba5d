"""Mutant engines: the reference engine with one realistic bug each.

A property that no mutant can fail cannot be shown to detect anything; the
meta-tests (tests/test_mutants.py) check that the suite passes on the
reference engine and that each mutant here fails the properties it names in
`kills`, with a shrunk counterexample. Each mutant overrides one rule method
of `adapters.reference.Rules` (or of an older edition's rules, for the rules
where that edition differs: it then plays only that `edition`); modules
group them like the properties.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adapters.reference import ReferenceEngine, Rules
from conformance.catalog import Edition


@dataclass(frozen=True)
class Mutant:
    name: str
    breaks: str  # the rule ID it breaks
    bug: str  # what the engine gets wrong, in a sentence
    kills: tuple[str, ...]  # properties that must fail on it
    rules: type[Rules]
    edition: Edition = "current"  # the edition of the rules it plays, wrongly


MUTANTS: dict[str, Mutant] = {}


def mutant(
    name: str, breaks: str, bug: str, kills: tuple[str, ...], edition: Edition = "current"
) -> Callable[[type[Rules]], type[Rules]]:
    """Register a `Rules` subclass as the mutant engine `mutant:name`, which
    plays `edition` (its rules are a subclass of that edition's)."""

    def register(cls: type[Rules]) -> type[Rules]:
        if name in MUTANTS:
            raise ValueError(f"mutant {name} is registered twice")
        MUTANTS[name] = Mutant(name, breaks, bug, kills, cls, edition)
        return cls

    return register


def mutant_engine(name: str) -> ReferenceEngine:
    from adapters.discovery import EngineNotFound

    if name not in MUTANTS:
        raise EngineNotFound(f"no mutant named {name!r}; mutants: {', '.join(MUTANTS)}")
    m = MUTANTS[name]
    return ReferenceEngine(
        name=f"mutant:{name}", rules=m.rules, edition=m.edition, editions=frozenset({m.edition})
    )


# Registration happens on import; these modules use `mutant` above.
from adapters.mutants import (  # noqa: E402, F401
    attachments,
    bookkeeping,
    durations,
    editions,
    existence,
    identity,
    in_play,
    life,
    multiplayer,
    protection,
    traversal,
    untap,
)
