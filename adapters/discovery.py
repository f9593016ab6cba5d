"""Finding engines by name.

Built-in engines (the reference engine, the mutants, and the phase.rs
adapter when its package is installed) plus any adapter a third-party
package registers in the `phasecert.adapters` entry-point group.
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from adapters.protocol import engine_editions, missing_capabilities, unreported_observations

ENTRY_POINT_GROUP = "phasecert.adapters"
MUTANT_PREFIX = "mutant:"
STDIO_PREFIX = "stdio:"
#: Engines that do (almost) nothing, for the meta-tests (adapters.degenerate).
DEGENERATE_PREFIX = "degenerate:"


class EngineNotFound(LookupError):
    """No engine by that name, or it can't be loaded; the message says why."""


def _builtin() -> dict[str, str]:
    return {
        "reference": "adapters.reference:ReferenceEngine",
        "phase-rs": "adapters.phase_rs:PhaseRsEngine",
    }


def engine_names() -> list[str]:
    """Every engine name that can be asked for, mutants last."""
    from adapters.mutants import MUTANTS

    names = dict.fromkeys(_builtin())
    names.update(dict.fromkeys(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)))
    return [*names, *(MUTANT_PREFIX + m for m in MUTANTS)]


def load_engine(name: str) -> Any:
    """The engine called `name`, ready to start games."""
    if name.startswith(MUTANT_PREFIX):
        from adapters.mutants import mutant_engine

        return mutant_engine(name.removeprefix(MUTANT_PREFIX))
    if name.startswith(STDIO_PREFIX):
        from adapters.stdio import EngineProcessError, StdioEngine

        try:
            return StdioEngine(name)
        except (ValueError, EngineProcessError) as e:
            raise EngineNotFound(f"engine {name!r} can't be loaded: {e}") from e
    if name.startswith(DEGENERATE_PREFIX):
        from adapters.degenerate import degenerate_engine

        return degenerate_engine(name.removeprefix(DEGENERATE_PREFIX))
    target = _builtin().get(name)
    if target is None and ":" in name:
        target = name  # "package.module:Factory", for an adapter under development
    if target is None:
        found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
        if not found:
            known = ", ".join(n for n in engine_names() if not n.startswith(MUTANT_PREFIX))
            raise EngineNotFound(
                f"no engine named {name!r}; known engines: {known} "
                "(and mutant:NAME, degenerate:NAME)"
            )
        target = found[0].value
    module_name, _, attr = target.partition(":")
    if target == name:
        _import_from_current_directory()
    try:
        module = __import__(module_name, fromlist=[attr])
        engine = getattr(module, attr)()
        missing_capabilities(engine)
        unreported_observations(engine)
        engine_editions(engine)
    except ImportError as e:
        raise EngineNotFound(
            f"engine {name!r} can't be loaded: {e} (module:Factory is imported from the "
            "current directory or the import path)"
        ) from e
    except (AttributeError, RuntimeError, ValueError, TypeError) as e:
        raise EngineNotFound(f"engine {name!r} can't be loaded: {e}") from e
    return engine


def _import_from_current_directory() -> None:
    """`module:Factory` names an adapter under development, in the directory
    its author runs phasecert from (as `python -m` would find it)."""
    here = str(Path.cwd())
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
