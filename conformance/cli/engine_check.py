"""`phasecert check-engine --engine SPEC`: a smoke test to run before a
certification.

A handful of fixed, hand-written scenarios, one per core rule, each played by
the engine and by the reference engine; every step where the two differ is
explained in words. It takes seconds, needs no Hypothesis, and its failures
are small enough to read in full: the place to start when bringing up a new
engine or adapter (a stdio engine especially: it checks the protocol too).
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

from adapters.discovery import EngineNotFound, load_engine
from adapters.protocol import missing_capabilities
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.observation import Event, Observation, PermanentView
from conformance.running import DEFAULT_TIMEOUT, EngineError, Trace, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class Check:
    """One fixed scenario and what it checks, in a sentence."""

    name: str
    rule: str  # the rule ID it checks; "" for the start position
    says: str
    scenario: Scenario

    @property
    def title(self) -> str:
        return f"{self.name} ({self.rule})" if self.rule else self.name


def _creature(pid: str, **fields: Any) -> Permanent:
    return Permanent(pid, power=2, toughness=2, **fields)


def _aura(pid: str, host: str, **fields: Any) -> Permanent:
    return Permanent(pid, types=("enchantment",), attachment="aura", attached_to=host, **fields)


CHECKS: tuple[Check, ...] = (
    Check(
        "start position",
        "",
        "before any action the engine shows the setup: phased-out status and cause, "
        "tapped, controllers, attachments",
        Scenario(
            Setup(
                active=1,
                permanents=(
                    _creature("p1", phasing=1, tapped=True),
                    _creature("p2", phased_out=PhasedOut("direct", 0)),
                    Permanent("p3", owner=1, controller=1, types=("land",), tapped=True),
                ),
            )
        ),
    ),
    Check(
        "untap step phasing",
        "702.26a",
        "in player 0's untap step p1 (phasing) phases out and p2 (phased out under "
        "player 0, with phasing too) phases in, at once, so p2 stays in; then p2 "
        "untaps and p1, gone, stays tapped (502.1)",
        Scenario(
            Setup(
                active=1,
                permanents=(
                    _creature("p1", phasing=1, tapped=True),
                    _creature("p2", phasing=1, tapped=True, phased_out=PhasedOut("direct", 0)),
                ),
            ),
            (a.PassTurn(), a.PassTurn()),
        ),
    ),
    Check(
        "no targeting a phased-out permanent",
        "702.26b",
        "a spell targeting phased-out p1 is refused; phased-in p2 can be targeted",
        Scenario(
            Setup(permanents=(_creature("p1", phased_out=PhasedOut("direct", 0)), _creature("p2"))),
            (a.PhaseOut(1, ("p1",)), a.PhaseOut(1, ("p2",))),
        ),
    ),
    Check(
        "an Aura phases with its host",
        "702.26g",
        "Aura p2 on p1 (phasing) phases out indirectly with p1 in player 0's untap "
        "step, and phases in with it two turns later, still attached",
        Scenario(
            Setup(active=1, permanents=(_creature("p1", phasing=1), _aura("p2", "p1"))),
            (a.PassTurn(), a.PassTurn(), a.PassTurn()),
        ),
    ),
    Check(
        "an Aura whose host left",
        "702.26i",
        "Aura p2 (phasing) phases out directly from p1; p1 is destroyed meanwhile; p2 "
        "phases in unattached and goes to the graveyard (704.5m)",
        Scenario(
            Setup(active=1, permanents=(_creature("p1"), _aura("p2", "p1", phasing=1))),
            (a.PassTurn(), a.Destroy(1, "p1"), a.PassTurn(), a.PassTurn()),
        ),
    ),
    Check(
        "a token phases out and back",
        "R2017-tokens",
        "token t1 with phasing enters phased in (110.5), phases out in its controller's "
        "untap step and stays on the battlefield, then phases back in",
        Scenario(
            Setup(),
            (a.CreateToken(0, "t1", 1), a.PassTurn(), a.PassTurn(), a.PassTurn(), a.PassTurn()),
        ),
    ),
)


def check_engine(spec: str, out: IO[str] | None = None, timeout: float = DEFAULT_TIMEOUT) -> int:
    """Run `CHECKS` on the engine `spec` names, print what happened, and
    return the exit code: 0 if it agrees with the reference on every check it
    can play, 1 if not, 2 if it can't be loaded."""
    out = out or sys.stdout
    try:
        engine = load_engine(spec)
    except EngineNotFound as e:
        print(f"phasecert: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    try:
        failed = run_checks(engine, CHECKS, out, timeout)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
    if failed:
        return EXIT_FAILED
    print(f"Next: phasecert certify --engine {shlex.quote(spec)}", file=out)
    return EXIT_OK


def run_checks(engine: Any, checks: Sequence[Check], out: IO[str], timeout: float) -> int:
    """Play each check on `engine` and the reference; the number that failed."""
    reference = ReferenceEngine()
    missing = missing_capabilities(engine)
    print(
        f"{engine.name} {engine.version}: {len(checks)} fixed scenarios, "
        "each compared with the reference engine",
        file=out,
    )
    failed = 0
    for check in checks:
        title = check.title
        lacking = sorted(check.scenario.capabilities() - engine.capabilities)
        if lacking:
            why = "; ".join(f"{c}" + (f" ({missing[c]})" if c in missing else "") for c in lacking)
            print(f"skip  {title}: needs {why}", file=out)
            continue
        expected = play(reference, check.scenario)
        try:
            observed = play(engine, check.scenario, timeout)
        except EngineError as e:
            mismatches = [f"engine error: {e}"]
        else:
            mismatches = explain_traces(expected, observed)
        if not mismatches:
            print(f"ok    {title}", file=out)
            continue
        failed += 1
        print(f"FAIL  {title}", file=out)
        print(_indent(textwrap.fill(f"It checks that {check.says}.", 72)), file=out)
        print(_indent("\n".join(mismatches)), file=out)
    ran = sum(1 for c in checks if c.scenario.capabilities() <= engine.capabilities)
    verdict = "agrees with the reference" if not failed else f"{failed} of {ran} disagree"
    print(f"{engine.name}: {verdict} on the {ran} checks it can play", file=out)
    if failed:
        print("Fix these before certifying: each is one rule, shown on a small board.", file=out)
    return failed


def explain_traces(expected: Trace, observed: Trace) -> list[str]:
    """The first step where the engine showed something else than the
    reference, in words (later steps follow from it, so they are only
    counted); empty if they agree throughout."""
    mine, theirs = _suite_draws(expected), _suite_draws(observed)
    pairs = [("At the start", mine[0], theirs[0])]
    for i, step in enumerate(expected.steps, 1):
        pairs.append((f"After action {i}, {_describe(step.action)}", mine[i], theirs[i]))
    differing = [(when, words) for when, e, o in pairs if (words := explain(e, o))]
    if not differing:
        return []
    when, words = differing[0]
    lines = [f"{when}:", *(f"  {w}" for w in words)]
    if len(differing) > 1:
        lines.append(f"(and {len(differing) - 1} later step(s) differ too)")
    return lines


def _suite_draws(trace: Trace) -> list[Observation]:
    """The trace's observations with each player's `cards_drawn` counting
    only the cards drawn during actions other than `PassTurn`: an engine may
    draw in its draw step, which no certified rule governs
    (docs/observations.md), so those draws are not held against it."""
    shown = [trace.initial, *(step.after for step in trace.steps)]
    drawn = [p.cards_drawn for p in trace.initial.players]
    counted = [trace.initial]
    for step, before, after in zip(trace.steps, shown, shown[1:], strict=False):
        players = []
        for i, p in enumerate(after.players):
            if not isinstance(step.action, a.PassTurn) and i < len(before.players):
                drawn[i] += p.cards_drawn - before.players[i].cards_drawn
            players.append(replace(p, cards_drawn=drawn[i] if i < len(drawn) else 0))
        counted.append(replace(after, players=tuple(players)))
    return counted


def explain(expected: Observation, observed: Observation) -> list[str]:
    """How `observed` (the engine's) differs from `expected` (the reference
    engine's), one sentence each."""
    out = []
    if expected.refused is None and observed.refused is not None:
        out.append(f"the engine refused the action ({observed.refused}); the reference played it")
    elif expected.refused is not None and observed.refused is None:
        out.append(f"the engine played the action; the reference refused it ({expected.refused})")
    # Turns are not compared: an engine counts them its own way.
    if expected.active != observed.active:
        out.append(
            f"it is player {observed.active}'s turn in the engine; "
            f"player {expected.active}'s in the reference"
        )
    for e, o in zip(expected.players, observed.players, strict=False):
        if e != o:
            out.append(
                f"player {e.index}: the engine shows {_player(o)}; the reference {_player(e)}"
            )
    if len(expected.players) != len(observed.players):
        out.append(f"the engine shows {len(observed.players)} players, not {len(expected.players)}")
    mine = {p.id: p for p in observed.permanents}
    for p in expected.permanents:
        out += _permanent(p, mine.pop(p.id, None))
    out += [f"{pid} is in the engine's observation only" for pid in mine]
    out += _events(expected.events, observed.events)
    return out


def _permanent(e: PermanentView, o: PermanentView | None) -> list[str]:
    if o is None:
        return [f"{e.id} is missing from the engine's observation"]
    if e.zone != o.zone:
        return [f"{e.id} is {_zone(o.zone)} in the engine, {_zone(e.zone)} in the reference"]
    out = []
    if e.phased_out != o.phased_out:
        out.append(f"{e.id} is {_phase(o)} in the engine, {_phase(e)} in the reference")
    elif e.cause != o.cause:
        out.append(f"{e.id} phased out {o.cause}ly in the engine, {e.cause}ly in the reference")
    if e.tapped != o.tapped:
        out.append(f"{e.id} is {_tapped(o)} in the engine, {_tapped(e)} in the reference")
    if e.attached_to != o.attached_to:
        out.append(
            f"{e.id} is attached to {_host(o.attached_to)} in the engine, "
            f"to {_host(e.attached_to)} in the reference"
        )
    for name, shown in [
        ("controller", "controlled by player {}"),
        ("counters", "counters {}"),
        ("chosen", "choice {!r}"),
        ("attacking", "attacking: {}"),
    ]:
        if getattr(e, name) != getattr(o, name):
            out.append(
                f"{e.id}: {shown.format(getattr(o, name))} in the engine, "
                f"{shown.format(getattr(e, name))} in the reference"
            )
    # Power/toughness is shown for phased-in creatures only: no news if the
    # phased-out status already differs.
    if (e.power, e.toughness) != (o.power, o.toughness) and e.phased_out == o.phased_out:
        out.append(f"{e.id} is {_pt(o)} in the engine, {_pt(e)} in the reference")
    return out


def _events(expected: tuple[Event, ...], observed: tuple[Event, ...]) -> list[str]:
    theirs, ours = Counter(expected), Counter(observed)
    out = []
    if ours - theirs:
        out.append("only the engine logged " + ", ".join(map(_event, (ours - theirs).elements())))
    if theirs - ours:
        out.append(
            "only the reference logged " + ", ".join(map(_event, (theirs - ours).elements()))
        )
    return out


def _describe(action: a.Action) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in vars(action).items())
    return f"{type(action).__name__}({fields})"


def _player(p: Any) -> str:
    status = "in the game" if p.in_game else "out of the game"
    return f"{status}, {p.life} life, {p.cards_drawn} cards drawn"


def _zone(zone: str) -> str:
    if zone == "none":
        return "gone (it ceased to exist or left the game)"
    return "on the battlefield" if zone == "battlefield" else f"in the {zone}"


def _phase(p: PermanentView) -> str:
    return f"phased out ({p.cause})" if p.phased_out else "phased in"


def _tapped(p: PermanentView) -> str:
    return "tapped" if p.tapped else "untapped"


def _host(host: str | int | None) -> str:
    if host is None:
        return "nothing"
    return f"player {host}" if isinstance(host, int) else host


def _pt(p: PermanentView) -> str:
    if p.power is None and p.toughness is None:
        return "shown without power/toughness"
    return f"{p.power}/{p.toughness}"


def _event(e: Event) -> str:
    return f"{e.kind} {e.subject}" + (f" ({e.detail})" if e.detail else "")


def _indent(text: str) -> str:
    return "\n".join(f"      {line}" for line in text.splitlines())
