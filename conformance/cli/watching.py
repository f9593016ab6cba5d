"""Watching a pytest run from `phasecert certify`: collecting each property's
result and showing progress.

On a terminal, one status line is redrawn (rules done / total, failures so
far) with each failure printed above it as it is found; elsewhere (CI logs,
pipes) only failures are printed, one line each, so logs stay short and
greppable. Results travel in each test report's `user_properties`, which
pytest-xdist sends back from its workers, so `-n auto` changes nothing here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, TextIO

from conformance.agreement_results import COMPARISON
from conformance.corpus import result_of
from conformance.escaping import cut, for_terminal
from conformance.results import PropertyResult, Status

_PROPERTY_ITEM = re.compile(r"test_property\[(?P<name>.+)\]$")


class RunWatcher:
    """A pytest plugin object; `planned` maps each test the run will hold
    (property name, or COMPARISON) to its rule IDs."""

    def __init__(self, planned: Mapping[str, tuple[str, ...]], stream: TextIO, live: bool):
        self.planned = dict(planned)
        self.stream = stream
        self.live = live
        self.results: list[PropertyResult] = []
        self._rules_total = len({r for rules in self.planned.values() for r in rules})

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            result = self.result(report)
            if result is not None:
                self.record(result)

    def result(self, report: Any) -> PropertyResult | None:
        """The result a test report carries, or stands for."""
        recorded = result_of(report.user_properties)
        if recorded is not None:
            return recorded
        match = _PROPERTY_ITEM.search(report.nodeid)
        name = match["name"] if match else COMPARISON
        if name not in self.planned:
            return None
        status: Status = "pass"
        if report.skipped:
            status = "not-applicable"
        elif report.failed:
            # A property that failed without recording its result failed in
            # setup (the engine could not be started), not on a rule.
            status = "fail" if name == COMPARISON else "engine-error"
        message = "" if report.passed else cut(report.longreprtext.strip())
        duration = float(getattr(report, "duration", 0.0))
        return PropertyResult(name, self.planned[name], status, message=message, duration=duration)

    def record(self, result: PropertyResult) -> None:
        # Messages quote the engine, which can say a megabyte.
        result = dataclasses.replace(result, message=cut(result.message))
        self.results.append(result)
        if result.status in ("fail", "engine-error", "not-exercised"):
            rules = ", ".join(result.rules) or "comparison with the reference engine"
            first = result.message.splitlines()[0] if result.message else ""
            self._clear()
            line = f"{result.status.upper()} {result.property} ({rules}): {first}"
            self.stream.write(for_terminal(cut(line, 400)) + "\n")
        self._draw()

    def progress(self) -> str:
        done = {r.property for r in self.results}
        rules_done = {
            rule
            for rule in {r for rules in self.planned.values() for r in rules}
            if all(p in done for p, rules in self.planned.items() if rule in rules)
        }
        failures = sum(r.status in ("fail", "engine-error", "not-exercised") for r in self.results)
        return (
            f"rules {len(rules_done)}/{self._rules_total}, "
            f"properties {len(done)}/{len(self.planned)}, failures {failures}"
        )

    def _clear(self) -> None:
        if self.live:
            self.stream.write("\r\x1b[K")

    def _draw(self) -> None:
        if self.live:
            self.stream.write("\r\x1b[K" + self.progress())
        self.stream.flush()

    def pytest_sessionstart(self) -> None:
        self._draw()

    def pytest_sessionfinish(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
