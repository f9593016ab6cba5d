"""The stateful comparison: the engine under test and the reference engine
play the same turns and actions, and must show the same thing after each,
in every field the certified rules govern (`conformance.differences`).

A rule-based state machine draws each next action from the position the
reference engine shows, so sequences stay meaningful as the game moves on.
A disagreement is a verdict like a property's failure: each difference
names the rules it falls under, with a minimal scenario that the corpus
keeps and `phasecert replay` replays. The comparison goes on past the first
difference: it runs again, ignoring the kinds of difference already found,
until no new kind shows or `MAX_DISTINCT` are found. A run compares
nothing after the first moment the games differ at: what follows may
follow from it. Differences no certified rule governs fail nothing
(`conformance.differences.parts_ways`): the result notes them. Two
finished plays of one scenario are compared by
`conformance.trace_comparison`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from hypothesis import Phase, reject, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from adapters.protocol import Inexpressible, unreported_observations
from adapters.reference import ReferenceEngine
from conformance.actions import Action, Concede, CreateToken, PhaseOutUntil
from conformance.agreement_results import (
    Found,
    engine_error,
    failed,
    passed,
)
from conformance.checking import exercise_needed
from conformance.differences import Difference, Moment, differences, parts_ways
from conformance.draw_step import draw_step_gainers
from conformance.observation import Observation
from conformance.position import start_problems
from conformance.properties.history import waiting_for_source
from conformance.properties.players import protected
from conformance.results import PropertyResult
from conformance.running import (
    EngineError,
    SetupMismatch,
    Step,
    Trace,
    call_engine,
    checked_observation,
    play,
)
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies import ACTION_KINDS, next_actions, setups
from conformance.strategies.plays import IN_PLAY_KINDS
from conformance.trace_comparison import (
    compares_a_carried_out_action,
    describe,
    legends_of,
    tokens_of,
    trace_differences,
    untap_phased_in,
)
from conformance.trimming import trim
from conformance.unsettled import unsettled_from

#: Distinct kinds of difference (the field that differs) one run looks
#: for, and of those no certified rule governs that it notes.
MAX_DISTINCT = 4

#: The runs' positions: permanents in every run, Auras and Equipment often,
#: Auras on attachments (chains), "phases out until" mostly (issue 9
#: measured a third of the runs empty and no chain at all), and land
#: creatures, which of the properties' positions only 302.6's and the
#: 702.26b mana property's have: an engine that handles them as lands or
#: as creatures only is compared on both.
_POSITIONS: dict[str, Any] = {
    "min_permanents": 2,
    "max_permanents": 6,
    "permanent_kinds": (
        *("creature", "creature", "aura", "aura", "aura", "equipment"),
        *("land", "fortification", "artifact", "enchantment", "land creature"),
    ),
    "chains": True,
    "favour_until": True,
}
#: The runs' actions: every kind the properties draw, the in-play ones
#: (damage, mana, blocks) that only their own properties draw, and
#: concessions and "phases out until" weighted up (800.4a, 702.26k, 610.4
#: need them, and they were rare). Player actions (life totals, Teferi's
#: Protection) are left to their properties.
_ACTIONS = (*ACTION_KINDS, *IN_PLAY_KINDS, Concede, Concede, PhaseOutUntil)

Kind = str


class OutsideTheRules(UserWarning):
    """A passing comparison noted differences no certified rule governs."""


class Disagreement(AssertionError):
    """The engine and the reference engine showed different things."""

    def __init__(self, found: Sequence[Difference]) -> None:
        super().__init__(describe(found))
        self.found = list(found)


#: Today's oracle; another edition's is passed in (`reference_of`).
_REFERENCE = ReferenceEngine()


def agreement_machine(
    engine: Any,
    timeout: float,
    known: frozenset[Kind] = frozenset(),
    reference: ReferenceEngine = _REFERENCE,
) -> type[RuleBasedStateMachine]:
    """A state machine class comparing `engine` with the reference engine
    (of the edition certified) on what `engine`'s capabilities let it play;
    differences of a `known` kind are let pass (they were found already)."""
    caps = engine.capabilities
    unreported = unreported_observations(engine)

    class AgreesWithReference(RuleBasedStateMachine):
        played: ClassVar[list[tuple[Setup, list[Action]]]] = []
        #: Per run: whether it compared an action the reference carried out.
        exercised: ClassVar[list[bool]] = []
        #: Runs that parted ways (`parts_ways`): the differences, and the
        #: scenario up to where they showed.
        parted: ClassVar[Found] = []

        @initialize(setup=setups(caps, **_POSITIONS))
        def start(self, setup: Setup) -> None:
            self.actions: list[Action] = []
            self.played.append((setup, self.actions))
            self.exercised.append(False)
            self.tokens = set(tokens_of(Scenario(setup, ())))
            self.expected_game = reference.start(setup)
            self.game = call_engine(engine.name, "start", lambda: engine.start(setup), timeout)
            self.expected = self.expected_game.observe()
            self.observed = self.observe("start", lambda: self.game.observe())
            self.initial = self.expected
            self.steps: list[Step] = []
            #: Nothing is compared from an open outcome on, nor past a
            #: difference: what follows may follow from it.
            self.open = self.stopped = False
            problems = start_problems(setup, self.observed)
            if problems:
                raise SetupMismatch(
                    "the adapter did not set up the position (no rule was tested): "
                    + "; ".join(problems)
                )
            self.compare(Moment("at the start", self.expected, self.observed))

        @rule(data=st.data())
        def act(self, data: st.DataObject) -> None:
            if self.open or self.stopped:
                return
            action = data.draw(next_actions(self.expected, caps, _ACTIONS), label="action")
            self.actions.append(action)
            if isinstance(action, CreateToken):
                self.tokens.add(action.id)
            what = f"action {len(self.actions)} ({type(action).__name__})"
            before, observed_before = self.expected, self.observed
            self.expected = self.expected_game.perform(action)
            self.steps.append(Step(action, before, self.expected))
            self.open = self.unsettled()
            if self.open:
                return
            try:
                self.observed = self.observe(what, lambda: self.game.perform(action))
            except Inexpressible:
                reject()  # set aside: the adapter can't express it (adapters.protocol)
            shield = protected(self.played_so_far())
            moment = Moment(
                f"after {what}",
                self.expected,
                self.observed,
                action,
                before,
                observed_before,
                frozenset(self.tokens),
                draw_step_gainers(self.played[-1][0], self.steps[-1]),
                shield[-2] | shield[-1],
                untap_phased_in(self.steps[:-1]),
                legends_of(self.played[-1][0]),
                frozenset(waiting_for_source(self.played_so_far())[-2]),
            )
            if self.compare(moment) and self.expected.refused is None:
                self.exercised[-1] = True

        def played_so_far(self) -> Trace:
            """The reference engine's play of this run so far."""
            scenario = Scenario(self.played[-1][0], tuple(self.actions))
            return Trace(scenario, self.initial, tuple(self.steps))

        def unsettled(self) -> bool:
            """The reference engine's play so far reached an action whose
            outcome the rules leave open (`conformance.unsettled`)."""
            return unsettled_from(self.played_so_far(), reference) is not None

        def observe(self, what: str, call: Callable[[], Any]) -> Observation:
            return checked_observation(
                engine.name, what, call_engine(engine.name, what, call, timeout)
            )

        def compare(self, moment: Moment) -> bool:
            """Whether the run goes on comparing after `moment`: not once
            the games differ, since what follows may follow from that and
            be blamed on rules it is no evidence of. A new kind of
            difference a certified rule governs is a disagreement; one
            moment's differences that no certified rule governs are kept
            for the result's notes."""
            found = differences(moment, unreported)
            new = [d for d in found if d.kind not in known]
            if any(d.rules for d in new):
                raise Disagreement(new)
            if parts_ways(found):
                self.parted.append((found, Scenario(self.played[-1][0], tuple(self.actions))))
            self.stopped = bool(found)
            return not self.stopped

    return AgreesWithReference


def run_agreement(
    engine: Any,
    *,
    using: settings,
    timeout: float,
    replay: tuple[Scenario, ...] = (),
    reference: ReferenceEngine = _REFERENCE,
) -> PropertyResult:
    """Compare `engine` with the reference (the oracle of the edition
    certified): the scenarios of `replay` first (earlier disagreements, from
    the corpus), then generated runs, until no new kind of difference shows.
    Fails with every distinct difference, the rules each falls under (by the
    edition's numbers), and a minimal scenario for each; an engine error is
    reported as such. Differences no certified rule governs are noted in
    the message, whatever the status, each kind with a trimmed scenario."""
    started = time.monotonic()
    unreported = unreported_observations(engine)
    examples = exercised = 0
    found: Found = []
    known: set[Kind] = set()
    parted: Found = []
    outside: Found = []

    def keep(shown: list[Difference], scenario: Scenario) -> None:
        new = [d for d in shown if d.kind not in known]
        key = next(d.key for d in new if d.rules)
        same = _same_disagreement(reference, engine, timeout, key, unreported)
        scenario, shown = trim(scenario, same, shown)
        new = [d for d in shown if d.kind not in known] or new
        found.append((new, scenario))
        known.update(d.kind for d in new)

    def note(shown: list[Difference], scenario: Scenario) -> None:
        noted = {d.kind for earlier, _ in outside for d in earlier}
        if len(outside) >= MAX_DISTINCT or all(d.kind in noted for d in shown):
            return
        same = _same_disagreement(reference, engine, timeout, shown[0].key, unreported)
        scenario, shown = trim(scenario, lambda s: _parting(same(s)), shown)
        outside.append((shown, scenario))

    try:
        for scenario in replay:
            examples += 1
            try:
                observed = play(engine, scenario, timeout)
            except Inexpressible:
                continue
            except EngineError as e:
                raise _Stopped(e, scenario) from e
            expected = play(reference, scenario)
            exercised += compares_a_carried_out_action(expected, reference)
            shown = trace_differences(expected, observed, unreported, reference)
            if any(d.rules and d.kind not in known for d in shown):
                keep(shown, scenario)
            elif parts_ways(shown):
                parted.append((shown, scenario))
        while len(found) < MAX_DISTINCT:
            machine = agreement_machine(engine, timeout, frozenset(known), reference)
            try:
                run_state_machine_as_test(machine, settings=_settings(using, first=not found))
            except Disagreement as e:
                setup, actions = machine.played[-1]
                keep(e.found, Scenario(setup, tuple(actions)))
                continue
            except EngineError as e:
                setup, actions = machine.played[-1]
                raise _Stopped(e, Scenario(setup, tuple(actions))) from e
            finally:
                examples += len(machine.played)
                exercised += sum(machine.exercised)
                parted += machine.parted
            break
    except _Stopped as e:
        if not found:
            return engine_error(e.error, e.scenario, examples, started)
    for shown, scenario in parted:
        note(shown, scenario)
    if not found:
        return passed(outside, examples, exercised, exercise_needed(using), started)
    return failed(found, outside, examples, exercised, started, reference.edition)


def _settings(using: settings, *, first: bool) -> settings:
    """The runs' settings: Hypothesis shrinks the first difference only;
    each further one is trimmed (`conformance.trimming`), which is cheap,
    where shrinking a stateful run again would take minutes."""
    phases = using.phases if first else tuple(p for p in using.phases if p != Phase.shrink)
    return settings(using, stateful_step_count=8, phases=phases)


class _Stopped(Exception):
    """An engine error in a generated run, with the scenario it played."""

    def __init__(self, error: EngineError, scenario: Scenario) -> None:
        super().__init__(str(error))
        self.error, self.scenario = error, scenario


def _parting(shown: list[Difference] | None) -> list[Difference] | None:
    """`shown` if no certified rule governs any of it (for trimming a note:
    a smaller scenario that shows a governed difference is no note)."""
    return shown if shown is not None and parts_ways(shown) else None


def _same_disagreement(
    reference: ReferenceEngine,
    engine: Any,
    timeout: float,
    key: tuple[str, str, tuple[str, ...]],
    unreported: frozenset[str],
) -> Callable[[Scenario], list[Difference] | None]:
    """For `trim`: a candidate's differences, if one of them is the same
    difference (`Difference.key`: permanent or player, field and rules),
    wherever in the scenario it shows, so deleting an earlier action that
    changes nothing keeps it."""

    def disagreement(candidate: Scenario) -> list[Difference] | None:
        try:
            shown = trace_differences(
                play(reference, candidate), play(engine, candidate, timeout), unreported, reference
            )
        except (EngineError, Inexpressible):
            return None
        return shown if any(d.key == key for d in shown) else None

    return disagreement
