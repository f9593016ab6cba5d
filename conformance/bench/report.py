"""The Markdown report of one `phasecert bench` run, with its SVG plot:
the pass turn's time per board size, the growth exponent and its spread,
and the sizes skipped or failed, each with why.
"""

from __future__ import annotations

from pathlib import Path

from conformance.atomic import write_files_atomically
from conformance.bench.growth import FIT_FROM, Growth
from conformance.bench.plot import Series, duration, svg_plot
from conformance.bench.runs import BenchRun
from conformance.escaping import for_markdown, markdown_code

#: The files a run writes into its report directory.
RUN_FILE, REPORT_FILE, PLOT_FILE = "bench.json", "bench.md", "bench.svg"


def plot_run(run: BenchRun) -> str:
    growth = run.growth()
    points = [(m.size, m.min) for m in run.measurements]
    fit = None if growth is None else (growth.exponent, growth.sizes[0], growth.sizes[-1])
    label = f"{run.engine}: pass turn" + ("" if growth is None else f" (k = {growth.exponent:.2f})")
    starts = [(m.size, m.start) for m in run.measurements]
    return svg_plot(
        [Series(label, points, fit), Series(f"{run.engine}: start (one game)", starts)],
        title=f"{run.engine}: time per pass turn against board size (log–log)",
        x_label="permanents on the battlefield",
        y_label="seconds (fastest round)",
    )


def growth_lines(growth: Growth | None) -> list[str]:
    if growth is None:
        return ["Fewer than two board sizes were measured: no growth exponent.", ""]
    spread = (
        f" ± {growth.stderr:.2f} (standard error of the slope)"
        if growth.stderr is not None
        else " (two sizes: no standard error)"
    )
    local = ", ".join(f"{a:,} → {b:,}: {k:.2f}" for a, b, k in growth.local)
    return [
        f"**Growth exponent k = {growth.exponent:.2f}**{spread}: time ∝ permanents^k, the "
        f"least-squares slope of log(time) on log(size) over {growth.sizes[0]:,}–"
        f"{growth.sizes[-1]:,} permanents (sizes below {FIT_FROM:,} are left out when two "
        "larger ones were measured: fixed costs flatten them). Linear is 1.00; "
        "10× the board at k = 1.2 is 16× the time.",
        "",
        f"Between neighbouring sizes: {local}.",
        "",
    ]


def render(run: BenchRun) -> str:
    name = for_markdown(run.engine)
    machine = {k: for_markdown(v) for k, v in run.machine.items()}
    lines = [
        f"# Untap step benchmark: {name}",
        "",
        f"Engine {markdown_code(run.spec)}, version {for_markdown(run.engine_version)}; "
        f"measured {run.started} on {machine.get('processor', '?')}, "
        f"Python {machine.get('python', '?')}, load average {machine.get('load', '?')} on "
        f"{machine.get('cpus', '?')} CPUs as it began. Each round starts a fresh "
        "game on the board through the adapter, then times one `PassTurn` through its "
        "`perform`: cleanup, the next player's untap step (502.1: phasing, 702.26a, then "
        "untapping, 502.3) and the observation the adapter returns. The board after the "
        "step is checked (the right permanents phased out, the rest untapped), so the "
        "time is that of a correct step.",
        "",
        "Boards repeat a block of ten permanents controlled by the untapping player: half "
        "with phasing, four in ten phased out"
        + (
            ", an Aura and two Equipment attached (one phased out with its host)."
            if run.attached
            else "; no attachments (the engine lacks Auras or Equipment)."
        ),
        "",
        *growth_lines(run.growth()),
        f"![time per pass turn against board size, log–log]({PLOT_FILE})",
        "",
        "| permanents | min | median | mean | rounds | per permanent (min) | start (one game) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in run.measurements:
        lines.append(
            f"| {m.size:,} | {duration(m.min)} | {duration(m.median)} | {duration(m.mean)} | "
            f"{m.rounds} | {duration(m.min / m.size)} | {duration(m.start)} |"
        )
    lines.append("")
    for title, notes in (("Not measured", run.skipped), ("Failed", run.failed)):
        if notes:
            lines += [f"## {title}", ""]
            lines += [f"- {n.size:,} permanents: {for_markdown(n.reason)}" for n in notes]
            lines.append("")
    lines += [
        "Times only compare on one machine: gate a change with `phasecert bench --compare` "
        "against a run stored in the same job.",
        "",
    ]
    return "\n".join(lines)


def write_run(run: BenchRun, out: Path) -> list[Path]:
    """Write bench.json, bench.md and bench.svg into `out`, together."""
    files = {
        out / RUN_FILE: run.to_json(),
        out / REPORT_FILE: render(run),
        out / PLOT_FILE: plot_run(run),
    }
    write_files_atomically(files)
    return list(files)
