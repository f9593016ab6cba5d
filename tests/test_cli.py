"""`phasecert` end to end, on the reference engine and on mutants: reports,
exit codes, replay, baselines, the derandomized gate, shards, interrupts.

Runs stay small (`--rule` subsets, the dev profile) to keep this file fast.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from adapters.mutants import MUTANTS
from conformance.cli import main
from conformance.cli.watching import RunWatcher
from conformance.report.schema import load_schema

MUTANT = "mutant:untap-before-phasing"  # breaks 502.1
#: Seeded: the dev profile's 25 random examples leave a rule unexercised
#: about one run in 60 (502.1 on the reference engine), which a baseline
#: gate rightly reports as a change.
FAST = ["--profile", "dev", "--seed", "0", "--rule", "502.1", "--rule", "702.26p"]


def phasecert(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def statuses(report_dir: Path) -> dict[str, str]:
    report = json.loads((report_dir / "report.json").read_text())
    return {p["name"]: p["status"] for p in report["properties"]}


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def validate(report_dir: Path) -> dict:
    jsonschema = pytest.importorskip("jsonschema")
    report = json.loads((report_dir / "report.json").read_text())
    jsonschema.Draft202012Validator(
        load_schema(), format_checker=jsonschema.FormatChecker()
    ).validate(report)
    return report


def test_reference_conforms_and_gets_every_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = phasecert(capsys, "certify", "--engine", "reference", *FAST)
    assert code == 0, out
    reports = Path("phasecert-reports")
    for name in ("report.json", "report.md", "junit.xml"):
        assert (reports / "reference" / name).is_file()
    assert not (reports / "index.html").exists(), "the matrix is written only where --matrix says"
    report = validate(reports / "reference")
    # 603.10b: redundant_phasing_triggers_once cites it with 702.26p.
    rules = {"502.1": "pass", "702.26p": "pass", "603.10b": "pass"}
    assert {r["id"]: r["status"] for r in report["rules"]} == rules
    assert "rules 3 pass" in out
    assert not list(reports.rglob("*.tmp"))


def test_mutant_fails_is_replayed_and_gated_by_a_baseline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = phasecert(capsys, "certify", "--engine", MUTANT, *FAST)
    assert code == 1
    assert "FAIL untap_step_untaps_after_phasing (502.1)" in out  # not a tty: one line per failure
    report_dir = Path("phasecert-reports") / "mutant_untap-before-phasing"
    report = validate(report_dir)
    rules = {"502.1": "fail", "702.26p": "pass", "603.10b": "pass"}
    assert {r["id"]: r["status"] for r in report["rules"]} == rules
    failure = next(p for p in report["properties"] if p["status"] == "fail")["failure"]
    assert failure["scenario"]
    assert failure["replay"].startswith("phasecert replay phasecert-reports/")
    corpus_file = report_dir / failure["scenario_file"]
    assert corpus_file.is_file()
    assert "untap_step_untaps_after_phasing" in (report_dir / "report.md").read_text()

    code, out, _ = phasecert(capsys, "replay", str(corpus_file), "--engine", MUTANT)
    assert code == 1
    assert "FAILS, 502.1" in out and "expected (the rule)" in out and "reference (expected)" in out
    code, out, _ = phasecert(capsys, "replay", str(corpus_file), "--engine", "reference")
    assert code == 0 and "passes on this engine now" in out

    baseline = Path("baseline.txt")
    code, out, _ = phasecert(
        capsys,
        "certify",
        "--engine",
        MUTANT,
        *FAST,
        "--baseline",
        str(baseline),
        "--update-baseline",
    )
    assert code == 0 and "untap_step_untaps_after_phasing: fail  # 502.1" in baseline.read_text()
    # The stored counterexample was replayed first: it failed at once, the
    # same scenario.
    again = next(p for p in validate(report_dir)["properties"] if p["status"] == "fail")
    assert again["examples"] == 1
    assert again["failure"]["scenario"] == failure["scenario"]
    code, out, _ = phasecert(
        capsys, "certify", "--engine", MUTANT, *FAST, "--baseline", str(baseline)
    )
    assert code == 0, out

    # A new mutation on top of the known one: the gate catches it.
    both = type(
        "Both", (MUTANTS["untap-before-phasing"].rules, MUTANTS["phasing-per-instance"].rules), {}
    )
    monkeypatch.setitem(
        MUTANTS,
        "both",
        dataclasses.replace(MUTANTS["phasing-per-instance"], name="both", rules=both),
    )
    code, out, _ = phasecert(
        capsys, "certify", "--engine", "mutant:both", *FAST, "--baseline", str(baseline)
    )
    assert code == 1
    assert "new fail: phasing_instances_are_redundant (702.26p)" in out
    assert "untap_step_untaps_after_phasing" not in out.split("rules")[-1].split("reports:")[0]

    # Fixed engine against the same baseline: passes, and says what to tighten.
    code, out, _ = phasecert(
        capsys, "certify", "--engine", "reference", *FAST, "--baseline", str(baseline)
    )
    assert code == 0 and "now passing, tighten the baseline: untap_step_untaps_after_phasing" in out


@pytest.mark.thorough
def test_derandomized_runs_agree(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["certify", "--engine", MUTANT, "--profile", "ci", "--rule", "502.1"]
    phasecert(capsys, *args, "--out", "one/x")
    phasecert(capsys, *args, "--out", "two/x")
    assert statuses(Path("one/x")) == statuses(Path("two/x"))
    assert "fail" in statuses(Path("one/x")).values()


@pytest.mark.thorough
def test_shards_merged_equal_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["certify", "--engine", MUTANT, *FAST, "--rule", "110.5"]
    assert phasecert(capsys, *args, "--out", "whole/m")[0] == 1
    for i in (1, 2):
        phasecert(capsys, *args, "--shard", f"{i}/2", "--out", f"shard{i}/m")
    one, two = statuses(Path("shard1/m")), statuses(Path("shard2/m"))
    assert one and two and not set(one) & set(two)
    code, _, _ = phasecert(
        capsys, "merge", "shard1/m/report.json", "shard2/m/report.json", "--out", "merged/m"
    )
    assert code == 1
    assert statuses(Path("merged/m")) == statuses(Path("whole/m"))
    merged = validate(Path("merged/m"))
    failure = next(p for p in merged["properties"] if p["status"] == "fail")["failure"]
    assert (Path("merged/m") / failure["scenario_file"]).is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["certify", "--engine", "nope"], "no engine named 'nope'"),
        (["certify", "--engine", "reference", "--rule", "999"], "--rule 999: not a rule"),
        (["certify", "--engine", "reference", "--shard", "3/2"], "--shard '3/2'"),
        (["certify", "--engine", "reference", "--baseline", "missing.txt"], "baseline missing.txt"),
        (["replay", "bad.json", "--engine", "reference"], "bad.json: not a scenario: $.setup"),
        (["merge", "bad.json"], "bad.json: not a phasecert shard report"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    Path("bad.json").write_text('{"setup": 3}')
    code, _, err = phasecert(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_bad_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["certify"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert "the following arguments are required: --engine" in err and err.count("\n") == 1


def test_progress_on_a_terminal_and_off_it() -> None:
    planned = {"a": ("702.26a",), "b": ("702.26a", "502.1"), "c": ("502.1",)}

    def report(name: str, outcome: str) -> SimpleNamespace:
        result = {"property": name, "rules": list(planned[name]), "status": outcome}
        if outcome == "fail":
            result["message"] = "702.26a somewhere: expected x; the engine showed y"
        return SimpleNamespace(
            when="call",
            passed=outcome == "pass",
            nodeid=f"suite.py::test_property[{name}]",
            user_properties=[("phasecert_result", result)],
        )

    for live in (True, False):
        stream = io.StringIO()
        watcher = RunWatcher(planned, stream, live=live)
        watcher.pytest_runtest_logreport(report("a", "pass"))
        watcher.pytest_runtest_logreport(report("b", "fail"))
        assert watcher.progress() == "rules 1/2, properties 2/3, failures 1"
        text = stream.getvalue()
        assert "FAIL b (702.26a, 502.1): 702.26a somewhere" in text
        assert ("\r\x1b[K" in text) is live and ("rules 1/2" in text) is live


def test_malformed_baseline_names_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    Path("b.txt").write_text("# ok\nuntap_step_untaps_after_phasing fail\n")
    code, _, err = phasecert(capsys, "certify", "--engine", "reference", "--baseline", "b.txt")
    assert code == 2 and "b.txt:2: expected 'property: status'" in err


def test_rules_and_engines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = phasecert(capsys, "rules")
    assert code == 0 and "502.1: Phasing is the first thing" in out
    assert "untap_step_untaps_after_phasing" in out
    code, out, _ = phasecert(capsys, "engines")
    assert code == 0 and "reference 0.1.0 (" in out and "capabilities: " in out
    assert "mutant:untap-before-phasing: breaks 502.1" in out


def test_interrupt_leaves_reports_and_baseline_whole(tmp_path: Path) -> None:
    """SIGINT in the middle of a run: the old report and baseline are intact,
    no temporary file is left, and the exit code says interrupted."""
    out = tmp_path / "phasecert-reports" / "reference"
    out.mkdir(parents=True)
    old = {name: f"old {name}\n" for name in ("report.json", "report.md", "junit.xml")}
    for name, text in old.items():
        (out / name).write_text(text)
    (tmp_path / "b.txt").write_text("# old baseline\n")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "certify",
            "--engine",
            "reference",
            "--profile",
            "certify",
            "--baseline",
            "b.txt",
            "--update-baseline",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # A test runner started in the background inherits an ignored SIGINT;
        # the child must see Ctrl-C as a user at a terminal would.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err
    assert {name: (out / name).read_text() for name in old} == old
    assert (tmp_path / "b.txt").read_text() == "# old baseline\n"
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
