"""JSON encoding of the scenario vocabulary and of observations.

Counterexamples are stored as JSON files and replayed later, so decoding is
strict: a malformed file gets a `DecodeError` naming the path of the bad
field, never a traceback from deep inside.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from conformance import actions, setup
from conformance.scenario import Scenario

T = TypeVar("T")

#: The vocabulary types written with a "type" tag (actions and effects: a
#: list of them mixes kinds); the JSON Schema tags the same ones.
TAGGED_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (*actions.ACTION_TYPES, setup.ControlEffect, setup.BoostEffect, setup.SkipUntap)
}


class DecodeError(ValueError):
    """A JSON document does not describe a value of the expected type."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


#: Values that are their own JSON data: checked first, by exact type, since
#: they are most of an observation's values (the engine protocol encodes one
#: per call) and telling them from a dataclass is slow.
_PLAIN = frozenset({str, int, bool, float, type(None)})


def to_data(value: Any) -> Any:
    """Plain JSON data for `value`; union members carry a "type" tag and
    fields left at their default are omitted, to keep files readable."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    encode = _ENCODERS.get(type(value))
    if encode is None:
        if not (dataclasses.is_dataclass(value) and not isinstance(value, type)):
            return value
        encode = _ENCODERS[type(value)] = _encoder(type(value))
    return encode(value)


def _encoder(cls: type) -> Callable[[Any], dict[str, Any]]:
    """An encoder for dataclass `cls`, its defaults worked out once (the
    engine protocol encodes an observation per call)."""
    tag = {"type": cls.__name__} if cls.__name__ in TAGGED_TYPES else {}
    fields = [(f.name, _default(f)) for f in dataclasses.fields(cls)]

    def encode(value: Any) -> dict[str, Any]:
        data = dict(tag)
        # A dataclass without slots keeps its fields in __dict__: read there.
        values = getattr(value, "__dict__", None) or {n: getattr(value, n) for n, _ in fields}
        for name, default in fields:
            v = values[name]
            if default is _NO_DEFAULT or v != default:
                data[name] = v if type(v) in _PLAIN else to_data(v)
        return data

    return encode


_NO_DEFAULT = object()
_ENCODERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return _NO_DEFAULT


def from_data(hint: Any, data: Any, path: str = "$") -> Any:
    """Decode `data` as a value of type `hint`, strictly."""
    decode = _decoder(hint)
    try:
        try:
            return decode(data)
        except _Retry:
            # Something is amiss: once more, strictly all the way down, for
            # the path and message of the error (or a union's other option).
            before, _MODE.strict = _MODE.strict, True
            try:
                return decode(data)
            finally:
                _MODE.strict = before
    except _Bad as e:
        raise DecodeError(path + "".join(reversed(e.where)), e.message) from None


class _Mode(threading.local):
    """Whether decoders skip their fast paths (`from_data`), per thread: the
    stdio adapter decodes in the suite's worker threads."""

    strict = False


_MODE = _Mode()


class _Retry(Exception):
    """A fast path met something amiss: `from_data` decodes again strictly.
    Raised through every level at once, so a bad value costs one strict
    decoding, not a retry at each level of nesting."""


class _Bad(Exception):
    """A decoding failure on its way out: the path is put together as it
    unwinds, so decoding a good value builds no path strings (the engine
    protocol decodes an observation per call)."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.where: list[str] = []

    def at(self, part: str) -> _Bad:
        self.where.append(part)
        return self


Decoder = Callable[[Any], Any]


@functools.cache
def _decoder(hint: Any) -> Decoder:
    """The decoder of type `hint`, built once per type."""
    origin = get_origin(hint)
    if hint is Any:
        return lambda data: data
    if origin is Literal:
        return _literal(get_args(hint))
    if origin in (Union, types.UnionType):
        return _union(get_args(hint))
    if origin is tuple:
        return _tuple(get_args(hint))
    if dataclasses.is_dataclass(hint):
        return _dataclass(hint)  # type: ignore[arg-type]
    if hint in _SIMPLE:
        return _simple(hint, *_SIMPLE[hint])
    raise TypeError(f"no decoder for {hint!r}")


#: Plain types: what JSON value each is, and how to name it in an error.
_SIMPLE: dict[Any, tuple[Callable[[Any], bool], str]] = {
    type(None): (lambda v: v is None, "null"),
    bool: (lambda v: isinstance(v, bool), "true or false"),
    int: (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    str: (lambda v: isinstance(v, str), "a string"),
}


def _simple(exact: type, ok: Callable[[Any], bool], name: str) -> Decoder:
    def decode(data: Any) -> Any:
        # JSON gives exactly these types; `ok` decides the rest.
        if type(data) is exact or ok(data):
            return data
        raise _Bad(f"expected {name}, got {data!r}")

    return decode


def _literal(values: tuple[Any, ...]) -> Decoder:
    # By value and type: `in values` alone would take True for 1 and 1.0 for 1.
    allowed = {(type(v), v) for v in values}

    def decode(data: Any) -> Any:
        try:
            if (type(data), data) in allowed:
                return data
        except TypeError:  # a list or an object: unhashable, and not allowed
            pass
        raise _Bad(f"expected one of {list(values)}, got {data!r}")

    return decode


def _union(options: tuple[Any, ...]) -> Decoder:
    tagged = {getattr(o, "__name__", None): o for o in options}
    # The options' decoders, built on first use (a type may refer to itself).
    decoders: list[Decoder] = []
    # A value of exactly a plain option's type is that option's, as it is.
    plain = frozenset(o for o in options if o in _SIMPLE)

    def decode(data: Any) -> Any:
        if type(data) in plain:
            return data
        if isinstance(data, dict) and "type" in data:
            option = tagged.get(data["type"]) if isinstance(data["type"], str) else None
            if option is None:
                names = sorted(getattr(o, "__name__", str(o)) for o in options)
                raise _Bad(f"unknown type {data['type']!r}; expected one of {names}")
            return _decoder(option)(data)
        if not decoders:
            decoders.extend(_decoder(o) for o in options)
        errors = []
        for option in decoders:
            try:
                return option(data)
            except _Bad as e:
                errors.append(
                    "".join(reversed(e.where)).lstrip(".") + (": " if e.where else "") + e.message
                )
        raise _Bad(" or ".join(errors))

    return decode


def _tuple(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])
        args = ()
    items = [_decoder(a) for a in args]

    def decode(data: Any) -> tuple[Any, ...]:
        # The usual case first, as for dataclasses (`_dataclass`).
        if not items and type(data) is list and not _MODE.strict:
            try:
                return tuple([item(v) for v in data])
            except _Bad:
                raise _Retry from None
        return strictly(data)

    def strictly(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise _Bad(f"expected a list, got {data!r}")
        if items and len(data) != len(items):
            raise _Bad(f"expected {len(items)} items, got {len(data)}")
        decoded = []
        for i, v in enumerate(data):
            try:
                decoded.append((items[i] if items else item)(v))
            except _Bad as e:
                raise e.at(f"[{i}]") from None
        return tuple(decoded)

    return decode


def _dataclass(cls: type) -> Decoder:
    hints = field_types(cls)
    fields = dataclasses.fields(cls)
    known = {f.name for f in fields} | {"type"}
    required = [
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    # Built on first use: a dataclass may refer to itself through its fields.
    decoders: dict[str, Decoder] = {}
    # Per field, the JSON types its decoder returns as they are (`as_is_types`):
    # the fast path takes those without calling the decoder.
    as_is: dict[str, frozenset[type]] = {}
    build = _builder(cls, fields, frozenset(required))

    def decode(data: Any) -> Any:
        # The usual case, a good value, in one expression; anything amiss is
        # decoded again strictly (`from_data`), for the path and message of
        # the error.
        if type(data) is dict and decoders and not _MODE.strict:
            if not known.issuperset(data):
                raise _Retry
            try:
                return build(
                    {
                        k: v if type(v) in as_is[k] else decoders[k](v)
                        for k, v in data.items()
                        if k != "type"
                    }
                )
            except (_Bad, TypeError, ValueError):
                raise _Retry from None
        return strictly(data)

    def strictly(data: Any) -> Any:
        if not isinstance(data, dict):
            raise _Bad(f"expected an object for {cls.__name__}, got {data!r}")
        if not known.issuperset(data):
            unknown = data.keys() - known
            raise _Bad(f"unknown field(s) {sorted(unknown)} for {cls.__name__}")
        if not decoders:
            decoders.update((f.name, _decoder(hints[f.name])) for f in fields)
            as_is.update((f.name, as_is_types(hints[f.name])) for f in fields)
        kwargs = {}
        for name, value in data.items():
            if name != "type":
                try:
                    kwargs[name] = decoders[name](value)
                except _Bad as e:
                    raise e.at(f".{name}") from None
        for name in required:
            if name not in kwargs:
                raise _Bad(f"missing field {name!r} for {cls.__name__}")
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise _Bad(str(e)) from None

    return decode


def as_is_types(hint: Any) -> frozenset[type]:
    """The JSON types that `_decoder(hint)` returns unchanged, unchecked: a
    plain type's own (`_simple`), a union's plain options (`_union`). A
    value of exactly one of them is a well-formed value of `hint`."""
    if hint in _SIMPLE:
        return frozenset({hint})
    if get_origin(hint) in (Union, types.UnionType):
        return frozenset(o for o in get_args(hint) if o in _SIMPLE)
    return frozenset()


def _builder(
    cls: type, fields: tuple[dataclasses.Field[Any], ...], required: frozenset[str]
) -> Callable[[dict[str, Any]], Any]:
    """`cls(**kwargs)`, for the decoder's fast path. A frozen dataclass's
    `__init__` sets each field through `object.__setattr__`, the larger part
    of decoding an observation; a class whose `__init__` does nothing else
    (no `__post_init__`, no default factory, no slots) gets its fields set
    at once. TypeError for a missing field, as `__init__` would raise."""
    if (
        hasattr(cls, "__post_init__")
        or hasattr(cls, "__slots__")
        or any(f.default_factory is not dataclasses.MISSING or not f.init for f in fields)
    ):
        return lambda kwargs: cls(**kwargs)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    new = object.__new__

    def build(kwargs: dict[str, Any]) -> Any:
        if not required <= kwargs.keys():
            raise TypeError(f"missing field(s) {sorted(required - kwargs.keys())}")
        value = new(cls)
        value.__dict__.update(defaults)
        value.__dict__.update(kwargs)
        return value

    return build


_HINTS: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """The resolved type of each field of the dataclass `cls` (cached)."""
    if cls not in _HINTS:
        module = typing.cast(Any, __import__(cls.__module__, fromlist=["_"]))
        _HINTS[cls] = get_type_hints(cls, vars(module))
    return _HINTS[cls]


def dumps(value: Any) -> str:
    """Stable, indented JSON for a vocabulary value."""
    return json.dumps(to_data(value), indent=2, sort_keys=False) + "\n"


def loads_scenario(text: str) -> Scenario:
    """Parse a scenario file; errors name the bad field."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise DecodeError("$", "not a scenario: nested too deeply") from None
    except ValueError as e:  # bad JSON, or an integer of thousands of digits
        raise DecodeError("$", f"not JSON: {e}") from None
    try:
        return from_data(Scenario, data)
    except RecursionError:
        raise DecodeError("$", "not a scenario: nested too deeply") from None
