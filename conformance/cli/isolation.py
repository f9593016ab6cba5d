"""Running the pytest run of `phasecert certify` in a child process, so that
an engine cannot take the suite down with it.

The engine runs inside the suite's process. One that calls `os._exit`,
crashes the interpreter, holds the GIL (so the per-call timeout thread never
gets to run) or leaks memory would otherwise end the run with no verdict,
or with an old report left in place. Here the run happens in a forked child
under a memory ceiling; it streams each property's result to the parent as
one JSON line on a pipe, with a heartbeat from a thread. When the child dies
or goes silent, the parent blames the property that was running ("the engine
killed the run" / "hung"), and starts a new child for the properties left.

Anything else that fails in the child (Redis going away, a bug of the
suite) is not the engine's fault: the run stops and the CLI says what failed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

from conformance.agreement_results import COMPARISON
from conformance.cli.watching import RunWatcher
from conformance.codec import to_data
from conformance.corpus import decode_result, result_of
from conformance.escaping import cut
from conformance.results import PropertyResult

#: Address space the engine may take beyond what the suite already uses.
DEFAULT_MEMORY_MB = 2048
#: Seconds between heartbeats of a healthy child.
_BEAT = 0.5
#: Silence allowed beyond the engine timeout before the child counts as hung:
#: the child's own timeout thread reports a hang that lets the GIL go.
_GRACE = 5.0
_PROPERTY_ITEM = re.compile(r"test_property\[(?P<name>.+)\]$")


class InfrastructureFailure(Exception):
    """Something that is not the engine failed (the example database, the
    suite itself): the run can't give a verdict."""


def property_of_item(nodeid: str) -> str:
    match = _PROPERTY_ITEM.search(nodeid)
    return match["name"] if match else COMPARISON


def run_isolated(
    pytest_args: list[str],
    watcher: RunWatcher,
    *,
    timeout: float,
    storage: Path,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> int:
    """Run pytest on `pytest_args` in child processes until every planned
    property has a result; each result goes to `watcher`. Hypothesis keeps
    its files under `storage`. The last child's pytest exit code."""
    done: set[str] = set()
    child = _ChildRun(pytest_args, watcher.planned, storage, memory_mb)
    while True:
        exit_code, started = _one_child(child, watcher, done, timeout)
        if exit_code is not None:
            return exit_code
        if not started:
            raise InfrastructureFailure(
                "the test process died before any property started; see its message above"
            )


@dataclass(frozen=True)
class _ChildRun:
    """What every child is to run."""

    pytest_args: list[str]
    planned: Mapping[str, tuple[str, ...]]
    storage: Path
    memory_mb: int


def _one_child(
    child: _ChildRun, watcher: RunWatcher, done: set[str], timeout: float
) -> tuple[int | None, list[str]]:
    """One child: its pytest exit code, or None and the properties it
    started before it died (those without a result now have an engine-error
    one, blaming them)."""
    read_end, write_end = os.pipe()
    # What the parent buffered must not be printed by the child as well.
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child
        code = 70
        try:
            _own_process_group()
            os.close(read_end)
            code = _child(child, frozenset(done), write_end)
        finally:
            # Whatever happens, the child never returns into the parent's code.
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    # Both sides set it, so `_kill` finds the group whichever runs first.
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    os.close(write_end)
    started: list[str] = []
    try:
        outcome = _follow(pid, read_end, watcher, done, started, timeout + _GRACE)
    except BaseException:
        _kill(pid)
        raise
    finally:
        os.close(read_end)
    if isinstance(outcome, int):
        return outcome, started
    for name in started:
        if name not in done:
            rules = watcher.planned.get(name, ())
            watcher.record(PropertyResult(name, rules, "engine-error", message=outcome))
            done.add(name)
    return None, started


def _follow(
    pid: int,
    fd: int,
    watcher: RunWatcher,
    done: set[str],
    started: list[str],
    silence: float,
) -> int | str:
    """Read the child's messages until it ends: its pytest exit code, or why
    it died (the blame for the properties it started and did not finish)."""
    buffer = b""
    heard = time.monotonic()
    exit_code: int | None = None
    while True:
        ready, _, _ = select.select([fd], [], [], _BEAT)
        if not ready:
            if time.monotonic() - heard > silence:
                _kill(pid)
                return (
                    f"the engine hung: the test process gave no sign of life for {silence:g} s "
                    "(the engine held the interpreter), so it was stopped"
                )
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        heard = time.monotonic()
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            try:
                message = json.loads(line)
                if not isinstance(message, dict):
                    raise TypeError(f"{type(message).__name__}, not an object")
                if "start" in message:
                    started.append(str(message["start"]))
                elif "result" in message:
                    result = decode_result(message["result"])
                    # With -n, workers don't leave out what a previous child ran.
                    if result.property not in done:
                        watcher.record(result)
                        done.add(result.property)
            except (ValueError, KeyError, TypeError) as e:
                _kill(pid)
                raise InfrastructureFailure(f"garbled message from the test process ({e})") from e
            if "abort" in message:
                _kill(pid)
                raise InfrastructureFailure(message["abort"])
            elif "exit" in message:
                exit_code = message["exit"]
    _, status = os.waitpid(pid, 0)
    if exit_code is not None:
        return exit_code
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        how = f"signal {sig} ({signal.Signals(sig).name})"
        if sig == signal.SIGKILL:
            how += ", maybe the memory ceiling"
    else:
        how = f"exit code {os.WEXITSTATUS(status)}"
    return f"the engine killed the run: the test process ended with {how} while it played"


def _own_process_group() -> None:
    """The child and the xdist workers it starts form a process group of
    their own, so `_kill` stops them all: a worker left behind would play on
    (a hung engine) or print its broken channel's traceback."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)


def _kill(pid: int) -> None:
    """Stop the child and its workers (`_own_process_group`)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


# -- in the child -------------------------------------------------------------


def _child(child: _ChildRun, done: frozenset[str], fd: int) -> int:
    channel = _Channel(fd)
    _limit_memory(child.memory_mb)
    # Hypothesis's own files (its constants cache) go beside the reports,
    # not into the current directory.
    set_hypothesis_home_dir(child.storage)
    threading.Thread(target=channel.beat, daemon=True, name="phasecert:heartbeat").start()
    code = pytest.main(child.pytest_args, plugins=[_Streamer(child.planned, done, channel)])
    channel.send({"exit": int(code)})
    return 0


class _Channel:
    """JSON lines to the parent; the heartbeat is an empty object."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message) + "\n").encode()
        with self.lock:
            while data:
                data = data[os.write(self.fd, data) :]

    def beat(self) -> None:
        while True:
            self.send({})
            time.sleep(_BEAT)


def _limit_memory(memory_mb: int) -> None:
    """Cap the child's address space: what it uses now, plus `memory_mb`."""
    import resource

    try:
        with open("/proc/self/status", encoding="ascii") as f:
            used = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError):
        used = 0
    limit = used + memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class _Streamer:
    """The child's pytest plugin: leaves out properties already done, and
    sends each start and result to the parent."""

    def __init__(
        self, planned: Mapping[str, tuple[str, ...]], done: frozenset[str], channel: _Channel
    ) -> None:
        self.judge = RunWatcher(planned, open(os.devnull, "w"), live=False)  # noqa: SIM115
        self.done = done
        self.channel = channel

    @pytest.hookimpl(wrapper=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> Any:
        # After every other plugin (--rule, -k, --shard): the shard split
        # must not see which properties a previous child already ran.
        outcome = yield
        left = [i for i in items if property_of_item(i.nodeid) in self.done]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [i for i in items if property_of_item(i.nodeid) not in self.done]
        return outcome

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self.channel.send({"start": property_of_item(nodeid)})

    def pytest_runtest_logreport(self, report: Any) -> None:
        failed_call = report.when == "call" and report.failed
        if report.when == "???":  # pytest-xdist: the worker running it died
            name = property_of_item(report.nodeid)
            message = "the engine killed the run: " + " ".join(report.longreprtext.split()[:40])
            rules = self.judge.planned.get(name, ())
            result = PropertyResult(name, rules, "engine-error", message=message)
            self.channel.send({"result": to_data(result)})
        elif failed_call and result_of(report.user_properties) is None:
            self._unrecorded(report)
        elif report.when == "call" or (report.when == "setup" and not report.passed):
            result = self.judge.result(report)
            if result is not None:
                self.channel.send({"result": to_data(result)})

    def _unrecorded(self, report: Any) -> None:
        """A property that failed without a result of its own: not a rule and
        not an engine call (those are recorded), so Hypothesis or the
        infrastructure under it."""
        crash = getattr(report.longrepr, "reprcrash", None)
        what = crash.message if crash is not None else report.longreprtext.strip()
        name = property_of_item(report.nodeid)
        if "Flaky" in what:
            message = (
                "flaky: a scenario failed, then passed when Hypothesis replayed it "
                f"(does the engine play the same scenario the same way every time?): {what}"
            )
            result = PropertyResult(
                name, self.judge.planned.get(name, ()), "engine-error", message=cut(message)
            )
            self.channel.send({"result": to_data(result)})
            return
        first = what.splitlines()[0] if what else "no message"
        self.channel.send({"abort": f"{name} could not run, not the engine's fault: {cut(first)}"})
