"""Sharing and scale: the Hypothesis example database in Redis, and parallel
runs with pytest-xdist, give the same reports as a plain run.

The Redis test needs a real `redis-server`: CI starts one on loopback and
sets PHASECERT_TEST_REDIS_URL (e.g. redis://127.0.0.1:6390/0).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conformance.cli import main

MUTANT = "mutant:untap-before-phasing"
FAST = ["--profile", "dev", "--rule", "502.1"]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def statuses(report_dir: Path) -> dict[str, str]:
    report = json.loads((report_dir / "report.json").read_text())
    return {p["name"]: p["status"] for p in report["properties"]}


def redis_url() -> str:
    url = os.environ.get("PHASECERT_TEST_REDIS_URL")
    if not url:
        pytest.skip("PHASECERT_TEST_REDIS_URL is not set (CI starts redis-server and sets it)")
    redis = pytest.importorskip("redis", reason="needs hypothesis[redis]")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as e:
        pytest.skip(f"no Redis at {url}: {e}")
    return url


def test_counterexamples_are_shared_through_redis(capsys: pytest.CaptureFixture[str]) -> None:
    import redis

    url = redis_url()
    client = redis.Redis.from_url(url)
    client.flushdb()
    args = ["certify", "--engine", MUTANT, *FAST, "--example-db", url]
    assert main([*args, "--out", "runner1/m"]) == 1
    keys = client.keys(b"hypothesis-example:*")
    assert keys, "the failing example was not saved to Redis"
    # A second runner, without the first one's corpus, finds it again from Redis.
    assert main([*args, "--out", "runner2/m"]) == 1
    assert statuses(Path("runner1/m")) == statuses(Path("runner2/m"))
    capsys.readouterr()


def test_unreachable_redis_is_a_setup_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("redis", reason="needs hypothesis[redis]")
    code = main(["certify", "--engine", "reference", "--example-db", "redis://127.0.0.1:1/0"])
    err = capsys.readouterr().err
    assert code == 2 and "--example-db redis://127.0.0.1:1/0: can't reach Redis" in err


@pytest.mark.thorough
def test_parallel_run_gives_the_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("xdist", reason="needs pytest-xdist")
    assert main(["certify", "--engine", MUTANT, *FAST, "-n", "2", "--out", "parallel/m"]) == 1
    assert statuses(Path("parallel/m")) == {"untap_step_untaps_after_phasing": "fail"}
    capsys.readouterr()
