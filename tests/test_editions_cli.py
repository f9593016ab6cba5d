"""Certificates name their edition (issue 13): `phasecert certify --edition`,
`phasecert rules --edition`, report.json and report.md, and the matrix with
one column per (engine, edition), older reports read as today's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.catalog import Rule
from conformance.cli import main
from conformance.editions import CATALOGS
from conformance.report import RunInfo, build_report, edition_of, write_reports
from conformance.report.schema import load_schema
from conformance.results import PropertyResult


def phasecert(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def validate(report: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(
        load_schema(), format_checker=jsonschema.FormatChecker()
    ).validate(report)


def _info(edition: str) -> RunInfo:
    return RunInfo(
        engine="reference",
        engine_version="0.1.0",
        capabilities=("tokens",),
        profile="ci",
        seed=None,
        started="2026-12-01T04:00:00+00:00",
        finished="2026-12-01T04:01:00+00:00",
        edition=edition,  # type: ignore[arg-type]
    )


def test_the_mirage_reference_conforms_under_its_edition_in_its_own_directory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["certify", "--engine", "reference", "--edition", "mirage", "--rule", "217.8d"]
    code, out, err = phasecert(
        capsys, *args, "--rule", "502.15m", "--profile", "dev", "--seed", "0"
    )
    assert code == 0, out + err
    out_dir = Path("phasecert-reports/reference@mirage")
    report = json.loads((out_dir / "report.json").read_text())
    validate(report)
    assert report["edition"] == "mirage" and report["summary"]["conforms"]
    assert {r["id"] for r in report["rules"]} == {"217.8d", "502.15m"}
    assert (
        "Rules: the Mirage-era (rules 502.15 and 217.8) edition"
        in (out_dir / "report.md").read_text()
    )
    assert not Path("phasecert-reports/reference").exists()


@pytest.mark.thorough
def test_today_s_reference_fails_the_pre_2017_token_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Today's reference as a pre-2017 engine (a mutant playing today's rules
    is what an engine that was never updated looks like)."""
    args = ["certify", "--engine", "mutant:pre2017-tokens-stay", "--edition", "pre-2017"]
    code, _out, _ = phasecert(capsys, *args, "--profile", "dev", "--rule", "702.25k", "--out", "r")
    assert code == 1
    report = json.loads(Path("r/report.json").read_text())
    assert report["edition"] == "pre-2017"
    failed = next(p for p in report["properties"] if p["status"] == "fail")
    assert failed["failure"]["replay"].endswith(
        "--engine mutant:pre2017-tokens-stay --edition pre-2017"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--engine", "mutant:untap-before-phasing", "--edition", "mirage"],
            "does not play the mirage edition of the rules (it declares: current)",
        ),
        (
            ["--engine", "reference", "--edition", "mirage", "--rule", "702.26a"],
            "--rule 702.26a: not a rule of the mirage catalog",
        ),
    ],
)
def test_an_edition_the_engine_does_not_play_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = phasecert(capsys, "certify", *args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_rules_of_an_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = phasecert(capsys, "rules", "--edition", "pre-2017")
    assert code == 0 and "702.25k: A phased-out token ceases to exist" in out
    assert "702.25a (today's 702.26a)" in out and "phased_out_tokens_cease_to_exist" in out
    code, out, _ = phasecert(capsys, "rules", "--edition", "mirage")
    # 502.15g is certified on limited-duration effects; its summary says the
    # delayed-triggered-ability half is not put to the test.
    assert "502.15g: " in out and "limited_effects_end_as_it_phases_out" in out
    assert "no delayed triggered abilities, so that half is not put to the test" in out


def test_a_rule_the_suite_cannot_judge_says_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = Rule("217.9z", "A rule of no property.", "mirage", (), uncertified="no action plays it")
    monkeypatch.setitem(CATALOGS, "mirage", {**CATALOGS["mirage"], rule.id: rule})
    code, out, _ = phasecert(capsys, "rules", "--edition", "mirage")
    assert code == 0 and "217.9z: A rule of no property." in out
    assert "(not certified: no action plays it)" in out


def test_the_matrix_shows_the_editions_side_by_side(tmp_path: Path) -> None:
    results = {
        "current": [PropertyResult("tokens_stay", ("R2017-tokens",), "pass", 100, exercised=30)],
        "pre-2017": [PropertyResult("tokens_cease", ("702.25k",), "pass", 100, exercised=24)],
        "mirage": [PropertyResult("tokens_cease", ("217.8d",), "pass", 100, exercised=24)],
    }
    for edition, found in results.items():
        report = build_report(found, _info(edition))
        validate(report)
        name = "reference" if edition == "current" else f"reference@{edition}"
        write_reports(report, tmp_path / name)
    # A report of format 2 (before editions) is of today's rules.
    old = build_report(results["current"], _info("current"))
    del old["edition"]
    old["engine"]["name"] = "older"
    write_reports(old, tmp_path / "older", tmp_path)
    assert edition_of(old) == "current"
    md = (tmp_path / "index.md").read_text()
    assert (
        "| Rule | [reference](reference/report.md) "
        "| [reference (pre-2017)](reference%40pre-2017/report.md) "
        "| [reference (mirage)](reference%40mirage/report.md) | [older](older/report.md) |"
    ) in md
    assert "| R2017-tokens | [✅ pass](reference/report.md) | — | — | [✅ pass]" in md
    assert "| 702.25k | — | [✅ pass](reference%40pre-2017/report.md) | — | — |" in md
    assert "| 217.8d | — | — | [✅ pass](reference%40mirage/report.md) | — |" in md
