"""The probes in adapters/phase_rs/probes/ still show what phase.rs can't
express: each capability the adapter declares missing, and the limit of
`control-for-as-long-as` (played only when the caster controls X).

A probe exits 0 while the limitation is there and 1 once phase.rs can
express it; then the adapter should declare the capability.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import MISSING
from conformance.capabilities import Capability

PROBES = Path(__file__).parent.parent / "adapters" / "phase_rs" / "probes"
SCRIPTS = sorted(PROBES.glob("*.py"))


def probe(capability: Capability) -> Path:
    return PROBES / f"{capability.value.replace('-', '_')}.py"


@pytest.mark.parametrize("capability", sorted(MISSING), ids=str)
def test_every_missing_capability_has_a_probe_its_reason_names(capability: Capability) -> None:
    assert probe(capability).is_file()
    assert f"probes/{probe(capability).name}" in MISSING[capability]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_probe_still_shows_the_limitation(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 1, f"phase.rs can now express it:\n{done.stdout}"
    assert done.returncode == 0, f"the probe broke:\n{done.stdout}{done.stderr}"
    assert "LIMITATION" in done.stdout
