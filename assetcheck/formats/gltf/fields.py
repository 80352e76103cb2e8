"""Reading typed properties out of glTF JSON without ever raising on a wrong type.

Every getter reports what is wrong with the Khronos code and JSON Pointer glTF-Validator uses,
and returns ``None`` (or the property's default) for a value it cannot use, so the statistics
count what is sane and skip the rest the way Khronos does.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TypeGuard, TypeVar

from assetcheck.formats.gltf.schema_tables import (
    Prop,
)
from assetcheck.issues import FileIssues

_PREVIEW_CHARS = 60
_MISSING = object()
#: Integers this small are exactly representable as floats: no range check needed.
_SMALL = 2**53

T = TypeVar("T")


def child(pointer: str, key: str | int) -> str:
    """The JSON Pointer of ``key`` inside the value at ``pointer`` (RFC 6901 escaping)."""
    if type(key) is int:  # an array index needs no escaping: the common, hot case
        return f"{pointer}/{key}"
    key = str(key)
    if "~" in key or "/" in key:  # rare: tested first, as two replaces cost more than two tests
        key = key.replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{key}"


def as_integer(value: Any) -> int | None:
    """``value`` as an int when JSON-wise it is one (``3``, ``3.0``; never ``true``), else None."""
    if type(value) is int and -_SMALL <= value <= _SMALL:  # the common case, checked first
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        # Beyond the float range JavaScript, and so Khronos, reads the number as Infinity.
        return value if abs(value) <= sys.float_info.max else None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def preview(value: Any) -> str:
    """A short JSON rendering of ``value`` for messages."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _PREVIEW_CHARS else text[: _PREVIEW_CHARS - 3] + "..."


def declared_names(document: dict[str, Any], key: str) -> list[str]:
    """The extension names of ``extensionsUsed`` or ``extensionsRequired``, as Khronos reads
    them: none at all when the array holds anything but strings (``ARRAY_TYPE_MISMATCH``)."""
    names = document.get(key)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return []
    return names


class FieldReader:
    """Typed getters over glTF JSON objects that report bad values to ``issues``.

    Each getter takes the containing object and its pointer; a property is read (and so
    reported) once by whoever owns it.
    """

    def __init__(self, issues: FileIssues) -> None:
        self.issues = issues

    def elements(self, parent: dict, key: str, at: str = "") -> list[dict | None]:
        """A top-level collection (``meshes``, ``accessors``...), index-aligned with the JSON.

        A missing collection is empty; an element that is not an object becomes ``None`` so
        indices into the collection keep their meaning.
        """
        value = parent.get(key, _MISSING)
        if value is _MISSING:
            return []
        if not isinstance(value, list):
            self._type_mismatch(child(at, key), value, "an array")
            return []
        items: list[dict | None] = []
        for index, item in enumerate(value):
            if isinstance(item, dict):
                items.append(item)
            else:
                self._type_mismatch(child(child(at, key), index), item, "an object")
                items.append(None)
        return items

    def object_list(
        self,
        parent: dict,
        key: str,
        at: str,
        *,
        required: bool = False,
    ) -> list[dict] | None:
        """An array of objects inside a property (``primitives``): all or nothing.

        As in Khronos, one element that is not an object makes the whole array unusable.
        """
        value = self._get(parent, key, at, required)
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self._type_mismatch(child(at, key), value, "an array")
            return None
        for item in value:
            if not isinstance(item, dict):
                self.issues.add(
                    "ARRAY_TYPE_MISMATCH",
                    pointer=child(at, key),
                    value=preview(item),
                    expected="an object",
                )
                return None
        return value

    def object(self, parent: dict, key: str, at: str, *, required: bool = False) -> dict | None:
        value = self._get(parent, key, at, required)
        if value is _MISSING:
            return None
        if not isinstance(value, dict):
            self._type_mismatch(child(at, key), value, "an object")
            return None
        return value

    def string(self, parent: dict, key: str, at: str, *, required: bool = False) -> str | None:
        value = self._get(parent, key, at, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            self._type_mismatch(child(at, key), value, "a string")
            return None
        return value

    def integer(
        self,
        parent: dict,
        key: str,
        at: str,
        *,
        default: int | None = None,
        required: bool = False,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        """An integer property; ``default`` when absent or null, None when unusable.

        A null value is a type mismatch that still falls back to ``default`` (as Khronos does),
        while a value of another type or out of ``minimum..maximum`` is unusable.
        """
        value = parent.get(key, _MISSING)
        number: int | None
        if type(value) is int and -_SMALL <= value <= _SMALL:  # the common case, checked first
            number = value
        elif value is _MISSING:
            self._absent(key, at, required)
            return default
        elif value is None:
            self._type_mismatch(child(at, key), value, "an integer")
            if required:
                self.issues.add("UNDEFINED_PROPERTY", pointer=at or "/", name=key)
            return default
        else:
            number = as_integer(value)
        if number is None:
            self._type_mismatch(child(at, key), value, "an integer")
            return None
        if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
            self.issues.add("VALUE_NOT_IN_RANGE", pointer=child(at, key), value=number)
            return None
        return number

    def index(self, parent: dict, key: str, at: str, *, required: bool = False) -> int | None:
        """A reference to an element of a collection (``indices``, ``material``, ``buffer``)."""
        value = parent.get(key, _MISSING)
        if type(value) is int and 0 <= value <= _SMALL:  # the common case, checked first
            return value
        if value is _MISSING:
            self._absent(key, at, required)
            return None
        number = as_integer(value)
        if number is None:
            self._type_mismatch(child(at, key), value, "an integer")
            if value is None and required:
                self.issues.add("UNDEFINED_PROPERTY", pointer=at or "/", name=key)
            return None
        if number < 0:
            self.issues.add("INVALID_INDEX", pointer=child(at, key), value=preview(value))
            return None
        return number

    def index_map(self, mapping: dict, at: str) -> Iterator[tuple[str, int]]:
        """The valid ``name -> index`` entries of an object such as ``attributes``, in order."""
        for name, value in mapping.items():
            number = as_integer(value)
            if number is None or number < 0:
                self.issues.add("INVALID_INDEX", pointer=child(at, name), value=preview(value))
                continue
            yield name, number

    def resolve(
        self, index: int | None, collection: Sequence[T | None], name: str, pointer: str
    ) -> T | None:
        """The usable element ``index`` names in ``collection`` (the one called ``name``).

        An index past the end, or to an element that is not an object, is
        ``UNRESOLVED_REFERENCE``; a missing index (None) is simply not resolved.
        """
        if index is None:
            return None
        item = collection[index] if index < len(collection) else None
        if item is None:
            self.issues.add("UNRESOLVED_REFERENCE", pointer=pointer, index=index, collection=name)
        return item

    def resolves(
        self, index: int | None, collection: Sequence[T | None], name: str, pointer: str
    ) -> TypeGuard[int]:
        """Whether ``index`` names a usable element of ``collection``, as :meth:`resolve`."""
        return self.resolve(index, collection, name, pointer) is not None

    def _get(self, parent: dict, key: str, at: str, required: bool) -> Any:
        """The value of ``key``, or ``_MISSING`` when absent (reported when required)."""
        if key not in parent:
            self._absent(key, at, required)
            return _MISSING
        return parent[key]

    def _absent(self, key: str, at: str, required: bool) -> None:
        """Report ``key`` missing from the object at ``at`` when it is ``required``."""
        if required:
            self.issues.add("UNDEFINED_PROPERTY", pointer=at or "/", name=key)

    def _type_mismatch(self, pointer: str, value: Any, expected: str) -> None:
        self.issues.add("TYPE_MISMATCH", pointer=pointer, value=preview(value), expected=expected)


def is_number(value: object) -> TypeGuard[float]:
    """Whether ``value`` is a JSON number (an int or a float, never a bool)."""
    kind = type(value)
    if kind is float or kind is int:  # what json.loads gives: the hot path
        return True
    return isinstance(value, int | float) and kind is not bool


def in_range(prop: Prop, number: float) -> bool:
    """Whether ``number`` is finite and satisfies the property's minimum, maximum and exclusive
    minimum, or is its standalone value (JSON numbers too large for a double read as infinite,
    as in Khronos)."""
    if not math.isfinite(number):
        return False
    if prop.standalone is not None and number == prop.standalone:
        return True
    minimum = prop.minimum if prop.minimum is not None else (0 if prop.kind == "uint" else None)
    return not (
        (minimum is not None and number < minimum)
        or (prop.maximum is not None and number > prop.maximum)
        or (prop.exclusive_minimum is not None and number <= prop.exclusive_minimum)
    )


def read_number(item: dict, key: str, prop: Prop, default: float = math.nan) -> float:
    """``item[key]`` as Khronos' getters read it: ``default`` when absent, NaN when it is not a
    number in the property's range (the schema check reports why)."""
    value = item.get(key, _MISSING)
    if value is _MISSING:
        return default
    return float(value) if is_number(value) and in_range(prop, value) else math.nan


def extensions_used(document: dict[str, Any]) -> frozenset[str]:
    """The names of ``extensionsUsed`` (see :func:`declared_names`)."""
    return frozenset(declared_names(document, "extensionsUsed"))
