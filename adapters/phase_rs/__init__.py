"""The phase.rs adapter: the Rust engine phase.rs, driven through its Python
bindings `phase-python` (optional: `pip install 'phasecert[phase-rs]'`).

Importing this package never needs phase-python; creating a `PhaseRsEngine`
does, and says how to install it.
"""

from __future__ import annotations

from adapters.phase_rs.engine import CAPABILITIES, MISSING, PhaseRsEngine

__all__ = ["CAPABILITIES", "MISSING", "PhaseRsEngine"]
