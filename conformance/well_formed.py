"""Whether a value is already a well-formed vocabulary value, read in place.

The suite checks every observation an in-process engine returns, since an
adapter may put anything in its fields. Encoding it and decoding it back
(`conformance.codec`) is the strict check, with a message naming the bad
field, but it builds every object twice: a fifth of a property's run on the
reference engine. A value whose classes and field types are exactly those
declared is well formed without that, so the round trip is left for the
rest (lists for tuples, subclasses, bad values), which it accepts or names.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable
from typing import Any, Literal, Union, get_args, get_origin

from conformance.codec import as_is_types, field_types

Check = Callable[[Any], bool]


def is_well_formed(hint: Any, value: Any) -> bool:
    """True only if `value` is of type `hint` exactly as declared: its
    dataclasses of those very classes, tuples as tuples, literals among
    their values. False says only "not at a glance": the codec decides."""
    return _check(hint)(value)


@functools.cache
def _check(hint: Any) -> Check:
    """The check of type `hint`, built once per type; the checks of the
    types inside it are looked up on first use (a dataclass may refer to
    itself through its fields)."""
    if hint is Any:
        return lambda v: True
    plain = as_is_types(hint)
    if plain == {hint}:
        # Exactly the type: a bool is not an int here, as in the codec.
        return lambda v: type(v) is hint
    origin = get_origin(hint)
    if origin is Literal:
        allowed = {(type(v), v) for v in get_args(hint)}
        return lambda v: type(v) in _HASHABLE and (type(v), v) in allowed
    if origin in (Union, types.UnionType):
        return _union(get_args(hint), plain)
    if origin is tuple:
        return _tuple(get_args(hint))
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _dataclass(hint)
    return lambda v: False


#: The literal values' types: a list or a dict is never one, and unhashable.
_HASHABLE = frozenset({str, int, bool, type(None)})


def _union(options: tuple[Any, ...], plain: frozenset[type]) -> Check:
    others: list[Check] = []

    def check(v: Any) -> bool:
        if type(v) in plain:
            return True
        if not others:
            others.extend(_check(o) for o in options if o not in plain)
        return any(c(v) for c in others)

    return check


def _tuple(args: tuple[Any, ...]) -> Check:
    items: list[Check] = []
    every = len(args) == 2 and args[1] is Ellipsis

    def check(v: Any) -> bool:
        if type(v) is not tuple:
            return False
        if not items:
            items.extend(_check(a) for a in (args[:1] if every else args))
        if every:
            return all(map(items[0], v))
        return len(v) == len(items) and all(c(x) for c, x in zip(items, v, strict=True))

    return check


def _dataclass(cls: type) -> Check:
    # A __post_init__ may refuse what the codec would rebuild: leave those
    # to it.
    if hasattr(cls, "__post_init__"):
        return lambda v: False
    # Per field: its name, the plain types taken at once, and the check of
    # anything else (None: nothing else is).
    fields: list[tuple[str, frozenset[type], Check | None]] = []

    def check(v: Any) -> bool:
        if type(v) is not cls:
            return False
        values = getattr(v, "__dict__", None)
        if values is None:
            return False
        if not fields:
            fields.extend(_field(cls, f.name) for f in dataclasses.fields(cls))
        for name, plain, other in fields:
            if name not in values:
                return False
            x = values[name]
            if type(x) not in plain and (other is None or not other(x)):
                return False
        return True

    return check


def _field(cls: type, name: str) -> tuple[str, frozenset[type], Check | None]:
    hint = field_types(cls)[name]
    plain = as_is_types(hint)
    union = get_origin(hint) in (Union, types.UnionType)
    if set(get_args(hint) if union else (hint,)) <= plain:
        return name, plain, None
    return name, plain, _check(hint)
