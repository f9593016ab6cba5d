"""Bad input, as a careless or hostile user gives it: every case ends with a
one-line error naming what is wrong and exit 2, before any run, and leaves
nothing behind.

Also: `phasecert merge` checks its shard reports, which may come from other
machines, and never writes outside --out whatever their fields say.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.codec import dumps, to_data
from conformance.corpus import counterexample_name
from conformance.report import RunInfo, build_report
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

PROP = "untap_step_untaps_after_phasing"  # of rule 502.1
CORPUS = Path("out") / "counterexamples"
CERTIFY = ["certify", "--engine", "reference", "--profile", "dev", "--rule", "502.1"]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def corpus_file(text: str) -> None:
    CORPUS.mkdir(parents=True, exist_ok=True)
    (CORPUS / f"{PROP}.000000000000.json").write_text(text)


def deep() -> str:
    return '{"setup": ' + "[" * 3000 + "]" * 3000 + "}"


def huge_int() -> str:
    return '{"setup": {"players": ' + "9" * 5000 + "}}"


def illegal() -> str:
    setup = Setup(players=1000, permanents=(Permanent("a", owner=-5),))
    return dumps(Scenario(setup))


def fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def symlink_to_dev_zero(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to("/dev/zero")


def too_big(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(" " * (2 * 1024 * 1024) + "{}")


IN_CORPUS = CORPUS / f"{PROP}.000000000000.json"
REPLAYED = Path(f"{PROP}.json")

CASES: list[tuple[str, Callable[[], object], list[str], str]] = [
    (
        "out is a file",
        lambda: Path("f").write_text(""),
        [*CERTIFY, "--out", "f"],
        "not a directory",
    ),
    (
        "out in /proc",
        lambda: None,
        [*CERTIFY, "--out", "/proc/x/y"],
        "--out /proc/x/y: can't write",
    ),
    (
        "baseline unwritable",
        lambda: None,
        [*CERTIFY, "--baseline", "/proc/b.txt", "--update-baseline"],
        "--baseline /proc/b.txt: can't write",
    ),
    (
        "baseline a directory",
        lambda: Path("d").mkdir(),
        [*CERTIFY, "--baseline", "d", "--update-baseline"],
        "--baseline d: is a directory",
    ),
    (
        "example db https",
        lambda: None,
        [*CERTIFY, "--example-db", "https://example.com/db"],
        "https:// is not supported",
    ),
    (
        "example db a file",
        lambda: Path("f").write_text(""),
        [*CERTIFY, "--example-db", "f"],
        "not a directory",
    ),
    *[
        (f"timeout {t}", lambda: None, [*CERTIFY, "--engine-timeout", t], "expected seconds")
        for t in ("0", "-1", "nan", "inf", "1e309", "abc", "1e6")
    ],
    (
        "baseline a fifo",
        lambda: fifo(Path("b.txt")),
        [*CERTIFY, "--baseline", "b.txt"],
        "baseline b.txt: can't read it (not a regular file)",
    ),
    ("workers junk", lambda: None, [*CERTIFY, "-n", "abc"], "expected a number of workers"),
    ("workers zero", lambda: None, [*CERTIFY, "-n", "0"], "expected a number of workers"),
    ("memory tiny", lambda: None, [*CERTIFY, "--engine-memory", "1"], "expected MB"),
    ("corpus deep", lambda: corpus_file(deep()), [*CERTIFY, "--out", "out"], "nested too deeply"),
    ("corpus big int", lambda: corpus_file(huge_int()), [*CERTIFY, "--out", "out"], "not JSON"),
    ("corpus illegal", lambda: corpus_file(illegal()), [*CERTIFY, "--out", "out"], "illegal setup"),
    ("corpus fifo", lambda: fifo(IN_CORPUS), [*CERTIFY, "--out", "out"], "not a regular file"),
    (
        "corpus /dev/zero",
        lambda: symlink_to_dev_zero(IN_CORPUS),
        [*CERTIFY, "--out", "out"],
        "not a regular file",
    ),
    ("corpus too big", lambda: too_big(IN_CORPUS), [*CERTIFY, "--out", "out"], "larger than"),
    *[
        (
            f"replay {name}",
            make,
            ["replay", str(REPLAYED), "--engine", "reference"],
            message,
        )
        for name, make, message in [
            ("deep", lambda: REPLAYED.write_text(deep()), "nested too deeply"),
            ("big int", lambda: REPLAYED.write_text(huge_int()), "not JSON"),
            ("illegal", lambda: REPLAYED.write_text(illegal()), "not a legal game position"),
            ("fifo", lambda: fifo(REPLAYED), "not a regular file"),
            ("/dev/zero", lambda: symlink_to_dev_zero(REPLAYED), "not a regular file"),
            ("too big", lambda: too_big(REPLAYED), "larger than"),
        ]
    ],
    (
        "replay timeout",
        lambda: REPLAYED.write_text(dumps(Scenario(Setup()))),
        ["replay", str(REPLAYED), "--engine", "reference", "--engine-timeout", "nan"],
        "expected seconds",
    ),
    (
        "empty shard",
        lambda: None,
        ["certify", "--engine", "reference", "--rule", "702.26a", "--shard", "4/4"],
        "shard 4/4 holds no property to run",
    ),
    (
        "engine module missing",
        lambda: None,
        ["certify", "--engine", "no_such_module_here:Factory"],
        "can't be loaded: No module named 'no_such_module_here'",
    ),
]


@pytest.mark.parametrize(
    ("make", "args", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    make: Callable[[], object],
    args: list[str],
    message: str,
) -> None:
    make()
    before = sorted(p for p in tmp_path.rglob("*") if not p.is_dir())
    try:
        code = main(args)
    except SystemExit as usage:  # argparse's own errors
        code = usage.code
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert message in err and err.count("\n") == 1 and err.startswith("phasecert: error: "), err
    assert "Traceback" not in out + err
    assert sorted(p for p in tmp_path.rglob("*") if not p.is_dir()) == before


# -- merge --------------------------------------------------------------------

SCENARIO = Scenario(Setup(permanents=(Permanent("a", power=1, toughness=1),)))


def shard(index: int, count: int = 2, **changes: object) -> dict:
    """A shard report of the mutant: shard 1 holds a failure."""
    results = {
        1: [
            PropertyResult(
                PROP,
                ("502.1",),
                "fail",
                3,
                "502.1 x: expected a; the engine showed b",
                to_data(SCENARIO),
            )
        ],
        2: [PropertyResult("phasing_instances_are_redundant", ("702.26p",), "pass", 25)],
    }.get(index, [])
    info = RunInfo(
        "mutant:x",
        "1",
        (),
        "dev",
        None,
        "2026-01-01T00:00:00+00:00",
        "2026-01-01T00:00:01+00:00",
        ("502.1", "702.26p"),
        f"{index}/{count}",
    )
    report = build_report(
        results, info, {PROP: [f"counterexamples/{PROP}.abc.json"]} if index == 1 else {}
    )
    report.update(changes)
    return report


def write(name: str, report: object) -> str:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(report if isinstance(report, str) else json.dumps(report))
    return name


def with_property(index: int, **fields: object) -> dict:
    report = shard(index)
    report["properties"][0].update(fields)
    return report


MERGE_CASES: list[tuple[str, list[object], str]] = [
    ("one shard of two", [shard(1)], "shard(s) 2 of 2 missing"),
    ("same shard twice", [shard(1), shard(1), shard(2)], "shard 1/2 again"),
    (
        "a --rule subset mixed in",
        [shard(1), {**shard(2), "selection": {"rules": ["502.1"], "shard": "2/2"}}],
        "selection.rules differs",
    ),
    ("another count", [shard(1), shard(2, 3)], "is one of 2"),
    (
        "not a shard",
        [{**shard(1), "selection": {"rules": [], "shard": None}}],
        "missing or bad selection.shard",
    ),
    (
        "bogus status",
        [with_property(1, status="bogus"), shard(2)],
        "properties[0]: missing or bad status",
    ),
    ("unknown property", [with_property(1, name="../../x"), shard(2)], "missing or bad name"),
    ("examples a string", [with_property(1, examples="3"), shard(2)], "missing or bad examples"),
    (
        "no properties",
        [{k: v for k, v in shard(1).items() if k != "properties"}, shard(2)],
        "missing or bad properties",
    ),
    ("engine a list", [{**shard(1), "engine": []}, shard(2)], "missing or bad engine"),
    ("not JSON", ["{"], "not a readable report"),
    ("a list", ["[]"], "missing or bad $"),
    ("deep", ["[" * 3000 + "]" * 3000], "not a report (nested too deeply)"),
    (
        "bad counterexample",
        [with_property(1, failure={"scenario": {"setup": {"players": 1000}}}), shard(2)],
        "counterexample is not valid",
    ),
]


@pytest.mark.parametrize(
    ("reports", "message"), [c[1:] for c in MERGE_CASES], ids=[c[0] for c in MERGE_CASES]
)
def test_merge_refuses_bad_shards(
    capsys: pytest.CaptureFixture[str], reports: list[object], message: str
) -> None:
    paths = [write(f"s{i}/report.json", r) for i, r in enumerate(reports)]
    code = main(["merge", *paths, "--out", "merged/m"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not Path("merged/m/report.json").exists()


@pytest.mark.parametrize(
    "scenario_file",
    [
        f"../../../../escaped/{PROP}.json",
        "/tmp/phasecert-escaped.json",
        "counterexamples/../../../escaped.json",
        "counterexamples/link.json",
    ],
)
def test_merge_never_writes_outside_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scenario_file: str
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the report")
    first = shard(1)
    first["properties"][0]["failure"]["scenario_file"] = scenario_file
    write("s1/report.json", first)
    write("s2/report.json", shard(2))
    (tmp_path / "s1" / "counterexamples").mkdir()
    (tmp_path / "s1" / "counterexamples" / "link.json").symlink_to(secret)
    # A planted link where merge writes: replaced, its target untouched.
    corpus = tmp_path / "merged" / "m" / "counterexamples"
    corpus.mkdir(parents=True)
    (corpus / counterexample_name(PROP, SCENARIO)).symlink_to(secret)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}

    code = main(["merge", "s1/report.json", "s2/report.json", "--out", "merged/m"])
    capsys.readouterr()
    assert code == 1

    after = {p for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}
    new = {p.relative_to(tmp_path).as_posix() for p in after - set(before)}
    outside = {p for p in new if not p.startswith("merged/m/")}
    assert outside == set()
    assert all(before[p] == p.read_bytes() for p in before)
    assert not Path("/tmp/phasecert-escaped.json").exists()
    files = list(corpus.iterdir())
    assert len(files) == 1 and not files[0].is_symlink()
    assert "not for the report" not in files[0].read_text()
    assert secret.read_text() == "not for the report"
    report = json.loads(Path("merged/m/report.json").read_text())
    failure = next(p for p in report["properties"] if p["name"] == PROP)["failure"]
    assert failure["scenario_file"] == f"counterexamples/{files[0].name}"


def test_merge_without_out_stays_in_the_default_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    engine = {"name": "..", "version": "1", "capabilities": [], "missing": {}}
    paths = [write(f"s{i}/report.json", {**shard(i), "engine": engine}) for i in (1, 2)]
    assert main(["merge", *paths]) == 1
    capsys.readouterr()
    assert Path("phasecert-reports/__/report.json").is_file()
    assert not (tmp_path / "report.json").exists()


def test_merge_cuts_huge_messages(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [write("s1/report.json", with_property(1, message="x" * 1_000_000))]
    paths.append(write("s2/report.json", shard(2)))
    assert main(["merge", *paths, "--out", "merged/m"]) == 1
    capsys.readouterr()
    assert Path("merged/m/report.json").stat().st_size < 50_000
    report = json.loads(Path("merged/m/report.json").read_text())
    message = next(p["message"] for p in report["properties"] if p["name"] == PROP)
    assert message.endswith("[cut: 996000 more characters]")
