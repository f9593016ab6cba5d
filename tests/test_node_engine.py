"""The Node.js example engine (examples/node-engine/), an engine in another
language speaking the engine protocol natively: it declares what it can't
play, passes the properties it can, agrees with the reference engine, and
answers protocol mistakes with an error reply instead of dying."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from adapters.reference import ReferenceEngine
from adapters.stdio import VALIDATE_ENV, EngineProcessError, StdioEngine
from conformance import actions as a
from conformance.capabilities import ALL_CAPABILITIES
from conformance.checking import profile, run_property
from conformance.differential import run_agreement
from conformance.properties import REGISTRY
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import BoostEffect, Duration, Permanent, PhasedOut, Setup, SkipUntap
from conformance.trace_comparison import first_disagreement

HERE = Path(__file__).resolve().parents[1] / "examples" / "node-engine"
SPEC = f"stdio:@{HERE / 'engine.json'}"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="the Node example engine needs node (Node.js 20+) on PATH"
)


@pytest.fixture(scope="module")
def node(request: pytest.FixtureRequest) -> Iterator[StdioEngine]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(VALIDATE_ENV, "1")  # every reply is checked against the schema
        engine = StdioEngine(SPEC)
    yield engine
    engine.close()


def test_it_declares_every_capability_or_why_it_lacks_it(node: StdioEngine) -> None:
    assert (node.name, node.language) == ("node-example", "JavaScript (Node.js)")
    assert set(node.missing) == ALL_CAPABILITIES - node.capabilities
    assert all(reason.strip() for reason in node.missing.values())


#: Core properties it can play; each must pass (or, for a property without
#: an `exercised` predicate yet, fail only for want of one).
PROPERTIES = (
    "untap_step_phases_out_and_in_at_once",
    "untap_step_untaps_after_phasing",
    "attachments_return_with_their_host",
    "directly_phased_out_attachments_find_their_host",
    "phased_out_until_waits_for_its_source",
    "phased_out_permanents_cannot_be_targeted",
    "phased_out_tokens_stay_and_phase_in",
    "skipped_untap_step_has_no_phasing",
)


@pytest.mark.parametrize("name", PROPERTIES)
def test_it_passes_core_properties_through_stdio(node: StdioEngine, name: str) -> None:
    prop = REGISTRY[name]
    result = run_property(prop, node, using=settings(profile("ci"), max_examples=20))
    expected = "pass" if prop.exercised is not None else "not-exercised"
    assert result.status == expected, result.message
    assert result.examples >= 20


SCENARIOS = {
    "an Aura with phasing on a host with phasing phases out indirectly (702.26h)": Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent("p1", phasing=1, power=1, toughness=1, counters=(("+1/+1", 2),)),
                Permanent(
                    "p2", types=("enchantment",), attachment="aura", attached_to="p1", phasing=1
                ),
            ),
        ),
        (a.PassTurn(), a.DrawPerCreature(0), a.PassTurn(), a.PassTurn()),
    ),
    "Equipment phased out directly finds its host gone and stays (702.26i, 704.5n)": Scenario(
        Setup(
            permanents=(
                Permanent("p1", power=2, toughness=2),
                Permanent(
                    "p2",
                    types=("artifact",),
                    attachment="equipment",
                    attached_to="p1",
                    phased_out=PhasedOut("direct", 0),
                ),
            ),
        ),
        (a.DestroyAll(1), a.PassTurn(), a.PassTurn()),
    ),
    "phased out until its source leaves: back when the source dies, not before (610.4)": Scenario(
        Setup(
            permanents=(
                Permanent("p1", power=1, toughness=1),
                Permanent("p2", types=("artifact",), phasing=1),
            )
        ),
        (
            a.PhaseOutUntil(0, "p2", "p1"),
            a.PassTurn(),
            a.PassTurn(),
            a.Destroy(1, "p2"),
            a.PassTurn(),
            a.PassTurn(),
            a.Destroy(1, "p2"),
        ),
    ),
    "a player leaves with what they own, phased out or not (800.4a, 702.26k, 800.4m)": Scenario(
        Setup(
            players=3,
            permanents=(
                Permanent(
                    "p1",
                    owner=2,
                    controller=2,
                    power=1,
                    toughness=1,
                    phased_out=PhasedOut("direct", 2),
                ),
                Permanent("p2", owner=1, controller=1, power=1, toughness=1),
                Permanent(
                    "p3",
                    owner=2,
                    controller=2,
                    types=("enchantment",),
                    attachment="aura",
                    attached_to="p2",
                ),
                Permanent(
                    "p4", types=("enchantment",), attachment="aura", attached_to=2, phasing=1
                ),
            ),
            effects=(BoostEffect(("p2",), 2, duration=Duration("your_next_turn")),),
        ),
        (a.Concede(2), a.PassTurn(), a.PassTurn(), a.Concede(0), a.PassTurn(), a.PassTurn()),
    ),
    "an attacker that phases out is removed from combat and deals no damage (506.4)": Scenario(
        Setup(
            permanents=(
                Permanent("p1", power=3, toughness=3, counters=(("+1/+1", 1),)),
                Permanent("p2", power=2, toughness=2),
                Permanent("p3", power=1, toughness=1, phased_out=PhasedOut("direct", 0)),
            ),
        ),
        (
            a.DeclareAttackers(0, ("p1", "p3"), 1),
            a.DeclareAttackers(0, ("p1", "p2"), 1),
            a.PhaseOut(1, ("p2",)),
            a.PassTurn(),
            a.PassTurn(),
            a.DeclareAttackers(0, ("p2", "p3"), 1),
            a.PassTurn(),
        ),
    ),
    "phasing fires only phase triggers; leaving fires the rest (603.10b, 702.26d)": Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent(
                    "p1",
                    power=1,
                    toughness=1,
                    phasing=1,
                    abilities=("phases_in", "phases_out", "ltb", "dies", "anthem"),
                ),
                Permanent(
                    "p2",
                    types=("artifact",),
                    attachment="equipment",
                    attached_to="p1",
                    abilities=("unattached", "phases_out", "etb"),
                ),
                Permanent("p3", power=2, toughness=2, abilities=("ltb",)),
            ),
        ),
        (a.PassTurn(), a.DestroyAll(1), a.PassTurn(), a.PassTurn(), a.DestroyAll(1)),
    ),
    "a skipped untap step, then tokens, a fizzling Destroy and a {T} ability": Scenario(
        Setup(
            players=3,
            permanents=(
                Permanent("p1", phasing=2, power=1, toughness=1, abilities=("tap_gain_life",)),
            ),
            effects=(SkipUntap(0),),
        ),
        (
            a.CreateToken(1, "t1"),
            a.Activate(1, "t1"),
            a.Destroy(0, "t1", phased_out_in_response=True),
            a.PassTurn(),
            a.PassTurn(),
            a.PassTurn(),
            a.Activate(0, "p1"),
            a.PassTurn(),
            a.PassTurn(),
            a.PassTurn(),
            a.Activate(0, "p1"),
        ),
    ),
}


@pytest.mark.parametrize("what", sorted(SCENARIOS))
def test_it_agrees_with_the_reference_step_by_step(node: StdioEngine, what: str) -> None:
    scenario = SCENARIOS[what]
    assert scenario.capabilities() <= node.capabilities
    assert first_disagreement(play(ReferenceEngine(), scenario), play(node, scenario)) is None


def test_the_stateful_comparison_finds_no_disagreement(node: StdioEngine) -> None:
    result = run_agreement(node, using=settings(profile("ci"), max_examples=15), timeout=10)
    assert result.status == "pass", result.message


def test_it_refuses_to_fake_a_position_it_cannot_set_up(node: StdioEngine) -> None:
    borrowed = Setup(permanents=(Permanent("p1", owner=1, controller=0, power=1, toughness=1),))
    with pytest.raises(EngineProcessError, match="can't set up this position: p1 is controlled"):
        node.start(borrowed)


def test_bad_requests_get_an_error_reply_and_it_keeps_serving() -> None:
    lines = [
        "garbage",
        "[1, 2]",
        json.dumps({"cmd": "hello"}),
        json.dumps({"cmd": "perform", "id": 1, "action": {"type": "PassTurn"}}),
        json.dumps({"cmd": "dance", "id": 2}),
        json.dumps({"cmd": "start", "id": 3, "setup": {}}),
        json.dumps(
            {
                "cmd": "perform",
                "id": 4,
                "action": {"type": "GainControl", "player": 0, "target": "p1"},
            }
        ),
        json.dumps({"cmd": "stop", "id": 5}),
    ]
    done = subprocess.run(
        ["node", "engine.mjs"],
        cwd=HERE,
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in replies] == [0, 0, 0, 1, 2, 3, 4, 5]
    assert "not JSON" in replies[0]["error"]
    assert "not a JSON object" in replies[1]["error"]
    assert "no integer id" in replies[2]["error"]
    assert replies[3]["error"] == "perform before any start"
    assert "unknown cmd" in replies[4]["error"]
    assert replies[5]["observation"]["turn"] == 1
    assert "can't play GainControl" in replies[6]["error"]
    assert replies[7] == {"id": 5, "stopped": True}


def test_the_session_in_the_protocol_docs_is_what_it_answers() -> None:
    """docs/protocol.md shows a real session: requests, then the replies."""
    doc = (HERE.parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    session = doc.split("## A whole session", 1)[1]
    requests, replies = [block.split("```", 1)[0] for block in session.split("```json\n")[1:3]]
    done = subprocess.run(
        ["node", "engine.mjs"],
        cwd=HERE,
        input=requests,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stdout == replies
