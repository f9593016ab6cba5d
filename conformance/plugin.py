"""The pytest plugin: `pytest --engine NAME` certifies an engine.

Properties become test items carrying their rule IDs as markers
(`-m rule_702_26g`) and can be picked with `--rule 702.26g`; a property that
needs a capability the engine lacks is skipped as "not applicable: needs X".
`--phasecert-profile dev|ci|certify` picks the Hypothesis profile;
`--edition mirage|pre-2017|current` the edition of the rules, which selects
the properties and the oracle (`conformance.editions`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.discovery import EngineNotFound, load_engine
from adapters.protocol import engine_for_edition
from adapters.reference import ReferenceEngine, reference_of
from adapters.stdio import VALIDATE_ENV
from conformance.atomic import write_text_atomically
from conformance.catalog import Edition, marker_name
from conformance.checking import PROFILES, profile
from conformance.cli.checks import seconds
from conformance.codec import to_data
from conformance.editions import ALL_RULE_IDS, CATALOGS, CURRENT, EDITIONS
from conformance.properties import in_edition
from conformance.results import PropertyResult
from conformance.running import DEFAULT_TIMEOUT

# The corpus (--phasecert-corpus, --phasecert-example-db), --shard, and the
# bench suite's options (--bench-sizes, ..., conformance.bench.suite).
pytest_plugins = ["conformance.corpus", "conformance.sharding", "conformance.bench.plugin"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("phasecert", "phasing conformance")
    group.addoption("--engine", default="reference", help="engine to certify (default: reference)")
    group.addoption(
        "--rule",
        action="append",
        default=[],
        metavar="ID",
        help="only properties of this rule ID (repeatable), e.g. 702.26g",
    )
    group.addoption(
        "--edition",
        default=CURRENT,
        choices=EDITIONS,
        help="edition of the phasing rules to certify (default: current)",
    )
    group.addoption(
        "--phasecert-profile",
        default="ci",
        choices=sorted(PROFILES),
        help="Hypothesis profile: dev (fast), ci (default, derandomized), certify (thorough)",
    )
    group.addoption(
        "--engine-timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        help="seconds one engine call may take before it counts as hung",
    )
    group.addoption(
        "--phasecert-results", metavar="FILE", help="write the property results as JSON"
    )
    group.addoption(
        "--validate-protocol",
        action="store_true",
        help="check every message of a stdio: engine against schemas/protocol.schema.json",
    )


def pytest_configure(config: pytest.Config) -> None:
    for rule in sorted(ALL_RULE_IDS):
        config.addinivalue_line("markers", f"{marker_name(rule)}: properties of rule {rule}")
    edition = config.getoption("edition")
    unknown = [r for r in config.getoption("rule") if r not in CATALOGS[edition]]
    if unknown:
        raise pytest.UsageError(
            f"--rule {unknown[0]}: not a rule of the {edition} catalog "
            f"(phasecert rules --edition {edition})"
        )
    config.stash[_RESULTS] = []
    if config.getoption("validate_protocol"):
        os.environ[VALIDATE_ENV] = "1"


_RESULTS = pytest.StashKey[list[PropertyResult]]()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "phasecert_property" not in metafunc.fixturenames:
        return
    wanted = set(metafunc.config.getoption("rule"))
    params = [
        pytest.param(
            prop, id=name, marks=[getattr(pytest.mark, marker_name(r)) for r in prop.rules]
        )
        for name, prop in in_edition(metafunc.config.getoption("edition")).items()
        if not wanted or wanted & set(prop.rules)
    ]
    metafunc.parametrize("phasecert_property", params)


@pytest.fixture(scope="session")
def phasecert_engine(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The engine named by --engine; one in its own process is stopped at
    the end of the session."""
    try:
        loaded = load_engine(request.config.getoption("engine"))
        engine = engine_for_edition(loaded, request.config.getoption("edition"))
    except (EngineNotFound, ValueError) as e:
        raise pytest.UsageError(str(e)) from None
    yield engine
    close = getattr(engine, "close", None)
    if callable(close):
        close()


@pytest.fixture(scope="session")
def phasecert_edition(request: pytest.FixtureRequest) -> Edition:
    """The edition of the rules certified (--edition)."""
    edition: Edition = request.config.getoption("edition")
    return edition


@pytest.fixture(scope="session")
def phasecert_reference(phasecert_edition: Edition) -> ReferenceEngine:
    """The oracle of the edition certified."""
    return reference_of(phasecert_edition)


@pytest.fixture(scope="session")
def phasecert_settings(request: pytest.FixtureRequest) -> Any:
    return profile(request.config.getoption("phasecert_profile"))


@pytest.fixture(scope="session")
def phasecert_timeout(request: pytest.FixtureRequest) -> float:
    return float(request.config.getoption("engine_timeout"))


@pytest.fixture(scope="session")
def phasecert_results(request: pytest.FixtureRequest) -> list[PropertyResult]:
    """Where the suite records each property's result."""
    return request.config.stash[_RESULTS]


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = session.config.getoption("phasecert_results", None)
    if path:
        results = session.config.stash.get(_RESULTS, [])
        write_text_atomically(
            Path(path), json.dumps([to_data(r) for r in results], indent=2) + "\n"
        )
