"""Extension declarations and placement: ``extensionsUsed``, ``extensionsRequired`` and every
``extensions`` object of the document, as Khronos glTF-Validator checks them; the extensions
whose payloads AssetCheck decodes (Draco, meshopt) are not ``UNSUPPORTED_EXTENSION``, which
Khronos reports for them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.compression import DECODED_EXTENSIONS
from assetcheck.formats.gltf.fields import child, declared_names, extensions_used
from assetcheck.formats.gltf.links import (
    SUPPORTED_EXTENSIONS,
    collection,
    linked_extensions,
    texture_infos,
)
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

NAME_FORMAT = re.compile(r"^([A-Z0-9]+)_[A-Za-z0-9_]+$")
#: Extensions that must be listed in ``extensionsRequired`` whenever they are used.
MUST_BE_REQUIRED = frozenset({"KHR_mesh_quantization"})

#: Objects nested in objects of a collection: (kind, key) of single objects.
NESTED = {
    "accessor": (("accessor.sparse", "sparse"),),
    "camera": (("camera.orthographic", "orthographic"), ("camera.perspective", "perspective")),
    "material": (("material.pbrMetallicRoughness", "pbrMetallicRoughness"),),
}
#: Arrays of objects nested in objects of a collection: (kind, key).
NESTED_ARRAYS = {
    "animation": (("animation.channel", "channels"), ("animation.sampler", "samplers")),
    "mesh": (("mesh.primitive", "primitives"),),
}
KINDS = {
    "accessors": "accessor",
    "animations": "animation",
    "buffers": "buffer",
    "bufferViews": "bufferView",
    "cameras": "camera",
    "images": "image",
    "materials": "material",
    "meshes": "mesh",
    "nodes": "node",
    "samplers": "sampler",
    "scenes": "scene",
    "skins": "skin",
    "textures": "texture",
}

CODES = (
    "INVALID_EXTENSION_NAME_FORMAT",
    "UNSUPPORTED_EXTENSION",
    "NON_REQUIRED_EXTENSION",
    "UNUSED_EXTENSION_REQUIRED",
    "UNDECLARED_EXTENSION",
    "UNEXPECTED_EXTENSION_OBJECT",
)


#: Where an object is: a JSON Pointer and the keys below it (:func:`pointer_of` joins them),
#: so that only the pointers of objects with extensions are ever built.
Path = tuple[str | int, ...]


def extensible_objects(document: dict[str, Any]) -> Iterator[tuple[str, Path, dict]]:
    """Every object of the document that may carry ``extensions``: ``(kind, path, object)``."""
    yield "glTF", ("",), document
    if isinstance(document.get("asset"), dict):
        yield "asset", ("", "asset"), document["asset"]
    linked = linked_extensions(document)
    for name, kind in KINDS.items():
        for index, item in enumerate(collection(document, name)):
            if item is not None:
                yield from _object_tree(kind, (f"/{name}", index), item, linked)


def pointer_of(path: Path) -> str:
    """The JSON Pointer of the object at ``path``."""
    pointer = str(path[0])
    for key in path[1:]:
        pointer = child(pointer, key)
    return pointer


def _object_tree(
    kind: str,
    at: Path,
    item: dict,
    linked: frozenset[str],
) -> Iterator[tuple[str, Path, dict]]:
    yield kind, at, item
    for nested_kind, key in NESTED.get(kind, ()):
        if isinstance(item.get(key), dict):
            yield from _object_tree(nested_kind, (*at, key), item[key], linked)
    for nested_kind, key in NESTED_ARRAYS.get(kind, ()):
        values = item.get(key)
        for number, value in enumerate(values if isinstance(values, list) else ()):
            if isinstance(value, dict):
                yield from _object_tree(nested_kind, (*at, key, number), value, linked)
    if kind == "accessor.sparse":
        for key in ("indices", "values"):
            if isinstance(item.get(key), dict):
                yield f"accessor.sparse.{key}", (*at, key), item[key]
    elif kind == "animation.channel" and isinstance(item.get("target"), dict):
        yield "animation.channel.target", (*at, "target"), item["target"]
    elif kind == "material":
        for pointer, _, info in texture_infos(item, pointer_of(at), linked):
            yield "textureInfo", (pointer,), info


def _check_declarations(document: dict[str, Any], issues: FileIssues) -> None:
    used = declared_names(document, "extensionsUsed")
    required = declared_names(document, "extensionsRequired")
    for index, name in enumerate(used):
        if not isinstance(name, str):
            continue
        pointer = child("/extensionsUsed", index)
        if not NAME_FORMAT.match(name):
            issues.add("INVALID_EXTENSION_NAME_FORMAT", pointer=pointer, name=name)
        if name not in SUPPORTED_EXTENSIONS and name not in DECODED_EXTENSIONS:
            issues.add("UNSUPPORTED_EXTENSION", pointer=pointer, name=name)
        elif name in MUST_BE_REQUIRED and name not in required:
            issues.add("NON_REQUIRED_EXTENSION", pointer=pointer, name=name)
    for index, name in enumerate(required):
        if isinstance(name, str) and name not in used:
            issues.add(
                "UNUSED_EXTENSION_REQUIRED", pointer=child("/extensionsRequired", index), name=name
            )


def check_extensions(asset: Asset, context: CheckContext) -> None:
    document = asset.document
    if document is None:
        return
    _check_declarations(document, context.issues)
    declared, linked = extensions_used(document), linked_extensions(document)
    for kind, at, item in extensible_objects(document):
        extensions = item.get("extensions")
        if not isinstance(extensions, dict) or not extensions:
            continue
        within = child(pointer_of(at), "extensions")
        for name in extensions:
            pointer = child(within, name)
            if name not in linked:
                if name not in declared:
                    context.issues.add("UNDECLARED_EXTENSION", pointer=pointer, name=name)
            elif kind not in SUPPORTED_EXTENSIONS[name]:
                context.issues.add("UNEXPECTED_EXTENSION_OBJECT", pointer=pointer, name=name)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-extensions",
            "Extension names, extensionsUsed and extensionsRequired, "
            "and where each extension object may appear.",
            check_extensions,
            CODES,
            GLTF_FORMATS,
        )
    ]
