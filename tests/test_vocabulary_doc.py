"""docs/vocabulary.md lists every ability and capability, with the life
each triggered ability gains as the code has it."""

import re
from pathlib import Path
from typing import get_args

import pytest

from conformance.capabilities import Capability
from conformance.setup import TRIGGER_LIFE, Ability

DOC = (Path(__file__).parents[1] / "docs" / "vocabulary.md").read_text(encoding="utf-8")
#: The text of each "## " section, by its title ("1. Abilities", ...).
SECTIONS = dict(s.split("\n", 1) for s in DOC.split("\n## ")[1:])


def row(section: str, name: str) -> list[str]:
    """The cells of the row of `section`'s table whose first cell is `name`."""
    lines = [line for line in SECTIONS[section].splitlines() if line.startswith(f"| `{name}` |")]
    assert len(lines) == 1, f"docs/vocabulary.md, {section}: needs one table row for {name!r}"
    return [cell.strip() for cell in lines[0].strip().strip("|").split("|")]


@pytest.mark.parametrize("ability", get_args(Ability))
def test_every_ability_has_a_row(ability: str) -> None:
    row("1. Abilities", ability)


@pytest.mark.parametrize("capability", [c.value for c in Capability])
def test_every_capability_has_a_row(capability: str) -> None:
    row("2. Capabilities", capability)


@pytest.mark.parametrize(("ability", "life"), sorted(TRIGGER_LIFE.items()))
def test_trigger_life_matches_the_code(ability: str, life: int) -> None:
    cells = row("1. Abilities", ability)
    # Columns: ability, Oracle-like text, life, what an engine must do.
    assert re.fullmatch(r"\d+", cells[2]) and int(cells[2]) == life
    assert f"gain {life} life" in cells[1]
