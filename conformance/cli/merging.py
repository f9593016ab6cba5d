"""`phasecert merge`: combine the shard reports of one run into one report.

Shard reports often come from other machines (CI artifacts), so every field
is untrusted: each report is checked field by field, the shards must be
1..N of the same run, each exactly once, and the only files written are
the reports and counterexample files whose names phasecert computes itself,
under --out. A shard's `scenario_file` is never followed: the counterexample
is rewritten from the scenario recorded in the report.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from pathlib import Path
from typing import Any, get_args

from conformance.agreement_results import COMPARISON
from conformance.checking import PROFILES
from conformance.cli.certify import (
    checked_baseline,
    clean_up_after_killed_runs,
    conclude,
    default_out,
)
from conformance.cli.checks import UsageFailure, writable_directory
from conformance.codec import DecodeError, from_data
from conformance.corpus import CORPUS_DIRNAME, Corpus, read_limited
from conformance.editions import ALL_RULE_IDS
from conformance.escaping import cut
from conformance.legality import InvalidScenario, check_setup
from conformance.properties import every_property
from conformance.report import RunInfo, build_report, edition_of, results_of
from conformance.report.building import REPORT_FORMAT
from conformance.results import PropertyResult, Status
from conformance.scenario import Scenario
from conformance.sharding import parse_shard

#: The largest shard report read.
REPORT_LIMIT = 64 * 1024 * 1024
#: What must be the same in every shard of one run.
_SAME = ("suite", "catalog_version", "engine", "profile", "seed")


class BadShard(UsageFailure):
    """A shard report that can't be merged; the message names the field."""


def merge(args: argparse.Namespace) -> int:
    """Combine shard reports of one engine into one report."""
    shards = [(Path(p), read_shard(Path(p))) for p in args.reports]
    check_complete(shards)
    baseline = checked_baseline(args)
    first = shards[0][1]
    engine = first["engine"]["name"]
    edition = edition_of(first)
    out = Path(args.out) if args.out else default_out(engine, edition)
    writable_directory(out, "--out")
    clean_up_after_killed_runs(out, args.matrix)
    results: dict[str, PropertyResult] = {}
    for path, report in shards:
        for result in results_of(report):
            result = dataclasses.replace(result, message=cut(result.message))
            if result.property in results:
                raise BadShard(f"{path}: {result.property} is in another shard as well")
            for data in result.scenarios():
                _check_counterexample(path, result, data)
            results[result.property] = result
    # Every shard is checked before the first counterexample is written.
    corpus = Corpus(out / CORPUS_DIRNAME)
    files = {
        prop: [p.relative_to(out).as_posix() for p in corpus.keep(result)]
        for prop, result in results.items()
    }
    info = RunInfo(
        engine=engine,
        engine_version=first["engine"]["version"],
        capabilities=tuple(first["engine"]["capabilities"]),
        missing=dict(first["engine"].get("missing", {})),
        unreported=tuple(first["engine"].get("unreported", ())),
        profile=first["profile"],
        seed=first["seed"],
        started=min(r["started"] for _, r in shards),
        finished=max(r["finished"] for _, r in shards),
        rules=tuple(first["selection"]["rules"]),
        machine=first["machine"],
        edition=edition,
        engine_spec=first["engine"].get("spec"),
    )
    merged = build_report(list(results.values()), info, files, out)
    return conclude(merged, list(results.values()), out, baseline, args)


def _check_counterexample(path: Path, result: PropertyResult, data: Any) -> None:
    try:
        check_setup(from_data(Scenario, data).setup)
    except (DecodeError, InvalidScenario, RecursionError) as e:
        raise BadShard(f"{path}: {result.property}: its counterexample is not valid: {e}") from None


def check_complete(shards: list[tuple[Path, dict[str, Any]]]) -> None:
    """The reports are shards 1..N of one run, each exactly once."""
    first_path, first = shards[0]
    for path, report in shards[1:]:
        if edition_of(report) != edition_of(first):
            raise BadShard(f"{path}: edition differs from {first_path}; not the same run")
        for key in (*_SAME, "selection.rules"):
            mine, theirs = _field(report, key), _field(first, key)
            if mine != theirs:
                raise BadShard(f"{path}: {key} differs from {first_path}; not the same run")
    count = parse_shard(first["selection"]["shard"])[1]
    seen: dict[int, Path] = {}
    for path, report in shards:
        index, of = parse_shard(report["selection"]["shard"])
        if of != count:
            raise BadShard(f"{path}: shard {index}/{of}, but {first_path} is one of {count}")
        if index in seen:
            raise BadShard(f"{path}: shard {index}/{count} again (also {seen[index]})")
        seen[index] = path
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    if missing:
        raise BadShard(f"shard(s) {', '.join(missing)} of {count} missing; merge needs all of them")


def _field(report: dict[str, Any], key: str) -> Any:
    for part in key.split("."):
        report = report[part]
    return report


def read_shard(path: Path) -> dict[str, Any]:
    """A shard report, checked field by field."""
    try:
        data = json.loads(read_limited(path, REPORT_LIMIT))
    except OSError as e:
        raise BadShard(f"{path}: can't read it ({e.strerror or e})") from None
    except RecursionError:
        raise BadShard(f"{path}: not a report (nested too deeply)") from None
    except ValueError as e:
        raise BadShard(f"{path}: not a readable report ({e})") from None
    problem = _report_problem(data)
    if problem:
        raise BadShard(f"{path}: not a phasecert shard report: {problem}")
    try:
        results_of(data)
    except (KeyError, TypeError, ValueError) as e:
        raise BadShard(f"{path}: not a phasecert shard report: bad property ({e})") from None
    return data


def _report_problem(data: Any) -> str | None:
    """What is wrong with `data` as a shard report, or None."""
    checks: list[tuple[str, Any, Any]] = [("$", data, dict)]
    if isinstance(data, dict):
        engine, selection = data.get("engine"), data.get("selection")
        checks += [
            ("format", data.get("format"), lambda v: v == REPORT_FORMAT),
            ("suite", data.get("suite"), dict),
            ("catalog_version", data.get("catalog_version"), str),
            ("engine", engine, dict),
            ("profile", data.get("profile"), lambda v: v in PROFILES),
            ("seed", data.get("seed"), lambda v: v is None or _is_int(v)),
            ("selection", selection, dict),
            ("started", data.get("started"), str),
            ("finished", data.get("finished"), str),
            ("machine", data.get("machine"), dict),
            ("properties", data.get("properties"), list),
        ]
    if isinstance(data, dict) and isinstance(engine, dict):
        checks += [
            ("engine.name", engine.get("name"), lambda v: isinstance(v, str) and v != ""),
            ("engine.version", engine.get("version"), str),
            ("engine.capabilities", engine.get("capabilities"), _strings),
            ("engine.missing", engine.get("missing", {}), _string_map),
        ]
    if isinstance(data, dict) and isinstance(selection, dict):
        checks += [
            ("selection.rules", selection.get("rules"), lambda v: _strings(v, ALL_RULE_IDS)),
            ("selection.shard", selection.get("shard"), _shard),
        ]
    for where, value, check in checks:
        ok = isinstance(value, check) if isinstance(check, type) else check(value)
        if not ok:
            return f"missing or bad {where} ({_short(value)})"
    for i, entry in enumerate(data["properties"]):
        problem = _property_problem(entry)
        if problem:
            return f"properties[{i}]: {problem}"
    return None


def _property_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"not an object ({_short(entry)})"
    number = (int, float)
    checks: list[tuple[str, Any, Any]] = [
        ("name", entry.get("name"), lambda v: v in every_property() or v == COMPARISON),
        ("rules", entry.get("rules"), lambda v: _strings(v, ALL_RULE_IDS)),
        ("status", entry.get("status"), lambda v: v in get_args(Status)),
        ("examples", entry.get("examples"), lambda v: _is_int(v) and v >= 0),
        ("exercised", entry.get("exercised", 0), lambda v: _is_int(v) and v >= 0),
        ("refusals", entry.get("refusals", 0), lambda v: _is_int(v) and v >= 0),
        ("duration", entry.get("duration"), lambda v: _finite(v, number)),
        ("message", entry.get("message"), str),
        ("missing", entry.get("missing"), _strings),
        ("failure", entry.get("failure"), lambda v: v is None or isinstance(v, dict)),
    ]
    for where, value, check in checks:
        ok = isinstance(value, check) if isinstance(check, type) else check(value)
        if not ok:
            return f"missing or bad {where} ({_short(value)})"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite(value: Any, kinds: tuple[type, ...]) -> bool:
    return isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value)


def _strings(value: Any, allowed: Any = None) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, str) and (allowed is None or v in allowed) for v in value
    )


def _string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _shard(value: Any) -> bool:
    try:
        parse_shard(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return True


def _short(value: Any) -> str:
    text = "absent" if value is None else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
