"""The stdio adapter: any engine, in any language, in its own process.

`--engine stdio:'node engine.mjs'` runs the command and speaks the engine
protocol with it (`conformance.wire`, docs/protocol.md): newline-delimited
JSON on its stdin and stdout. `--engine stdio:@engine.json` reads the same
from a connection file (`Connection`: command, working directory, timeout,
memory ceiling), like Bowtie's connection specs, with no entry point to
install.

The process is the engine's, so it can crash, hang, leak or print garbage
without taking the suite down: every request has a timeout, a process that
fails is killed, the failure is raised with the tail of its stderr (the
suite reports it as an engine error for that example), and the next game
starts a fresh process.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import selectors
import shlex
import subprocess
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapters.protocol import Inexpressible
from conformance import wire
from conformance.actions import Action
from conformance.capabilities import Capability
from conformance.observation import Observation
from conformance.scenario import Scenario
from conformance.setup import Setup

STDIO_PREFIX = "stdio:"
#: Set (to anything) to check every message against schemas/protocol.schema.json.
VALIDATE_ENV = "PHASECERT_VALIDATE_PROTOCOL"
_STDERR_LINES = 20
_LINE_LIMIT = 16 * 1024 * 1024


@dataclass(frozen=True)
class Connection:
    """How to run an engine: its command line, working directory, seconds a
    request may take, and a memory ceiling for its process (MiB)."""

    command: tuple[str, ...]
    cwd: str | None = None
    timeout: float = 10.0
    memory_mb: int = 4096


class EngineProcessError(RuntimeError):
    """The engine process failed: it crashed, hung, or broke the protocol."""


def connection_of(spec: str) -> Connection:
    """The connection a `stdio:COMMAND` or `stdio:@FILE` spec describes;
    ValueError says what is wrong with it."""
    body = spec.removeprefix(STDIO_PREFIX).strip()
    if body.startswith("@"):
        path = Path(body[1:])
        try:
            connection = _connection_from(json.loads(path.read_text(encoding="utf-8")))
        except OSError as e:
            raise ValueError(f"connection file {path}: {e.strerror}") from None
        except (ValueError, RecursionError) as e:
            raise ValueError(f"connection file {path}: {e}") from None
        if connection.cwd is None:
            connection = Connection(**{**vars(connection), "cwd": str(path.parent)})
    else:
        try:
            connection = Connection(tuple(shlex.split(body)))
        except ValueError as e:
            raise ValueError(f"{spec!r}: {e}") from None
    if not connection.command:
        raise ValueError(f"{spec!r} names no command to run")
    if not (0 < connection.timeout <= 3600 and 16 <= connection.memory_mb <= 1 << 20):
        raise ValueError(f"{spec!r}: timeout must be in (0, 3600] s and memory_mb in [16, 1048576]")
    return connection


def _connection_from(data: object) -> Connection:
    """A `Connection` out of a connection file's JSON, strictly."""
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    unknown = set(data) - {"command", "cwd", "timeout", "memory_mb"}
    if unknown:
        raise ValueError(f"unknown field(s) {sorted(unknown)}; expected command, cwd, timeout")
    command = data.get("command")
    if not isinstance(command, list) or not all(isinstance(c, str) for c in command):
        raise ValueError("$.command: expected a list of strings (the program, then arguments)")
    cwd = data.get("cwd")
    timeout = data.get("timeout", Connection.timeout)
    memory = data.get("memory_mb", Connection.memory_mb)
    if cwd is not None and not isinstance(cwd, str):
        raise ValueError("$.cwd: expected a directory, as a string")
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise ValueError("$.timeout: expected seconds, as a number")
    if isinstance(memory, bool) or not isinstance(memory, int):
        raise ValueError("$.memory_mb: expected MiB, as an integer")
    return Connection(tuple(command), cwd, float(timeout), memory)


class EngineProcess:
    """One running engine process and the requests made to it."""

    def __init__(self, connection: Connection, validate: bool = False) -> None:
        self.connection = connection
        self.validator = _validator() if validate else None
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._buffer = b""
        self._next_id = 0
        try:
            self.process = subprocess.Popen(
                connection.command,
                cwd=connection.cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                preexec_fn=_ceiling(connection.memory_mb),
                start_new_session=True,
            )
        except OSError as e:
            raise EngineProcessError(f"can't run {shlex.join(connection.command)}: {e}") from e
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()
        # One selector for the process's life: making one per reply cost
        # three system calls per `perform` (reports/benchmarks.md, Protocol).
        assert self.process.stdin is not None and self.process.stdout is not None
        self._stdin_fd = self.process.stdin.fileno()
        self._stdout_fd = self.process.stdout.fileno()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout_fd, selectors.EVENT_READ)

    def request(self, message_type: type, expected: type, **fields: Any) -> Any:
        """Send a request, return its reply; raise EngineProcessError (and
        kill the process) if the reply is late, malformed or for another
        request."""
        self._next_id += 1
        message = message_type(cmd=message_type.__name__.lower(), id=self._next_id, **fields)
        try:
            self._write(wire.encode(message).encode())
            data = wire.parse_line(self._read_line())
            if self.validator is not None:
                self._validate(data, expected)
            reply = wire.decode_reply(data, expected)
        except (OSError, wire.ProtocolError, EngineProcessError) as e:
            self.kill()
            raise EngineProcessError(self._explain(f"{message.cmd}: {e}")) from None
        if reply.id != message.id:
            self.kill()
            raise EngineProcessError(
                self._explain(f"{message.cmd}: answered request {reply.id}, not {message.id}")
            )
        if isinstance(reply, wire.ErrorReply) and reply.inexpressible:
            raise Inexpressible(reply.error)
        if isinstance(reply, wire.ErrorReply):
            raise EngineProcessError(self._explain(f"{message.cmd}: the engine said {reply.error}"))
        return reply

    def _write(self, data: bytes) -> None:
        # Straight to the pipe: a buffered write and its flush cost more.
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._stdin_fd, view) :]
        except BrokenPipeError:
            # It exited before reading: what it wrote first, if anything,
            # says why better than its exit does; the read that follows
            # gives that line, or the exit code at the end of its output.
            return

    def _read_line(self) -> bytes:
        deadline = time.monotonic() + self.connection.timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise EngineProcessError(
                    f"no answer within {self.connection.timeout:g} s"
                    + (f" (partial line {self._buffer[:200]!r})" if self._buffer else "")
                )
            chunk = os.read(self._stdout_fd, 65536)
            if not chunk:
                code = self.process.wait(timeout=5)
                raise EngineProcessError(f"the engine process exited with code {code}")
            self._buffer += chunk
            if len(self._buffer) > _LINE_LIMIT:
                raise EngineProcessError(f"a line longer than {_LINE_LIMIT} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _validate(self, data: dict[str, Any], expected: type) -> None:
        kind = wire.ErrorReply if "error" in data else expected
        assert self.validator is not None
        errors = sorted(self.validator(kind).iter_errors(data), key=lambda e: e.json_path)
        if errors:
            first = errors[0]
            raise wire.ProtocolError(
                f"{kind.__name__} breaks the schema at {first.json_path}: {first.message}"
            )

    def _explain(self, what: str) -> str:
        if not self.alive:
            # Killed or gone: its stderr is at its end; read it all first.
            self._stderr_reader.join(timeout=2)
        tail = "\n".join(self._stderr)
        return f"{what}" + (f"\n--- the engine's stderr ended with:\n{tail}" if tail else "")

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            self._stderr.append(raw.decode("utf-8", "replace").rstrip()[:500])

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> str | None:
        """Ask the engine to stop, and make sure it has; what went wrong, if
        anything (an engine that exits without answering `stop` breaks the
        protocol, though no game suffers)."""
        problem = None
        if self.alive:
            try:
                self.request(wire.Stop, wire.StopReply)
            except EngineProcessError as e:
                problem = str(e)
        self.kill()
        return problem

    def kill(self) -> None:
        if self.alive:
            try:
                os.killpg(self.process.pid, 9)
            except OSError:
                self.process.kill()
        self.process.wait()
        if self._selector.get_map() is not None:  # None once closed
            self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def _ceiling(memory_mb: int) -> Any:
    def limit() -> None:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))

    return limit


def _validator() -> Any:
    try:
        import jsonschema
    except ImportError:
        raise EngineProcessError(
            "--validate-protocol needs the jsonschema package: pip install jsonschema"
        ) from None
    from conformance.json_schema import protocol_schema

    schema = {k: v for k, v in protocol_schema().items() if k != "anyOf"}
    cache: dict[type, Any] = {}

    def of(kind: type) -> Any:
        if kind not in cache:
            cache[kind] = jsonschema.Draft202012Validator(
                {**schema, "$ref": f"#/$defs/{kind.__name__}"}
            )
        return cache[kind]

    return of


class StdioEngine:
    """Implements `adapters.protocol.Engine` for an engine process; who it
    is and what it can play come from its `hello`."""

    def __init__(self, spec: str) -> None:
        self.connection = connection_of(spec)
        self.validate = bool(os.environ.get(VALIDATE_ENV))
        self._process: EngineProcess | None = None
        info = self._running().request(wire.Hello, wire.HelloReply, protocol=wire.PROTOCOL_VERSION)
        if info.protocol != wire.PROTOCOL_VERSION:
            self.close()
            raise ValueError(
                f"the engine speaks protocol {info.protocol}; phasecert speaks "
                f"{wire.PROTOCOL_VERSION}"
            )
        engine = info.engine
        self.name: str = engine.name
        self.version: str = engine.version
        self.language: str = engine.language
        self.homepage: str = engine.homepage
        self.capabilities = frozenset(_capability(c) for c in engine.capabilities)
        self.missing = {_capability(m.capability): m.reason for m in engine.missing}
        self.unreported = frozenset(engine.unreported)
        self.wants_actions = engine.wants_actions

    def _running(self) -> EngineProcess:
        if self._process is None or not self._process.alive:
            self._process = EngineProcess(self.connection, self.validate)
            if hasattr(self, "name"):
                self._process.request(wire.Hello, wire.HelloReply, protocol=wire.PROTOCOL_VERSION)
        return self._process

    def start(self, setup: Setup) -> StdioGame:
        return self.start_scenario(Scenario(setup))

    def start_scenario(self, scenario: Scenario) -> StdioGame:
        """A game in `scenario`'s position; its actions go with `start` to
        an engine that asked for them in its `hello`, and to no other (one
        written before they could be sent would take them for a bad
        request)."""
        process = self._running()
        actions = scenario.actions if self.wants_actions else ()
        reply = process.request(
            wire.Start, wire.ObservationReply, setup=scenario.setup, actions=actions
        )
        return StdioGame(process, reply.observation)

    def close(self) -> None:
        """Stop the engine process; a bad stop is a warning, since every
        game's verdict is in by then."""
        if self._process is not None:
            problem = self._process.stop()
            self._process = None
            if problem:
                warnings.warn(f"{self.name} did not stop cleanly: {problem}", stacklevel=2)


class StdioGame:
    """A game in an engine process. A game whose process failed raises on
    every later move; the next `start` runs a new process."""

    def __init__(self, process: EngineProcess, first: Observation) -> None:
        self.process = process
        self.last = first
        self.fresh = True

    def observe(self) -> Observation:
        if self.fresh:
            self.fresh = False
            return self.last
        return Observation(
            self.last.turn, self.last.active, self.last.players, self.last.permanents
        )

    def perform(self, action: Action) -> Observation:
        if not self.process.alive:
            raise EngineProcessError("the engine process of this game is gone")
        reply = self.process.request(wire.Perform, wire.ObservationReply, action=action)
        self.last, self.fresh = reply.observation, False
        return self.last


def _capability(name: str) -> Capability:
    try:
        return Capability(name)
    except ValueError:
        known = ", ".join(sorted(Capability))
        raise ValueError(f"the engine names {name!r}, not a capability ({known})") from None
