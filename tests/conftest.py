"""Test-run settings for the project's own tests.

Two tiers. The default run (`pytest -n auto`, the README's command) holds
every rule, property, mutant and engine to its verdict; `--thorough` adds
the tests marked `thorough`: what costs minutes rather than seconds
(shrinking every mutant's counterexample to its final size, every
property of every edition on every other edition's reference, the
in-process against `phasecert serve` comparisons, HypoFuzz against a real
Redis). CI runs both (.ci/run).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        help="also run the tests marked thorough (CI does: .ci/run)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """`pytest -n auto` schedules with xdist's `worksteal` rather than its
    default `load`: a few tests take tens of seconds (the degenerate
    engines, the meta-tests), and with `load` a worker may sit idle at the
    end while the other still holds a queue of them. An explicit `--dist`
    wins. Runs before xdist's own (trylast) configure, which starts the
    distributed session with this mode."""
    config.addinivalue_line(
        "markers", "thorough: minutes rather than seconds; runs with --thorough (CI)"
    )
    explicit = any(str(arg).startswith(("--dist", "-d")) for arg in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("thorough"):
        return
    skip = pytest.mark.skip(reason="thorough tier: run with --thorough (CI does)")
    for item in items:
        if "thorough" in item.keywords:
            item.add_marker(skip)
