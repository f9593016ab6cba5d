"""`phasecert serve --engine NAME`: an installed Python adapter, served over
the engine protocol (docs/protocol.md) on stdin and stdout.

With it any Python engine runs out of process like an engine in another
language: `--engine stdio:'phasecert serve --engine phase-rs'`, or
`phasecert certify --isolate`. What the engine itself prints goes to stderr,
so it cannot corrupt the protocol on stdout.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any, Protocol

from adapters.discovery import load_engine
from adapters.protocol import Inexpressible, missing_capabilities, start_game, wants_actions
from conformance import __version__, wire
from conformance.scenario import Scenario


class Replies(Protocol):
    """Where replies go: a text file, or `_Pipe`."""

    def write(self, text: str, /) -> Any: ...

    def flush(self) -> Any: ...


def serve(engine_name: str, requests: Iterable[str | bytes], replies: Replies) -> int:
    """Answer requests (lines, text or UTF-8) until `stop` or the end of
    input; 0 either way."""
    engine = load_engine(engine_name)
    game: Any = None
    for line in requests:
        if not line.strip():
            continue
        request_id = 0
        try:
            data = wire.parse_line(line)
            request_id = data.get("id", 0) if isinstance(data.get("id"), int) else 0
            request = wire.decode_request(data)
        except wire.ProtocolError as e:
            _send(replies, wire.ErrorReply(request_id, f"bad request: {e}"))
            continue
        try:
            match request:
                case wire.Hello():
                    reply: Any = wire.HelloReply(
                        request.id, wire.PROTOCOL_VERSION, engine_info(engine)
                    )
                case wire.Start(setup=setup, actions=actions):
                    game = start_game(engine, Scenario(setup, actions))
                    reply = wire.ObservationReply(request.id, game.observe())
                case wire.Perform(action=action) if game is not None:
                    reply = wire.ObservationReply(request.id, game.perform(action))
                case wire.Perform():
                    reply = wire.ErrorReply(request.id, "perform before any start")
                case wire.Stop():
                    _send(replies, wire.StopReply(request.id, True))
                    return 0
        except Inexpressible as e:
            reply = wire.ErrorReply(request.id, str(e), inexpressible=True)
        except Exception as e:  # the engine's failure, reported to the client
            reply = wire.ErrorReply(request.id, f"{type(e).__name__}: {e}")
        _send(replies, reply)
    return 0


def engine_info(engine: Any) -> wire.EngineInfo:
    """What `hello` says about an in-process engine."""
    return wire.EngineInfo(
        name=engine.name,
        version=str(engine.version),
        capabilities=tuple(sorted(c.value for c in engine.capabilities)),
        language="Python",
        homepage=getattr(engine, "homepage", "") or "",
        missing=tuple(
            wire.MissingCapability(c.value, reason)
            for c, reason in sorted(missing_capabilities(engine).items())
        ),
        unreported=tuple(sorted(getattr(engine, "unreported", ()) or ())),
        wants_actions=wants_actions(engine),
    )


def _send(replies: Replies, reply: Any) -> None:
    replies.write(wire.encode(reply))
    replies.flush()


class _Pipe:
    """Replies written straight to the protocol's file descriptor, each at
    once: a text file's layers and its flush cost more per reply."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, text: str) -> None:
        view = memoryview(text.encode())
        while view:
            view = view[os.write(self.fd, view) :]

    def flush(self) -> None:
        """Nothing is buffered."""


def serve_stdio(engine_name: str) -> int:
    """`serve` on this process's stdin and stdout, with the engine's own
    prints moved to stderr."""
    protocol = _Pipe(os.dup(sys.stdout.fileno()))
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    print(f"phasecert {__version__} serving {engine_name}", file=sys.stderr)
    return serve(engine_name, sys.stdin.buffer, protocol)
