"""A log–log line plot as a self-contained SVG: no plotting library, so the
report needs nothing beyond phasecert itself. One line per series, decade
grid lines, and a legend; an optional dashed line per series draws its
fitted growth (time ∝ size^k).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 760, 420
#: Plot area margins: left for the time labels, right for the legend.
LEFT, RIGHT, TOP, BOTTOM = 70, 250, 40, 50
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2")


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]
    #: (exponent, first size, last size): a dashed line through the
    #: geometric middle of the points it was fitted on.
    fit: tuple[float, float, float] | None = None


def svg_plot(series: Sequence[Series], title: str, x_label: str, y_label: str) -> str:
    """The plot as SVG text. Series without points are left out."""
    drawn = [s for s in series if s.points]
    xs = [x for s in drawn for x, _ in s.points] or [1.0, 10.0]
    ys = [y for s in drawn for _, y in s.points] or [1.0, 10.0]
    x_lo, x_hi = _decades(xs)
    y_lo, y_hi = _decades(ys)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + plot_w * (math.log10(x) - x_lo) / (x_hi - x_lo)

    def py(y: float) -> float:
        return TOP + plot_h * (1 - (math.log10(y) - y_lo) / (y_hi - y_lo))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{LEFT}" y="22" font-size="14">{escape(title)}</text>',
    ]
    for d in range(x_lo, x_hi + 1):
        x = px(10.0**d)
        out.append(_line(x, TOP, x, TOP + plot_h, "#ddd"))
        out.append(_text(x, TOP + plot_h + 16, f"{10**d:,}", "middle"))
    for d in range(y_lo, y_hi + 1):
        y = py(10.0**d)
        out.append(_line(LEFT, y, LEFT + plot_w, y, "#ddd"))
        out.append(_text(LEFT - 6, y + 4, duration(10.0**d), "end"))
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>'
    )
    out.append(_text(LEFT + plot_w / 2, HEIGHT - 12, x_label, "middle"))
    out.append(
        f'<text transform="translate(16 {TOP + plot_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    for i, s in enumerate(drawn):
        colour = COLOURS[i % len(COLOURS)]
        points = sorted(s.points)
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out += [
            f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>' for x, y in points
        ]
        if s.fit is not None:
            out.append(_fit_line(points, s.fit, colour, px, py))
        ly = TOP + 10 + 18 * i
        lx = WIDTH - RIGHT + 15
        out.append(_line(lx, ly, lx + 20, ly, colour, width=2))
        out.append(_text(lx + 26, ly + 4, s.label, "start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _fit_line(
    points: Sequence[tuple[float, float]],
    fit: tuple[float, float, float],
    colour: str,
    px: Callable[[float], float],
    py: Callable[[float], float],
) -> str:
    exponent, first, last = fit
    fitted = [(x, y) for x, y in points if first <= x <= last]
    # Through the geometric mean of the fitted points, as least squares is.
    mx = sum(math.log(x) for x, _ in fitted) / len(fitted)
    my = sum(math.log(y) for _, y in fitted) / len(fitted)
    ends = [(x, math.exp(my + exponent * (math.log(x) - mx))) for x in (first, last)]
    (x0, y0), (x1, y1) = ((px(x), py(y)) for x, y in ends)
    return (
        f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{colour}" '
        'stroke-width="1" stroke-dasharray="5,4"/>'
    )


def _decades(values: Sequence[float]) -> tuple[int, int]:
    lo = math.floor(math.log10(min(values)))
    hi = math.ceil(math.log10(max(values)))
    return lo, max(hi, lo + 1)


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: int = 1) -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="{width}"/>'
    )


def _text(x: float, y: float, text: str, anchor: str) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(text)}</text>'


def duration(seconds: float) -> str:
    """`seconds` in the largest unit it reaches, to three digits: `287 ms`."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:,.3g} {unit}"
    return f"{seconds / 1e-9:,.3g} ns"
