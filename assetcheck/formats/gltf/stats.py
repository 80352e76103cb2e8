"""Counting a glTF 2.0 document the way Khronos glTF-Validator counts it.

Khronos sums over ``meshes`` (not over node instances), per primitive:

- vertices: the ``count`` of the first attribute accessor (in JSON order) that resolves and has
  a valid count; a primitive with none adds nothing;
- elements: the indices accessor's ``count`` when ``indices`` resolves (an invalid count then
  gives 0 triangles), else the vertex count;
- triangles: ``elements // 3`` for TRIANGLES (4), ``elements - 2`` for strips and fans (5, 6),
  0 for points and lines, and 0 when ``mode`` is unusable. A missing or null mode is TRIANGLES.

``materialCount`` and ``animationCount`` are the lengths of those arrays, malformed elements
included. Only accessor ``count`` fields are read, never accessor data.
"""

from __future__ import annotations

import math

from assetcheck.asset import Animation, Material, MeshPart
from assetcheck.formats.gltf.fields import FieldReader, as_integer, child
from assetcheck.formats.gltf.layout import Accessors

TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = 4, 5, 6
MAX_MODE = TRIANGLE_FAN

SPECULAR_GLOSSINESS = "KHR_materials_pbrSpecularGlossiness"
UNLIT = "KHR_materials_unlit"


def triangle_count(mode: int | None, elements: int | None) -> int:
    """Triangles drawn from ``elements`` vertices or indices in ``mode`` (Khronos' rule)."""
    if elements is None:
        return 0
    if mode == TRIANGLES:
        return elements // 3
    if mode in (TRIANGLE_STRIP, TRIANGLE_FAN):
        return max(elements - 2, 0)
    return 0


def count_meshes(
    meshes: list[dict | None],
    accessors: Accessors,
    materials: list[dict | None],
    fields: FieldReader,
) -> list[MeshPart]:
    """One :class:`MeshPart` per mesh object, with counts summed over its primitives."""
    parts = []
    for index, mesh in enumerate(meshes):
        if mesh is None:
            continue
        at = child("/meshes", index)
        vertices = triangles = 0
        used_materials: set[int] = set()
        primitives = fields.object_list(mesh, "primitives", at, required=True) or []
        for number, primitive in enumerate(primitives):
            primitive_at = child(child(at, "primitives"), number)
            primitive_vertices, primitive_triangles = _count_primitive(
                primitive, primitive_at, accessors, fields
            )
            vertices += primitive_vertices
            triangles += primitive_triangles
            material = fields.index(primitive, "material", primitive_at)
            if fields.resolves(material, materials, "materials", child(primitive_at, "material")):
                used_materials.add(material)
        parts.append(
            MeshPart(
                name=display_name(mesh, "mesh", index),
                vertex_count=vertices,
                triangle_count=triangles,
                material_count=len(used_materials),
            )
        )
    return parts


def _count_primitive(
    primitive: dict,
    at: str,
    accessors: Accessors,
    fields: FieldReader,
) -> tuple[int, int]:
    vertices: int | None = None
    attributes = fields.object(primitive, "attributes", at, required=True) or {}
    attributes_at = child(at, "attributes")
    for semantic, index in fields.index_map(attributes, attributes_at):
        resolved = fields.resolves(
            index, accessors.items, "accessors", child(attributes_at, semantic)
        )
        if resolved and vertices is None:
            vertices = accessors.counts[index]
    elements = vertices
    indices = fields.index(primitive, "indices", at)
    if fields.resolves(indices, accessors.items, "accessors", child(at, "indices")):
        elements = accessors.counts[indices]
    mode = fields.integer(primitive, "mode", at, default=TRIANGLES, minimum=0, maximum=MAX_MODE)
    return vertices or 0, triangle_count(mode, elements)


def read_materials(materials: list[dict | None]) -> list[Material]:
    """A :class:`Material` per material object, with its shading model and texture slots.

    Unlit (``KHR_materials_unlit``) is not PBR; specular-glossiness is; every other glTF 2.0
    material is metallic-roughness, the core PBR model, whether or not it spells it out.
    """
    result = []
    for index, material in enumerate(materials):
        if material is None:
            continue
        extensions = material.get("extensions")
        extensions = extensions if isinstance(extensions, dict) else {}
        if UNLIT in extensions:
            shading, pbr = "unlit", False
        elif SPECULAR_GLOSSINESS in extensions:
            shading, pbr = "specularGlossiness", True
        else:
            shading, pbr = "metallicRoughness", True
        result.append(
            Material(
                name=display_name(material, "material", index),
                shading=shading,
                pbr=pbr,
                texture_count=_texture_slots(material),
            )
        )
    return result


def read_animations(animations: list[dict | None], accessors: Accessors) -> list[Animation]:
    """An :class:`Animation` per animation object.

    The duration is the largest ``max`` declared by the samplers' input (time) accessors: a JSON
    field, so no keyframe data is read.
    """
    result = []
    for index, animation in enumerate(animations):
        if animation is None:
            continue
        channels = animation.get("channels")
        samplers = animation.get("samplers")
        result.append(
            Animation(
                name=display_name(animation, "animation", index),
                channel_count=len(channels) if isinstance(channels, list) else 0,
                duration=_duration(samplers if isinstance(samplers, list) else [], accessors),
            )
        )
    return result


def _duration(samplers: list, accessors: Accessors) -> float:
    duration = 0.0
    for sampler in samplers:
        index = as_integer(sampler.get("input")) if isinstance(sampler, dict) else None
        if index is None or not 0 <= index < len(accessors.items):
            continue
        accessor = accessors.items[index]
        maximum = accessor.get("max") if accessor is not None else None
        end = _seconds(maximum[0]) if isinstance(maximum, list) and maximum else None
        if end is not None:
            duration = max(duration, end)
    return duration


def _texture_slots(material: dict) -> int:
    """Texture references (``*Texture`` objects with an ``index``), extensions included."""
    slots = 0
    stack: list[object] = [material]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key.endswith("Texture") and isinstance(item, dict) and "index" in item:
                    slots += 1
                elif isinstance(item, dict | list) and key != "extras":
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
    return slots


def _seconds(value: object) -> float | None:
    """``value`` as a finite float, or None (JSON allows numbers too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        seconds = float(value)
    except OverflowError:
        return None
    return seconds if math.isfinite(seconds) else None


def display_name(item: dict, kind: str, index: int) -> str:
    """The object's ``name`` when it has a usable one, else ``"<kind> <index>"``."""
    name = item.get("name")
    return name if isinstance(name, str) and name else f"{kind} {index}"
