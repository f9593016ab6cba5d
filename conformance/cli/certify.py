"""`phasecert certify` and `phasecert merge`: run the suite through pytest,
write the reports, and gate on a baseline.

Everything that can be wrong with the command line (engine, rule, shard,
baseline, corpus, example database) is checked before the run starts, so a
mistake costs a one-line message and not a run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adapters.discovery import load_engine
from adapters.protocol import missing_capabilities, unreported_observations
from conformance.atomic import write_text_atomically
from conformance.baseline import (
    Baseline,
    check_known,
    format_baseline,
    gate,
    read_baseline,
    updated,
)
from conformance.catalog import CATALOG
from conformance.cli.watching import RunWatcher
from conformance.codec import from_data
from conformance.corpus import CORPUS_DIRNAME, counterexample_name, example_database, load_corpus
from conformance.differential import COMPARISON
from conformance.properties import REGISTRY
from conformance.report import RunInfo, build_report, engine_directory, results_of, write_reports
from conformance.report.building import scenario_files_of
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.sharding import in_shard, item_key, parse_shard


class UsageFailure(Exception):
    """A usage or setup error: exit 2 with this one-line message."""


class Interrupted(Exception):
    """The run was interrupted; nothing was written."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def planned_tests(rules: list[str], shard: str | None) -> dict[str, tuple[str, ...]]:
    """The tests the pytest run will hold, mirroring the plugin's selection
    (--rule, then --shard), each with its rule IDs."""
    wanted = set(rules)
    planned = {
        name: prop.rules
        for name, prop in REGISTRY.items()
        if not wanted or wanted & set(prop.rules)
    }
    keys = {item_key(name): name for name in planned}
    if not rules:
        keys["test_agrees_with_reference"] = COMPARISON
        planned[COMPARISON] = ()
    if shard:
        kept = in_shard(list(keys), *parse_shard(shard))
        planned = {name: planned[name] for key, name in keys.items() if key in kept}
    return planned


def certify(args: argparse.Namespace) -> int:
    engine = load_engine(args.engine)
    for rule in args.rule:
        if rule not in CATALOG:
            raise UsageFailure(f"--rule {rule}: not a rule of the catalog (see: phasecert rules)")
    try:
        planned = planned_tests(args.rule, args.shard)
    except ValueError as e:
        raise UsageFailure(str(e)) from None
    if not planned:
        raise UsageFailure("no property covers the rules and shard asked for")
    out = Path(args.out) if args.out else Path("reports") / engine_directory(engine.name)
    corpus_dir = out / CORPUS_DIRNAME
    load_corpus(corpus_dir)  # a broken corpus file is a setup error, named now
    baseline = _baseline(args)
    if args.example_db:
        example_database(args.example_db)

    started = now()
    watcher = RunWatcher(planned, sys.stdout, live=sys.stdout.isatty())
    code = pytest.main(_pytest_args(args, engine.name, corpus_dir), plugins=[watcher])
    if code == pytest.ExitCode.INTERRUPTED:
        raise Interrupted
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise UsageFailure(f"the pytest run stopped with {code!r}; see its message above")
    info = RunInfo(
        engine=engine.name,
        engine_version=str(engine.version),
        capabilities=tuple(sorted(engine.capabilities)),
        missing={c.value: why for c, why in missing_capabilities(engine).items()},
        unreported=tuple(sorted(unreported_observations(engine))),
        profile=args.profile,
        seed=args.seed,
        started=started,
        finished=now(),
        rules=tuple(args.rule),
        shard=args.shard,
    )
    files = {
        r.property: f"{CORPUS_DIRNAME}/{counterexample_name(r.property, _scenario(r))}"
        for r in watcher.results
        if r.counterexample is not None
    }
    report = build_report(watcher.results, info, files, out)
    return _conclude(report, watcher.results, out, baseline, args)


def _scenario(result: PropertyResult) -> Scenario:
    return from_data(Scenario, result.counterexample)


def _baseline(args: argparse.Namespace) -> Baseline | None:
    if not args.baseline:
        if args.update_baseline:
            raise UsageFailure("--update-baseline needs --baseline FILE")
        return None
    path = Path(args.baseline)
    if args.update_baseline and not path.exists():
        return Baseline()
    baseline = read_baseline(path)
    if not args.update_baseline:
        check_known(baseline, {*REGISTRY, COMPARISON}, str(path))
    return baseline


def _pytest_args(args: argparse.Namespace, engine: str, corpus_dir: Path) -> list[str]:
    # -c devnull: the engine author's own pytest configuration (addopts,
    # plugins) must not change what a certification run is.
    out = ["-c", os.devnull, "-p", "no:terminal", "-p", "no:cacheprovider"]
    out += ["--pyargs", "conformance.suite", "--engine", engine]
    out += ["--phasecert-profile", args.profile, "--phasecert-corpus", str(corpus_dir)]
    out += ["--engine-timeout", str(args.engine_timeout)]
    for rule in args.rule:
        out += ["--rule", rule]
    if args.rule:
        out += ["-k", "test_property"]
    if args.shard:
        out += ["--shard", args.shard]
    if args.seed is not None:
        out += [f"--hypothesis-seed={args.seed}"]
    if args.example_db:
        out += ["--phasecert-example-db", args.example_db]
    if args.workers:
        out += ["-n", args.workers]
    return out


def _conclude(
    report: dict[str, Any],
    results: list[PropertyResult],
    out: Path,
    baseline: Baseline | None,
    args: argparse.Namespace,
) -> int:
    """Write the reports and the baseline, print the verdict, and give the exit code."""
    expected = baseline.expected if baseline else {}
    verdict = gate(results, expected)
    written = write_reports(report, out)
    if args.update_baseline:
        rules = {name: prop.rules for name, prop in REGISTRY.items()}
        new = updated(expected, results)
        write_text_atomically(
            Path(args.baseline), format_baseline(new, report["engine"]["name"], rules)
        )
        print(f"baseline {args.baseline} rewritten: {len(new)} expected failure(s)")
    counts = report["summary"]["rules"]
    print(
        f"{report['engine']['name']}: rules "
        + ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    )
    for result in verdict.regressions:
        what = "new " if baseline else ""
        rules = f" ({', '.join(result.rules)})" if result.rules else ""
        print(f"{what}{result.status}: {result.property}{rules}")
    if verdict.now_passing:
        print("now passing, tighten the baseline: " + ", ".join(verdict.now_passing))
    print(f"reports: {', '.join(str(p) for p in written)}")
    return 0 if verdict.ok or args.update_baseline else 1


def merge(args: argparse.Namespace) -> int:
    """Combine shard reports of one engine into one report."""
    reports = [(Path(p), _read_report(Path(p))) for p in args.reports]
    baseline = _baseline(args)
    first = reports[0][1]
    for path, report in reports[1:]:
        for key in ("engine", "catalog_version", "profile", "suite"):
            if report[key] != first[key]:
                raise UsageFailure(f"{path}: {key} differs from {reports[0][0]}; can't merge")
    results: dict[str, PropertyResult] = {}
    files: dict[str, str] = {}
    engine = first["engine"]["name"]
    out = Path(args.out) if args.out else Path("reports") / engine_directory(engine)
    for path, report in reports:
        for result in results_of(report):
            if result.property in results and results[result.property].status != result.status:
                raise UsageFailure(f"{path}: {result.property} has another status in a shard")
            results[result.property] = result
        for prop, name in scenario_files_of(report).items():
            files[prop] = name
            source, target = path.parent / name, out / name
            if source.exists() and source.resolve() != target.resolve():
                write_text_atomically(target, source.read_text(encoding="utf-8"))
    info = RunInfo(
        engine=engine,
        engine_version=first["engine"]["version"],
        capabilities=tuple(first["engine"]["capabilities"]),
        missing=dict(first["engine"].get("missing", {})),
        unreported=tuple(first["engine"].get("unreported", ())),
        profile=first["profile"],
        seed=first["seed"],
        started=min(r["started"] for _, r in reports),
        finished=max(r["finished"] for _, r in reports),
        rules=tuple(sorted({rule for _, r in reports for rule in r["selection"]["rules"]})),
        machine=first["machine"],
    )
    merged = build_report(list(results.values()), info, files, out)
    return _conclude(merged, list(results.values()), out, baseline, args)


def _read_report(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        _ = data["engine"]["name"], data["properties"], data["selection"]["rules"]
        results_of(data)
    except (OSError, ValueError) as e:
        raise UsageFailure(f"{path}: not a readable report ({e})") from None
    except (KeyError, TypeError) as e:
        raise UsageFailure(f"{path}: not a phasecert report (missing or bad {e})") from None
    return data
