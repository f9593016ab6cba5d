"""Reports built from property results: they validate against the published
schema, read back to the same results, and render as Markdown, JUnit XML and
the rules × engines matrix (checked in headless Chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conformance.codec import to_data
from conformance.report import RunInfo, build_report, results_of, write_reports
from conformance.report.schema import load_schema
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

SCENARIO = Scenario(Setup(players=2, permanents=(Permanent("p1", phasing=1, tapped=True),)))
RESULTS = [
    PropertyResult("untap_ok", ("702.26a",), "pass", 25, duration=0.5, exercised=9),
    PropertyResult(
        "untaps_after",
        ("502.1",),
        "fail",
        7,
        "502.1 after action 1 (PassTurn), p1: expected tapped; the engine showed untapped",
        to_data(SCENARIO),
        duration=1.25,
    ),
    PropertyResult("crashes", ("702.26p",), "engine-error", 1, "engine raised KeyError on start"),
    PropertyResult(
        "tokens", ("R2017-tokens",), "not-applicable", message="needs tokens", missing=("tokens",)
    ),
    PropertyResult(
        "skips",
        ("702.26m",),
        "not-exercised",
        100,
        "not exercised: 1 of 100 examples exercised it, 10 needed (a skipped untap step)",
        exercised=1,
        refusals=37,
    ),
    PropertyResult(
        "agrees_with_reference",
        (),
        "fail",
        12,
        "after action 1 (PassTurn): p1 tapped: reference True, engine False",
        to_data(SCENARIO),
    ),
]


def info(engine: str = "mutant:x") -> RunInfo:
    return RunInfo(
        engine=engine,
        engine_version="1.2",
        capabilities=("combat",),
        profile="dev",
        seed=7,
        started="2026-11-29T10:00:00+00:00",
        finished="2026-11-29T10:01:00+00:00",
        missing={"tokens": "no | token objects", "multiplayer": "two seats only"},
    )


def validate(report: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(
        load_schema(), format_checker=jsonschema.FormatChecker()
    )
    validator.validate(report)


def test_schema_is_a_valid_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(load_schema())


def test_report_validates_and_reads_back() -> None:
    report = build_report(RESULTS, info(), {"untaps_after": ["counterexamples/u.json"]}, Path("r"))
    validate(report)
    assert results_of(report) == [
        PropertyResult(
            r.property,
            r.rules,
            r.status,
            r.examples,
            r.message,
            r.counterexample,
            r.missing,
            round(r.duration, 3),
            r.exercised,
            r.refusals,
        )
        for r in sorted(RESULTS, key=lambda r: r.property)
    ]
    statuses = {r["id"]: r["status"] for r in report["rules"]}
    assert statuses == {
        "702.26a": "pass",
        "702.26p": "engine-error",
        "502.1": "fail",
        "R2017-tokens": "not-applicable",
        "702.26m": "not-exercised",
    }
    assert report["summary"]["properties"] == {
        "fail": 2,
        "engine-error": 1,
        "not-exercised": 1,
        "pass": 1,
        "not-applicable": 1,
    }
    failed = next(p for p in report["properties"] if p["name"] == "untaps_after")["failure"]
    assert (failed["expected"], failed["observed"]) == ("tapped", "untapped")
    assert failed["replay"] == "phasecert replay r/counterexamples/u.json --engine mutant:x"
    assert not report["summary"]["conforms"]


def test_schema_rejects_a_failure_without_its_details() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    report = build_report(RESULTS, info())
    del next(p for p in report["properties"] if p["status"] == "fail")["failure"]
    with pytest.raises(jsonschema.ValidationError):
        validate(report)


def test_markdown_and_junit(tmp_path: Path) -> None:
    written = write_reports(build_report(RESULTS, info()), tmp_path / "mutant_x", tmp_path)
    assert {p.name for p in written} == {
        "report.json",
        "report.md",
        "junit.xml",
        "index.html",
        "index.md",
    }
    md = (tmp_path / "mutant_x" / "report.md").read_text()
    assert "| 502.1 | ❌ fail | [untaps_after](#failure-untaps-after) | 7 (0) |" in md
    assert "| 702.26a | ✅ pass | untap_ok | 25 (9) |" in md
    assert "| 702.26m | ⚠️ not exercised | skips | 100 (1) |" in md
    assert "| skips | 702.26m | 1 / 100 | 37 | not exercised: 1 of 100 examples" in md
    assert "| — | ❌ fail | [agrees_with_reference](#failure-agrees-with-reference) | 12 (0)" in md
    assert "| 702.26p | 💥 engine error | [crashes](#failure-crashes) | 1 (0) |" in md
    assert "➖ not applicable (needs tokens)" in md
    assert "| tokens | no \\| token objects | tokens |" in md
    assert "| multiplayer | two seats only | none as a whole; scenarios needing it" in md
    assert "Minimal counterexample:" in md and "- **The engine did:** untapped" in md
    suite = ET.parse(tmp_path / "mutant_x" / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("6", "3", "1", "1")
    skips = suite.find("testcase[@name='skips']")
    assert skips is not None
    assert skips.find("failure") is not None and skips.find("failure").get("type") == (
        "not-exercised"
    )
    assert {p.get("name"): p.get("value") for p in skips.iter("property")}["refusals"] == "37"
    assert suite.find("testcase[@name='crashes']/error") is not None
    assert suite.find("testcase[@name='tokens']/skipped") is not None
    assert suite.find("testcase[@name='untap_ok']/*[2]") is None
    case = suite.find("testcase[@name='untaps_after']")
    assert case is not None and case.find("failure") is not None
    assert [p.get("value") for p in case.iter("property") if p.get("name") == "rule"] == ["502.1"]


def write_two_engines(root: Path) -> None:
    passing = [PropertyResult(r.property, r.rules, "pass", 5) for r in RESULTS]
    write_reports(build_report(passing, info("reference")), root / "reference", root)
    write_reports(build_report(RESULTS, info()), root / "mutant_x", root)
    (root / "broken").mkdir()
    (root / "broken" / "report.json").write_text("{not json")


def test_matrix_covers_every_report(tmp_path: Path) -> None:
    write_two_engines(tmp_path)
    md = (tmp_path / "index.md").read_text()
    assert "| Rule | [reference](reference/report.md) | [mutant:x](mutant_x/report.md) |" in md
    assert (
        "| 502.1 | [✅ pass](reference/report.md) "
        "| [❌ fail](mutant_x/report.md#failure-untaps-after) |" in md
    )
    assert "| 702.26m | [✅ pass](reference/report.md) | [⚠️ not exercised](mutant_x" in md
    assert "| 702.26p | [✅ pass](reference/report.md) | [💥 engine error](mutant_x" in md
    assert "| R2017-tokens | [✅ pass](reference/report.md) | [➖ not applicable](mutant_x" in md
    assert (
        "| comparison with the reference engine | [✅ pass](reference/report.md) "
        "| [❌ fail](mutant_x/report.md#failure-agrees-with-reference) |" in md
    )
    page = (tmp_path / "index.html").read_text()
    assert (
        '<table id="matrix">' in page and 'href="mutant_x/report.md#failure-untaps-after"' in page
    )
    for status in ("pass", "fail", "engine-error", "not-exercised", "not-applicable"):
        assert f'<td class="{status}">' in page, status
    assert "td.not-exercised{background:" in page


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("chromium is not installed (CI installs Debian's chromium package)")
    return found


def test_matrix_renders_in_headless_chromium(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    write_two_engines(tmp_path / "reports")
    shot = Path(os.environ.get("PHASECERT_SCREENSHOT_DIR", tmp_path)) / "matrix.png"
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--hide-scrollbars",
        "--window-size=800,600",
        f"--screenshot={shot}",
        (tmp_path / "reports" / "index.html").as_uri(),
    ]
    dom = subprocess.run(
        [*command[:-2], "--dump-dom", command[-1]],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert '<table id="matrix">' in dom.stdout, dom.stderr[-2000:]
    subprocess.run(
        command,
        capture_output=True,
        timeout=60,
        check=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    colours = {c for _, c in image.open(shot).convert("RGB").getcolors(maxcolors=1 << 24)}
    # The table is there: its pass (green) and fail (red) cells were painted.
    assert (0x2E, 0x7D, 0x32) in colours
    assert (0xC6, 0x28, 0x28) in colours


def test_a_rule_failing_through_a_shared_property_says_which_rule_was_violated(
    tmp_path: Path,
) -> None:
    shared = PropertyResult(
        "same_permanent",
        ("702.26d", "R2017-counters"),
        "fail",
        3,
        "702.26d after action 1 (PassTurn), p1: expected tapped; the engine showed untapped",
        to_data(SCENARIO),
    )
    report = build_report([shared], info())
    validate(report)
    assert {r["id"]: r["violated"] for r in report["rules"]} == {
        "702.26d": ["702.26d"],
        "R2017-counters": ["702.26d"],
    }
    write_reports(report, tmp_path / "shared")
    md = (tmp_path / "shared" / "report.md").read_text()
    assert "❌ fail (a property it shares failed on 702.26d)" in md
    assert md.count("a property it shares failed") == 1


def test_each_difference_of_the_comparison_has_its_replay(tmp_path: Path) -> None:
    """The comparison's message quotes its further scenarios, and a long
    message is cut; the report also keeps each whole, with its replay."""
    second = Scenario(Setup(players=3, permanents=(Permanent("p2", phasing=1),)))
    compared = PropertyResult(
        "agrees_with_reference",
        ("702.26a", "800.4a"),
        "fail",
        12,
        "after action 1 (PassTurn): p1 tapped: reference True, engine False\n"
        "after action 1 (Concede): p2 controller: reference 1, engine 2 (rules 800.4a)",
        to_data(SCENARIO),
        further=(to_data(second),),
    )
    files = {compared.property: ["counterexamples/a.json", "counterexamples/b.json"]}
    report = build_report([compared], info(), files, Path("r"))
    validate(report)
    failure = report["properties"][0]["failure"]
    assert failure["further"] == [
        {
            "scenario": to_data(second),
            "scenario_file": "counterexamples/b.json",
            "replay": "phasecert replay r/counterexamples/b.json --engine mutant:x",
        }
    ]
    assert results_of(report)[0].further == (to_data(second),)
    write_reports(report, tmp_path / "mutant_x", tmp_path)
    replay = "phasecert replay r/counterexamples/b.json --engine mutant:x"
    assert (
        f"**Replay of difference 2:** `{replay}`" in (tmp_path / "mutant_x/report.md").read_text()
    )
    assert f"Replay of difference 2: {replay}" in (tmp_path / "mutant_x/junit.xml").read_text()


def test_replay_commands_load_the_engine_as_it_was_given() -> None:
    """An engine given as `module:Factory` or `stdio:CMD` has a name that
    `phasecert replay --engine` can't load: the command uses the spec."""
    spec = "stdio:java -jar my-engine.jar"
    given = RunInfo(**{**info().__dict__, "engine": "my-engine", "engine_spec": spec})
    report = build_report(RESULTS, given, {"untaps_after": ["counterexamples/u.json"]}, Path("r"))
    validate(report)
    failed = next(p for p in report["properties"] if p["name"] == "untaps_after")["failure"]
    assert failed["replay"] == f"phasecert replay r/counterexamples/u.json --engine '{spec}'"
    assert report["engine"]["spec"] == spec
