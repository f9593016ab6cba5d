"""The published JSON Schema of report.json (schemas/report.schema.json in
the repository), for tools and tests that validate reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "report.schema.json"


def load_schema() -> dict[str, Any]:
    """The schema; it lives in a checkout of the repository, not in the wheel."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
