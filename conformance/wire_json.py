"""JSON for the engine protocol's lines: orjson when it is installed (the
`fast` extra), with the standard library's results.

The protocol encodes and parses a line each way per `perform`, and orjson
cut the time it adds per call by a quarter (reports/benchmarks.md,
Protocol). Where orjson's answer could differ from `json`'s, the line goes
to `json` instead, so what is sent and what is accepted never depend on
whether orjson is installed (tests/test_wire_json.py checks both agree):

- encoding: orjson writes UTF-8 where `json` escapes non-ASCII and DEL, and
  `null` for NaN and infinities where `json` writes `NaN`; it refuses
  integers beyond 64 bits and, with the options below, anything but
  JSON's own types (a dataclass, a date, a subclass). Such output is
  written by `json`. Two differences remain, both outside what a message
  can hold: a float (the protocol has none) is written in orjson's own
  notation, the same number ("1e-6" for `json`'s "1e-06"); an `Enum` or a
  `UUID` that a broken adapter puts in an observation, which `json`
  refuses (`phasecert serve` then fails with a TypeError), orjson writes
  as its value (no option passes them to `_refuse`).
- parsing: orjson reads an integer beyond 64 bits as a float (a run of 19
  or more digits sends the line to `json`); it refuses what `json` takes
  (`NaN`, a float out of range, a lone surrogate, a BOM) and what both
  refuse, so any refusal is `json`'s to explain.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # optional: the `fast` extra
    orjson = None

#: Made once: `json.dumps` with options builds an encoder per call.
_JSON = json.JSONEncoder(separators=(",", ":"))
#: Anything but JSON's own types reaches `_refuse`, so `json` handles it.
_STRICT = (
    0
    if orjson is None
    else orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
#: Digits to "0", everything else to " ": an integer orjson would read as a
#: float is a run of at least 19 digits (a regular expression took 15 µs a
#: line, this takes 1).
_DIGITS = bytes(48 if 48 <= c <= 57 else 32 for c in range(256))
_LONG_NUMBER = b"0" * 19


def _refuse(value: Any) -> Any:
    raise TypeError(f"not JSON's own type: {type(value).__name__}")


def dumps(data: Any) -> str:
    """`data` as compact JSON (`separators=(",", ":")`), as `json` writes it."""
    if orjson is not None:
        try:
            out = orjson.dumps(data, default=_refuse, option=_STRICT)
        except TypeError:  # orjson.JSONEncodeError is one
            pass
        else:
            if out.isascii() and b"\x7f" not in out and b"null" not in out:
                return out.decode("ascii")
    return _JSON.encode(data)


def loads(line: str | bytes) -> Any:
    """The JSON value on `line`, as `json.loads` reads it; its errors too."""
    if (
        orjson is not None
        and isinstance(line, bytes)
        and _LONG_NUMBER not in line.translate(_DIGITS)
    ):
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # `json` raises its own error, or takes what orjson refused
    return json.loads(line)
