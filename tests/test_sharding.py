"""Sharding: the shards of a run partition its tests, the same way every time."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.agreement_results import COMPARISON
from conformance.cli.certify import _pytest_args, planned_tests
from conformance.sharding import in_shard, item_key, parse_shard


def test_parse_shard() -> None:
    assert parse_shard("2/4") == (2, 4)
    for bad in ("0/2", "3/2", "a/b", "2", "1/0", "-1/2"):
        with pytest.raises(ValueError, match=r"--shard .*expected I/N"):
            parse_shard(bad)


@given(st.lists(st.text(min_size=1), unique=True), st.integers(1, 6))
def test_shards_partition_the_tests(names: list[str], count: int) -> None:
    shards = [in_shard(names, i, count) for i in range(1, count + 1)]
    assert set().union(*shards) == set(names)
    assert sum(len(s) for s in shards) == len(names)
    sizes = [len(s) for s in shards]
    assert max(sizes) - min(sizes) <= 1


def test_shards_do_not_depend_on_order() -> None:
    names = [f"test_property[p{i}]" for i in range(7)]
    assert in_shard(names, 2, 3) == in_shard(list(reversed(names)), 2, 3)


class _Collected:
    def __init__(self) -> None:
        self.names: set[str] = set()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.names = {item.name for item in session.items}


@pytest.mark.parametrize(
    ("rules", "shard"),
    [(["702.26b"], "1/2"), (["702.26b"], "2/2"), (["502.1", "702.26p"], "2/3"), ([], "3/4")],
)
def test_the_planner_and_pytest_split_alike(
    rules: list[str], shard: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`phasecert certify` plans (and watches) the tests its pytest run holds."""
    args = argparse.Namespace(
        engine="reference",
        profile="dev",
        rule=rules,
        shard=shard,
        seed=None,
        example_db=None,
        workers=None,
        engine_timeout=30.0,
        validate_protocol=False,
        edition="current",
    )
    collected = _Collected()
    pytest_args = _pytest_args(args, tmp_path / "corpus", tmp_path)
    pytest.main([*pytest_args, "--collect-only"], plugins=[collected])
    capsys.readouterr()
    planned = planned_tests(rules, shard)
    keys = {
        item_key(name) if name != COMPARISON else "test_agrees_with_reference" for name in planned
    }
    assert collected.names and keys == collected.names
