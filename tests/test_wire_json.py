"""The protocol's JSON gives the standard library's results whether or not
orjson is installed (conformance/wire_json.py): the same text for every
value without floats (the protocol has none), the same JSON value for any
value, and the same value or the same error for every line."""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from conformance import wire_json

pytest.importorskip("orjson")

_STDLIB = json.JSONEncoder(separators=(",", ":"))

#: Values at and past the edges where orjson differs from `json`.
EDGE_SCALARS = st.sampled_from(
    [
        2**63 - 1,
        2**63,
        2**64 - 1,
        2**64,
        -(2**63),
        -(2**63) - 1,
        10**30,
        math.nan,
        math.inf,
        -math.inf,
        1e16,
        -0.0,
        "\x7f",
        "é",
        "\ud800",
        "null",
        "\u2028",
    ]
)


def json_values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=4)
        ),
        max_leaves=20,
    )


def finite_float(value: Any) -> bool:
    return isinstance(value, float) and math.isfinite(value)


SCALARS = st.none() | st.booleans() | st.integers() | st.text() | EDGE_SCALARS
#: Values written exactly as `json` writes them: no finite floats.
EXACT_VALUES = json_values(SCALARS.filter(lambda v: not finite_float(v)))
VALUES = json_values(SCALARS | st.floats())


def stdlib_outcome(call: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "value", call(*args)
    except (TypeError, ValueError, RecursionError) as e:
        return type(e).__name__, str(e)


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to itself and types compared (1 is not 1.0)."""
    return json.dumps(a) == json.dumps(b) and repr(a) == repr(b)


@given(EXACT_VALUES)
def test_dumps_writes_what_json_writes(value: Any) -> None:
    assert stdlib_outcome(wire_json.dumps, value) == stdlib_outcome(_STDLIB.encode, value)


@given(VALUES)
def test_dumps_writes_the_json_value_json_writes(value: Any) -> None:
    ours, theirs = stdlib_outcome(wire_json.dumps, value), stdlib_outcome(_STDLIB.encode, value)
    assert ours[0] == theirs[0]
    if ours[0] == "value":
        assert same(json.loads(ours[1]), json.loads(theirs[1]))


@pytest.mark.parametrize(
    "value",
    [
        dataclasses.make_dataclass("D", [("x", int)])(1),
        datetime.date(2017, 4, 28),
        type("Text", (str,), {})("text"),
        [[[[1]]]] * 300,
    ],
)
def test_dumps_leaves_values_json_refuses_to_json(value: Any) -> None:
    assert stdlib_outcome(wire_json.dumps, value) == stdlib_outcome(_STDLIB.encode, value)


def deeply_nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@given(
    st.binary(max_size=40)
    | VALUES.map(lambda v: _STDLIB.encode(v).encode("utf-8", "surrogatepass"))
    | st.sampled_from([b"NaN", b"1e400", b'"\\ud800"', b"\xef\xbb\xbf{}", b"18446744073709551616"])
)
@example(deeply_nested(2000))
@example(deeply_nested(600))
def test_loads_reads_what_json_reads(line: bytes) -> None:
    ours, theirs = stdlib_outcome(wire_json.loads, line), stdlib_outcome(json.loads, line)
    assert ours[0] == theirs[0]
    assert same(ours[1], theirs[1]) if ours[0] == "value" else ours == theirs
