"""Render `reports/benchmarks.md` and `reports/benchmarks.svg` from the JSON
that `pytest benchmarks --benchmark-json=FILE` writes.

Usage: python -m benchmarks.report FILE [--out reports]

Every number comes from that one run, so ratios compare like with like; the
narrative in `benchmarks/findings.md` is appended as it is. The plot is the
shipped bench's SVG (`conformance.bench.plot`): no plotting library needed.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness import DIRECT, FLOOR, HANDWRITTEN, RUNNER, SIZES, SUITE
from conformance.atomic import write_files_atomically
from conformance.bench.growth import fit_growth
from conformance.bench.plot import Series, duration, svg_plot

FINDINGS = Path(__file__).with_name("findings.md")
#: Issue 14's targets, as ratios measured within one run: the reference
#: untap step against the hand-written one, on the boards where the work per
#: permanent dominates, and the suite's overhead against phase.rs's time.
HANDWRITTEN_TARGET = 2.0
HANDWRITTEN_SIZES = (1_000, 10_000)
OVERHEAD_TARGET_PCT = 5.0
#: Restated (findings.md): Hypothesis alone, drawing as many choices, costs
#: about 5 % of phase.rs's time per scenario by itself, so generation is held
#: to a multiple of that floor instead.
GENERATION_FLOOR_TARGET = 3.0


@dataclass(frozen=True)
class Row:
    """One benchmark of the run, by what it measures."""

    engine: str
    operation: str
    size: int | None
    best: float
    median: float
    rounds: int
    extra: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.engine}: {self.operation}"


def load(path: Path) -> tuple[list[Row], dict[str, Any]]:
    data = json.loads(path.read_text())
    rows = [
        Row(
            engine=b["extra_info"]["engine"],
            operation=b["extra_info"]["operation"],
            size=b["extra_info"].get("size"),
            best=b["stats"]["min"],
            median=b["stats"]["median"],
            rounds=b["stats"]["rounds"],
            extra=b["extra_info"],
        )
        for b in data["benchmarks"]
        if "engine" in b["extra_info"]  # the protocol's rows are read by `protocol_lines`
    ]
    return rows, data


def protocol_lines(data: dict[str, Any]) -> list[str]:
    """What one `perform` costs through `phasecert serve` over stdio beyond
    the same call in process (`benchmarks/test_protocol.py`), on means."""
    sides = {
        b["extra_info"]["side"]: b["stats"]["mean"]
        for b in data["benchmarks"]
        if "side" in b["extra_info"]
    }
    if {"in process", "stdio"} - sides.keys():
        return []
    added = sides["stdio"] - sides["in process"]
    return [
        "## The engine protocol",
        "",
        f"One `perform` of the reference engine: {duration(sides['in process'])} in process, "
        f"{duration(sides['stdio'])} through `phasecert serve` over stdio; the protocol adds "
        f"{duration(added)} per call (mean).",
        "",
    ]


def _untap_rows(rows: list[Row]) -> dict[str, dict[int, Row]]:
    """Untap-step rows by label, then board size, in the order they ran."""
    by_label: dict[str, dict[int, Row]] = defaultdict(dict)
    for row in rows:
        if row.size is not None:
            by_label[row.label][row.size] = row
    return by_label


def _number(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def size_tables(untap: dict[str, dict[int, Row]]) -> list[str]:
    out = []
    for size in SIZES:
        out += [
            f"### {size:,} permanents",
            "",
            "| engine | operation | min | median | rounds | × floor (min) | × hand-written (min) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for by_size in untap.values():
            row = by_size.get(size)
            if row is not None:
                out.append(
                    f"| {row.engine} | {row.operation} | {duration(row.best)} | "
                    f"{duration(row.median)} | {row.rounds} | "
                    f"{_number(row.extra.get('floor_ratio'))} | "
                    f"{_number(row.extra.get('handwritten_ratio'))} |"
                )
        out.append("")
    return out


def growth_table(untap: dict[str, dict[int, Row]]) -> list[str]:
    """Each row's growth exponent (`conformance.bench.growth`), on fastest rounds."""
    out = [
        "| engine | operation | growth exponent | between neighbouring sizes |",
        "| --- | --- | ---: | --- |",
    ]
    for by_size in untap.values():
        row = next(iter(by_size.values()))
        growth = fit_growth([(size, r.best) for size, r in by_size.items()])
        if growth is None:
            continue
        spread = "" if growth.stderr is None else f" ± {growth.stderr:.2f}"
        local = ", ".join(f"{a:,} → {b:,}: {k:.2f}" for a, b, k in growth.local)
        out.append(f"| {row.engine} | {row.operation} | {growth.exponent:.2f}{spread} | {local} |")
    return [*out, ""]


def overhead_rows(rows: list[Row]) -> dict[str, dict[str, Row]]:
    """Scenario rows by engine, then operation."""
    by_engine: dict[str, dict[str, Row]] = defaultdict(dict)
    for row in rows:
        if row.size is None:
            by_engine[row.engine][row.operation] = row
    return by_engine


def overhead_table(by_engine: dict[str, dict[str, Row]]) -> list[str]:
    out = [
        f"| engine | scenarios | {SUITE} | {RUNNER} | {DIRECT} | "
        "suite overhead, % of engine | engine errors | "
        f"{FLOOR} (choices per scenario) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for engine, ops in by_engine.items():
        if any(op not in ops for op in (SUITE, RUNNER, DIRECT)):
            continue
        per = {op: duration(row.best / row.extra["scenarios"]) for op, row in ops.items()}
        direct = ops[DIRECT].extra
        floor = (
            f"{per[FLOOR]} ({_number(direct.get('floor_pct'))} %; {ops[FLOOR].extra['choices']})"
            if FLOOR in ops
            else "–"
        )
        out.append(
            f"| {engine} | {direct['scenarios']} | {per[SUITE]} "
            f"({_number(direct.get('generation_pct'))} %) | {per[RUNNER]} "
            f"({_number(direct.get('runner_pct'))} %) | {per[DIRECT]} | "
            f"{_number(direct.get('overhead_pct'))} | {ops[RUNNER].extra['engine_errors']} | "
            f"{floor} |"
        )
    return [*out, ""]


def targets_table(
    untap: dict[str, dict[int, Row]], by_engine: dict[str, dict[str, Row]]
) -> list[str]:
    reference = untap.get("reference: untap step", {})
    out = ["| target | measured | met |", "| --- | ---: | :---: |"]
    for size in HANDWRITTEN_SIZES:
        ratio = reference[size].extra.get("handwritten_ratio") if size in reference else None
        if ratio is not None:
            met = "yes" if ratio <= HANDWRITTEN_TARGET else "no"
            out.append(
                f"| reference untap step at {size:,} within {HANDWRITTEN_TARGET:g}× the "
                f"hand-written step | {ratio:.2f}× | {met} |"
            )
    phase_rs = by_engine.get("phase-rs", {})
    direct = phase_rs.get(DIRECT)
    pct = None if direct is None else direct.extra.get("overhead_pct")
    if pct is not None:
        out.append(
            f"| suite overhead below {OVERHEAD_TARGET_PCT:g} % of phase.rs per scenario | "
            f"{pct:.1f} % | {'yes' if pct < OVERHEAD_TARGET_PCT else 'no'} |"
        )
    floor, suite = phase_rs.get(FLOOR), phase_rs.get(SUITE)
    if direct is not None and floor is not None and suite is not None:
        out.append(
            "| Hypothesis alone, drawing as many choices, against phase.rs per scenario | "
            f"{_number(direct.extra.get('floor_pct'))} % | reported |"
        )
        ratio = suite.best / floor.best
        out.append(
            f"| generating a scenario within {GENERATION_FLOOR_TARGET:g}× Hypothesis alone "
            f"drawing as many choices | {ratio:.2f}× | "
            f"{'yes' if ratio <= GENERATION_FLOOR_TARGET else 'no'} |"
        )
    for label, by_size in untap.items():
        if label.endswith(": pass turn"):
            growth = fit_growth([(size, r.best) for size, r in by_size.items()])
            if growth is not None:
                out.append(
                    f"| growth exponent of {label.split(':')[0]}'s pass turn | "
                    f"{growth.describe()} | reported |"
                )
    return [*out, ""]


def yardstick(untap: dict[str, dict[int, Row]], size: int = 10_000) -> list[str]:
    """For scale, what any Python engine must do here against the floor:
    the hand-written untap step (`benchmarks/handwritten.py`) over the floor,
    and the reference engine over the hand-written step."""
    handwritten = untap.get(": ".join(HANDWRITTEN), {}).get(size)
    reference = untap.get("reference: untap step", {}).get(size)
    if handwritten is None or reference is None:
        return []
    floor = handwritten.extra.get("floor_ratio")
    over = reference.extra.get("handwritten_ratio")
    if floor is None or over is None:
        return []
    return [
        f"For scale, at {size:,} permanents: the hand-written untap step, the least a "
        "Python engine must do on this board with one event per permanent that phases, "
        f"takes {floor:,.0f}× the floor; the reference engine takes {over:,.1f}× the "
        "hand-written step.",
        "",
    ]


def plot(untap: dict[str, dict[int, Row]]) -> str:
    """Time per untap step against board size, log–log, one line per row."""
    return svg_plot(
        [
            Series(label, [(size, row.best) for size, row in sorted(by_size.items())])
            for label, by_size in untap.items()
        ],
        title="The untap step against board size (pytest-benchmark, one run)",
        x_label="permanents on the battlefield",
        y_label="time per untap step, fastest round",
    )


def render(rows: list[Row], data: dict[str, Any], plot_name: str) -> str:
    machine = data.get("machine_info", {})
    commit = data.get("commit_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw", machine.get("processor", "?"))
    untap = _untap_rows(rows)
    by_engine = overhead_rows(rows)
    lines = [
        "# Benchmarks of the untap step",
        "",
        "Rendered by `benchmarks/report.py` from one pytest-benchmark run "
        f"({data.get('datetime', '?')}, commit `{commit.get('id', '?')[:10]}`"
        f"{' with uncommitted changes' if commit.get('dirty') else ''}; "
        f"{cpu}, Python {machine.get('python_version', '?')}). "
        "Times are per operation; `min` is the fastest round, and every ratio is "
        "taken between rows of this run, on minima.",
        "",
        "## Targets",
        "",
        *targets_table(untap, by_engine),
        *yardstick(untap),
        "## Time per untap step",
        "",
        f"![time per untap step against board size, log–log]({plot_name})",
        "",
        *size_tables(untap),
        "## Growth",
        "",
        "The slope of log(time) on log(size) from 100 permanents on, with its standard "
        "error: linear is 1.00; and the slope between each two neighbouring sizes.",
        "",
        *growth_table(untap),
        "## Suite overhead per scenario",
        "",
        *overhead_table(by_engine),
        *protocol_lines(data),
    ]
    if FINDINGS.exists():
        lines += [FINDINGS.read_text().rstrip(), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path, help="pytest-benchmark JSON of one run")
    parser.add_argument("--out", type=Path, default=Path("reports"), help="output folder")
    args = parser.parse_args(argv)
    rows, data = load(args.json)
    untap = _untap_rows(rows)
    write_files_atomically(
        {
            args.out / "benchmarks.svg": plot(untap),
            args.out / "benchmarks.md": render(rows, data, "benchmarks.svg"),
        }
    )


if __name__ == "__main__":
    main()
