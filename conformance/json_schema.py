"""JSON Schemas generated from the vocabulary's dataclasses.

`schemas/protocol.schema.json` describes every message of the engine
protocol (`conformance.wire`) and everything inside them; it is generated
here, from the same type hints `conformance.codec` decodes with, so schema
and decoder cannot disagree (tests/test_wire.py checks the committed file).

    python -m conformance.json_schema > schemas/protocol.schema.json
"""

from __future__ import annotations

import dataclasses
import json
import types
from typing import Any, Literal, Union, get_args, get_origin

from conformance.codec import TAGGED_TYPES, field_types
from conformance.wire import MESSAGES, PROTOCOL_VERSION

SCHEMA_ID = "https://phasecert.invalid/schemas/protocol.schema.json"


def protocol_schema() -> dict[str, Any]:
    """One document: each message under `$defs`, by its class name, and the
    document itself accepting any message."""
    defs: dict[str, Any] = {}
    for message in MESSAGES:
        _define(message, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"phasecert engine protocol, version {PROTOCOL_VERSION}",
        "description": "One JSON object a line; see docs/protocol.md. Generated from "
        "conformance/wire.py by `python -m conformance.json_schema`.",
        "anyOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in MESSAGES],
        "$defs": dict(sorted(defs.items())),
    }


def _define(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    ref = {"$ref": f"#/$defs/{cls.__name__}"}
    if cls.__name__ in defs:
        return ref
    defs[cls.__name__] = {}  # placeholder: recursive types stop here
    hints = field_types(cls)
    properties: dict[str, Any] = {}
    required = []
    if cls.__name__ in TAGGED_TYPES:
        properties["type"] = {"const": cls.__name__}
        required.append("type")
    for f in dataclasses.fields(cls):
        properties[f.name] = _schema(hints[f.name], defs)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
    doc = " ".join((cls.__doc__ or "").split())
    defs[cls.__name__] = {
        "type": "object",
        **({"description": doc} if doc and not doc.startswith(cls.__name__ + "(") else {}),
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ref


def _schema(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(hint)
    if hint is Any:
        return {}
    if origin is Literal:
        values = list(get_args(hint))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(option, defs) for option in get_args(hint)]}
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0], defs)}
        return {
            "type": "array",
            "prefixItems": [_schema(a, defs) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if dataclasses.is_dataclass(hint):
        return _define(hint, defs)  # type: ignore[arg-type]
    simple = {type(None): "null", bool: "boolean", int: "integer", str: "string"}
    if hint in simple:
        return {"type": simple[hint]}
    raise TypeError(f"no schema for {hint!r}")


def main() -> None:
    print(json.dumps(protocol_schema(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
