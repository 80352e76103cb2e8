"""The schema check: types, required properties, value ranges and enumerations of every object.

It walks the document with the tables of :mod:`assetcheck.formats.gltf.schema_tables` and
reports what Khronos glTF-Validator's JSON getters report, with the same codes and pointers:
``TYPE_MISMATCH``, ``UNDEFINED_PROPERTY``, ``VALUE_NOT_IN_RANGE``, ``VALUE_NOT_IN_LIST``,
``UNEXPECTED_PROPERTY`` and the rest. Properties the reader owns are left to it. Extension
objects are checked against :mod:`assetcheck.formats.gltf.extension_schemas` where they belong;
the findings in extensions Khronos does not validate become ``EXTENSION_SCHEMA_MISMATCH``
warnings (see :class:`AdvisoryIssues`).
"""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import (
    extensions_used,
)
from assetcheck.formats.gltf.schema import (
    SchemaWalker,
)
from assetcheck.plugins.hookspecs import hookimpl

CODES = (
    "TYPE_MISMATCH",
    "ARRAY_TYPE_MISMATCH",
    "UNDEFINED_PROPERTY",
    "INVALID_INDEX",
    "VALUE_NOT_IN_RANGE",
    "VALUE_NOT_IN_LIST",
    "PATTERN_MISMATCH",
    "UNEXPECTED_PROPERTY",
    "EMPTY_ENTITY",
    "DUPLICATE_ELEMENTS",
    "ARRAY_LENGTH_NOT_IN_LIST",
    "NON_OBJECT_EXTRAS",
    "UNSATISFIED_DEPENDENCY",
    "ASSET_MIN_VERSION_GREATER_THAN_VERSION",
    "EXTENSION_SCHEMA_MISMATCH",
)


def check_schema(asset: Asset, context: CheckContext) -> None:
    if asset.document is not None:
        SchemaWalker(context.issues, extensions_used(asset.document)).check_document(asset.document)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-schema",
            "Types, required properties and value ranges of every glTF "
            "object, as in the glTF 2.0 JSON schema.",
            check_schema,
            CODES,
            GLTF_FORMATS,
        )
    ]
