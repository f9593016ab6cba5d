"""A faulty engine process through the whole `phasecert certify` command:
each fault of tests/engines/faulty.py costs each property it strikes one
engine-error verdict carrying the engine's stderr, the run completes (exit
1, every report written) and report.json validates against its schema.

The corpus holds a scenario reaching the fault (at the second `perform`),
so each property meets it on its first, replayed example: no generation and
no shrinking, which through a hanging engine would cost minutes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.codec import dumps
from conformance.corpus import CORPUS_DIRNAME, counterexample_name
from conformance.properties import REGISTRY
from conformance.report.schema import load_schema
from tests.test_stdio import FAULTS, FAULTY, SCENARIO, connection_file, timeout_for

#: Two rules of one property each, both of which the fault strikes.
RULES = ("502.1", "702.26j")
#: Each is given the corpus scenario: one that met the fault while being
#: generated would replay it to confirm, costing another timeout.
PROPERTIES = sorted(name for name, p in REGISTRY.items() if set(p.rules) & set(RULES))


def validated_report(report_dir: Path) -> dict:
    jsonschema = pytest.importorskip("jsonschema")
    report = json.loads((report_dir / "report.json").read_text())
    jsonschema.Draft202012Validator(
        load_schema(), format_checker=jsonschema.FormatChecker()
    ).validate(report)
    return report


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_certify_gives_one_engine_error_per_property_and_completes(
    fault: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "faulty"
    corpus = out / CORPUS_DIRNAME
    corpus.mkdir(parents=True)
    for prop in PROPERTIES:
        (corpus / counterexample_name(prop, SCENARIO)).write_text(dumps(SCENARIO))
    engine = connection_file(
        tmp_path, sys.executable, str(FAULTY), fault, timeout=timeout_for(fault)
    )
    rules = [arg for rule in RULES for arg in ("--rule", rule)]
    code = main(["certify", "--engine", engine, *rules, "--profile", "dev", "--out", str(out)])
    capsys.readouterr()
    assert code == 1
    report = validated_report(out)
    verdicts = {p["name"]: p for p in report["properties"]}
    assert set(PROPERTIES) == set(verdicts)
    for prop in PROPERTIES:
        verdict = verdicts[prop]
        assert verdict["status"] == "engine-error", verdict
        assert FAULTS[fault] in verdict["message"]
        assert f"faulty engine: committing {fault}" in verdict["message"]  # its stderr
    assert (out / "report.md").exists() and (out / "junit.xml").exists()
