"""Certification reports: report.json (with a published JSON Schema),
report.md for people, junit.xml for CI, and the rules × engines matrix."""

from conformance.report.building import (
    RunInfo,
    build_report,
    edition_of,
    results_of,
    scenario_files_of,
)
from conformance.report.writing import engine_directory, write_index, write_reports

__all__ = [
    "RunInfo",
    "build_report",
    "edition_of",
    "engine_directory",
    "results_of",
    "scenario_files_of",
    "write_index",
    "write_reports",
]
