"""Traceability: the rule catalog and the properties cite each other, and
every reference-engine rule branch cites the rule it implements."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from adapters.reference import Rules
from conformance.catalog import CATALOG
from conformance.editions import ALL_RULE_IDS
from conformance.properties import REGISTRY
from conformance.rulings import RULING_PHRASES

RULES_FILE = Path(__file__).parents[2] / "shared" / "rules" / "phasing.md"
RULE_ID = re.compile(r"\b\d{3}\.\d+[a-z]?\b|R2017-[a-z-]+")


def test_every_catalog_rule_has_a_property() -> None:
    cited = {rule for prop in REGISTRY.values() for rule in prop.rules}
    assert not set(CATALOG) - cited, f"rules without a property: {sorted(set(CATALOG) - cited)}"


def test_properties_cite_only_catalog_rules() -> None:
    """Today's catalog, or an older edition's (conformance.editions)."""
    for prop in REGISTRY.values():
        assert prop.rules, f"{prop.name} cites no rule"
        unknown = set(prop.rules) - ALL_RULE_IDS
        assert not unknown, f"{prop.name} cites {sorted(unknown)}, not in the catalog"


def test_every_property_says_why() -> None:
    for prop in REGISTRY.values():
        assert prop.doc, f"{prop.name} has no docstring"


def test_every_property_says_what_exercising_it_means() -> None:
    """An earned pass (issue: trust): each predicate cites a rule ID."""
    for prop in REGISTRY.values():
        assert RULE_ID.search(prop.exercise_doc), f"{prop.name}: {prop.exercise_doc!r}"


def test_every_reference_rule_branch_cites_a_rule() -> None:
    for name, method in inspect.getmembers(Rules, inspect.isfunction):
        if name.startswith("_") or not method.__module__.startswith("adapters.reference"):
            continue
        doc = inspect.getdoc(method) or ""
        assert RULE_ID.search(doc), f"Rules.{name} cites no rule ID in its docstring"


def test_catalog_matches_the_rules_file() -> None:
    if not RULES_FILE.exists():
        return  # the shared rules sit beside a checkout, not an installed copy
    text = RULES_FILE.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| (\d{3}\.\d+[a-z]?|R2017-[a-z-]+) \|", text, re.M))
    listed |= {"704.5m", "704.5n", "800.4a", "800.4c", "800.4m"}  # rows naming several IDs
    # The paraphrase lists the phasing rulings; the seed's other rulings
    # (Teferi's Protection's own) are mapped in conformance.rulings.
    listed |= set(RULING_PHRASES)
    # Rules of play the paraphrase doesn't list, where phasing meets blocking,
    # damage, the legend rule, summoning sickness and the upkeep (their text
    # is the Comprehensive Rules', cited in each catalog entry).
    listed |= {"302.6", "502.4", "509.1h", "514.2", "704.5j"}
    assert listed == set(CATALOG), (sorted(listed - set(CATALOG)), sorted(set(CATALOG) - listed))
