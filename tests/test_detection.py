"""`phasecert detection`: the examples each mutant needs before a property
fails on it, written as a table and its JSON (reports/detection.md is the
full run; here one quick mutant, and the verdicts on made-up counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.detection import CI_BUDGET, SEED_BUDGET, Detection, markdown, measure


def test_the_command_counts_a_mutants_examples_and_writes_both_files(tmp_path: Path) -> None:
    out = tmp_path / "detection.md"
    code = main(
        ["detection", "--mutant", "attachments-stay-behind", "--seeds", "2", "--out", str(out)]
    )
    assert code == 0
    data = json.loads(out.with_suffix(".json").read_text())
    [row] = data["detections"]
    assert row["mutant"] == "attachments-stay-behind" and row["rule"] == "702.26g"
    assert 1 <= row["ci"] <= CI_BUDGET and len(row["seeds"]) == 2
    assert (
        "| attachments-stay-behind | `attachments_phase_out_with_their_host` |" in out.read_text()
    )
    assert "**1 of 1 found in budget.**" in out.read_text()


def test_an_older_editions_mutant_is_measured_under_its_edition() -> None:
    """Its property is in its edition's registry only, and its oracle is
    that edition's reference (as in tests/test_mutants.py)."""
    found = measure("mirage-limited-effects-last", "limited_effects_end_as_it_phases_out", seeds=1)
    assert found.rule == "502.15g"
    assert found.ci is not None and found.ci <= CI_BUDGET


def test_a_mutant_found_late_or_never_is_not_in_budget() -> None:
    never = Detection("m", "p", "702.26a", None, (None, 5))
    late = Detection("m", "q", "702.26a", 7, (60, 80, 3))
    quick = Detection("m", "r", "702.26a", 7, (60, 3, 3))
    assert not never.within_budget and not late.within_budget and quick.within_budget
    table = markdown([never, late, quick], seeds=3)
    assert f"| > {CI_BUDGET} | ∞ | > {SEED_BUDGET} | **no** |" in table
    assert "| 7 | 60 | 80 | **no** |" in table and "| 7 | 3 | 60 | yes |" in table


def test_bad_arguments_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detection", "--mutant", "nothing", "--out", str(tmp_path / "d.md")]) == 2
    assert "no mutant named 'nothing'" in capsys.readouterr().err
    assert main(["detection", "--out", str(tmp_path / "d.txt")]) == 2
    assert not list(tmp_path.iterdir())
