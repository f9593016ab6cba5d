"""The observation conventions (docs/observations.md): engines that differ
from the reference engine only where the rules leave them a choice are not
failed for it, and an engine that does not report an observation is not
judged on it."""

from __future__ import annotations

import ast
import inspect
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from adapters.protocol import unreported_observations
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance import suite
from conformance.agreement_results import COMPARISON, NOTES_HEADING
from conformance.checking import profile, run_property
from conformance.cli import listing
from conformance.corpus import Corpus, ItemCorpus
from conformance.differential import OutsideTheRules, run_agreement
from conformance.observation import Observation
from conformance.properties import REGISTRY
from conformance.report import RunInfo, build_report
from conformance.report.markdown import render_markdown
from conformance.report.schema import load_schema
from conformance.results import PropertyResult
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup
from conformance.trace_comparison import first_disagreement

Edit = Callable[["VariantGame", Observation, a.Action | None], Observation]


class VariantGame:
    """The reference engine's game, its observations edited."""

    def __init__(self, game: Any, edit: Edit) -> None:
        self.game, self.edit = game, edit
        self.draws: Counter[int] = Counter()
        #: The controller each permanent was last shown with phased in.
        self.controllers: dict[str, int | None] = {}

    def observe(self) -> Observation:
        return self.edit(self, self.game.observe(), None)

    def perform(self, action: a.Action) -> Observation:
        return self.edit(self, self.game.perform(action), action)


class Variant:
    """An engine that plays like the reference and reports otherwise."""

    version = "test"

    def __init__(self, name: str, edit: Edit, unreported: frozenset[str] = frozenset()) -> None:
        self.name, self.edit, self.unreported = name, edit, unreported
        self.capabilities = ReferenceEngine().capabilities

    def start(self, setup: Setup) -> VariantGame:
        return VariantGame(ReferenceEngine().start(setup), self.edit)


def draws_in_draw_step(game: VariantGame, obs: Observation, action: a.Action | None) -> Observation:
    """Each player draws a card in their draw step, on the way to the main
    phase where `PassTurn` stops."""
    if isinstance(action, a.PassTurn) and obs.refused is None:
        game.draws[obs.active] += 1
    players = tuple(
        replace(p, cards_drawn=p.cards_drawn + game.draws[p.index]) for p in obs.players
    )
    return replace(obs, players=players)


def no_zone_change_for_tokens_or_leaving(
    game: VariantGame, obs: Observation, action: a.Action | None
) -> Observation:
    """Logs no `zone_change` when a token is created or a player concedes."""
    if not isinstance(action, a.CreateToken | a.Concede):
        return obs
    return replace(obs, events=tuple(e for e in obs.events if e.kind != "zone_change"))


def no_events(game: VariantGame, obs: Observation, action: a.Action | None) -> Observation:
    return replace(obs, events=())


def controller_kept_while_phased_out(
    game: VariantGame, obs: Observation, action: a.Action | None
) -> Observation:
    """Shows a phased-out permanent with the controller it had as it phased
    out, as phase.rs does: a control effect that ends while it is out
    (702.26f) shows only as it phases in."""
    for p in obs.permanents:
        if p.phased_in or p.id not in game.controllers:
            game.controllers[p.id] = p.controller
    views = tuple(replace(p, controller=game.controllers[p.id]) for p in obs.permanents)
    return replace(obs, permanents=views)


#: Control effects that end while their permanent is phased out: found as
#: false alarms against phase.rs (the ci and certify runs of the ninth and
#: tenth sessions), which shows the change only as the permanent phases in.
ENDING_WHILE_PHASED_OUT = {
    "phasing_keeps_the_same_permanent": Scenario(
        Setup(
            permanents=(
                Permanent("p1", 1, 0, ("creature",), power=0, toughness=1, phased_out=PhasedOut()),
            ),
            effects=(ControlEffect("p1", 0, Duration("end_of_turn")),),
        ),
        (a.PassTurn(), a.PassTurn()),
    ),
    "limited_effects_outlast_phasing": Scenario(
        Setup(
            players=3,
            active=2,
            permanents=(Permanent("p4", 0, 2, ("creature",), power=0, toughness=1),),
            effects=(ControlEffect("p4", 2, Duration("your_next_turn")),),
        ),
        (
            a.GainControl(1, "p4", Duration("end_of_turn")),
            a.PhaseOut(1, ("p4",)),
            a.PassTurn(),
            a.PassTurn(),
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(ENDING_WHILE_PHASED_OUT))
def test_the_controller_shown_while_phased_out_is_not_blamed_on_phasing(name: str) -> None:
    """702.26d, 702.26f: an engine that shows a phased-out permanent's new
    controller only as it phases in, not as its control effect ends, differs
    from the reference while the permanent is out (the comparison's to see,
    docs/observations.md); phasing in is not blamed for it."""
    scenario = ENDING_WHILE_PHASED_OUT[name]
    kept = Variant("kept", controller_kept_while_phased_out)
    reference, variant = play(ReferenceEngine(), scenario), play(kept, scenario)
    # The two differ while the permanent is out, and agree once it is in.
    assert [s.after for s in reference.steps[:-1]] != [s.after for s in variant.steps[:-1]]
    assert reference.steps[-1].after == variant.steps[-1].after
    REGISTRY[name].check(variant)
    assert run_property(REGISTRY[name], kept, using=profile("ci")).status != "fail"


@pytest.mark.parametrize("edit", [draws_in_draw_step, no_zone_change_for_tokens_or_leaving])
def test_what_the_rules_leave_to_the_engine_is_not_compared(edit: Edit) -> None:
    result = run_agreement(Variant(edit.__name__, edit), using=profile("ci"), timeout=10)
    assert (result.status, result.message) == ("pass", "")


def turn_order_skips_a_player(
    game: VariantGame, obs: Observation, action: a.Action | None
) -> Observation:
    """From the third turn on, shows the turn as the next player's: a
    turn-order bug, which no certified rule governs."""
    if obs.turn < 3:
        return obs
    return replace(obs, active=(obs.active + 1) % len(obs.players))


def test_what_no_certified_rule_governs_is_noted_not_failed() -> None:
    """docs/observations.md, "Differences and rules": an engine that differs
    from the reference only where no certified rule governs passes the
    comparison (the runs before it parts ways are compared), and the result
    notes the difference with a scenario showing it. The run stops comparing
    there: what followed would be blamed on rules it is no evidence of."""
    skips = Variant("skips", turn_order_skips_a_player)
    result = run_agreement(skips, using=profile("ci"), timeout=10)
    assert result.status == "pass", result.message
    heading, noted, scenario = result.message.split("\n")
    assert heading == NOTES_HEADING
    assert "active player" in noted and noted.endswith("(no certified rule)"), noted
    assert scenario.startswith("  shown by the scenario: ")
    assert ("## Seen by agrees_with_reference, outside the certified rules") in render_markdown(
        build_report([result], RunInfo("skips", "test", (), "ci", None, "", ""))
    )


def test_a_passing_comparisons_notes_are_a_pytest_warning() -> None:
    """Run as a pytest test, the comparison passes and warns with its notes,
    which a passing test would otherwise keep to the report."""
    node = SimpleNamespace(user_properties=[])
    corpus = ItemCorpus(Corpus(None), node)  # type: ignore[arg-type]
    skips = Variant("skips", turn_order_skips_a_player)
    with pytest.warns(OutsideTheRules, match="active player: reference 0, engine 1"):
        suite.test_agrees_with_reference(skips, profile("ci"), 10, [], corpus, ReferenceEngine())


def test_nothing_is_compared_past_a_parting() -> None:
    """What shows after a difference no certified rule governs may follow
    from it (a turn played by another player phases other permanents in),
    so it is not blamed on the phasing rules."""

    def and_then_phases_wrong(
        game: VariantGame, obs: Observation, action: a.Action | None
    ) -> Observation:
        obs = turn_order_skips_a_player(game, obs, action)
        if obs.turn < 4:
            return obs
        views = tuple(replace(p, phased_out=not p.phased_out) for p in obs.permanents)
        return replace(obs, permanents=views)

    phasing = Permanent("p1", 0, 0, ("creature",), phasing=1, power=1, toughness=1)
    scenario = Scenario(Setup(permanents=(phasing,)), (a.PassTurn(),) * 3)
    reference = play(ReferenceEngine(), scenario)
    found = first_disagreement(reference, play(Variant("x", and_then_phases_wrong), scenario))
    assert found == (
        "after action 2 (PassTurn): active player: reference 0, engine 1 (no certified rule)"
    )


def test_an_engine_without_an_event_log_is_judged_without_it() -> None:
    phasing = Permanent("p1", 0, 0, ("creature",), phasing=1, power=1, toughness=1)
    scenario = Scenario(Setup(players=2, active=1, permanents=(phasing,)), (a.PassTurn(),))
    reference, silent = (
        play(ReferenceEngine(), scenario),
        play(Variant("silent", no_events), scenario),
    )
    found = first_disagreement(reference, silent)
    assert found == (
        "after action 1 (PassTurn): p1 phased_out events: reference ['direct'], engine [] "
        "(rules 702.26a)"
    )
    assert first_disagreement(reference, silent, frozenset({"events"})) is None

    declared = Variant("declared", no_events, frozenset({"events"}))
    assert run_agreement(declared, using=profile("ci"), timeout=10).status == "pass"
    reads_events = REGISTRY["untap_step_phases_out_and_in_at_once"]
    assert "events" in reads_events.reads
    result = run_property(reads_events, declared, using=profile("dev"))
    assert result.status == "not-applicable"
    assert "event log" in result.message and "does not report" in result.message
    untouched = REGISTRY["untap_step_untaps_after_phasing"]
    assert not untouched.reads
    assert run_property(untouched, declared, using=profile("dev")).status != "not-applicable"


def test_unreported_names_only_optional_observations() -> None:
    assert unreported_observations(ReferenceEngine()) == frozenset()
    for bad in ("events", {"turn"}):
        engine = Variant("bad", no_events, bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="unreported"):
            unreported_observations(engine)


def test_the_report_records_unreported_and_the_comparisons_rules() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    failed = PropertyResult(
        COMPARISON,
        ("702.26a",),
        "fail",
        3,
        "after action 1 (PassTurn): p1 phased_out: reference True, engine False (rules 702.26a)",
        {"setup": {}, "actions": [{"type": "PassTurn"}]},
    )
    info = RunInfo(
        "x",
        "1",
        (),
        "ci",
        None,
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:01Z",
        unreported=("events",),
    )
    report = build_report([failed], info)
    jsonschema.Draft202012Validator(load_schema()).validate(report)
    assert report["engine"]["unreported"] == ["events"]
    (rule,) = report["rules"]
    assert (rule["id"], rule["status"], rule["violated"]) == ("702.26a", "fail", ["702.26a"])
    (entry,) = report["properties"]
    assert entry["failure"]["where"] == "after action 1 (PassTurn)"


#: How a check reads each optional observation.
_READS = {"events": (".events", "events_of("), "life": (".life",), "cards_drawn": ("cards_drawn",)}


def _functions(module: Any) -> dict[str, str]:
    source = inspect.getsource(module)
    return {
        node.name: ast.get_source_segment(source, node) or ""
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
    }


def _read_text(prop: Any) -> str:
    """The source of a property's check and predicate, with every function
    of its module they call, transitively."""
    functions = _functions(sys.modules[prop.check.__module__])
    todo = [prop.check.__name__] + ([prop.exercised.__name__] if prop.exercised else [])
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        names = {n.id for n in ast.walk(ast.parse(functions[name])) if isinstance(n, ast.Name)}
        todo += sorted(names)
    return "".join(functions[n] for n in seen)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_property_declares_the_optional_observations_it_reads(name: str) -> None:
    """Else it would pass or fail on an engine that does not report them."""
    text = _read_text(REGISTRY[name])
    read = {field for field, marks in _READS.items() if any(m in text for m in marks)}
    assert read <= REGISTRY[name].reads, f"{name} reads {sorted(read)}; declare reads=..."


def test_phasecert_engines_lists_what_an_engine_does_not_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    declared = Variant("declared", no_events, frozenset({"events"}))
    monkeypatch.setattr(listing, "engine_names", lambda: ["declared"])
    monkeypatch.setattr(listing, "load_engine", lambda name: declared)
    assert listing.list_engines() == 0
    assert "    does not report events: its event log" in capsys.readouterr().out
