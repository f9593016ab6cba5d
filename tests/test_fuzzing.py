"""HypoFuzz drives the suite's properties (conformance.fuzzing) with two
workers sharing a real Redis example database: the reference engine's runs
land in Redis, and a counterexample one worker finds on a mutant is
replayed, from Redis alone, by a fresh run.

Needs `redis-server` on the PATH (CI installs it, .ci/run); each test starts
its own on a free port in a temporary directory.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conformance import fuzzing
from conformance.properties import REGISTRY

REPO = Path(__file__).resolve().parents[1]
MUTANT = "mutant:untap-before-phasing"
#: Seconds a fuzzing run may take to show what the test waits for: a few on
#: an idle machine, more on a loaded CI runner.
PATIENCE = 180.0

redis = pytest.importorskip("redis", reason="needs hypothesis[redis] (the dev extra)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh redis-server of this test's own, in a temporary directory."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (CI installs it: .ci/run)")
    port = _free_port()
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for(lambda: _answers(url), 10.0, "redis-server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url).ping())
    except redis.RedisError:
        return False


def _wait_for(done: Callable[[], bool], seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise AssertionError(what)
        time.sleep(0.5)


def _env(tmp_path: Path) -> dict[str, str]:
    """The environment of a child run: this checkout and tmp_path importable."""
    path = [str(REPO), str(tmp_path), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


def _suite_args(engine: str, rules: list[str]) -> list[str]:
    rule_args = [arg for rule in rules for arg in ("--rule", rule)]
    return ["--pyargs", "conformance.fuzzing", "--engine", engine, *rule_args]


def _fuzz_until(
    tmp_path: Path, engine: str, rules: list[str], url: str, done: Callable[[], bool]
) -> str:
    """Run `hypothesis fuzz` with two workers until `done()`; its output."""
    log = tmp_path / "fuzz.log"
    command = [
        sys.executable,
        "-c",
        "import hypofuzz.entrypoint; from hypothesis.extra.cli import main; main()",
        "fuzz",
        "-n",
        "2",
        "--no-dashboard",
        "--",
        *_suite_args(engine, rules),
        "--phasecert-example-db",
        url,
    ]
    with log.open("w") as out:
        # Its own session, so the hub, its manager and workers stop together.
        proc = subprocess.Popen(
            command,
            cwd=tmp_path,
            env=_env(tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_for(lambda: done() or proc.poll() is not None, PATIENCE, "fuzzing timed out")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
    return log.read_text()


def _keys(url: str) -> list[bytes]:
    return list(redis.Redis.from_url(url).keys(b"hypothesis-example:*"))


def _failures(url: str) -> list[bytes]:
    """Failing examples in Hypothesis's own keys, which any run replays:
    `<test key>` once shrunk, `<test key>.secondary` before."""
    prefix = len(b"hypothesis-example:")
    return [k for k in _keys(url) if b"hypofuzz" not in k[prefix:]]


def _reports(url: str) -> list[bytes]:
    return [k for k in _keys(url) if k.endswith(b".hypofuzz.reports")]


def test_the_fuzzed_properties_are_plain_hypothesis_tests() -> None:
    """What HypoFuzz looks for: a `@given` test, not derandomized, on the
    default database, with the nested_given health check on."""
    test = fuzzing.test_fuzz_property
    settings = test._hypothesis_internal_use_settings
    assert test.is_hypothesis_test
    assert not settings.derandomize
    assert "nested_given" not in {h.name for h in settings.suppress_health_check}


def _examples_run(url: str) -> int:
    """The most examples a progress report of HypoFuzz's in Redis counts."""
    client = redis.Redis.from_url(url)
    reports = [json.loads(r) for key in _reports(url) for r in client.smembers(key)]
    return max((sum(r["status_counts"].values()) for r in reports), default=0)


@pytest.mark.thorough
def test_hypofuzz_fuzzes_the_reference_into_redis(tmp_path: Path, redis_url: str) -> None:
    rules = ["502.1", "702.26a"]
    tests = sum(1 for p in REGISTRY.values() if set(p.rules) & set(rules))
    client = redis.Redis.from_url(redis_url)

    def registered() -> int:
        return int(client.scard(b"hypothesis-example:hypofuzz.test_keys"))

    # Each worker registers the test it starts on: wait for both workers,
    # not only for the first progress report (with more tests than workers,
    # the rest are registered only as a worker moves on to them).
    output = _fuzz_until(
        tmp_path,
        "reference",
        rules,
        redis_url,
        lambda: _examples_run(redis_url) > 0 and registered() >= 2,
    )
    assert f"using 2 processes to fuzz {tests} tests" in output, output
    assert _examples_run(redis_url) > 0, output
    # Both workers registered a property for fuzzing, and none failed.
    assert 2 <= registered() <= tests, output
    assert _failures(redis_url) == [], output


@pytest.mark.thorough
def test_a_counterexample_found_by_a_worker_is_replayed_from_redis(
    tmp_path: Path, redis_url: str
) -> None:
    output = _fuzz_until(tmp_path, MUTANT, ["502.1"], redis_url, lambda: bool(_failures(redis_url)))
    assert _failures(redis_url), output
    # A fresh run that only replays the database: it fails on what the
    # worker found, and passes with an empty database.
    (tmp_path / "replay_only.py").write_text(
        "from hypothesis import Phase, settings\n"
        "settings.register_profile('replay-only', phases=[Phase.explicit, Phase.reuse])\n"
    )
    replay = [sys.executable, "-m", "pytest", "-p", "replay_only", "--hypothesis-profile"]
    replay += ["replay-only", "-p", "no:cacheprovider", *_suite_args(MUTANT, ["502.1"])]

    def fresh_run(url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*replay, "--phasecert-example-db", url],
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )

    found = fresh_run(redis_url)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "502.1 after action" in found.stdout
    empty = fresh_run(redis_url[: -len("/0")] + "/1")
    assert empty.returncode == 0, empty.stdout + empty.stderr
