"""Every ruling of the 2017-08-25 document (Teferi's Protection's) has a
rule ID in the catalog: each ruling paragraph of the seed holds the phrase
of exactly one ID of `conformance.rulings`, and each ID's phrase is in one."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalog import CATALOG
from conformance.rulings import RULING_PHRASES, SEED

#: The seed beside the checkout (../shared/seeds/), found from any
#: worktree depth.
SEED_FILE = next(
    (
        d / "shared" / "seeds" / SEED
        for d in Path(__file__).parents
        if (d / "shared" / "seeds" / SEED).exists()
    ),
    Path("shared") / "seeds" / SEED,
)
#: The line each ruling of the seed follows (its date and source).
DATELINE = "25 août 2017 · source : wotc"


def rulings(text: str) -> list[str]:
    """The ruling paragraphs: what follows each dateline, without the
    section headers ("---------- The following rulings focus on ...")."""
    lines = text.splitlines()
    return [
        lines[i + 1].strip()
        for i, line in enumerate(lines[:-1])
        if line.strip() == DATELINE and not lines[i + 1].startswith("-")
    ]


@pytest.fixture(scope="module")
def seed_rulings() -> list[str]:
    if not SEED_FILE.exists():
        pytest.skip("the shared seeds sit beside a checkout, not an installed copy")
    return rulings(SEED_FILE.read_text(encoding="utf-8"))


def test_the_seed_has_24_rulings(seed_rulings: list[str]) -> None:
    assert len(seed_rulings) == 24


def test_every_ruling_maps_to_one_catalog_id(seed_rulings: list[str]) -> None:
    for ruling in seed_rulings:
        ids = [rule for rule, phrase in RULING_PHRASES.items() if phrase in ruling]
        assert len(ids) == 1, f"{ids or 'no ID'} for the ruling: {ruling}"
    for rule, phrase in RULING_PHRASES.items():
        assert rule in CATALOG, f"{rule} is not in the catalog"
        assert sum(phrase in r for r in seed_rulings) == 1, f"{rule}: {phrase!r}"


def test_the_catalog_has_every_2017_ruling_and_no_other() -> None:
    in_catalog = {rule for rule in CATALOG if rule.startswith("R2017-")}
    assert in_catalog == set(RULING_PHRASES)
