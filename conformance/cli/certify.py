"""`phasecert certify`: run the suite through pytest (in a child process,
`conformance.cli.isolation`), write the reports, and gate on a baseline.

Everything that can be wrong with the command line (engine, rule, shard,
baseline, corpus, example database) is checked before the run starts, so a
mistake costs a one-line message and not a run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adapters.discovery import STDIO_PREFIX, load_engine
from adapters.protocol import engine_for_edition, missing_capabilities, unreported_observations
from conformance.agreement_results import COMPARISON
from conformance.atomic import remove_stale_temporaries, write_text_atomically
from conformance.baseline import (
    Baseline,
    check_known,
    format_baseline,
    gate,
    read_baseline,
    updated,
)
from conformance.catalog import Edition
from conformance.cli.checks import (
    UsageFailure,
    example_db_spec,
    writable_directory,
    writable_file,
    xdist_installed,
)
from conformance.cli.isolation import run_isolated
from conformance.cli.watching import RunWatcher
from conformance.codec import from_data
from conformance.corpus import CORPUS_DIRNAME, corpus_file, example_database, load_corpus
from conformance.editions import CATALOGS, CURRENT
from conformance.escaping import cut, for_terminal
from conformance.properties import every_property, in_edition
from conformance.report import RunInfo, build_report, edition_of, engine_directory, write_reports
from conformance.report.writing import INDEX_FILES, REPORT_FILES
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.sharding import in_shard, item_key, parse_shard

#: Where reports go without --out: not the clone's tracked reports/.
DEFAULT_ROOT = Path("phasecert-reports")


class Interrupted(Exception):
    """The run was interrupted; nothing was written."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def planned_tests(
    rules: list[str], shard: str | None, edition: Edition = CURRENT
) -> dict[str, tuple[str, ...]]:
    """The tests the pytest run will hold, mirroring the plugin's selection
    (--edition, --rule, then --shard), each with its rule IDs."""
    wanted = set(rules)
    planned = {
        name: prop.rules
        for name, prop in in_edition(edition).items()
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


def default_out(engine: str, edition: str = CURRENT) -> Path:
    """DEFAULT_ROOT/<engine>, or <engine>@<edition> for an older edition, so
    it doesn't overwrite today's; an engine named `..` or nothing (a shard
    report can say anything) stays inside it."""
    name = engine_directory(engine)
    name = (name.replace(".", "_") or "_") if set(name) <= {"."} else name
    return DEFAULT_ROOT / (name if edition == CURRENT else f"{name}@{edition}")


def certify(args: argparse.Namespace) -> int:
    if args.isolate:
        args.engine = served(args.engine)
    try:
        engine = engine_for_edition(load_engine(args.engine), args.edition)
    except ValueError as e:
        raise UsageFailure(f"--edition {args.edition}: {e}") from None
    for rule in args.rule:
        if rule not in CATALOGS[args.edition]:
            raise UsageFailure(
                f"--rule {rule}: not a rule of the {args.edition} catalog "
                f"(see: phasecert rules --edition {args.edition})"
            )
    try:
        planned = planned_tests(args.rule, args.shard, args.edition)
    except ValueError as e:
        raise UsageFailure(str(e)) from None
    if not planned and args.shard:
        every = len(planned_tests(args.rule, None, args.edition))
        raise UsageFailure(
            f"shard {args.shard} holds no property to run ({every} in all without --shard)"
        )
    if not planned:
        raise UsageFailure("no property covers the rules asked for")
    out = Path(args.out) if args.out else default_out(engine.name, args.edition)
    writable_directory(out, "--out")
    clean_up_after_killed_runs(out, args.matrix)
    corpus_dir = out / CORPUS_DIRNAME
    load_corpus(corpus_dir)  # a broken corpus file is a setup error, named now
    baseline = checked_baseline(args)
    if args.workers:
        xdist_installed()
    if args.example_db:
        example_db_spec(args.example_db)
        example_database(args.example_db)

    started = now()
    watcher = RunWatcher(planned, sys.stdout, live=sys.stdout.isatty())
    code = _exit_code(
        run_isolated(
            _pytest_args(args, corpus_dir, out),
            watcher,
            timeout=args.engine_timeout,
            storage=out / ".hypothesis",
            memory_mb=args.engine_memory,
        )
    )
    if code == pytest.ExitCode.INTERRUPTED:
        raise Interrupted
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        raise UsageFailure("the pytest run found no property to run for this selection")
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise UsageFailure(f"the pytest run stopped with {code!r}; see its message above")
    info = RunInfo(
        engine=engine.name,
        engine_spec=None if args.engine == engine.name else args.engine,
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
        edition=args.edition,
    )
    files = {
        r.property: [corpus_file(r.property, from_data(Scenario, data)) for data in r.scenarios()]
        for r in watcher.results
    }
    report = build_report(watcher.results, info, files, out)
    return conclude(report, watcher.results, out, baseline, args)


def clean_up_after_killed_runs(out: Path, matrix: str | None) -> None:
    """Check that --matrix can be written, and remove the temporary files a
    run killed while writing left behind."""
    remove_stale_temporaries(out, *REPORT_FILES)
    remove_stale_temporaries(out / CORPUS_DIRNAME, "*.json")
    if matrix:
        writable_directory(Path(matrix), "--matrix")
        remove_stale_temporaries(Path(matrix), *INDEX_FILES)


def _exit_code(code: int) -> pytest.ExitCode | int:
    try:
        return pytest.ExitCode(code)
    except ValueError:
        return code


def checked_baseline(args: argparse.Namespace) -> Baseline | None:
    """The baseline of --baseline, checked (and writable, to be updated)."""
    if not args.baseline:
        if args.update_baseline:
            raise UsageFailure("--update-baseline needs --baseline FILE")
        return None
    path = Path(args.baseline)
    if args.update_baseline:
        writable_file(path, "--baseline")
    if args.update_baseline and not path.exists():
        return Baseline()
    baseline = read_baseline(path)
    if not args.update_baseline:
        check_known(baseline, {*every_property(), COMPARISON}, str(path))
    return baseline


def served(engine: str) -> str:
    """The stdio spec that runs `engine` in its own process (`--isolate`)."""
    if engine.startswith(STDIO_PREFIX):
        raise UsageFailure(f"--isolate: {engine} runs in its own process already")
    command = [sys.executable, "-m", "conformance.cli", "serve", "--engine", engine]
    return STDIO_PREFIX + shlex.join(command)


def _pytest_args(args: argparse.Namespace, corpus_dir: Path, report_dir: Path) -> list[str]:
    # -c devnull: the engine author's own pytest configuration (addopts,
    # plugins) must not change what a certification run is. The engine is
    # named as the user named it: a module:Factory adapter has no entry point.
    out = ["-c", os.devnull, "-p", "no:terminal", "-p", "no:cacheprovider"]
    out += ["-p", "no:benchmark", "--pyargs", "conformance.suite", "--engine", args.engine]
    out += ["--phasecert-profile", args.profile, "--phasecert-corpus", str(corpus_dir)]
    out += ["--edition", args.edition]
    out += ["--engine-timeout", str(args.engine_timeout)]
    if args.validate_protocol:
        out.append("--validate-protocol")
    for rule in args.rule:
        out += ["--rule", rule]
    if args.rule:
        out += ["-k", "test_property"]
    if args.shard:
        out += ["--shard", args.shard]
    if args.seed is not None:
        out += [f"--hypothesis-seed={args.seed}"]
    # Hypothesis's example database goes where the reports go, unless an
    # option names another place: a run writes nothing in the current directory.
    database = args.example_db or str(report_dir / ".hypothesis" / "examples")
    out += ["--phasecert-example-db", database]
    if args.workers:
        out += ["-n", args.workers]
    return out


def conclude(
    report: dict[str, Any],
    results: list[PropertyResult],
    out: Path,
    baseline: Baseline | None,
    args: argparse.Namespace,
) -> int:
    """Write the reports and the baseline, print the verdict, and give the exit code."""
    expected = baseline.expected if baseline else {}
    verdict = gate(results, expected)
    written = write_reports(report, out, Path(args.matrix) if args.matrix else None)
    if args.update_baseline:
        held = in_edition(edition_of(report))
        rules = {name: prop.rules for name, prop in held.items()}
        new = updated(expected, results)
        write_text_atomically(
            Path(args.baseline), format_baseline(new, report["engine"]["name"], rules)
        )
        print(f"baseline {args.baseline} rewritten: {len(new)} expected failure(s)")
    counts = report["summary"]["rules"]
    print(
        f"{for_terminal(cut(report['engine']['name'], 200))}: rules "
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
