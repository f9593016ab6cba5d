"""The phase.rs deviations in reports/phase-rs/deviations/ are still there.

Each deviation has a standalone script (phase-python only) that exits 0 while
the engine still deviates and 1 once it follows the rule, and a scenario in
our format on which the adapter and the reference engine disagree (or, where
the comparison stops because the rules leave the outcome open, which a
property catches). A failure
here means phase.rs changed: re-run the suite and update the report.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import PhaseRsEngine
from adapters.reference import ReferenceEngine
from conformance.codec import loads_scenario
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.trace_comparison import trace_differences
from conformance.unsettled import unsettled_from

DEVIATIONS = Path(__file__).parent.parent / "reports" / "phase-rs" / "deviations"
SCRIPTS = sorted(DEVIATIONS.glob("d*.py"))
#: Deviations no scenario of the suite can show (the README says why): a
#: script only.
OUTSIDE = sorted(DEVIATIONS.glob("outside_*.py"))


def test_every_deviation_has_a_script_and_a_scenario() -> None:
    assert SCRIPTS
    assert sorted(p.stem for p in DEVIATIONS.glob("d*.json")) == [p.stem for p in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS + OUTSIDE, ids=lambda p: p.stem)
def test_the_script_still_shows_the_deviation(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 1, f"phase.rs now follows the rule:\n{done.stdout}"
    assert done.returncode == 0, f"the reproducer broke:\n{done.stdout}{done.stderr}"
    assert "DEVIATION" in done.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_adapter_disagrees_with_the_reference_on_the_scenario(script: Path) -> None:
    scenario = loads_scenario(script.with_suffix(".json").read_text())
    engine, reference = play(PhaseRsEngine(), scenario), play(ReferenceEngine(), scenario)
    if unsettled_from(reference) is not None:
        # The comparison stops where the rules leave the outcome open
        # (docs/readings.md): a property must catch the deviation instead.
        assert script.stem in dict(_named_properties()), "nothing catches it"
        return
    found = trace_differences(reference, engine)
    assert found, "phase.rs now agrees with the reference on this scenario"


def _named_properties() -> list[tuple[str, str]]:
    """(deviation, property) for each property the README says catches it."""
    readme = (DEVIATIONS / "README.md").read_text()
    pairs = []
    for stem, names in re.findall(r"^`(d\w+)\.\{json,py\}` — property: (.+)$", readme, re.M):
        if not names.startswith("none"):
            pairs += [(stem, name.strip()) for name in names.split(",")]
    return pairs


@pytest.mark.parametrize(("stem", "prop"), _named_properties(), ids=lambda x: x)
def test_the_property_the_readme_names_catches_the_deviation(stem: str, prop: str) -> None:
    scenario = loads_scenario((DEVIATIONS / f"{stem}.json").read_text())
    with pytest.raises(Violation):
        REGISTRY[prop].check(play(PhaseRsEngine(), scenario))
    REGISTRY[prop].check(play(ReferenceEngine(), scenario))
