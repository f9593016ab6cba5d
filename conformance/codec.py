"""JSON encoding of the scenario vocabulary and of observations.

Counterexamples are stored as JSON files and replayed later, so decoding is
strict: a malformed file gets a `DecodeError` naming the path of the bad
field, never a traceback from deep inside.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from conformance import actions, setup
from conformance.scenario import Scenario

T = TypeVar("T")

_TAGGED: dict[str, type] = {
    cls.__name__: cls
    for cls in (*actions.ACTION_TYPES, setup.ControlEffect, setup.BoostEffect, setup.SkipUntap)
}


class DecodeError(ValueError):
    """A JSON document does not describe a value of the expected type."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


def to_data(value: Any) -> Any:
    """Plain JSON data for `value`; union members carry a "type" tag and
    fields left at their default are omitted, to keep files readable."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data: dict[str, Any] = {}
        if type(value).__name__ in _TAGGED:
            data["type"] = type(value).__name__
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if _is_default(f, v):
                continue
            data[f.name] = to_data(v)
        return data
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    return value


def _is_default(f: dataclasses.Field[Any], v: Any) -> bool:
    if f.default is not dataclasses.MISSING:
        return bool(v == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(v == f.default_factory())
    return False


def from_data(hint: Any, data: Any, path: str = "$") -> Any:
    """Decode `data` as a value of type `hint`, strictly."""
    origin = get_origin(hint)
    if hint is Any:
        return data
    if origin is Literal:
        if data not in get_args(hint):
            raise DecodeError(path, f"expected one of {list(get_args(hint))}, got {data!r}")
        return data
    if origin in (Union, types.UnionType):
        return _from_union(get_args(hint), data, path)
    if origin is tuple:
        return _from_tuple(get_args(hint), data, path)
    if dataclasses.is_dataclass(hint):
        return _from_dataclass(hint, data, path)
    if hint is type(None):
        if data is not None:
            raise DecodeError(path, f"expected null, got {data!r}")
        return None
    if hint is bool:
        if not isinstance(data, bool):
            raise DecodeError(path, f"expected true or false, got {data!r}")
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise DecodeError(path, f"expected an integer, got {data!r}")
        return data
    if hint is str:
        if not isinstance(data, str):
            raise DecodeError(path, f"expected a string, got {data!r}")
        return data
    raise TypeError(f"no decoder for {hint!r}")


def _from_union(options: tuple[Any, ...], data: Any, path: str) -> Any:
    if isinstance(data, dict) and "type" in data:
        tagged = [o for o in options if getattr(o, "__name__", None) == data["type"]]
        if not tagged:
            names = sorted(getattr(o, "__name__", str(o)) for o in options)
            raise DecodeError(path, f"unknown type {data['type']!r}; expected one of {names}")
        return from_data(tagged[0], data, path)
    errors = []
    for option in options:
        try:
            return from_data(option, data, path)
        except DecodeError as e:
            errors.append(str(e).removeprefix(f"{path}: "))
    raise DecodeError(path, " or ".join(errors))


def _from_tuple(args: tuple[Any, ...], data: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise DecodeError(path, f"expected a list, got {data!r}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(from_data(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
    if len(data) != len(args):
        raise DecodeError(path, f"expected {len(args)} items, got {len(data)}")
    return tuple(
        from_data(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True))
    )


def _from_dataclass(cls: type[T], data: Any, path: str) -> T:
    if not isinstance(data, dict):
        raise DecodeError(path, f"expected an object for {cls.__name__}, got {data!r}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = set(data) - set(fields) - {"type"}
    if unknown:
        raise DecodeError(path, f"unknown field(s) {sorted(unknown)} for {cls.__name__}")
    kwargs = {}
    for name, f in fields.items():
        if name in data:
            kwargs[name] = from_data(hints[name], data[name], f"{path}.{name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise DecodeError(path, f"missing field {name!r} for {cls.__name__}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise DecodeError(path, str(e)) from None


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
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
