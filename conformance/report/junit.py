"""`junit.xml`: the report in the format every CI system already shows, one
test case per property, its rule IDs as test-case properties, so failures
appear in the CI's test tab next to the engine's own tests."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from conformance.escaping import for_xml
from conformance.report.building import further_replays
from conformance.report.markdown import described_counterexample


def render_junit(report: dict[str, Any]) -> str:
    engine = report["engine"]["name"]
    props = report["properties"]
    counts = report["summary"]["properties"]
    suites = ET.Element("testsuites", name="phasecert")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name=f"phasecert[{engine}]",
        tests=str(len(props)),
        failures=str(counts["fail"] + counts["not-exercised"]),
        errors=str(counts["engine-error"]),
        skipped=str(counts["not-applicable"]),
        time=f"{sum(p['duration'] for p in props):.3f}",
        timestamp=report["started"],
        hostname=report["machine"]["hostname"],
    )
    info = ET.SubElement(suite, "properties")
    for name, value in (
        ("engine", engine),
        ("engine_version", report["engine"]["version"]),
        ("profile", report["profile"]),
        ("seed", "random or derandomized" if report["seed"] is None else str(report["seed"])),
        ("catalog_version", report["catalog_version"]),
    ):
        ET.SubElement(info, "property", name=name, value=value)
    for prop in props:
        _testcase(suite, prop, engine)
    ET.indent(suites)
    # ElementTree escapes markup but keeps characters XML 1.0 forbids (an
    # engine's "\x1b[31m"), which no parser accepts.
    return for_xml(ET.tostring(suites, encoding="unicode", xml_declaration=True)) + "\n"


def _testcase(suite: ET.Element, prop: dict[str, Any], engine: str) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"phasecert.{engine}",
        name=prop["name"],
        time=f"{prop['duration']:.3f}",
    )
    rules = ET.SubElement(case, "properties")
    for rule in prop["rules"]:
        ET.SubElement(rules, "property", name="rule", value=rule)
    for count in ("examples", "exercised", "refusals"):
        ET.SubElement(rules, "property", name=count, value=str(prop[count]))
    if prop["status"] == "not-applicable":
        ET.SubElement(case, "skipped", message=prop["message"])
    elif prop["status"] == "not-exercised":
        # Not a pass: the certificate does not stand on it, so CI shows it red.
        ET.SubElement(case, "failure", message=prop["message"], type=prop["status"])
    elif prop["status"] in ("fail", "engine-error"):
        tag = "failure" if prop["status"] == "fail" else "error"
        element = ET.SubElement(case, tag, message=prop["message"], type=prop["status"])
        element.text = _failure_text(prop)


def _failure_text(prop: dict[str, Any]) -> str:
    failure = prop["failure"]
    lines = [
        f"Rules: {', '.join(prop['rules'])}",
        f"Expected: {failure['expected']}",
        f"Observed: {failure['observed']}",
    ]
    if failure["replay"]:
        lines.append(f"Replay: {failure['replay']}")
    lines += [f"Replay of difference {k}: {replay}" for k, replay in further_replays(failure)]
    if failure["scenario"] is not None:
        lines += ["Minimal counterexample:", described_counterexample(failure["scenario"])]
    return "\n".join(lines)
