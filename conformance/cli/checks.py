"""Up-front checks of the command line: a mistake costs a one-line message
and exit 2 before the run, never a traceback after it."""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import tempfile
from pathlib import Path

#: Bounds of --engine-timeout, in seconds: under a tenth of a second even the
#: reference engine counts as hung; over an hour a hang is never noticed.
TIMEOUT_RANGE = (0.1, 3600.0)
#: Bounds of --engine-memory, in MB.
MEMORY_RANGE = (256, 1024 * 1024)

_REDIS_SCHEMES = ("redis://", "rediss://")


class UsageFailure(Exception):
    """A usage or setup error: exit 2 with this one-line message."""


def seconds(text: str) -> float:
    """argparse type of --engine-timeout: finite seconds in TIMEOUT_RANGE."""
    low, high = TIMEOUT_RANGE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"{text!r}: expected seconds from {low:g} to {high:g}")
    return value


def megabytes(text: str) -> int:
    """argparse type of --engine-memory: whole MB in MEMORY_RANGE."""
    low, high = MEMORY_RANGE
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: expected MB from {low} to {high}")
    return value


def workers(text: str) -> str:
    """argparse type of -n: a number of workers, or auto/logical (pytest-xdist)."""
    if text in ("auto", "logical") or (text.isdigit() and 0 < int(text) <= 1024):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: expected a number of workers, auto or logical")


def board_sizes(text: str) -> tuple[int, ...]:
    """argparse type of --bench-sizes: `10,100,1000` as board sizes, smallest
    first; each a multiple of the boards' block of permanents."""
    from conformance.bench.boards import BLOCK

    try:
        sizes = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected board sizes separated by commas, e.g. 10,100,1000"
        ) from None
    bad = [s for s in sizes if s <= 0 or s % BLOCK]
    if bad or not sizes:
        raise argparse.ArgumentTypeError(
            f"{text!r}: board sizes must be positive multiples of {BLOCK}"
            + (f", not {bad[0]}" if bad else "")
        )
    return tuple(sizes)


def max_size(text: str) -> int:
    """argparse type of --bench-max-size: a positive number of permanents."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number of permanents")
    return value


def xdist_installed() -> None:
    if importlib.util.find_spec("xdist") is None:
        raise UsageFailure("-n needs pytest-xdist (pip install 'phasecert[xdist]')")


def writable_directory(path: Path, option: str, named: Path | None = None) -> None:
    """`path` is, or can be made, a directory we can write files into; the
    message names `named` (default: `path`)."""
    named = named or path
    if path.exists() and not path.is_dir():
        raise UsageFailure(f"{option} {named}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise UsageFailure(f"{option} {named}: can't write there ({e.strerror or e})") from None


def writable_file(path: Path, option: str) -> None:
    """`path` can be (re)written as a file."""
    if path.is_dir():
        raise UsageFailure(f"{option} {path}: is a directory, not a file")
    writable_directory(path.parent, option, named=path)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageFailure(f"{option} {path}: can't write it (permission denied)")


def example_db_spec(spec: str) -> None:
    """--example-db is `redis://…` (checked by connecting) or a directory path."""
    if "://" in spec and not spec.startswith(_REDIS_SCHEMES):
        scheme = spec.split("://", 1)[0]
        raise UsageFailure(
            f"--example-db {spec}: {scheme}:// is not supported; give redis://HOST:PORT/N "
            "or a directory"
        )
    if not spec.startswith(_REDIS_SCHEMES):
        writable_directory(Path(spec), "--example-db")
