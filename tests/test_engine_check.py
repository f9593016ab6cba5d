"""`phasecert check-engine` (conformance/cli/engine_check.py): the fixed
smoke scenarios agree on the reference, catch mutants with a readable
explanation, and run an engine in another language through stdio."""

from __future__ import annotations

import io
import shlex
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from adapters.discovery import load_engine
from adapters.reference import ReferenceEngine
from conformance.actions import Action, PassTurn
from conformance.cli.engine_check import CHECKS, check_engine, run_checks
from conformance.observation import Observation
from conformance.setup import Setup

NODE_ENGINE = Path(__file__).resolve().parents[1] / "examples" / "node-engine" / "engine.json"


def run(spec: str) -> tuple[int, str]:
    out = io.StringIO()
    return check_engine(spec, out, timeout=10), out.getvalue()


def test_the_reference_agrees_with_itself_on_every_check() -> None:
    code, text = run("reference")
    assert code == 0, text
    assert text.count("\nok    ") == len(CHECKS)
    assert "Next: phasecert certify --engine reference" in text


#: A mutant per core rule, the check that catches it, and words the
#: explanation must contain.
CAUGHT = {
    "sequential-phasing": (
        "untap step phasing (702.26a)",
        "p2 is phased out (direct) in the engine, phased in in the reference",
    ),
    "targets-phased-out": (
        "no targeting a phased-out permanent (702.26b)",
        "the engine played the action; the reference refused it (p1 is not a legal target)",
    ),
    "attachments-stay-behind": (
        "an Aura phases with its host (702.26g)",
        "p2 is phased in in the engine, phased out (indirect) in the reference",
    ),
    "aura-keeps-gone-host": (
        "an Aura whose host left (702.26i)",
        "p2 is on the battlefield in the engine, in the graveyard in the reference",
    ),
    "tokens-cease-to-exist": (
        "a token phases out and back (R2017-tokens)",
        "t1 is gone (it ceased to exist or left the game) in the engine, on the battlefield",
    ),
}


@pytest.mark.parametrize("mutant", sorted(CAUGHT))
def test_a_mutant_is_caught_and_explained(mutant: str) -> None:
    check, words = CAUGHT[mutant]
    code, text = run(f"mutant:{mutant}")
    assert code == 1
    assert f"FAIL  {check}\n" in text
    assert words in text
    assert "ok    start position" in text


@dataclass(frozen=True)
class ForgetsTapped:
    """An adapter that sets up every permanent untapped: a setup bug, not a
    rule's, and the check must say so."""

    name: str = "forgets-tapped"
    version: str = "0"
    capabilities: Any = ReferenceEngine().capabilities

    def start(self, setup: Setup) -> Any:
        untapped = tuple(p.__class__(**{**vars(p), "tapped": False}) for p in setup.permanents)
        return ReferenceEngine().start(Setup(**{**vars(setup), "permanents": untapped}))


def test_a_wrong_start_position_is_named_field_by_field() -> None:
    out = io.StringIO()
    failed = run_checks(ForgetsTapped(), CHECKS, out, timeout=10)
    text = out.getvalue()
    assert failed >= 1
    assert "FAIL  start position\n" in text
    assert "engine error: the adapter did not set up the position" in text
    assert "p1 tapped: setup True, engine False" in text


def test_checks_an_engine_lacks_capabilities_for_are_skipped_with_the_reason() -> None:
    engine = ReferenceEngine(capabilities=frozenset())
    out = io.StringIO()
    assert run_checks(engine, CHECKS, out, timeout=10) == 0
    text = out.getvalue()
    assert "skip  a token phases out and back (R2017-tokens): needs tokens" in text
    assert "ok    untap step phasing (702.26a)" in text


def test_an_unknown_engine_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_engine("no-such-engine", io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("phasecert: error: no engine named 'no-such-engine'")
    assert err.count("\n") == 1


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (Node.js 20+) on PATH")
def test_the_node_engine_passes_every_check_through_stdio() -> None:
    code, text = run(f"stdio:@{NODE_ENGINE}")
    assert code == 0, text
    assert text.startswith("node-example 1.0.0: ")
    assert text.count("\nok    ") == len(CHECKS)


def test_a_crashing_engine_process_is_an_engine_error_per_check() -> None:
    faulty = Path(__file__).with_name("engines") / "faulty.py"
    engine = load_engine(f"stdio:{shlex.quote(sys.executable)} {shlex.quote(str(faulty))} crash")
    out = io.StringIO()
    try:
        failed = run_checks(engine, CHECKS[:3], out, timeout=10)
    finally:
        engine.close()
    text = out.getvalue()
    # It crashes at the second action of a game: the start still checks out,
    # and each later game runs in a fresh process.
    assert failed == 2
    assert "ok    start position" in text
    assert text.count("engine error: ") == 2
    assert "exited with code 3" in text
    assert "faulty engine: committing crash" in text  # the tail of its stderr


@dataclass
class _DrawStepGame:
    """A reference game shown as an engine that numbers turns from 100 and
    draws a card in each draw step would show it."""

    game: Any
    draws: int = 0

    def observe(self) -> Observation:
        return self._shown(self.game.observe())

    def perform(self, action: Action) -> Observation:
        if isinstance(action, PassTurn):
            self.draws += 1
        return self._shown(self.game.perform(action))

    def _shown(self, obs: Observation) -> Observation:
        players = tuple(
            replace(p, cards_drawn=p.cards_drawn + self.draws) if p.index == obs.active else p
            for p in obs.players
        )
        return replace(obs, turn=obs.turn + 99, players=players)


@dataclass(frozen=True)
class DrawsInTheDrawStep:
    name: str = "draws-in-the-draw-step"
    version: str = "0"
    capabilities: Any = ReferenceEngine().capabilities

    def start(self, setup: Setup) -> _DrawStepGame:
        return _DrawStepGame(ReferenceEngine().start(setup))


def test_draw_step_draws_and_turn_numbers_are_not_held_against_an_engine() -> None:
    """docs/observations.md: no certified rule governs them."""
    out = io.StringIO()
    assert run_checks(DrawsInTheDrawStep(), CHECKS, out, timeout=10) == 0, out.getvalue()
