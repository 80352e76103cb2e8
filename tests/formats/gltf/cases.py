"""Crafted glTF files, each broken in one way: the golden cases of ``tests/assets/gltf``.

Every case starts from a valid asset (a triangle with normals, indices, a node and a scene;
``skinned`` and ``animated`` add a skin or an animation) and breaks it so that one Khronos
glTF-Validator code fires. ``python -m pytest tests/formats/gltf --update-golden`` writes each case
to ``tests/assets/gltf/<name>.gltf`` (or ``.glb``) with its report; the same files feed
``bench/compare_khronos.py``. Cases about extensions are in
:mod:`tests.formats.gltf.extension_cases`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from assetcheck.testing.gltf import ARRAY_BUFFER, GltfBuilder, Primitive, data_uri, png_bytes

Document = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """A crafted file: a base asset, a change, and whether it is written as GLB."""

    base: str
    change: Callable[[GltfBuilder, Document], None]
    glb: bool = False

    def build(self) -> bytes:
        builder = BASES[self.base]()
        self.change(builder, builder.document)
        return builder.glb() if self.glb else builder.embedded_gltf()


def triangle() -> GltfBuilder:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    return builder


def skinned() -> GltfBuilder:
    """A triangle skinned to one joint node; both nodes are roots of the scene."""
    builder = triangle()
    primitive = builder.document["meshes"][0]["primitives"][0]
    primitive["attributes"]["JOINTS_0"] = builder.add_accessor(
        np.zeros((3, 4), np.uint16), "VEC4", target=ARRAY_BUFFER
    )
    primitive["attributes"]["WEIGHTS_0"] = builder.add_accessor(
        np.tile(np.array([1, 0, 0, 0], np.float32), (3, 1)), "VEC4", target=ARRAY_BUFFER
    )
    joint = builder.add_node(name="joint")
    matrices = builder.add_accessor(np.identity(4, np.float32).reshape(1, 16), "MAT4")
    builder.document["skins"] = [{"joints": [joint], "inverseBindMatrices": matrices}]
    builder.document["nodes"][0]["skin"] = 0
    return builder


def animated() -> GltfBuilder:
    """A triangle and a node moved along two edges of a square (three keys, none redundant)."""
    builder = triangle()
    builder.add_animation(keyframes=3, translations=np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0]]))
    return builder


BASES = {"triangle": triangle, "skinned": skinned, "animated": animated}


def accessor(builder: GltfBuilder, values: np.ndarray, kind: str, **fields: Any) -> int:
    """A new accessor over ``values`` with extra JSON ``fields``."""
    index = builder.add_accessor(values, kind, target=ARRAY_BUFFER)
    builder.document["accessors"][index].update(fields)
    return index


def attributes(document: Document) -> dict:
    return document["meshes"][0]["primitives"][0]["attributes"]


def primitive(document: Document) -> dict:
    return document["meshes"][0]["primitives"][0]


def _set(path: str, value: Any) -> Callable[[GltfBuilder, Document], None]:
    """A change that sets the value at a slash-separated path (``nodes/0/mesh``)."""

    def change(builder: GltfBuilder, document: Document) -> None:
        *parents, last = path.split("/")
        target: Any = document
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target.setdefault(key, {})
        target[int(last) if isinstance(target, list) else last] = value

    return change


def _do(
    *changes: Callable[[GltfBuilder, Document], None],
) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        for step in changes:
            step(builder, document)

    return change


def _extra_node(**fields: Any) -> Callable[[GltfBuilder, Document], None]:
    return lambda b, d: d["nodes"].append(dict(fields))


def _positions(values: list[list[float]], **fields: Any) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        array = np.array(values, np.float32)
        attributes(document)["POSITION"] = accessor(
            builder,
            array,
            "VEC3",
            min=np.nanmin(array, axis=0).tolist(),
            max=np.nanmax(array, axis=0).tolist(),
            **fields,
        )

    return change


def _attribute(
    name: str,
    values: np.ndarray,
    kind: str,
    **fields: Any,
) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        attributes(document)[name] = accessor(builder, values, kind, **fields)

    return change


def _indices(values: list[int], dtype: type = np.uint16) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        index = builder.add_accessor(np.array(values, dtype), "SCALAR", target=34963)
        primitive(document)["indices"] = index

    return change


def _image(data: bytes, **fields: Any) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        image = builder.add_image(data)
        document["images"][image].update(fields)
        texture = builder.add_texture(image)
        material = builder.add_material(base_color_texture=texture)
        primitive(document)["material"] = material
        attributes(document)["TEXCOORD_0"] = accessor(builder, np.zeros((3, 2), np.float32), "VEC2")

    return change


#: A 1 x 1 lossless WebP image.
WEBP = (
    b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11"
    b"\x88\x88\xfe\x07\x00"
)


def _png_with_ihdr_length(length: int) -> bytes:
    """A PNG whose IHDR chunk declares ``length`` bytes instead of 13."""
    data = bytearray(png_bytes())
    data[8:12] = struct.pack(">I", length)
    return bytes(data)


def _png_with_gamma(gamma: int) -> bytes:
    """A PNG with a gAMA chunk (gamma times 100,000) after its header."""
    data = png_bytes()
    end_of_header = 8 + 12 + 13
    body = b"gAMA" + struct.pack(">I", gamma)
    chunk = struct.pack(">I", 4) + body + struct.pack(">I", zlib.crc32(body))
    return data[:end_of_header] + chunk + data[end_of_header:]


def _weights(values: list[list[float]]) -> Callable[[GltfBuilder, Document], None]:
    return _attribute("WEIGHTS_0", np.array(values, np.float32), "VEC4")


def _joints(values: list[list[int]]) -> Callable[[GltfBuilder, Document], None]:
    return _attribute("JOINTS_0", np.array(values, np.uint16), "VEC4")


def _sparse(count: int, indices: list[int]) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        index_view = builder.add_buffer_view(np.array(indices, np.uint16).tobytes())
        value_view = builder.add_buffer_view(np.zeros((len(indices), 3), np.float32).tobytes())
        document["accessors"].append(
            {
                "componentType": 5126,
                "count": count,
                "type": "VEC3",
                "sparse": {
                    "count": len(indices),
                    "indices": {"bufferView": index_view, "componentType": 5123},
                    "values": {"bufferView": value_view},
                },
            }
        )
        document["meshes"][0]["primitives"][0]["targets"] = [
            {"POSITION": len(document["accessors"]) - 1}
        ]
        document["meshes"][0]["weights"] = [0.5]

    return change


def _channel(path: str, node: int = 0, **sampler: Any) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        animation = document["animations"][0]
        animation["channels"][0]["target"] = {"node": node, "path": path}
        animation["samplers"][0].update(sampler)

    return change


def _sampler_accessor(
    key: str,
    values: np.ndarray,
    kind: str,
    **fields: Any,
) -> Callable[[GltfBuilder, Document], None]:
    def change(builder: GltfBuilder, document: Document) -> None:
        index = builder.add_accessor(values, kind)
        document["accessors"][index].update(fields)
        document["animations"][0]["samplers"][0][key] = index

    return change


def _times(values: list[float]) -> Callable[[GltfBuilder, Document], None]:
    times = np.array(values, np.float32)
    return _sampler_accessor(
        "input", times, "SCALAR", min=[float(times.min())], max=[float(times.max())]
    )


QUARTER_TURN = [0.0, 0.0, 0.7071068, 0.7071068]

I3 = np.identity(3, np.float32)
ZERO3 = np.zeros((3, 3), np.float32)

CASES: dict[str, Case] = {
    # Schema.
    "type_mismatch": Case("triangle", _set("nodes/0/mesh", "0")),
    "array_type_mismatch": Case("triangle", _set("nodes/0/translation", [0, "1", 0])),
    "undefined_property": Case("triangle", _set("skins", [{}])),
    "invalid_index": Case("triangle", _set("scenes/0/nodes", [-1])),
    "value_not_in_range": Case(
        "triangle", _set("materials", [{"pbrMetallicRoughness": {"metallicFactor": 2}}])
    ),
    "value_not_in_list": Case("triangle", _set("samplers", [{"magFilter": 1}])),
    "pattern_mismatch": Case("triangle", _set("asset/minVersion", "2")),
    "unexpected_property": Case("triangle", _set("nodes/0/color", "red")),
    "empty_entity": Case("triangle", _set("nodes/0/children", [])),
    "duplicate_elements": Case("triangle", _do(_extra_node(), _set("nodes/0/children", [1, 1]))),
    "array_length_not_in_list": Case("triangle", _set("nodes/0/scale", [1, 1])),
    "non_object_extras": Case("triangle", _set("nodes/0/extras", 5)),
    "unsatisfied_dependency": Case(
        "triangle", _do(_extra_node(skin=0), _set("scenes/0/nodes", [0, 1]))
    ),
    "one_of_mismatch": Case(
        "triangle",
        _set(
            "cameras",
            [
                {
                    "type": "perspective",
                    "perspective": {"yfov": 1, "znear": 0.1},
                    "orthographic": {"xmag": 1, "ymag": 1, "zfar": 10, "znear": 0},
                }
            ],
        ),
    ),
    "invalid_gl_value": Case("triangle", _set("accessors/2/min", [-1])),
    "asset_min_version_greater_than_version": Case("triangle", _set("asset/minVersion", "2.1")),
    "uri_glb": Case(
        "triangle",
        _do(_image(png_bytes()), _set("images/0", {"uri": data_uri(png_bytes(), "image/png")})),
        glb=True,
    ),
    "unresolved_reference": Case("triangle", _set("nodes/0/camera", 3)),
    # Buffer views and accessor layouts.
    "buffer_view_too_big_byte_stride": Case("triangle", _set("bufferViews/1/byteStride", 48)),
    "value_multiple_of": Case("triangle", _set("bufferViews/0/byteStride", 14)),
    "buffer_view_invalid_byte_stride": Case("triangle", _set("bufferViews/2/byteStride", 4)),
    "buffer_view_target_override": Case("triangle", _set("accessors/2/bufferView", 0)),
    "buffer_view_target_missing": Case("triangle", lambda b, d: d["bufferViews"][2].pop("target")),
    "accessor_usage_override": Case("animated", _set("animations/0/samplers/0/output", 0)),
    "accessor_small_bytestride": Case("triangle", _set("bufferViews/1/byteStride", 8)),
    "accessor_offset_alignment": Case(
        "triangle", _do(_set("accessors/1/byteOffset", 2), _set("accessors/1/count", 2))
    ),
    "accessor_total_offset_alignment": Case(
        "triangle",
        _do(
            _set("bufferViews/1/byteOffset", 38),
            _set("bufferViews/1/byteLength", 32),
            _set("accessors/1/count", 2),
        ),
    ),
    "accessor_matrix_alignment": Case("skinned", _set("accessors/5/byteOffset", 2)),
    "accessor_normalized_invalid": Case("triangle", _set("accessors/1/normalized", True)),
    "accessor_sparse_count_out_of_range": Case("triangle", _sparse(1, [0, 1])),
    "accessor_too_long": Case("triangle", _set("accessors/1/byteOffset", 8)),
    # Accessor data.
    "accessor_min_mismatch": Case("triangle", _set("accessors/0/min", [-1, 0, 0])),
    "accessor_max_mismatch": Case("triangle", _set("accessors/0/max", [5, 0, 0])),
    "accessor_element_out_of_max_bound": Case("triangle", _set("accessors/0/max", [1, 0, 0])),
    "accessor_element_out_of_min_bound": Case("triangle", _set("accessors/0/min", [1, 0, 0])),
    "accessor_invalid_float": Case(
        "triangle",
        _positions(
            [[0, 0, 0], [1, 0, 0], [0, np.nan, 0]],
        ),
    ),
    "accessor_sparse_indices_non_increasing": Case("triangle", _sparse(3, [2, 1])),
    "accessor_sparse_index_oob": Case("triangle", _sparse(3, [0, 5])),
    # Meshes.
    "mesh_primitive_invalid_attribute": Case(
        "triangle", _attribute("TEXCOORD_A", np.zeros((3, 2), np.float32), "VEC2")
    ),
    "mesh_primitive_no_position": Case("triangle", lambda b, d: attributes(d).pop("POSITION")),
    "mesh_primitive_tangent_without_normal": Case(
        "triangle",
        _do(
            lambda b, d: attributes(d).pop("NORMAL"),
            _attribute("TANGENT", np.tile(np.float32([1, 0, 0, 1]), (3, 1)), "VEC4"),
        ),
    ),
    "mesh_primitive_indexed_semantic_continuity": Case(
        "triangle", _attribute("TEXCOORD_1", np.zeros((3, 2), np.float32), "VEC2")
    ),
    "mesh_primitive_joints_weights_mismatch": Case(
        "triangle", _attribute("JOINTS_0", np.zeros((3, 4), np.uint16), "VEC4")
    ),
    "mesh_primitive_position_accessor_without_bounds": Case(
        "triangle", lambda b, d: d["accessors"][0].pop("max")
    ),
    "mesh_primitive_attributes_accessor_invalid_format": Case(
        "triangle", _attribute("NORMAL", np.zeros((3, 3), np.uint16), "VEC3")
    ),
    "mesh_primitive_attributes_accessor_unsigned_int": Case(
        "triangle", _attribute("_CUSTOM", np.zeros(3, np.uint32), "SCALAR")
    ),
    "mesh_primitive_accessor_unaligned": Case(
        "triangle",
        _do(_set("accessors/1/componentType", 5120), _set("accessors/1/normalized", True)),
    ),
    "mesh_primitive_unequal_accessor_count": Case("triangle", _set("accessors/1/count", 2)),
    "mesh_primitive_accessor_without_bytestride": Case(
        "triangle", _set("accessors/1/bufferView", 0)
    ),
    "mesh_primitive_indices_accessor_with_bytestride": Case(
        "triangle",
        _do(
            lambda b, d: d["bufferViews"][2].pop("target"),
            _set("bufferViews/2/byteStride", 4),
            _set("bufferViews/2/byteLength", 8),
        ),
    ),
    "mesh_primitive_indices_accessor_invalid_format": Case(
        "triangle", _set("accessors/2/componentType", 5122)
    ),
    "mesh_primitive_incompatible_mode": Case("triangle", _set("meshes/0/primitives/0/mode", 1)),
    "mesh_primitive_too_few_texcoords": Case(
        "triangle", _do(_image(png_bytes()), lambda b, d: attributes(d).pop("TEXCOORD_0"))
    ),
    "mesh_primitive_generated_tangent_space": Case(
        "triangle", _do(_image(png_bytes()), _set("materials/0/normalTexture", {"index": 0}))
    ),
    "mesh_primitive_no_tangent_space": Case(
        "triangle",
        _do(
            _image(png_bytes()),
            _set("extensionsUsed", ["KHR_materials_clearcoat"]),
            _set(
                "materials/0/extensions",
                {"KHR_materials_clearcoat": {"clearcoatNormalTexture": {"index": 0}}},
            ),
        ),
    ),
    "mesh_primitive_morph_target_no_base_accessor": Case(
        "triangle", _do(_set("meshes/0/primitives/0/targets", [{"TEXCOORD_0": 1}]))
    ),
    "mesh_primitive_morph_target_invalid_attribute_count": Case(
        "triangle",
        _do(
            _attribute("_TARGET", np.zeros((2, 3), np.float32), "VEC3"),
            lambda b, d: primitive(d).update(targets=[{"NORMAL": attributes(d).pop("_TARGET")}]),
        ),
    ),
    "mesh_primitives_unequal_targets_count": Case(
        "triangle",
        lambda b, d: d["meshes"][0]["primitives"].append(
            {**primitive(d), "targets": [{"NORMAL": 1}]}
        ),
    ),
    "mesh_invalid_weights_count": Case("triangle", _set("meshes/0/weights", [1.0])),
    "unused_mesh_tangent": Case(
        "triangle", _attribute("TANGENT", np.tile(np.float32([1, 0, 0, 1]), (3, 1)), "VEC4")
    ),
    # Vertex data.
    "accessor_vector3_non_unit": Case("triangle", _attribute("NORMAL", ZERO3, "VEC3")),
    "accessor_invalid_sign": Case(
        "triangle", _attribute("TANGENT", np.tile(np.float32([1, 0, 0, 0.5]), (3, 1)), "VEC4")
    ),
    "accessor_non_clamped": Case("triangle", _attribute("COLOR_0", I3 * 2, "VEC3")),
    "accessor_index_oob": Case("triangle", _indices([0, 1, 3])),
    "accessor_index_primitive_restart": Case("triangle", _indices([0, 1, 65535])),
    "accessor_index_triangle_degenerate": Case("triangle", _indices([0, 1, 1])),
    # Nodes and scenes.
    "node_loop": Case("triangle", _do(_extra_node(children=[0]), _set("nodes/0/children", [1]))),
    "node_parent_override": Case(
        "triangle", _do(_extra_node(), _extra_node(children=[1]), _set("nodes/0/children", [1]))
    ),
    "scene_non_root_node": Case(
        "triangle", _do(_extra_node(children=[0]), _set("scenes/0/nodes", [0, 1]))
    ),
    "node_matrix_trs": Case(
        "triangle",
        _do(
            _set("nodes/0/matrix", [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]),
            _set("nodes/0/scale", [1, 1, 1]),
        ),
    ),
    "node_matrix_default": Case(
        "triangle", _set("nodes/0/matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    ),
    "node_matrix_non_trs": Case(
        "triangle", _set("nodes/0/matrix", [1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    ),
    "rotation_non_unit": Case("triangle", _set("nodes/0/rotation", [0, 0, 0, 0.5])),
    "node_empty": Case("triangle", _do(_extra_node(), _set("scenes/0/nodes", [0, 1]))),
    "node_skinned_mesh_without_skin": Case("skinned", lambda b, d: d["nodes"][0].pop("skin")),
    "node_skin_with_non_skinned_mesh": Case(
        "skinned", lambda b, d: [attributes(d).pop(k) for k in ("JOINTS_0", "WEIGHTS_0")]
    ),
    "node_weights_invalid": Case("triangle", _set("nodes/0/weights", [1.0])),
    "node_skinned_mesh_local_transforms": Case("skinned", _set("nodes/0/translation", [1, 0, 0])),
    "node_skinned_mesh_non_root": Case(
        "skinned", _do(_extra_node(children=[0]), _set("scenes/0/nodes", [2, 1]))
    ),
    "node_skin_no_scene": Case(
        "skinned", _do(_set("scenes/0/nodes", [0]), lambda b, d: d["scenes"].append({"nodes": [1]}))
    ),
    # Skins.
    "skin_no_common_root": Case(
        "skinned",
        _do(
            _extra_node(),
            _set("skins/0/joints", [1, 2]),
            _set("scenes/0/nodes", [0, 1, 2]),
            _set("accessors/5/count", 1),
        ),
    ),
    "skin_skeleton_invalid": Case(
        "skinned",
        _do(_extra_node(children=[1]), _set("scenes/0/nodes", [0, 2]), _set("skins/0/skeleton", 0)),
    ),
    "skin_ibm_accessor_with_bytestride": Case("skinned", _set("bufferViews/5/byteStride", 64)),
    "skin_ibm_invalid_format": Case("skinned", _set("accessors/5/type", "VEC4")),
    "invalid_ibm_accessor_count": Case(
        "skinned", _do(_extra_node(), _set("skins/0/joints", [1, 2]), _set("nodes/1/children", [2]))
    ),
    "accessor_invalid_ibm": Case(
        "skinned",
        lambda b, d: d["accessors"][5].update(
            bufferView=b.add_buffer_view(np.full(16, 2, np.float32).tobytes())
        ),
    ),
    "accessor_joints_index_oob": Case("skinned", _joints([[1, 0, 0, 0]] * 3)),
    "accessor_joints_index_duplicate": Case(
        "skinned", _do(_joints([[0, 0, 0, 0]] * 3), _weights([[0.5, 0.5, 0, 0]] * 3))
    ),
    "accessor_joints_used_zero_weight": Case(
        "skinned",
        _do(
            _extra_node(),
            _set("skins/0/joints", [1, 2]),
            _set("nodes/1/children", [2]),
            _set("accessors/5/count", 1),
            _joints([[0, 1, 0, 0]] * 3),
        ),
    ),
    "accessor_weights_negative": Case("skinned", _weights([[1.5, -0.5, 0, 0]] * 3)),
    "accessor_weights_non_normalized": Case("skinned", _weights([[0.5, 0, 0, 0]] * 3)),
    # Animations.
    "animation_sampler_accessor_with_bytestride": Case(
        "animated", _set("bufferViews/4/byteStride", 12)
    ),
    "animation_sampler_input_accessor_invalid_format": Case(
        "animated",
        _sampler_accessor("input", np.arange(3, dtype=np.uint16), "SCALAR", min=[0], max=[2]),
    ),
    "animation_sampler_input_accessor_without_bounds": Case(
        "animated", lambda b, d: d["accessors"][3].pop("min")
    ),
    "animation_sampler_input_accessor_too_few_elements": Case(
        "animated",
        _do(
            _times([0.0]),
            _sampler_accessor("output", np.zeros((3, 3), np.float32), "VEC3"),
            _set("animations/0/samplers/0/interpolation", "CUBICSPLINE"),
        ),
    ),
    "animation_sampler_output_accessor_invalid_format": Case(
        "animated", _channel("scale", output=2)
    ),
    "animation_sampler_output_accessor_invalid_count": Case("animated", _times([0, 1])),
    "animation_channel_target_node_matrix": Case(
        "animated", _set("nodes/1/matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1])
    ),
    "animation_channel_target_node_skin": Case(
        "skinned", _do(lambda b, d: b.add_animation(keyframes=2), _channel("translation", node=0))
    ),
    "animation_channel_target_node_weights_no_morphs": Case(
        "animated", _do(_channel("weights", node=0))
    ),
    "animation_duplicate_targets": Case(
        "animated",
        lambda b, d: d["animations"][0]["channels"].append(dict(d["animations"][0]["channels"][0])),
    ),
    "accessor_animation_input_negative": Case("animated", _times([-1, 0, 1])),
    "accessor_animation_input_non_increasing": Case("animated", _times([0, 1, 1])),
    "accessor_animation_sampler_output_non_normalized_quaternion": Case(
        "animated",
        _do(
            _sampler_accessor("output", np.zeros((3, 4), np.float32), "VEC4"), _channel("rotation")
        ),
    ),
    # Animation content: AssetCheck's own rules (docs/animations.md).
    "animation_channel_constant": Case(
        "animated", _sampler_accessor("output", np.tile(np.float32([1, 2, 3]), (3, 1)), "VEC3")
    ),
    "animation_redundant_keys": Case(
        "animated",
        _sampler_accessor("output", np.float32([[0, 0, 0], [0.5, 0.5, 0], [1, 1, 0]]), "VEC3"),
    ),
    "animation_rotation_hemisphere_flip": Case(
        "animated",
        _do(
            _sampler_accessor(
                "output",
                np.float32([[0, 0, 0, 1], [-x for x in QUARTER_TURN], QUARTER_TURN]),
                "VEC4",
            ),
            _channel("rotation"),
        ),
    ),
    "animation_zero_length": Case(
        "animated", _do(_times([0.5]), _sampler_accessor("output", np.float32([[1, 0, 0]]), "VEC3"))
    ),
    "animation_target_not_in_scene": Case(
        "animated", _do(_extra_node(name="hidden"), _channel("translation", node=2))
    ),
    # Cameras and materials.
    "camera_zfar_lequal_znear": Case(
        "triangle",
        _set(
            "cameras",
            [{"type": "perspective", "perspective": {"yfov": 1, "znear": 1, "zfar": 0.5}}],
        ),
    ),
    "camera_xmag_ymag_zero": Case(
        "triangle",
        _set(
            "cameras",
            [
                {
                    "type": "orthographic",
                    "orthographic": {"xmag": 0, "ymag": 1, "zfar": 10, "znear": 0},
                }
            ],
        ),
    ),
    "camera_xmag_ymag_negative": Case(
        "triangle",
        _set(
            "cameras",
            [
                {
                    "type": "orthographic",
                    "orthographic": {"xmag": -1, "ymag": 1, "zfar": 10, "znear": 0},
                }
            ],
        ),
    ),
    "camera_yfov_gequal_pi": Case(
        "triangle",
        _set("cameras", [{"type": "perspective", "perspective": {"yfov": 4, "znear": 0.1}}]),
    ),
    "material_alpha_cutoff_invalid_mode": Case(
        "triangle", _set("materials", [{"alphaCutoff": 0.5}])
    ),
    # Images.
    "image_buffer_view_with_bytestride": Case(
        "triangle", _do(_image(png_bytes()), _set("bufferViews/3/byteStride", 4))
    ),
    "image_unrecognized_format": Case("triangle", _image(b"not an image at all")),
    "image_non_enabled_mime_type": Case("triangle", _image(WEBP, mimeType="image/png")),
    "image_mime_type_invalid": Case("triangle", _image(png_bytes(), mimeType="image/jpeg")),
    "image_npot_dimensions": Case("triangle", _image(png_bytes(3, 2))),
    "image_unexpected_eos": Case("triangle", _image(png_bytes()[:40])),
    "texture_invalid_image_mime_type": Case(
        "triangle",
        _do(_image(WEBP, mimeType="image/webp"), _set("extensionsUsed", ["EXT_texture_webp"])),
    ),
    "data_uri_glb": Case(
        "triangle", _set("buffers", [{"byteLength": 4, "uri": data_uri(bytes(4))}]), glb=True
    ),
    "image_data_invalid": Case("triangle", _image(_png_with_ihdr_length(12))),
    "image_features_unsupported": Case("triangle", _image(_png_with_gamma(22000))),
    # Unused objects.
    "unused_object": Case("triangle", _set("samplers", [{}])),
    "unused_mesh_weights": Case(
        "triangle",
        _do(
            _set("meshes/0/primitives/0/targets", [{"NORMAL": 1}]),
            _set("meshes/0/weights", [0]),
            _set("nodes/0/weights", [1]),
        ),
    ),
}
