"""The engine protocol's messages: newline-delimited JSON between phasecert
and an engine in its own process, in any language (docs/protocol.md).

phasecert sends requests on the engine's stdin, one JSON object a line; the
engine answers each on its stdout, one line, echoing the request's `id`.
Setups, actions and observations have exactly the shapes
`conformance.codec` writes, so an engine author reads one vocabulary.
`schemas/protocol.schema.json` is generated from these dataclasses
(`python -m conformance.json_schema`), so it cannot drift from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from conformance import wire_json
from conformance.actions import Action
from conformance.codec import DecodeError, from_data, to_data
from conformance.observation import Observation
from conformance.setup import Setup

#: The protocol version this phasecert speaks; `hello` carries it.
PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class Hello:
    """First request of a session: which protocol phasecert speaks."""

    cmd: Literal["hello"]
    id: int
    protocol: int


@dataclass(frozen=True)
class Start:
    """A new game in the position `setup`; ends any game in progress.
    `actions` are the actions that will follow, one `perform` each: sent
    only to an engine that asks for them in its `hello`
    (`EngineInfo.wants_actions`)."""

    cmd: Literal["start"]
    id: int
    setup: Setup
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True)
class Perform:
    """Play `action` in the game in progress through the engine's own moves."""

    cmd: Literal["perform"]
    id: int
    action: Action


@dataclass(frozen=True)
class Stop:
    """The session is over: answer, then exit."""

    cmd: Literal["stop"]
    id: int


Request = Hello | Start | Perform | Stop


@dataclass(frozen=True)
class MissingCapability:
    """A capability the engine lacks, and why (shown next to every "not
    applicable" it causes)."""

    capability: str
    reason: str


@dataclass(frozen=True)
class EngineInfo:
    """Who the engine is and what it can play. `capabilities` and the keys
    of `missing` are capability names (`phasecert engines` lists them);
    `unreported` names observation fields it does not report. With
    `wants_actions`, each `start` carries the actions that will follow
    (`adapters.protocol.start_game`)."""

    name: str
    version: str
    capabilities: tuple[str, ...]
    language: str = ""
    homepage: str = ""
    missing: tuple[MissingCapability, ...] = ()
    unreported: tuple[str, ...] = ()
    wants_actions: bool = False


@dataclass(frozen=True)
class HelloReply:
    """The answer to `hello`: the protocol version the engine speaks, and
    who it is."""

    id: int
    protocol: int
    engine: EngineInfo


@dataclass(frozen=True)
class ObservationReply:
    """The answer to `start` (the position set up) and to `perform` (the
    game after the action; a refused action is `observation.refused`)."""

    id: int
    observation: Observation


@dataclass(frozen=True)
class StopReply:
    """The answer to `stop`."""

    id: int
    stopped: Literal[True]


@dataclass(frozen=True)
class ErrorReply:
    """The engine could not do what was asked (a position it can't set up,
    an internal error): `error` says why. A refused action is not an
    error: it is an observation with `refused`. With `inexpressible`, the
    engine has no move for this action in this position though it declares
    its capability (a capability had only in part): the example is set
    aside, counting toward neither a pass nor a failure."""

    id: int
    error: str
    inexpressible: bool = False


Reply = HelloReply | ObservationReply | StopReply | ErrorReply

#: Every message, by the name its schema has in schemas/protocol.schema.json.
MESSAGES: tuple[type, ...] = (
    Hello,
    Start,
    Perform,
    Stop,
    HelloReply,
    ObservationReply,
    StopReply,
    ErrorReply,
)
_REQUESTS: dict[str, type] = {"hello": Hello, "start": Start, "perform": Perform, "stop": Stop}


class ProtocolError(ValueError):
    """A line that is not a well-formed message; the text names the field."""


def encode(message: Any) -> str:
    """One line of JSON, newline included."""
    return wire_json.dumps(to_data(message)) + "\n"


def parse_line(line: str | bytes) -> dict[str, Any]:
    """The JSON object on `line`, or ProtocolError saying what it is instead."""
    try:
        data = wire_json.loads(line)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"not a JSON line ({e}): {_excerpt(line)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"not a JSON object: {_excerpt(line)}")
    return data


def decode_request(data: dict[str, Any]) -> Request:
    """The request `data` is, by its `cmd`."""
    kind = _REQUESTS.get(data.get("cmd"))  # type: ignore[arg-type]
    if kind is None:
        known = ", ".join(_REQUESTS)
        raise ProtocolError(f"$.cmd: expected one of {known}, got {data.get('cmd')!r}")
    return _decode(kind, data)  # type: ignore[no-any-return]


def decode_reply(data: dict[str, Any], expected: type) -> Any:
    """The reply `data` is: an `ErrorReply` if it has `error`, else a value
    of `expected` (the reply type of the request it answers)."""
    return _decode(ErrorReply if "error" in data else expected, data)


def _decode(kind: type, data: dict[str, Any]) -> Any:
    try:
        return from_data(kind, data)
    except (DecodeError, RecursionError) as e:
        raise ProtocolError(f"{kind.__name__}: {e}") from None


def _excerpt(line: str | bytes, limit: int = 200) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "…")
