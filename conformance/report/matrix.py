"""`reports/index.html` and `reports/index.md`: rules × engines over every
report present, like wpt.fyi, so engines can be compared at a glance and each
failing cell leads to its counterexample. An engine certified under several
editions of the rules has a column per edition, side by side; each edition's
rules are rows of their own (a rule another edition doesn't number shows —)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from conformance.agreement_results import COMPARISON
from conformance.editions import CATALOGS, CURRENT, EDITIONS
from conformance.escaping import for_html, for_markdown
from conformance.report.markdown import BADGES, anchor

_COLOURS = {
    "pass": "#2e7d32",
    "fail": "#c62828",
    "engine-error": "#6a1b9a",
    "not-exercised": "#ef6c00",
    "not-applicable": "#757575",
}
#: The matrix row of the stateful comparison with the reference engine.
COMPARISON_ROW = "comparison with the reference engine"


@dataclass(frozen=True)
class Column:
    """One engine's report, and where it lies relative to the index."""

    directory: str
    report: dict[str, Any]

    @property
    def engine(self) -> str:
        return str(self.report["engine"]["name"])

    @property
    def edition(self) -> str:
        """The edition of the rules the report certifies (format 2: today's)."""
        edition = self.report.get("edition", CURRENT)
        return edition if edition in CATALOGS else CURRENT

    @property
    def label(self) -> str:
        """The column's heading: the engine, and the edition unless today's."""
        return self.engine if self.edition == CURRENT else f"{self.engine} ({self.edition})"

    def rule(self, rule_id: str) -> dict[str, Any] | None:
        """The rule's entry; the comparison's row is its property's entry,
        which has a status like a rule's (a run that does not conform must
        not show an all-green column)."""
        if rule_id == COMPARISON_ROW:
            entry = next((p for p in self.report["properties"] if p["name"] == COMPARISON), None)
            return None if entry is None else {**entry, "properties": [COMPARISON]}
        return next((r for r in self.report["rules"] if r["id"] == rule_id), None)

    def link(self, rule: dict[str, Any]) -> str:
        """The failure of a failing cell, else the engine's report."""
        if rule["status"] in ("fail", "engine-error"):
            failing = [
                p["name"]
                for p in self.report["properties"]
                if p["name"] in rule["properties"] and p.get("failure")
            ]
            if failing:
                return f"{self.directory}/report.md#{anchor(failing[0])}"
        return f"{self.directory}/report.md"


def load_columns(root: Path) -> list[Column]:
    """Every `<root>/*/report.json` that reads as a report, reference first.
    A file that doesn't read is left out of the matrix, not fatal: the
    matrix is a view, and one broken report must not hide the others."""
    columns = [c for c in map(_read_column, sorted(root.glob("*/report.json"))) if c]
    return sorted(
        columns,
        key=lambda c: (c.engine != "reference", c.engine, EDITIONS.index(c.edition)),  # type: ignore[arg-type]
    )


def _read_column(path: Path) -> Column | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not (
            isinstance(data["engine"]["name"], str)
            and isinstance(data["rules"], list)
            and isinstance(data["properties"], list)
            and all(e["status"] in BADGES for e in [*data["rules"], *data["properties"]])
        ):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return Column(path.parent.name, data)


def _rule_ids(columns: list[Column]) -> list[str]:
    present = {r["id"] for c in columns for r in c.report["rules"]}
    every = dict.fromkeys(r for catalog in CATALOGS.values() for r in catalog)
    ordered = [r for r in every if r in present]
    compared = any(p["name"] == COMPARISON for c in columns for p in c.report["properties"])
    return ordered + sorted(present - set(ordered)) + ([COMPARISON_ROW] if compared else [])


def render_index_md(columns: list[Column]) -> str:
    if not columns:
        return "# phasecert results\n\nNo reports yet.\n"
    head = " | ".join(f"[{for_markdown(c.label)}]({_href(c.directory)}/report.md)" for c in columns)
    lines = [
        "# phasecert results",
        "",
        f"| Rule | {head} |",
        "| --- |" + " --- |" * len(columns),
    ]
    for rule_id in _rule_ids(columns):
        cells = []
        for column in columns:
            rule = column.rule(rule_id)
            cells.append(
                "—" if rule is None else f"[{BADGES[rule['status']]}]({_href(column.link(rule))})"
            )
        lines.append(f"| {for_markdown(rule_id)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _href(path: str) -> str:
    """A relative link to `path`, whatever characters its directory has."""
    return quote(path, safe="/#")


def render_index_html(columns: list[Column]) -> str:
    esc = for_html
    head = "".join(
        f'<th scope="col"><a href="{esc(_href(c.directory))}/report.md">{esc(c.label)}</a>'
        f"<br><small>{esc(str(c.report['engine']['version']))}</small></th>"
        for c in columns
    )
    rows = []
    for rule_id in _rule_ids(columns):
        summary = next((c[rule_id].summary for c in CATALOGS.values() if rule_id in c), "")
        if rule_id == COMPARISON_ROW:
            summary = "step by step, the engine shows what the reference engine shows"
        cells = []
        for column in columns:
            rule = column.rule(rule_id)
            if rule is None:
                cells.append('<td class="none">—</td>')
                continue
            status = rule["status"]
            cells.append(
                f'<td class="{status}"><a href="{esc(_href(column.link(rule)))}">'
                f"{esc(status.replace('-', ' '))}</a></td>"
            )
        rows.append(
            f'<tr><th scope="row" title="{esc(summary)}">{esc(rule_id)}</th>{"".join(cells)}</tr>'
        )
    styles = "".join(
        f"td.{s}{{background:{c};}}td.{s} a{{color:#fff;}}" for s, c in _COLOURS.items()
    )
    body = (
        f'<table id="matrix"><thead><tr><th scope="col">Rule</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        if columns
        else "<p>No reports yet.</p>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>phasecert results</title><style>"
        "body{font-family:sans-serif;margin:2em;}table{border-collapse:collapse;}"
        "th,td{border:1px solid #ccc;padding:.3em .8em;text-align:center;}"
        "th[scope=row]{text-align:left;}td.none{color:#999;}a{text-decoration:none;}"
        f"{styles}</style></head><body><h1>phasecert results</h1>{body}</body></html>\n"
    )
