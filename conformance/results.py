"""The result of checking one property against one engine.

The pytest plugin records one `PropertyResult` per property it runs; the
certification reports (`phasecert certify`) are built from these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["pass", "fail", "not-applicable", "engine-error"]


@dataclass(frozen=True)
class PropertyResult:
    """`counterexample` is the shrunk scenario as JSON data (see
    conformance.codec), `message` the assertion or engine error with the rule
    ID, `missing` the capabilities the engine lacks when not applicable."""

    property: str
    rules: tuple[str, ...]
    status: Status
    examples: int = 0
    message: str = ""
    counterexample: Any = None
    missing: tuple[str, ...] = ()
    duration: float = 0.0
