"""Building `report.json` from the property results of a run.

The report is the certificate an engine author publishes, so it says what was
run (suite and catalog versions, engine, profile, seed, machine, time) and,
for every failure, enough to see and reproduce it without the run: the shrunk
scenario, what the rule expected against what the engine did, and the
command that replays it. `results_of` reads the results back, which is how
shard reports are merged and baselines updated.
"""

from __future__ import annotations

import os
import platform
import re
import shlex
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.catalog import CATALOG_VERSION, Edition
from conformance.editions import CATALOGS, CURRENT
from conformance.results import STATUSES, PropertyResult, Status

#: Version of the report format; schemas/report.schema.json describes it.
#: 3: the edition of the rules certified (`edition`); a format 2 report is
#: of today's rules (`edition_of`).
REPORT_FORMAT = 3

#: How a rule's status follows from its properties': the first that any has.
_PRECEDENCE: tuple[Status, ...] = STATUSES
#: The statuses a certificate can stand on; any other does not conform.
CONFORMING: tuple[Status, ...] = ("pass", "not-applicable")

_VIOLATION = re.compile(
    r"^(?P<rule>\S+) (?P<where>.*?): expected (?P<expected>.*?); "
    r"the engine showed (?P<observed>.*)$",
    re.DOTALL,
)
#: `conformance.differential`'s disagreement: "after WHERE: DIFFERENCES",
#: one per line, each ending with the rules it falls under.
_DISAGREEMENT = re.compile(r"^(?P<where>(?:after|at) [^:]+): (?P<observed>.*)$", re.DOTALL)
_DIFFERENCE_RULES = re.compile(r"\(rules (?P<rules>[^)]*)\)$", re.MULTILINE)


@dataclass(frozen=True)
class RunInfo:
    """What the run was, apart from its results."""

    engine: str
    engine_version: str
    capabilities: tuple[str, ...]
    profile: str
    seed: int | None
    started: str
    finished: str
    rules: tuple[str, ...] = ()
    shard: str | None = None
    machine: dict[str, Any] = field(default_factory=lambda: this_machine())
    #: Capabilities the engine lacks → why, as its adapter says.
    missing: dict[str, str] = field(default_factory=dict)
    #: Optional observations the engine does not report (docs/observations.md).
    unreported: tuple[str, ...] = ()
    #: The edition of the rules certified (conformance.editions).
    edition: Edition = CURRENT
    #: `--engine` as given (`module:Factory`, `stdio:CMD`, a name), which
    #: the replay commands need; None: the engine's name loads it.
    engine_spec: str | None = None


def edition_of(report: dict[str, Any]) -> Edition:
    """The edition a report certifies; reports before format 3 are of
    today's rules."""
    edition = report.get("edition", CURRENT)
    return edition if edition in CATALOGS else CURRENT


def this_machine() -> dict[str, Any]:
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count() or 1,
    }


def replay_command(scenario_file: str, engine: str, edition: Edition = CURRENT) -> str:
    command = f"phasecert replay {shlex.quote(scenario_file)} --engine {shlex.quote(engine)}"
    return command if edition == CURRENT else f"{command} --edition {edition}"


def rule_status(statuses: Iterable[Status]) -> Status:
    present = set(statuses)
    return next(s for s in _PRECEDENCE if s in present)


def split_violation(status: Status, message: str) -> dict[str, str]:
    """Expected and observed, out of a property's failure message (or the
    stateful comparison's: where, then the differences)."""
    match = _VIOLATION.match(message)
    if status == "fail" and match:
        return {k: match[k] for k in ("where", "expected", "observed")}
    match = _DISAGREEMENT.match(message)
    if status == "fail" and match:
        expected = "what the reference engine shows"
        return {"where": match["where"], "expected": expected, "observed": match["observed"]}
    if status == "engine-error":
        return {"where": "", "expected": "the engine plays the scenario", "observed": message}
    return {"where": "", "expected": "the rule holds", "observed": message}


def build_report(
    results: Sequence[PropertyResult],
    info: RunInfo,
    files: dict[str, list[str]] | None = None,
    report_dir: Path | None = None,
) -> dict[str, Any]:
    """The report data; `files` maps a failed property to its corpus files
    (`PropertyResult.scenarios()`'s, in order), relative to `report_dir`,
    where the replay commands find them."""
    files = files or {}
    by_rule: dict[str, list[PropertyResult]] = {}
    for result in results:
        for rule in result.rules:
            by_rule.setdefault(rule, []).append(result)
    catalog = CATALOGS[info.edition]
    rules = [_rule_entry(rule, by_rule[rule], catalog) for rule in _rule_order(by_rule, catalog)]
    properties = [_property_entry(r, info, files.get(r.property, []), report_dir) for r in results]
    return {
        "format": REPORT_FORMAT,
        "suite": {"name": "phasecert", "version": __version__},
        "catalog_version": CATALOG_VERSION,
        "edition": info.edition,
        "engine": {
            "name": info.engine,
            "version": info.engine_version,
            "capabilities": sorted(info.capabilities),
            "missing": dict(sorted(info.missing.items())),
            "unreported": sorted(info.unreported),
            **({"spec": info.engine_spec} if info.engine_spec else {}),
        },
        "profile": info.profile,
        "seed": info.seed,
        "selection": {"rules": sorted(info.rules), "shard": info.shard},
        "started": info.started,
        "finished": info.finished,
        "machine": info.machine,
        "summary": _summary(rules, properties),
        "rules": rules,
        "properties": sorted(properties, key=lambda p: p["name"]),
    }


def _rule_order(rules: Iterable[str], catalog: dict[str, Any]) -> list[str]:
    order = {rule: i for i, rule in enumerate(catalog)}
    return sorted(rules, key=lambda r: (order.get(r, len(order)), r))


def _rule_entry(
    rule: str, results: list[PropertyResult], catalog: dict[str, Any]
) -> dict[str, Any]:
    known = catalog.get(rule)
    status = rule_status(r.status for r in results)
    missing = sorted({m for r in results for m in r.missing}) if status == "not-applicable" else []
    entry: dict[str, Any] = {
        "id": rule,
        "summary": known.summary if known else "",
        "status": status,
        "properties": sorted(r.property for r in results),
        "examples": sum(r.examples for r in results),
        "exercised": sum(r.exercised for r in results),
        "missing": missing,
    }
    if status == "fail":
        # A property stops at its first violation, which names one rule; the
        # other rules it cites fail with it, untested past that point.
        violated = {m["rule"] for r in results if (m := _VIOLATION.match(r.message))}
        violated |= {rule for r in results for rule in _compared_rules(r.message)}
        entry["violated"] = sorted(violated)
    return entry


def _compared_rules(message: str) -> set[str]:
    """The rules the comparison's differences fall under, from its message."""
    found = (m["rules"].split(", ") for m in _DIFFERENCE_RULES.finditer(message))
    return {rule for rules in found for rule in rules}


def _property_entry(
    result: PropertyResult, info: RunInfo, scenario_files: list[str], report_dir: Path | None
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": result.property,
        "rules": list(result.rules),
        "status": result.status,
        "examples": result.examples,
        "exercised": result.exercised,
        "refusals": result.refusals,
        "duration": round(result.duration, 3),
        "message": result.message,
        "missing": list(result.missing),
    }
    if result.status in ("fail", "engine-error"):
        failure: dict[str, Any] = split_violation(result.status, result.message)
        # Each counterexample with its corpus file, if one was written.
        pairs = list(zip_longest(result.scenarios(), scenario_files)) or [(None, None)]
        first, *further = (_stored(data, file, info, report_dir) for data, file in pairs)
        failure.update(first)
        if further:
            failure["further"] = further
        entry["failure"] = failure
    return entry


def _stored(
    scenario: Any, scenario_file: str | None, info: RunInfo, report_dir: Path | None
) -> dict[str, Any]:
    """A counterexample as the report gives it: the scenario, its corpus
    file and the command replaying it."""
    replay = None
    if scenario_file:
        where = report_dir / scenario_file if report_dir else Path(scenario_file)
        replay = replay_command(where.as_posix(), info.engine_spec or info.engine, info.edition)
    return {"scenario": scenario, "scenario_file": scenario_file, "replay": replay}


def further_replays(failure: dict[str, Any]) -> list[tuple[int, str]]:
    """The replay commands of the comparison's further differences, each
    with its number in the message (the first is the counterexample's)."""
    further = failure.get("further", ())
    return [(k, f["replay"]) for k, f in enumerate(further, 2) if f["replay"]]


def _summary(rules: list[dict], properties: list[dict]) -> dict[str, Any]:
    def count(entries: list[dict]) -> dict[str, int]:
        return {s: sum(e["status"] == s for e in entries) for s in _PRECEDENCE}

    return {
        "conforms": all(e["status"] in CONFORMING for e in properties),
        "rules": count(rules),
        "properties": count(properties),
    }


def results_of(report: dict[str, Any]) -> list[PropertyResult]:
    """The property results a report was built from."""
    return [
        PropertyResult(
            property=p["name"],
            rules=tuple(p["rules"]),
            status=p["status"],
            examples=p["examples"],
            exercised=p.get("exercised", 0),
            refusals=p.get("refusals", 0),
            message=p["message"],
            counterexample=(p.get("failure") or {}).get("scenario"),
            further=tuple(f["scenario"] for f in (p.get("failure") or {}).get("further", ())),
            missing=tuple(p["missing"]),
            duration=p["duration"],
        )
        for p in report["properties"]
    ]


def scenario_files_of(report: dict[str, Any]) -> dict[str, str]:
    """Failed property → its corpus file, as the report recorded it."""
    return {
        p["name"]: p["failure"]["scenario_file"]
        for p in report["properties"]
        if p.get("failure") and p["failure"].get("scenario_file")
    }
