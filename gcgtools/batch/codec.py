"""Results as plain JSON data, for the result cache: a format that cannot run code.

Reading a cache entry must never run code, even when someone else could write into the
cache folder (a shared folder on a cluster). So results are stored as JSON, and only a
few kinds of value are allowed: ``None``, booleans, numbers, strings, lists, tuples,
dicts, **dataclasses defined in gcgtools** (the analysis's ``RecordAnalysis``,
``TurnAnalysis``, ``Candidate``, ``Finding``...) and **enums defined in gcgtools** (a
judgement's ``Phase`` and ``Mistake``). A dataclass is written as its class's name and its
fields, an enum member as its class's name and its value; reading it back looks the class
up among the gcgtools modules *already imported* (nothing is imported by name from an
entry), checks it is a dataclass with exactly those fields (an enum with that value), and
fills it in without calling any method.

>>> decode(encode({"a": (1, 2.5, None)}))
{'a': (1, 2.5, None)}

Anything else (a class not from gcgtools, a field that does not belong, a malformed
document) raises :class:`CodecError`; the cache then treats the entry as a miss.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import sys
import types
import typing
from typing import Any

PACKAGE = "gcgtools"
_TAG = "\x00t"  # the key of a tagged value: never a key of a result's own dicts
_MAX_DEPTH = 200


class CodecError(ValueError):
    """A value that cannot be encoded, or a document that is not a valid encoding."""


def encode(value: Any) -> bytes:
    """``value`` as a JSON document (UTF-8)."""
    return json.dumps(_to_data(value, 0), ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def decode(data: bytes) -> Any:
    """The value of a document written by :func:`encode`."""
    try:
        document = json.loads(data.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as exc:
        raise CodecError(f"not a JSON document: {exc}") from None
    return _from_data(document, 0)


def _to_data(value: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("nested too deeply")
    if isinstance(value, enum.Enum):  # before str: a str-mixin enum is a str
        cls = type(value)
        if not _ours(cls):
            raise CodecError(f"{cls.__module__}.{cls.__qualname__} is not a gcgtools class")
        name = f"{cls.__module__}:{cls.__qualname__}"
        return {_TAG: "enum", "class": name, "value": _to_data(value.value, depth + 1)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [_to_data(v, depth + 1) for v in value]
    if isinstance(value, tuple):
        return {_TAG: "tuple", "items": [_to_data(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and _TAG not in value:
            return {k: _to_data(v, depth + 1) for k, v in value.items()}
        pairs = [[_to_data(k, depth + 1), _to_data(v, depth + 1)] for k, v in value.items()]
        return {_TAG: "dict", "items": pairs}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if not _ours(cls):
            raise CodecError(f"{cls.__module__}.{cls.__qualname__} is not a gcgtools class")
        fields = {f.name: _to_data(getattr(value, f.name), depth + 1) for f in _fields(cls)}
        return {_TAG: "data", "class": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}
    raise CodecError(f"cannot store a {type(value).__name__}")


def _from_data(doc: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("nested too deeply")
    if doc is None or isinstance(doc, (bool, int, float, str)):
        return doc
    if isinstance(doc, list):
        return [_from_data(v, depth + 1) for v in doc]
    if not isinstance(doc, dict):
        raise CodecError("not a JSON value")
    tag = doc.get(_TAG)
    if tag is None:
        return {k: _from_data(v, depth + 1) for k, v in doc.items()}
    items = doc.get("items")
    if tag == "tuple" and isinstance(items, list):
        return tuple(_from_data(v, depth + 1) for v in items)
    if tag == "dict" and isinstance(items, list):
        return _pairs(items, depth)
    if tag == "data":
        return _dataclass(doc, depth)
    if tag == "enum":
        return _enum(doc)
    raise CodecError(f"unknown tag {tag!r}")


def _pairs(items: list[Any], depth: int) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for pair in items:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise CodecError("a dict item is not a pair")
        key = _from_data(pair[0], depth + 1)
        try:
            out[key] = _from_data(pair[1], depth + 1)
        except TypeError:  # an unhashable key
            raise CodecError("a dict key that cannot be a key") from None
    return out


def _loaded_class(name: object) -> Any:
    """The class ``module:qualname`` among the gcgtools modules already imported."""
    if not isinstance(name, str) or name.count(":") != 1:
        raise CodecError("a malformed class name")
    module_name, qualname = name.split(":")
    module = sys.modules.get(module_name)  # never imported from here: only what is loaded
    if module is None or not (module_name == PACKAGE or module_name.startswith(PACKAGE + ".")):
        raise CodecError(f"class {name[:80]!r} is not a loaded gcgtools class")
    cls: Any = module
    for part in qualname.split("."):
        cls = vars(cls).get(part) if hasattr(cls, "__dict__") else None
    return cls


def _enum(doc: dict[str, Any]) -> Any:
    cls = _loaded_class(doc.get("class"))
    if not (isinstance(cls, type) and issubclass(cls, enum.Enum) and _ours(cls)):
        raise CodecError(f"{str(doc.get('class'))[:80]!r} is not a gcgtools enum")
    value = doc.get("value")
    member = next((m for m in cls if m.value == value and type(m.value) is type(value)), None)
    if member is None:
        raise CodecError(f"{value!r:.80} is not a value of {cls.__qualname__}")
    return member


def _dataclass(doc: dict[str, Any], depth: int) -> Any:
    name, fields = doc.get("class"), doc.get("fields")
    if not isinstance(name, str) or not isinstance(fields, dict) or name.count(":") != 1:
        raise CodecError("a malformed dataclass")
    cls = _loaded_class(name)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and _ours(cls)):
        raise CodecError(f"{name[:80]!r} is not a gcgtools dataclass")
    names = [f.name for f in _fields(cls)]
    if sorted(fields) != sorted(names):
        raise CodecError(f"the fields of {name[:80]!r} do not match")
    hints = _hints(cls)
    obj = object.__new__(cls)  # no __init__, no __post_init__: only the fields are set
    for field_name in names:
        value = _from_data(fields[field_name], depth + 1)
        if not _fits(value, hints.get(field_name, Any)):
            raise CodecError(f"field {field_name!r} of {name[:80]!r} has the wrong type")
        object.__setattr__(obj, field_name, value)
    return obj


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - hints that do not resolve: fields unchecked
        return {}


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the type ``hint`` (the forms dataclass fields use; any
    other form is accepted)."""
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    if origin is list:
        return isinstance(value, list) and all(_fits(v, args[0] if args else Any) for v in value)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return not args or (len(args) == len(value) and all(map(_fits, value, args)))
    if origin is dict:
        key, val = args if len(args) == 2 else (Any, Any)
        return isinstance(value, dict) and all(
            _fits(k, key) and _fits(v, val) for k, v in value.items()
        )
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def _ours(cls: type) -> bool:
    module = getattr(cls, "__module__", "")
    return module == PACKAGE or module.startswith(PACKAGE + ".")
