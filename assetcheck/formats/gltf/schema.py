"""Walking a glTF document against its schema tables (:mod:`~.schema_tables`), reporting
what Khronos glTF-Validator's JSON getters report."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from assetcheck.formats.gltf.extension_schemas import EXTENSIONS, UNVALIDATED_BY_KHRONOS
from assetcheck.formats.gltf.fields import (
    as_integer,
    child,
    in_range,
    is_number,
    preview,
)
from assetcheck.formats.gltf.schema_tables import (
    COLLECTIONS,
    EXTENSION_VALUES,
    LARGEST_EXACT,
    ROOT,
    VERSION_PATTERN,
    ObjectSchema,
    Prop,
)
from assetcheck.issues import FileIssues

_EXPECTED = {
    "index": "an integer",
    "uint": "an integer",
    "number": "a number",
    "string": "a string",
    "bool": "a boolean",
    "object": "an object",
    "index_map": "an object",
    "objects": "an array",
    "indices": "an array",
    "numbers": "an array",
    "strings": "an array",
    "index_maps": "an array",
}


#: The value of a property an object leaves out.
MISSING = object()


#: (object, property, the property it depends on): Khronos' ``UNSATISFIED_DEPENDENCY`` rules.
DEPENDENCIES = {
    "accessor": (("byteOffset", "bufferView"),),
    "node": (("skin", "mesh"), ("weights", "mesh")),
    "image": (("bufferView", "mimeType"),),
}


class AdvisoryIssues:
    """Passes every finding on as an ``EXTENSION_SCHEMA_MISMATCH`` warning naming the rule
    broken (``rule``, the code it would have had) and the ``extension`` it is in."""

    def __init__(self, issues: FileIssues, extension: str) -> None:
        self.issues = issues
        self.extension = extension

    def add(self, code: str, *, pointer: str, **fields: Any) -> None:
        self.issues.add(
            "EXTENSION_SCHEMA_MISMATCH", pointer=pointer, extension=self.extension, rule=code
        )


class SchemaWalker:
    """Checks JSON objects against :class:`ObjectSchema` tables, reporting to ``issues``."""

    def __init__(
        self, issues: FileIssues | AdvisoryIssues, extensions_used: frozenset[str]
    ) -> None:
        self.issues = issues
        self.extensions_used = extensions_used

    def check_document(self, document: dict[str, Any]) -> None:
        self.check_object(ROOT, document, "")
        if "extensionsRequired" in document and "extensionsUsed" not in document:
            self.issues.add(
                "UNSATISFIED_DEPENDENCY",
                pointer="/extensionsRequired",
                name="extensionsRequired",
                dependency="extensionsUsed",
            )
        for name, (schema, reader_owned) in COLLECTIONS.items():
            if name in document:
                self._check_collection(schema, document[name], child("", name), reader_owned)
        self._check_min_version(document.get("asset"))

    def _check_min_version(self, asset: object) -> None:
        versions = [
            asset.get(key) if isinstance(asset, dict) else None for key in ("minVersion", "version")
        ]
        matches = [VERSION_PATTERN.match(v) if isinstance(v, str) else None for v in versions]
        numbers = [(int(m.group(1)), int(m.group(2))) for m in matches if m is not None]
        if len(numbers) < len(versions):
            return
        minimum, version = numbers
        if minimum > version:
            self.issues.add(
                "ASSET_MIN_VERSION_GREATER_THAN_VERSION",
                pointer="/asset/minVersion",
                min_version=versions[0],
                version=versions[1],
            )

    def check_object(self, schema: ObjectSchema, value: dict, at: str) -> None:
        allowed = schema.allowed
        if not allowed.issuperset(value):
            for key in value:
                if key not in allowed:
                    self.issues.add("UNEXPECTED_PROPERTY", pointer=child(at, key), name=key)
        needed = schema.needed
        for key, prop, plainly_valid in schema.walked:
            found = value.get(key, MISSING)
            if found is MISSING:
                if key in needed:
                    self.check_property(prop, found, at, key)
                continue  # an optional property left out: nothing to check, nothing to build
            if plainly_valid is None or not plainly_valid(found):
                self.check_property(prop, found, at, key)
        if "extensions" in value:
            self._check_extensions(value["extensions"], at, schema.name)
        extras = value.get("extras")
        if extras is not None and not isinstance(extras, dict):
            self.issues.add("NON_OBJECT_EXTRAS", pointer=child(at, "extras"), value=preview(extras))
        for name, dependency in DEPENDENCIES.get(schema.name, ()):
            if name in value and not _usable(value.get(dependency), schema.properties[dependency]):
                self.issues.add(
                    "UNSATISFIED_DEPENDENCY",
                    pointer=child(at, name),
                    name=name,
                    dependency=dependency,
                )

    def _check_collection(
        self, schema: ObjectSchema, items: object, at: str, reader_owned: bool
    ) -> None:
        if not isinstance(items, list):
            if not reader_owned:
                self._mismatch(at, items, "an array")
            return
        if not items:
            self.issues.add("EMPTY_ENTITY", pointer=at)
        for index, item in enumerate(items):
            if isinstance(item, dict):
                self.check_object(schema, item, child(at, index))
            elif not reader_owned:
                self._mismatch(child(at, index), item, "an object")

    def check_property(self, prop: Prop, value: Any, at: str, key: str) -> None:
        """Check the value of one property :attr:`~.Prop.walked` in full, without its quick
        test (``MISSING`` when the object has none)."""
        if value is MISSING or value is None:
            if not prop.reader:
                if value is None:
                    self._mismatch(child(at, key), value, _EXPECTED[prop.kind])
                if prop.required or prop.kind in ("objects", "index_map"):
                    self.issues.add("UNDEFINED_PROPERTY", pointer=at or "/", name=key)
            return
        pointer = child(at, key)
        container = _CONTAINERS.get(prop.kind)
        if container is None:
            self._check_scalar(prop, value, pointer)
        elif not isinstance(value, container[0]):
            if not prop.reader:
                self._mismatch(pointer, value, _EXPECTED[prop.kind])
        else:
            container[1](self, prop, value, pointer)

    def _check_scalar(self, prop: Prop, value: Any, pointer: str) -> None:
        if prop.kind in ("index", "uint"):
            number = as_integer(value)
            if number is None:
                self._mismatch(pointer, value, "an integer")
            elif prop.kind == "index" and number < 0:
                self.issues.add("INVALID_INDEX", pointer=pointer, value=preview(value))
            elif prop.kind == "uint":
                self._check_range(prop, number, pointer)
        elif prop.kind == "number":
            if is_number(value):
                self._check_range(prop, value, pointer)
            else:
                self._mismatch(pointer, value, "a number")
        elif prop.kind == "string":
            if not isinstance(value, str):
                self._mismatch(pointer, value, "a string")
            elif prop.enum is not None:
                self._check_enum(prop, prop.enum, value, pointer)
            elif prop.pattern is not None and not prop.pattern.match(value):
                self.issues.add(
                    "PATTERN_MISMATCH", pointer=pointer, value=value, pattern=prop.pattern.pattern
                )
        elif prop.kind == "bool" and not isinstance(value, bool):
            self._mismatch(pointer, value, "a boolean")

    def _check_range(self, prop: Prop, number: float, pointer: str) -> None:
        if prop.enum is not None:
            self._check_enum(prop, prop.enum, number, pointer)
        elif not in_range(prop, number):
            self.issues.add("VALUE_NOT_IN_RANGE", pointer=pointer, value=preview(number))
        elif prop.multiple_of is not None and number % prop.multiple_of:
            self.issues.add(
                "VALUE_MULTIPLE_OF",
                pointer=pointer,
                value=preview(number),
                divisor=prop.multiple_of,
            )

    def _check_enum(self, prop: Prop, allowed: tuple, value: object, pointer: str) -> None:
        if prop.extendable:
            key = pointer.rsplit("/", 1)[-1]
            extra = EXTENSION_VALUES.get(key, {})
            allowed += tuple(
                v for ext, values in extra.items() if ext in self.extensions_used for v in values
            )
        if value not in allowed:
            self.issues.add(
                "VALUE_NOT_IN_LIST",
                pointer=pointer,
                value=preview(value),
                allowed=", ".join(preview(v) for v in allowed),
            )

    def _check_object(self, prop: Prop, value: dict, pointer: str) -> None:
        if prop.schema is not None:
            self.check_object(prop.schema, value, pointer)

    def _check_objects(self, prop: Prop, value: list, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
            return
        bad = [item for item in value if not isinstance(item, dict)]
        for item in bad if not prop.reader else ():
            self.issues.add(
                "ARRAY_TYPE_MISMATCH", pointer=pointer, value=preview(item), expected="an object"
            )
        if not bad and prop.schema is not None:
            for index, item in enumerate(value):
                self.check_object(prop.schema, item, child(pointer, index))

    def _check_indices(self, prop: Prop, value: list, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
        seen: set[int] = set()
        for index, item in enumerate(value):
            number = as_integer(item)
            if number is None or number < 0:
                self.issues.add("INVALID_INDEX", pointer=child(pointer, index), value=preview(item))
            elif number in seen:
                self.issues.add("DUPLICATE_ELEMENTS", pointer=child(pointer, index), value=number)
            else:
                seen.add(number)

    def _check_numbers(self, prop: Prop, value: list, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
            return
        if prop.lengths is not None and len(value) not in prop.lengths:
            self.issues.add(
                "ARRAY_LENGTH_NOT_IN_LIST",
                pointer=pointer,
                length=len(value),
                allowed=", ".join(map(str, prop.lengths)),
            )
            return
        for index, item in enumerate(value):
            if not is_number(item):
                self.issues.add(
                    "ARRAY_TYPE_MISMATCH", pointer=pointer, value=preview(item), expected="a number"
                )
            elif not math.isfinite(item) or not in_range(prop, item):
                self.issues.add(
                    "VALUE_NOT_IN_RANGE", pointer=child(pointer, index), value=preview(item)
                )

    def _check_strings(self, prop: Prop, value: list, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
        seen: set[str] = set()
        for index, item in enumerate(value):
            if not isinstance(item, str):
                self.issues.add(
                    "ARRAY_TYPE_MISMATCH",
                    pointer=child(pointer, index),
                    value=preview(item),
                    expected="a string",
                )
            elif item in seen:
                self.issues.add(
                    "DUPLICATE_ELEMENTS", pointer=child(pointer, index), value=preview(item)
                )
            else:
                seen.add(item)

    def _check_index_map(self, prop: Prop, value: dict, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
        elif not prop.reader:
            self._check_map_values(value, pointer)

    def _check_index_maps(self, prop: Prop, value: list, pointer: str) -> None:
        if not value:
            self.issues.add("EMPTY_ENTITY", pointer=pointer)
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.issues.add(
                    "ARRAY_TYPE_MISMATCH",
                    pointer=pointer,
                    value=preview(item),
                    expected="an object",
                )
            elif not item:
                self.issues.add("EMPTY_ENTITY", pointer=child(pointer, index))
            else:
                self._check_map_values(item, child(pointer, index))

    def _check_map_values(self, value: dict, pointer: str) -> None:
        for key, item in value.items():
            number = as_integer(item)
            if number is None or number < 0:
                self.issues.add("INVALID_INDEX", pointer=child(pointer, key), value=preview(item))

    def _check_extensions(self, extensions: object, at: str, kind: str) -> None:
        """Check the ``extensions`` of an object of ``kind`` found at ``at``."""
        pointer = child(at, "extensions")
        if not isinstance(extensions, dict):
            self._mismatch(pointer, extensions, "an object")
            return
        for name, extension in extensions.items():
            if not isinstance(extension, dict):
                self._mismatch(child(pointer, name), extension, "an object")
            elif name in self.extensions_used and kind in EXTENSIONS.get(name, {}):
                walker = self
                if name in UNVALIDATED_BY_KHRONOS and not isinstance(self.issues, AdvisoryIssues):
                    walker = SchemaWalker(AdvisoryIssues(self.issues, name), self.extensions_used)
                walker.check_object(EXTENSIONS[name][kind], extension, child(pointer, name))

    def _mismatch(self, pointer: str, value: object, expected: str) -> None:
        self.issues.add("TYPE_MISMATCH", pointer=pointer, value=preview(value), expected=expected)


def _usable(value: object, prop: Prop) -> bool:
    if prop.kind == "index":
        if type(value) is int and 0 <= value <= LARGEST_EXACT:  # the common case, first
            return True
        number = as_integer(value)
        return number is not None and number >= 0
    if prop.kind == "numbers":
        return isinstance(value, list) and bool(value)
    return isinstance(value, str)


#: The JSON type of each kind of container property, and its full check (of a value of
#: that type).
_CONTAINERS: dict[str, tuple[type, Callable[[SchemaWalker, Prop, Any, str], None]]] = {
    "object": (dict, SchemaWalker._check_object),
    "index_map": (dict, SchemaWalker._check_index_map),
    "objects": (list, SchemaWalker._check_objects),
    "indices": (list, SchemaWalker._check_indices),
    "numbers": (list, SchemaWalker._check_numbers),
    "strings": (list, SchemaWalker._check_strings),
    "index_maps": (list, SchemaWalker._check_index_maps),
}
