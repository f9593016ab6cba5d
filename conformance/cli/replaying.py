"""`phasecert replay FILE --engine NAME`: re-run one stored counterexample.

It shows the scenario in words, the property's verdict (what the rule
expected, what the engine showed), and then, step by step, the reference
engine's observation beside the engine's, so the bug can be read off
without a debugger.
"""

from __future__ import annotations

import argparse
import shutil
from itertools import zip_longest
from pathlib import Path

from adapters.discovery import load_engine
from adapters.protocol import engine_for_edition, unreported_observations
from adapters.reference import reference_of
from conformance.agreement_results import COMPARISON
from conformance.catalog import Edition
from conformance.checking import hold, needs_text
from conformance.cli.certify import UsageFailure
from conformance.codec import DecodeError
from conformance.corpus import property_of, read_scenario
from conformance.describe import describe_scenario
from conformance.differences import Moment, differences
from conformance.escaping import cut, for_terminal
from conformance.legality import InvalidScenario
from conformance.observation import Observation, PermanentView, PlayerView
from conformance.properties import Property, Violation, in_edition
from conformance.running import EngineError, Trace, play
from conformance.trace_comparison import first_disagreement
from conformance.unsettled import settled_steps


def replay(args: argparse.Namespace) -> int:
    """Exit 1 when the counterexample still fails on the engine, 0 when it
    now passes."""
    path = Path(args.file)
    try:
        scenario = read_scenario(path)
    except OSError as e:
        raise UsageFailure(f"{path}: can't read it ({e.strerror or e})") from None
    except DecodeError as e:
        raise UsageFailure(f"{path}: not a scenario: {e}") from None
    except InvalidScenario as e:
        raise UsageFailure(f"{path}: the scenario is not a legal game position: {e}") from None
    except ValueError as e:  # not a regular file, too big, not UTF-8
        raise UsageFailure(f"{path}: can't read it ({e})") from None
    name = args.property or property_of(path)
    held = in_edition(args.edition)
    if name not in held and name != COMPARISON:
        raise UsageFailure(
            f"{path}: no property {name!r} in the {args.edition} edition; "
            "name the property to check with --property"
        )
    try:
        engine = engine_for_edition(load_engine(args.engine), args.edition)
    except ValueError as e:
        raise UsageFailure(f"--edition {args.edition}: {e}") from None
    missing = scenario.capabilities() - engine.capabilities
    if missing:
        raise UsageFailure(f"{engine.name} can't play {path}: needs {needs_text(missing, engine)}")

    _say(f"Scenario {path}:\n{describe_scenario(scenario)}\n")
    try:
        expected = play(reference_of(args.edition), scenario, args.engine_timeout)
    except EngineError as e:
        raise UsageFailure(f"{path}: the reference engine can't play it: {e}") from None
    title = name if name == COMPARISON else f"{name} ({', '.join(held[name].rules)})"
    try:
        observed = play(engine, scenario, args.engine_timeout)
    except EngineError as e:
        _say(f"{title}: ENGINE ERROR\n  {cut(str(e))}")
        return 1
    if name == COMPARISON:
        unreported = unreported_observations(engine)
        failed = _agreement_verdict(title, expected, observed, unreported, args.edition)
    else:
        failed = _verdict(title, held[name], engine, observed, reference_of(args.edition))
    print()
    _side_by_side(expected, observed, engine.name, args.edition)
    return 1 if failed else 0


def _say(text: str) -> None:
    """Print text that may hold what the engine showed, minus terminal escapes."""
    print(for_terminal(text))


def _verdict(title: str, prop: Property, engine: object, trace: Trace, reference: object) -> bool:
    """The property's verdict as `certify` gives it: its check, then any
    action the engine refused that the reference engine carries out."""
    try:
        hold(prop, engine, trace, reference)
    except Violation as v:
        _say(f"{title}: FAILS, {v.rule} {v.where}")
        _say(f"  expected (the rule): {v.expected}")
        _say(f"  observed (the engine): {v.observed}")
        return True
    _say(f"{title}: passes on this engine now")
    return False


def _agreement_verdict(
    title: str, expected: Trace, observed: Trace, unreported: frozenset[str], edition: Edition
) -> bool:
    found = first_disagreement(expected, observed, unreported, reference_of(edition))
    if found is None:
        _say(f"{title}: agrees with the reference engine now")
        return False
    _say(f"{title}: DISAGREES " + found.replace("\n", "\n  "))
    return True


def _side_by_side(expected: Trace, observed: Trace, engine: str, edition: Edition) -> None:
    width = max(30, (shutil.get_terminal_size((120, 24)).columns - 3) // 2)
    moments = [Moment("start", expected.initial, observed.initial)]
    for i, (e, o) in enumerate(zip(expected.steps, observed.steps, strict=True), 1):
        where = f"after action {i} ({type(e.action).__name__})"
        moments.append(Moment(where, e.after, o.after, e.action, e.before, o.before))
    compared = len(settled_steps(expected, reference_of(edition)))
    for k, moment in enumerate(moments):
        title, e_obs, o_obs = moment.where, moment.reference, moment.engine
        if k > compared:
            mark = "not compared (the rules leave the outcome open: docs/readings.md)"
        else:
            mark = "DIFFERS" if differences(moment) else "same"
        _say(f"{title}: {mark}")
        _say(f"  {'reference (expected)':<{width}} | {engine} (observed)")
        for left, right in zip_longest(_lines(e_obs), _lines(o_obs), fillvalue=""):
            sign = "≠" if left != right else " "
            _say(f"{sign} {left[:width]:<{width}} | {right[:width]}")


def _lines(obs: Observation) -> list[str]:
    """`obs` line by line; events sorted, as they are compared as a
    multiset (docs/observations.md), so their order marks no difference."""
    lines = [f"turn {obs.turn}, player {obs.active} active"]
    lines += [_player(p) for p in obs.players]
    lines += [_permanent(p) for p in sorted(obs.permanents, key=lambda p: p.id)]
    lines += sorted(f"event {e.kind} {e.subject} {e.detail}".rstrip() for e in obs.events)
    if obs.refused:
        lines.append(f"refused: {obs.refused}")
    return lines


def _player(p: PlayerView) -> str:
    parts = [f"player {p.index}: life {p.life}"]
    if not p.in_game:
        parts.append("left the game")
    for count, what in (
        (p.cards_drawn, "drawn"),
        (p.poison, "poison"),
        (p.cards_discarded, "discarded"),
    ):
        if count:
            parts.append(f"{what} {count}")
    return ", ".join(parts)


def _permanent(p: PermanentView) -> str:
    parts = [f"{p.id}: {p.zone}"]
    if p.phased_out:
        parts.append(f"phased out ({p.cause})" if p.cause else "phased out")
    if p.controller is not None:
        parts.append(f"controller {p.controller}")
    if p.tapped:
        parts.append("tapped")
    if p.attached_to is not None:
        parts.append(f"on {p.attached_to}")
    if p.counters:
        parts.append(" ".join(f"{k}×{n}" for k, n in p.counters))
    if p.power is not None:
        parts.append(f"{p.power}/{p.toughness}")
    if p.attacking:
        parts.append("attacking")
    return ", ".join(parts)
