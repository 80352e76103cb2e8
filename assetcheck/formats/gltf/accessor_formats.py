"""Accessor formats (type, component type, normalized) that each use of an accessor allows.

The tables are glTF 2.0's, widened by ``KHR_mesh_quantization`` when the asset uses it, as in
Khronos glTF-Validator.
"""

from __future__ import annotations

from typing import NamedTuple

from assetcheck.formats.gltf.accessor_data import COMPONENT_NAMES
from assetcheck.formats.gltf.fields import as_integer

BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, UNSIGNED_INT, FLOAT = 5120, 5121, 5122, 5123, 5125, 5126
MESH_QUANTIZATION = "KHR_mesh_quantization"


class AccessorFormat(NamedTuple):
    type: str | None
    component_type: int | None
    normalized: bool = False

    def __str__(self) -> str:
        name = str(self.component_type)
        if self.component_type is not None:
            name = COMPONENT_NAMES.get(self.component_type, name)
        return f"{{{self.type}, {name}{', normalized' if self.normalized else ''}}}"


def accessor_format(accessor: dict) -> AccessorFormat:
    """The format of an accessor's JSON; unusable fields become None, as in Khronos."""
    kind = accessor.get("type")
    component_type = as_integer(accessor.get("componentType"))
    return AccessorFormat(
        kind if isinstance(kind, str) else None,
        component_type if component_type in COMPONENT_NAMES else None,
        accessor.get("normalized") is True,
    )


def describe(formats: frozenset[AccessorFormat]) -> str:
    return ", ".join(sorted(map(str, formats)))


def _formats(kind: str, *components: int | tuple[int, bool]) -> frozenset[AccessorFormat]:
    return frozenset(
        AccessorFormat(kind, *(c if isinstance(c, tuple) else (c,))) for c in components
    )


def _n(component_type: int) -> tuple[int, bool]:
    return component_type, True


ATTRIBUTES = {
    "POSITION": _formats("VEC3", FLOAT),
    "NORMAL": _formats("VEC3", FLOAT),
    "TANGENT": _formats("VEC4", FLOAT),
    "TEXCOORD": _formats("VEC2", FLOAT, _n(UNSIGNED_BYTE), _n(UNSIGNED_SHORT)),
    "COLOR": (
        _formats("VEC3", FLOAT, _n(UNSIGNED_BYTE), _n(UNSIGNED_SHORT))
        | _formats("VEC4", FLOAT, _n(UNSIGNED_BYTE), _n(UNSIGNED_SHORT))
    ),
    "JOINTS": _formats("VEC4", UNSIGNED_BYTE, UNSIGNED_SHORT),
    "WEIGHTS": _formats("VEC4", FLOAT, _n(UNSIGNED_BYTE), _n(UNSIGNED_SHORT)),
}

_SIGNED_OR_NOT = (
    BYTE,
    _n(BYTE),
    UNSIGNED_BYTE,
    _n(UNSIGNED_BYTE),
    SHORT,
    _n(SHORT),
    UNSIGNED_SHORT,
    _n(UNSIGNED_SHORT),
)
QUANTIZED_ATTRIBUTES = {
    "POSITION": _formats("VEC3", *_SIGNED_OR_NOT),
    "NORMAL": _formats("VEC3", _n(BYTE), _n(SHORT)),
    "TANGENT": _formats("VEC4", _n(BYTE), _n(SHORT)),
    "TEXCOORD": _formats("VEC2", BYTE, _n(BYTE), UNSIGNED_BYTE, SHORT, _n(SHORT), UNSIGNED_SHORT),
}

_MORPH_COLORS = (FLOAT, _n(BYTE), _n(UNSIGNED_BYTE), _n(SHORT), _n(UNSIGNED_SHORT))
MORPH_ATTRIBUTES = {
    "POSITION": _formats("VEC3", FLOAT),
    "NORMAL": _formats("VEC3", FLOAT),
    "TANGENT": _formats("VEC3", FLOAT),
    "TEXCOORD": _formats("VEC2", *_MORPH_COLORS),
    "COLOR": _formats("VEC3", *_MORPH_COLORS) | _formats("VEC4", *_MORPH_COLORS),
}
QUANTIZED_MORPH_ATTRIBUTES = {
    "POSITION": _formats("VEC3", BYTE, _n(BYTE), SHORT, _n(SHORT)),
    "NORMAL": _formats("VEC3", _n(BYTE), _n(SHORT)),
    "TANGENT": _formats("VEC3", _n(BYTE), _n(SHORT)),
    "TEXCOORD": _formats("VEC2", BYTE, SHORT),
}

INDICES = _formats("SCALAR", UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT)
ANIMATION_INPUT = _formats("SCALAR", FLOAT)
_NORMALIZED_INTEGERS = (_n(UNSIGNED_BYTE), _n(BYTE), _n(UNSIGNED_SHORT), _n(SHORT))
ANIMATION_OUTPUTS = {
    "translation": _formats("VEC3", FLOAT),
    "rotation": _formats("VEC4", FLOAT, *_NORMALIZED_INTEGERS),
    "scale": _formats("VEC3", FLOAT),
    "weights": _formats("SCALAR", FLOAT, *_NORMALIZED_INTEGERS),
}
INVERSE_BIND_MATRICES = _formats("MAT4", FLOAT)


def attribute_formats(
    semantic: str,
    extensions: frozenset[str],
    *,
    morph: bool = False,
) -> frozenset[AccessorFormat] | None:
    """The formats an attribute (or morph target attribute) allows; None when any goes."""
    prefix = semantic.split("_")[0]
    base, quantized = (
        (MORPH_ATTRIBUTES, QUANTIZED_MORPH_ATTRIBUTES)
        if morph
        else (ATTRIBUTES, QUANTIZED_ATTRIBUTES)
    )
    if prefix not in base:
        return None
    if MESH_QUANTIZATION in extensions:
        return base[prefix] | quantized.get(prefix, frozenset())
    return base[prefix]
