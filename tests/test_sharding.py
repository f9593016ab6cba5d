"""Sharding: the shards of a run partition its tests, the same way every time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.sharding import in_shard, parse_shard


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
