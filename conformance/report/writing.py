"""Writing an engine's reports and the matrix beside them.

Every file is written atomically (to a temporary file, then renamed), so an
interrupted run leaves the previous report, never half of a new one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conformance.atomic import write_files_atomically
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.report.matrix import load_columns, render_index_html, render_index_md

REPORT_FILES = ("report.json", "report.md", "junit.xml")
INDEX_FILES = ("index.html", "index.md")


def engine_directory(engine: str) -> str:
    """The directory name of an engine's reports: `mutant:x` → `mutant_x`,
    since `:` is not allowed in CI artifact names or on every file system."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", engine)


def write_reports(report: dict[str, Any], out: Path, matrix: Path | None = None) -> list[Path]:
    """Write report.json, report.md and junit.xml into `out`, then, if a
    `matrix` directory is named, the matrix of every report under it."""
    texts = {
        out / "report.json": json.dumps(report, indent=2, ensure_ascii=False) + "\n",
        out / "report.md": render_markdown(report),
        out / "junit.xml": render_junit(report),
    }
    write_files_atomically(texts)
    return [*texts, *(write_index(matrix) if matrix is not None else [])]


def write_index(root: Path) -> list[Path]:
    """Write index.html and index.md for the reports under `root`."""
    columns = load_columns(root)
    texts = {
        root / "index.html": render_index_html(columns),
        root / "index.md": render_index_md(columns),
    }
    write_files_atomically(texts)
    return list(texts)
