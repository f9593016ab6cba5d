"""Baselines for regression gating, like web-platform-tests expectations.

An engine that doesn't fully conform yet records the status each failing
property is expected to have; a run then fails only on a *new* failure or
engine error, and lists the properties that now pass so the baseline can be
tightened. The file is one `property: status` per line, `#` comments, and
properties not listed are expected to pass:

    # phasecert baseline for my-engine
    untap_step_untaps_after_phasing: fail  # 502.1
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.corpus import read_limited
from conformance.results import PropertyResult

#: The largest baseline read; one line per property is a few KB.
BASELINE_LIMIT = 1024 * 1024

#: Statuses a baseline can expect; "pass" is allowed but is the default.
STATUSES = ("pass", "fail", "engine-error", "not-exercised", "not-applicable")
_BAD = ("fail", "engine-error", "not-exercised")


class BaselineError(ValueError):
    """A baseline file can't be read; the message names the file and line."""


@dataclass(frozen=True)
class Baseline:
    """Expected status by property, with the line each came from."""

    expected: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def parse_baseline(text: str, source: str) -> Baseline:
    baseline = Baseline()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, colon, status = (part.strip() for part in line.partition(":"))
        where = f"{source}:{number}"
        if not colon or not name or " " in name:
            raise BaselineError(f"{where}: expected 'property: status', got {raw.strip()!r}")
        if status not in STATUSES:
            raise BaselineError(
                f"{where}: unknown status {status!r} for {name}; use one of {', '.join(STATUSES)}"
            )
        if name in baseline.expected:
            raise BaselineError(
                f"{where}: {name} is listed twice (first on line {baseline.lines[name]})"
            )
        baseline.expected[name] = status
        baseline.lines[name] = number
    return baseline


def read_baseline(path: Path) -> Baseline:
    """The baseline at `path`; a missing file is an error, not an empty baseline,
    so a typo in the path can't silently turn the gate off."""
    try:
        text = read_limited(path, BASELINE_LIMIT)
    except OSError as e:
        raise BaselineError(f"baseline {path}: can't read it ({e.strerror or e})") from None
    except ValueError as e:  # not a regular file (a FIFO would block), too big, not UTF-8
        raise BaselineError(f"baseline {path}: can't read it ({e})") from None
    return parse_baseline(text, str(path))


def check_known(baseline: Baseline, known: Collection[str], source: str) -> None:
    """Every property the baseline lists exists in this suite."""
    for name, number in baseline.lines.items():
        if name not in known:
            raise BaselineError(
                f"{source}:{number}: no property named {name!r} in this suite "
                "(remove the line, or rewrite the file with --update-baseline)"
            )


@dataclass(frozen=True)
class Gate:
    """What a run means against a baseline."""

    regressions: tuple[PropertyResult, ...]
    now_passing: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.regressions


def gate(results: Iterable[PropertyResult], expected: Mapping[str, str]) -> Gate:
    """Regressions: a failure or engine error the baseline doesn't expect.
    Without a baseline (`expected` empty) every failure is one."""
    results = list(results)
    regressions = tuple(
        r for r in results if r.status in _BAD and expected.get(r.property, "pass") != r.status
    )
    now_passing = tuple(
        sorted(
            r.property
            for r in results
            if r.status == "pass" and expected.get(r.property, "pass") in _BAD
        )
    )
    return Gate(regressions, now_passing)


def updated(expected: Mapping[str, str], results: Iterable[PropertyResult]) -> dict[str, str]:
    """The baseline after a run: properties that ran take their new status
    (passing ones drop out); properties that didn't run (another shard, a
    --rule subset) keep their line."""
    new = dict(expected)
    for r in results:
        if r.status in _BAD:
            new[r.property] = r.status
        else:
            new.pop(r.property, None)
    return new


def format_baseline(
    expected: Mapping[str, str], engine: str, rules: Mapping[str, Iterable[str]]
) -> str:
    """The baseline file's text, sorted, each line with its rule IDs."""
    lines = [
        f"# phasecert baseline for {engine}: the expected status of each property",
        "# that doesn't pass yet; properties not listed are expected to pass.",
        "# Rewrite with: phasecert certify ... --update-baseline",
    ]
    for name in sorted(expected):
        ids = ", ".join(rules.get(name, ()))
        lines.append(f"{name}: {expected[name]}" + (f"  # {ids}" if ids else ""))
    return "\n".join(lines) + "\n"
