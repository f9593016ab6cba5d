"""Render `reports/benchmarks.md` and `reports/benchmarks.png` from the JSON
that `pytest benchmarks --benchmark-json=FILE` writes.

Usage: python -m benchmarks.report FILE [--out reports]

Every number comes from that one run, so ratios compare like with like; the
narrative in `benchmarks/findings.md` is appended as it is. Needs matplotlib
(the `bench` extra).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness import DIRECT, HANDWRITTEN, RUNNER, SIZES, SUITE

FINDINGS = Path(__file__).with_name("findings.md")
#: Issue 5's targets, as ratios measured within one run.
FLOOR_TARGET = 3.0
GROWTH_TARGET = (8.0, 12.0)
OVERHEAD_TARGET_PCT = 10.0


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
    ]
    return rows, data


def duration(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:,.3g} {unit}"
    return f"{seconds / 1e-9:,.3g} ns"


def _untap_rows(rows: list[Row]) -> dict[str, dict[int, Row]]:
    """Untap-step rows by label, then board size, in the order they ran."""
    by_label: dict[str, dict[int, Row]] = defaultdict(dict)
    for row in rows:
        if row.size is not None:
            by_label[row.label][row.size] = row
    return by_label


def _growth(by_size: dict[int, Row], small: int, big: int) -> float | None:
    if small in by_size and big in by_size:
        return by_size[big].best / by_size[small].best
    return None


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
    out = [
        "| engine | operation | 100 → 1,000 | 1,000 → 10,000 |",
        "| --- | --- | ---: | ---: |",
    ]
    for by_size in untap.values():
        row = next(iter(by_size.values()))
        out.append(
            f"| {row.engine} | {row.operation} | {_number(_growth(by_size, 100, 1_000))} | "
            f"{_number(_growth(by_size, 1_000, 10_000))} |"
        )
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
        "suite overhead, % of engine | engine errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for engine, ops in by_engine.items():
        if any(op not in ops for op in (SUITE, RUNNER, DIRECT)):
            continue
        per = {op: duration(row.best / row.extra["scenarios"]) for op, row in ops.items()}
        direct = ops[DIRECT].extra
        out.append(
            f"| {engine} | {direct['scenarios']} | {per[SUITE]} "
            f"({_number(direct.get('generation_pct'))} %) | {per[RUNNER]} "
            f"({_number(direct.get('runner_pct'))} %) | {per[DIRECT]} | "
            f"{_number(direct.get('overhead_pct'))} | {ops[RUNNER].extra['engine_errors']} |"
        )
    return [*out, ""]


def targets_table(
    untap: dict[str, dict[int, Row]], by_engine: dict[str, dict[str, Row]]
) -> list[str]:
    reference = untap.get("reference: untap step", {})
    out = ["| target | measured | met |", "| --- | ---: | :---: |"]
    ratio = reference[10_000].extra.get("floor_ratio") if 10_000 in reference else None
    if ratio is not None:
        out.append(
            f"| reference untap step at 10,000 within {FLOOR_TARGET:g}× the floor | "
            f"{ratio:,.0f}× | {'yes' if ratio <= FLOOR_TARGET else 'no'} |"
        )
    growth = _growth(reference, 1_000, 10_000)
    if growth is not None:
        low, high = GROWTH_TARGET
        out.append(
            f"| reference growth 1,000 → 10,000 between {low:g} and {high:g} | "
            f"{growth:.2f} | {'yes' if low <= growth <= high else 'no'} |"
        )
    direct = by_engine.get("phase-rs", {}).get(DIRECT)
    pct = None if direct is None else direct.extra.get("overhead_pct")
    if pct is not None:
        out.append(
            f"| suite overhead below {OVERHEAD_TARGET_PCT:g} % of phase.rs per scenario | "
            f"{pct:.0f} % | {'yes' if pct < OVERHEAD_TARGET_PCT else 'no'} |"
        )
    return [*out, ""]


def yardstick(untap: dict[str, dict[int, Row]], size: int = 10_000) -> list[str]:
    """Where the floor target stands against what any Python engine must do:
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


def plot(untap: dict[str, dict[int, Row]], path: Path) -> None:
    """Time per untap step against board size, log–log, one line per row."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(11.5, 5.5))
    for label, by_size in untap.items():
        sizes = sorted(by_size)
        ax.plot(sizes, [by_size[s].best for s in sizes], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("permanents on the battlefield")
    ax.set_ylabel("time per untap step, fastest round (s)")
    ax.set_title("The untap step against board size (pytest-benchmark, one run)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def render(rows: list[Row], data: dict[str, Any], png_name: str) -> str:
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
        f"![time per untap step against board size, log–log]({png_name})",
        "",
        *size_tables(untap),
        "## Growth",
        "",
        "Time at the larger board over time at the smaller one: linear is 10.",
        "",
        *growth_table(untap),
        "## Suite overhead per scenario",
        "",
        *overhead_table(by_engine),
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
    args.out.mkdir(parents=True, exist_ok=True)
    png = args.out / "benchmarks.png"
    plot(_untap_rows(rows), png)
    (args.out / "benchmarks.md").write_text(render(rows, data, png.name))


if __name__ == "__main__":
    main()
