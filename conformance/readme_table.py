"""The README's rule table, generated from the catalog and the registry so
that it can't drift (tests/test_readme.py checks it is current)."""

from __future__ import annotations

from conformance.catalog import CATALOG
from conformance.properties import REGISTRY

BEGIN = "<!-- rule table: python -m conformance.readme_table -->"
END = "<!-- end of rule table -->"


def rule_table() -> str:
    lines = [BEGIN, "", "| rule | what it says | properties |", "| --- | --- | --- |"]
    for rule in CATALOG.values():
        props = [f"`{p.name}`" for p in REGISTRY.values() if rule.id in p.rules]
        lines.append(f"| {rule.id} | {rule.summary} | {', '.join(props)} |")
    return "\n".join([*lines, "", END])


if __name__ == "__main__":
    print(rule_table())
