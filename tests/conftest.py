"""Test-run settings for the project's own tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """`pytest -n auto` schedules with xdist's `worksteal` rather than its
    default `load`: a few tests take tens of seconds (the degenerate
    engines, the meta-tests), and with `load` a worker may sit idle at the
    end while the other still holds a queue of them. An explicit `--dist`
    wins. Runs before xdist's own (trylast) configure, which starts the
    distributed session with this mode."""
    explicit = any(str(arg).startswith(("--dist", "-d")) for arg in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "worksteal"
