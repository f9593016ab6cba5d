"""Splitting a run into shards for a CI matrix: `--shard I/N` keeps every
N-th test, so N runners together run each test exactly once.

The split depends only on the test names, sorted, never on timing or
hashing, so shard I/N holds the same properties on every machine and every
run; `phasecert merge` then puts the shard reports back together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

_SHARD = re.compile(r"^(\d+)/(\d+)$")


def parse_shard(text: str) -> tuple[int, int]:
    """`"2/4"` → (2, 4); a clear error for anything else."""
    match = _SHARD.match(text.strip())
    if match:
        index, count = int(match[1]), int(match[2])
        if 1 <= index <= count:
            return index, count
    raise ValueError(f"--shard {text!r}: expected I/N with 1 ≤ I ≤ N, e.g. 2/4")


def in_shard(names: Sequence[str], index: int, count: int) -> set[str]:
    """The names shard `index` of `count` runs: every count-th of the sorted
    names, starting at the index-th."""
    return {name for i, name in enumerate(sorted(set(names))) if i % count == index - 1}


def item_key(prop: str) -> str:
    """The name of the suite's test item of property `prop`."""
    return f"test_property[{prop}]"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("phasecert").addoption(
        "--shard", metavar="I/N", help="run only shard I of N (1-based), e.g. 2/4"
    )


def pytest_configure(config: pytest.Config) -> None:
    text = config.getoption("shard", None)
    if text:
        try:
            parse_shard(text)
        except ValueError as e:
            raise pytest.UsageError(str(e)) from None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Last: the split is of the tests left after -k and -m, as
    # `phasecert certify` plans it.
    text = config.getoption("shard", None)
    if not text:
        return
    kept = in_shard([item.name for item in items], *parse_shard(text))
    deselected = [item for item in items if item.name not in kept]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item.name in kept]
