"""`phasecert rules` and `phasecert engines`: what can be certified, and against what."""

from __future__ import annotations

from importlib.metadata import entry_points

from adapters.discovery import (
    ENTRY_POINT_GROUP,
    MUTANT_PREFIX,
    EngineNotFound,
    engine_names,
    load_engine,
)
from adapters.mutants import MUTANTS
from adapters.protocol import missing_capabilities
from conformance.catalog import CATALOG, CATALOG_VERSION
from conformance.escaping import cut, for_terminal
from conformance.properties import REGISTRY


def list_rules() -> int:
    """Each rule of the catalog with the properties that cover it; a rule no
    property covers says so, since it is then not certified at all."""
    print(f"rule catalog {CATALOG_VERSION}: {len(CATALOG)} rules, {len(REGISTRY)} properties")
    for rule in CATALOG.values():
        covering = [name for name, prop in REGISTRY.items() if rule.id in prop.rules]
        edition = "" if rule.edition == "current" else f" [{rule.edition}]"
        print(f"{rule.id}{edition}: {rule.summary}")
        print("    " + (", ".join(covering) if covering else "(no property covers it yet)"))
    return 0


def list_engines() -> int:
    """Every adapter found, loaded, so a broken install shows here and not
    halfway through a certification run."""
    installed = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    print("engines:")
    for name in engine_names():
        if name.startswith(MUTANT_PREFIX):
            continue
        source = f"entry point {installed[name]}" if name in installed else "built in"
        try:
            engine = load_engine(name)
        except EngineNotFound as e:
            _say(f"  {name} ({source}): unavailable: {e}")
            continue
        caps = ", ".join(sorted(engine.capabilities)) or "none"
        _say(f"  {name} {engine.version} ({source})\n    capabilities: {caps}")
        for capability, why in sorted(missing_capabilities(engine).items()):
            _say(f"    lacks {capability}: {why}")
    print("mutants (the reference engine with one deliberate bug each):")
    for mutant in MUTANTS.values():
        print(f"  {MUTANT_PREFIX}{mutant.name}: breaks {mutant.breaks}: {mutant.bug}")
    return 0


def _say(text: str) -> None:
    """Print what an installed adapter says, without terminal escapes."""
    print(for_terminal(cut(text, 1000)))
