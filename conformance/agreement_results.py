"""What a run of the comparison with the reference engine concludes
(`conformance.differential`): its `PropertyResult` (a pass, a failure with
every kind of difference found, or an engine error) and the message that
tells the differences, the notes on those no certified rule governs last.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from conformance.catalog import CATALOG
from conformance.codec import dumps, to_data
from conformance.differences import Difference
from conformance.editions import Edition, translated
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.trace_comparison import describe

#: The comparison's name wherever a property's name goes: reports,
#: baselines, corpus files.
COMPARISON = "agrees_with_reference"
#: The first line of the notes a result's message ends with.
NOTES_HEADING = (
    "Outside the certified rules (failing nothing; a run stops comparing where one shows):"
)

#: Differences found, each kind with the (minimal) scenario that shows it.
Found = list[tuple[list[Difference], Scenario]]


def failed(
    found: Found, outside: Found, examples: int, exercised: int, started: float, edition: Edition
) -> PropertyResult:
    """A failure with every distinct difference `found` (the first one's
    scenario is the counterexample), the rules each falls under by
    `edition`'s numbers, and the notes on those `outside` the rules."""
    return PropertyResult(
        COMPARISON,
        translated(_rules_of(d for shown, _ in found for d in shown), edition),
        "fail",
        examples,
        "\n".join(filter(None, (_message(found), _notes(outside)))),
        to_data(found[0][1]),
        duration=_since(started),
        exercised=exercised,
        further=tuple(to_data(scenario) for _, scenario in found[1:]),
    )


def passed(
    outside: Found, examples: int, exercised: int, needed: int, started: float
) -> PropertyResult:
    """Pass, or "not-exercised" when too few runs compared an action the
    reference engine carried out: an engine is not certified on comparisons
    of refusals, open cases and runs that parted ways alone. The notes on
    the differences `outside` the rules follow."""
    if exercised >= needed:
        status, message = "pass", ""
    else:
        status = "not-exercised"
        message = (
            f"not exercised: {exercised} of {examples} runs compared an action the reference "
            f"engine carried out, {needed} needed"
        )
    message = "\n".join(filter(None, (message, _notes(outside))))
    return PropertyResult(
        COMPARISON, (), status, examples, message, duration=_since(started), exercised=exercised
    )


def engine_error(
    error: Exception, scenario: Scenario | None, examples: int, started: float
) -> PropertyResult:
    return PropertyResult(
        COMPARISON,
        (),
        "engine-error",
        examples,
        str(error),
        None if scenario is None else to_data(scenario),
        duration=_since(started),
    )


def _message(found: Found) -> str:
    """The first minimal scenario's differences, then each further
    distinct difference with the minimal scenario that shows it."""
    return "\n".join([describe(found[0][0]), *_shown_by(found[1:])])


def _notes(outside: Found) -> str:
    """The differences no certified rule governs, each with its scenario;
    empty if there were none."""
    if not outside:
        return ""
    return "\n".join([NOTES_HEADING, *_shown_by(outside)])


def _shown_by(found: Found) -> list[str]:
    lines = []
    for shown, scenario in found:
        lines.append(describe(shown))
        lines.append("  shown by the scenario: " + " ".join(dumps(scenario).split()))
    return lines


def _rules_of(found: Iterable[Difference]) -> tuple[str, ...]:
    order = {rule: i for i, rule in enumerate(CATALOG)}
    rules = {r for d in found for r in d.rules}
    return tuple(sorted(rules, key=lambda r: (order.get(r, len(order)), r)))


def _since(started: float) -> float:
    return time.monotonic() - started
