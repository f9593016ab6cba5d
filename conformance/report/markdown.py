"""`report.md`: the report as a person reads it, fit to paste into a pull
request comment: a table of rules, then each failure with its counterexample
told in words, the rule's text, and what the engine did instead."""

from __future__ import annotations

import json
from typing import Any

from conformance.catalog import Rule
from conformance.codec import DecodeError, from_data
from conformance.describe import describe_scenario
from conformance.editions import CATALOGS, EDITION_TITLES
from conformance.escaping import for_markdown, markdown_code, markdown_fence
from conformance.report.building import edition_of, further_replays
from conformance.scenario import Scenario

#: How each status shows in Markdown: a sign that reads without colour.
BADGES = {
    "pass": "✅ pass",
    "fail": "❌ fail",
    "engine-error": "💥 engine error",
    "not-exercised": "⚠️ not exercised",
    "not-applicable": "➖ not applicable",
}


def anchor(prop: str) -> str:
    """The id of a property's failure section (GitHub's heading anchors)."""
    return "failure-" + prop.replace("_", "-").lower()


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: dict[str, Any]) -> str:
    # What the engine, its adapter or the machine say is escaped: a report
    # is read in browsers (PR comments, CI pages).
    engine = {k: for_markdown(str(report["engine"][k])) for k in ("name", "version")}
    summary = report["summary"]
    verdict = "conforms" if summary["conforms"] else "does not conform"
    host = for_markdown(str(report["machine"]["hostname"]))
    edition = edition_of(report)
    lines = [
        f"# phasecert: {engine['name']} {engine['version']} {verdict}",
        "",
        f"Rules: the {EDITION_TITLES[edition]} edition (`--edition {edition}`).",
        "",
        f"Suite {report['suite']['version']}, rule catalog {report['catalog_version']}, "
        f"profile `{report['profile']}`, seed {_seed(report)}; "
        f"run {report['started']} to {report['finished']} on {host}.",
        "",
        "Properties: " + ", ".join(f"{n} {s}" for s, n in summary["properties"].items() if n) + ".",
        "",
        "| Rule | Status | Properties | Examples (exercised) | What the rule says |",
        "| --- | --- | --- | ---: | --- |",
    ]
    failed_by_name = {p["name"]: p for p in report["properties"] if p.get("failure")}
    for rule in report["rules"]:
        status = BADGES[rule["status"]]
        if rule["missing"]:
            status += f" (needs {', '.join(rule['missing'])})"
        violated = rule.get("violated", [rule["id"]])
        if violated and rule["id"] not in violated:
            status += f" (a property it shares failed on {', '.join(violated)})"
        props = ", ".join(
            f"[{p}](#{anchor(p)})" if p in failed_by_name else p for p in rule["properties"]
        )
        counted = f"{rule['examples']} ({rule['exercised']})"
        lines.append(f"| {rule['id']} | {status} | {props} | {counted} | {cell(rule['summary'])} |")
    others = [p for p in report["properties"] if not p["rules"]]
    for prop in others:
        name = prop["name"]
        if name in failed_by_name:
            name = f"[{name}](#{anchor(name)})"
        counted = f"{prop['examples']} ({prop['exercised']})"
        lines.append(f"| — | {BADGES[prop['status']]} | {name} | {counted} | |")
    lines += _not_exercised(report)
    lines += _not_applicable(report)
    lines += _outside_the_rules(report)
    failures = [p for p in report["properties"] if p.get("failure")]
    if failures:
        lines += ["", "## Failures"]
    for prop in failures:
        lines += ["", *_failure_section(prop, CATALOGS[edition])]
    return "\n".join(lines) + "\n"


def _not_exercised(report: dict[str, Any]) -> list[str]:
    """Properties that held but were put to the test too rarely to certify
    their rules, with what exercising them means: a reader must see that
    a green check there would have been unearned."""
    props = [p for p in report["properties"] if p["status"] == "not-exercised"]
    if not props:
        return []
    lines = [
        "",
        "## Not exercised: too few examples showed the engine doing what the rule is about",
        "",
        "| Property | Rules | Exercised / examples | Refused actions | What it takes |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    for prop in props:
        lines.append(
            f"| {prop['name']} | {', '.join(prop['rules'])} | "
            f"{prop['exercised']} / {prop['examples']} | {prop['refusals']} | "
            f"{for_markdown(prop['message'])} |"
        )
    return lines


def _outside_the_rules(report: dict[str, Any]) -> list[str]:
    """What a passing comparison noted that no certified rule governs: it
    fails nothing, but an engine author should see it (a failing one's
    notes end its failure section)."""
    noted = [p for p in report["properties"] if p["status"] == "pass" and p["message"]]
    lines = []
    for prop in noted:
        message = prop["message"]
        lines += [
            "",
            f"## Seen by {prop['name']}, outside the certified rules",
            "",
            markdown_fence(message) + "text",
            message,
            markdown_fence(message),
        ]
    return lines


def _not_applicable(report: dict[str, Any]) -> list[str]:
    """What the engine's adapter can't express, why, and which properties
    that makes not applicable: a reader must see what was not tested."""
    reasons: dict[str, str] = report["engine"].get("missing", {})
    skipped: dict[str, list[str]] = {}
    for prop in report["properties"]:
        if prop["status"] == "not-applicable":
            for capability in prop["missing"]:
                skipped.setdefault(capability, []).append(prop["name"])
    if not reasons and not skipped:
        return []
    lines = [
        "",
        "## Not applicable: what the adapter can't express",
        "",
        "| Capability | Why (as the adapter says) | Properties not applicable |",
        "| --- | --- | --- |",
    ]
    for capability in sorted(reasons.keys() | skipped.keys()):
        props = ", ".join(skipped.get(capability, [])) or (
            "none as a whole; scenarios needing it are not generated"
        )
        why = for_markdown(reasons.get(capability, "(no reason given)"))
        lines.append(f"| {capability} | {why} | {props} |")
    return lines


def _seed(report: dict[str, Any]) -> str:
    if report["seed"] is not None:
        return str(report["seed"])
    return "derandomized" if report["profile"] == "ci" else "random"


def _failure_section(prop: dict[str, Any], catalog: dict[str, Rule]) -> list[str]:
    failure = prop["failure"]
    lines = [
        f'<a id="{anchor(prop["name"])}"></a>',
        "",
        f"### {prop['name']} ({', '.join(prop['rules']) or 'comparison'}): "
        f"{BADGES[prop['status']]}",
        "",
    ]
    for rule in prop["rules"]:
        if rule in catalog:
            lines.append(f"> **{rule}**: {catalog[rule].summary}")
    if prop["rules"]:
        lines.append("")
    if failure["where"]:
        lines.append(f"- **Where:** {for_markdown(failure['where'])}")
    lines += [
        f"- **Expected:** {for_markdown(failure['expected'])}",
        f"- **The engine did:** {for_markdown(failure['observed'])}",
    ]
    if failure["replay"]:
        lines.append(f"- **Replay:** {markdown_code(failure['replay'])}")
    for k, replay in further_replays(failure):
        lines.append(f"- **Replay of difference {k}:** {markdown_code(replay)}")
    if failure["scenario"] is not None:
        told = described_counterexample(failure["scenario"])
        data = json.dumps(failure["scenario"], indent=2)
        lines += [
            "",
            "Minimal counterexample:",
            "",
            markdown_fence(told) + "text",
            told,
        ]
        lines += [
            markdown_fence(told),
            "",
            "<details><summary>Scenario JSON</summary>",
            "",
            markdown_fence(data) + "json",
            data,
            markdown_fence(data),
            "",
            "</details>",
        ]
    return lines


def described_counterexample(data: Any) -> str:
    try:
        return describe_scenario(from_data(Scenario, data))
    except DecodeError as e:
        return f"(scenario not readable by this version of phasecert: {e})"
