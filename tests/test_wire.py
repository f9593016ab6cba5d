"""The engine protocol's messages (conformance/wire.py) and their schema:
the committed schema is the generated one, every message validates against
it and round-trips, and a malformed line is named, not a traceback."""

from __future__ import annotations

import json
import re
from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path

import pytest

from conformance import actions as a
from conformance import wire
from conformance.json_schema import protocol_schema
from conformance.observation import Event, Observation, PermanentView, PlayerView
from conformance.setup import (
    BoostEffect,
    ControlEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
    SkipUntap,
)

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "protocol.schema.json"
SETUP = Setup(
    players=3,
    permanents=(
        Permanent("p1", phasing=2, counters=(("+1/+1", 2),), power=2, toughness=2),
        Permanent("p2", types=("enchantment",), attachment="aura", attached_to="p1"),
        Permanent("p3", owner=1, phased_out=PhasedOut("direct", 1, "p1")),
    ),
    effects=(ControlEffect("p1", 2, Duration("as_long_as_you_control", "p3")),),
)
OBSERVATION = Observation(
    2,
    1,
    (PlayerView(0), PlayerView(1, life=24), PlayerView(2, in_game=False)),
    (PermanentView("p1", "battlefield", True, "direct", 0, counters=(("+1/+1", 2),)),),
    (Event("phased_out", "p1", "direct"),),
    None,
)
MESSAGES = [
    wire.Hello("hello", 1, wire.PROTOCOL_VERSION),
    wire.Start("start", 2, SETUP),
    wire.Start("start", 5, SETUP, (a.PassTurn(), a.PhaseOut(0, ("p1", "p2")))),
    wire.Perform("perform", 3, a.DeclareAttackers(0, ("p1",), 1)),
    wire.Stop("stop", 4),
    wire.HelloReply(
        1,
        1,
        wire.EngineInfo(
            "mtgsim",
            "1.0",
            ("tokens",),
            "Java",
            "https://example.invalid",
            (wire.MissingCapability("auras", "no Auras yet"),),
            ("events",),
            wants_actions=True,
        ),
    ),
    wire.ObservationReply(3, OBSERVATION),
    wire.StopReply(4, True),
    wire.ErrorReply(2, "can't set up a position with 3 players"),
]


def test_the_committed_schema_is_generated_from_the_messages() -> None:
    committed = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert committed == protocol_schema(), (
        "schemas/protocol.schema.json is stale: python -m conformance.json_schema > "
        "schemas/protocol.schema.json"
    )


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_messages_validate_and_round_trip(message: object) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    line = wire.encode(message)
    assert line.endswith("\n") and "\n" not in line[:-1]
    data = wire.parse_line(line)
    name = type(message).__name__
    jsonschema.Draft202012Validator({**protocol_schema(), "$ref": f"#/$defs/{name}"}).validate(data)
    if name in ("Hello", "Start", "Perform", "Stop"):
        assert wire.decode_request(data) == message
    else:
        assert wire.decode_reply(data, type(message)) == message


def test_the_schema_rejects_what_the_decoder_rejects() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator({**protocol_schema(), "$ref": "#/$defs/Perform"})
    bad = {"cmd": "perform", "id": 3, "action": {"type": "PhaseOut", "caster": 0}}
    assert list(validator.iter_errors(bad))
    with pytest.raises(wire.ProtocolError, match=r"missing field 'targets'"):
        wire.decode_request(bad)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("{not json", "not a JSON line"),
        ("[1, 2]", "not a JSON object"),
        ('{"cmd": "dance", "id": 1}', "expected one of hello, start, perform, stop"),
        ('{"cmd": "start", "id": 1, "setup": {"players": "two"}}', "$.setup.players"),
        ("[" * 100_000, "not a JSON line"),
    ],
)
def test_malformed_requests_are_named(line: str, says: str) -> None:
    with pytest.raises(wire.ProtocolError) as e:
        wire.decode_request(wire.parse_line(line))
    assert says in str(e.value)


def _defaults_table() -> dict[str, str]:
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    return {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)` \| (.*) \|$", text, re.M)}


def _vocabulary_types() -> list[type]:
    kinds = [Setup, Permanent, PhasedOut, ControlEffect, BoostEffect, Duration, SkipUntap]
    kinds += [PermanentView, PlayerView, Event, Observation]
    return kinds + [t for t in vars(a).values() if isinstance(t, type) and is_dataclass(t)]


@pytest.mark.parametrize("kind", _vocabulary_types(), ids=lambda t: t.__name__)
def test_the_protocol_doc_lists_every_default(kind: type) -> None:
    """docs/protocol.md's table of omittable fields names each field with a
    default, and its value as JSON: an engine author writes from it."""
    row = _defaults_table().get(kind.__name__, "")
    for f in fields(kind):
        if f.default is not MISSING:
            assert f"`{f.name}` `{json.dumps(f.default)}`" in row, (kind.__name__, f.name)
        elif f.default_factory is not MISSING:
            assert f"`{f.name}`" in row, (kind.__name__, f.name)
