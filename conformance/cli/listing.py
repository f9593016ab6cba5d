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
from adapters.protocol import (
    OPTIONAL_OBSERVATIONS,
    engine_editions,
    missing_capabilities,
    unreported_observations,
)
from conformance.catalog import CATALOG_VERSION, Edition
from conformance.editions import CATALOGS, CURRENT, EDITION_TITLES, EDITIONS
from conformance.escaping import cut, for_terminal
from conformance.properties import in_edition


def list_rules(edition: Edition = CURRENT) -> int:
    """Each rule of the edition's catalog with the properties that cover it
    (for an older edition, with today's rules it carries); a rule no property
    covers says so, and why, since it is then not certified at all."""
    catalog, held = CATALOGS[edition], in_edition(edition)
    print(
        f"rule catalog {CATALOG_VERSION}, {EDITION_TITLES[edition]} edition: "
        f"{len(catalog)} rules, {len(held)} properties"
    )
    for rule in catalog.values():
        covering = [name for name, prop in held.items() if rule.id in prop.rules]
        carried = [c for c in rule.carries if c != rule.id]
        joined = " and " if rule.jointly else ", "
        same = f" (today's {joined.join(carried)})" if carried else ""
        print(f"{rule.id}{same}: {rule.summary}")
        why = (
            f"(not certified: {rule.uncertified})"
            if rule.uncertified
            else "(no property covers it yet)"
        )
        print("    " + (", ".join(covering) if covering else why))
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
        editions = ", ".join(e for e in EDITIONS if e in engine_editions(engine))
        _say(f"  {name} {engine.version} ({source})\n    capabilities: {caps}")
        _say(f"    editions: {editions}")
        for capability, why in sorted(missing_capabilities(engine).items()):
            _say(f"    lacks {capability}: {why}")
        for name in sorted(unreported_observations(engine)):
            _say(f"    does not report {name}: its {OPTIONAL_OBSERVATIONS[name]}")
    print("mutants (the reference engine with one deliberate bug each):")
    for mutant in MUTANTS.values():
        edition = "" if mutant.edition == CURRENT else f" ({mutant.edition})"
        print(f"  {MUTANT_PREFIX}{mutant.name}: breaks {mutant.breaks}{edition}: {mutant.bug}")
    return 0


def _say(text: str) -> None:
    """Print what an installed adapter says, without terminal escapes."""
    print(for_terminal(cut(text, 1000)))
