"""The glTF reader and the statistics, which must equal Khronos glTF-Validator's for any file."""

import json

import numpy as np
import pytest

from assetcheck.formats.gltf.codes.document import ISSUE_TYPES as GLTF_ISSUE_TYPES
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.testing.gltf import (
    LINE_LOOP,
    LINE_STRIP,
    LINES,
    POINTS,
    TRIANGLE_FAN,
    TRIANGLE_STRIP,
    TRIANGLES,
    GltfBuilder,
    Primitive,
    data_uri,
    padded_matrix_bytes,
    png_bytes,
)
from assetcheck.testing.zip import zip_of
from tests.formats import codes, only_issue, reader_codes, validate_bytes

#: Default severities of the Khronos glTF-Validator codes this reader uses (its ISSUES.md).
KHRONOS_SEVERITIES = {
    "INVALID_JSON": "error",
    "TYPE_MISMATCH": "error",
    "ARRAY_TYPE_MISMATCH": "error",
    "UNDEFINED_PROPERTY": "error",
    "INVALID_INDEX": "error",
    "VALUE_NOT_IN_RANGE": "error",
    "PATTERN_MISMATCH": "error",
    "UNRESOLVED_REFERENCE": "error",
    "UNKNOWN_ASSET_MAJOR_VERSION": "error",
    "UNKNOWN_ASSET_MINOR_VERSION": "warning",
    "IO_ERROR": "error",
    "INVALID_URI": "error",
    "BUFFER_DATA_URI_MIME_TYPE_INVALID": "error",
    "BUFFER_BYTE_LENGTH_MISMATCH": "error",
    "BUFFER_GLB_CHUNK_TOO_BIG": "warning",
    "BUFFER_MISSING_GLB_DATA": "error",
    "BUFFER_VIEW_TOO_LONG": "error",
    "ACCESSOR_TOO_LONG": "error",
}

#: Accessors of the hand-written documents below: 3 positions, 6 indices, 5 texture coordinates.
ACCESSORS = [
    {"count": 3, "componentType": 5126, "type": "VEC3"},
    {"count": 6, "componentType": 5123, "type": "SCALAR"},
    {"count": 5, "componentType": 5126, "type": "VEC2"},
]
POSITION_ONLY = {"attributes": {"POSITION": 0}}
INDEXED = {"attributes": {"POSITION": 0}, "indices": 1}


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def counts(result) -> tuple[int, int, int, int]:
    [asset] = result.assets
    return asset.vertex_count, asset.triangle_count, asset.material_count, asset.animation_count


def document(*primitives: object, **collections: object) -> bytes:
    """A glTF with one mesh of ``primitives`` over :data:`ACCESSORS` (``collections`` win)."""
    gltf = {
        "asset": {"version": "2.0"},
        "accessors": ACCESSORS,
        "meshes": [{"primitives": list(primitives)}],
        **collections,
    }
    return json.dumps(gltf).encode()


def showcase() -> GltfBuilder:
    """Two meshes (one instanced twice), three shading models, a texture and an animation."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(8, 4), name="grey"))
    paint = builder.add_material("paint", base_color_texture=texture)
    gloss = builder.add_material("gloss", "specularGlossiness")
    builder.add_material("flat", "unlit")
    body = builder.add_mesh(
        [
            Primitive(24, 36, material=paint, normals=True, texcoords=True),
            Primitive(5, mode=TRIANGLE_STRIP, material=gloss),
            Primitive(7, 9, mode=TRIANGLE_FAN, material=paint, texcoords=True),
        ],
        name="body",
    )
    wheel = builder.add_mesh([Primitive(12, 12)])
    builder.add_node(body)
    builder.add_node(wheel)
    builder.add_node(wheel)
    builder.add_animation("drive", keyframes=5, duration=2.5, channels=3)
    return builder


def test_gltf_codes_shared_with_khronos_keep_its_default_severities():
    ours = {t.code: t.severity for t in GLTF_ISSUE_TYPES if t.code in KHRONOS_SEVERITIES}
    assert ours == KHRONOS_SEVERITIES


@pytest.mark.parametrize("container", ["glb", "embedded", "external"])
def test_statistics_are_the_same_in_every_container(tmp_path, plugin_manager, container):
    builder = showcase()
    if container == "glb":
        path = builder.write_glb(tmp_path / "car.glb")
    elif container == "embedded":
        path = tmp_path / "car.gltf"
        path.write_bytes(builder.embedded_gltf())
    else:
        path = builder.write_gltf(tmp_path, "car")
    result = validate_bytes(tmp_path, path.name, path.read_bytes(), plugin_manager)
    # Vertices 24 + 5 + 7 + 12; triangles 36/3 + (5-2) + (9-2) + 12/3: meshes, not instances.
    assert counts(result) == (48, 26, 3, 1)
    assert reader_codes(result) == []


def test_mesh_parts_sum_their_primitives(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "car.glb", showcase().glb(), plugin_manager)
    [asset] = result.assets
    assert [part.to_dict() for part in asset.parts] == [
        {"name": "body", "vertexCount": 36, "triangleCount": 22, "materialCount": 2},
        {"name": "mesh 1", "vertexCount": 12, "triangleCount": 4, "materialCount": 0},
    ]


def test_materials_animations_and_textures_are_described(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "car.glb", showcase().glb(), plugin_manager)
    [asset] = result.assets
    assert [(m.name, m.shading, m.pbr, m.texture_count) for m in asset.materials] == [
        ("paint", "metallicRoughness", True, 1),
        ("gloss", "specularGlossiness", True, 0),
        ("flat", "unlit", False, 0),
    ]
    assert asset.uses_pbr
    [animation] = asset.animations
    assert (animation.name, animation.channel_count, animation.duration) == ("drive", 3, 2.5)
    [texture] = asset.textures
    assert (texture.name, texture.uri, texture.mime_type, texture.width, texture.height) == (
        "grey",
        None,
        "image/png",
        8,
        4,
    )
    assert texture.byte_size == len(png_bytes(8, 4))


@pytest.mark.parametrize(
    ("shadings", "uses_pbr"),
    [
        ([], False),
        (["unlit"], False),
        (["metallicRoughness"], True),
        (["specularGlossiness"], True),
        (["unlit", "metallicRoughness"], True),
    ],
)
def test_uses_pbr_is_true_for_any_pbr_material_and_false_for_unlit(
    tmp_path, plugin_manager, shadings, uses_pbr
):
    builder = GltfBuilder()
    for shading in shadings:
        builder.add_material(shading=shading)
    builder.add_mesh([Primitive(3)])
    result = validate_bytes(tmp_path, "m.glb", builder.glb(), plugin_manager)
    assert result.assets[0].uses_pbr is uses_pbr


@pytest.mark.parametrize(
    ("mode", "vertices", "indices", "triangles"),
    [
        (POINTS, 9, None, 0),
        (LINES, 8, 8, 0),
        (LINE_LOOP, 5, None, 0),
        (LINE_STRIP, 5, None, 0),
        (TRIANGLES, 9, None, 3),
        (TRIANGLES, 4, 6, 2),
        (TRIANGLES, 4, 7, 2),
        (TRIANGLE_STRIP, 6, None, 4),
        (TRIANGLE_STRIP, 4, 10, 8),
        (TRIANGLE_FAN, 6, None, 4),
        (TRIANGLE_FAN, 2, None, 0),
    ],
)
def test_triangles_follow_the_primitive_mode(
    tmp_path, plugin_manager, mode, vertices, indices, triangles
):
    builder = GltfBuilder()
    builder.add_mesh([Primitive(vertices, indices, mode=mode)])
    result = validate_bytes(tmp_path, "m.glb", builder.glb(), plugin_manager)
    assert counts(result)[:2] == (vertices, triangles)


# Each expectation was measured with Khronos glTF-Validator 2.0.0-dev.3.10 on the same JSON.
@pytest.mark.parametrize(
    ("gltf", "expected", "code"),
    [
        pytest.param(
            document({"attributes": {"TEXCOORD_0": 2, "POSITION": 0}}),
            (5, 1, 0, 0),
            None,
            id="first-attribute-sets-vertex-count",
        ),
        pytest.param(
            document({"attributes": {"TEXCOORD_0": -1, "POSITION": 0}}),
            (3, 1, 0, 0),
            "INVALID_INDEX",
            id="invalid-attribute-index-skipped",
        ),
        pytest.param(
            document({"attributes": {"TEXCOORD_0": 9, "POSITION": 0}}),
            (3, 1, 0, 0),
            "UNRESOLVED_REFERENCE",
            id="unresolved-attribute-skipped",
        ),
        pytest.param(
            document({**INDEXED, "indices": 99}),
            (3, 1, 0, 0),
            "UNRESOLVED_REFERENCE",
            id="unresolved-indices-fall-back-to-vertices",
        ),
        pytest.param(
            document({**INDEXED, "indices": "1"}),
            (3, 1, 0, 0),
            "TYPE_MISMATCH",
            id="string-indices-ignored",
        ),
        pytest.param(
            document({"attributes": {"POSITION": 0.0}, "indices": 1.0}),
            (3, 2, 0, 0),
            None,
            id="integral-floats-are-integers",
        ),
        pytest.param(
            document({**INDEXED, "mode": 9}),
            (3, 0, 0, 0),
            "VALUE_NOT_IN_RANGE",
            id="mode-out-of-range",
        ),
        pytest.param(
            document({**INDEXED, "mode": "4"}),
            (3, 0, 0, 0),
            "TYPE_MISMATCH",
            id="mode-of-wrong-type",
        ),
        pytest.param(
            document({**INDEXED, "mode": None}),
            (3, 2, 0, 0),
            "TYPE_MISMATCH",
            id="null-mode-means-triangles",
        ),
        pytest.param(
            document({"indices": 1}), (0, 2, 0, 0), "UNDEFINED_PROPERTY", id="missing-attributes"
        ),
        pytest.param(
            document({"attributes": [0], "indices": 1}),
            (0, 2, 0, 0),
            "TYPE_MISMATCH",
            id="attributes-not-an-object",
        ),
        pytest.param(
            document(POSITION_ONLY, materials=[{}, 5, {"name": 1}]),
            (3, 1, 3, 0),
            "TYPE_MISMATCH",
            id="malformed-materials-still-counted",
        ),
        pytest.param(
            document(POSITION_ONLY, animations=[{}, 5]),
            (3, 1, 0, 2),
            "TYPE_MISMATCH",
            id="malformed-animations-still-counted",
        ),
        pytest.param(
            document(POSITION_ONLY, materials={"a": {}}),
            (3, 1, 0, 0),
            "TYPE_MISMATCH",
            id="materials-not-an-array",
        ),
        pytest.param(
            document(5, POSITION_ONLY),
            (0, 0, 0, 0),
            "ARRAY_TYPE_MISMATCH",
            id="primitive-not-an-object-drops-the-array",
        ),
        pytest.param(
            document(
                {"attributes": {"POSITION": 0, "TEXCOORD_0": 2}},
                accessors=[{"count": 0}, *ACCESSORS[1:]],
            ),
            (5, 1, 0, 0),
            "VALUE_NOT_IN_RANGE",
            id="invalid-count-skipped-for-vertices",
        ),
        pytest.param(
            document(INDEXED, accessors=[ACCESSORS[0], {"count": "6"}]),
            (3, 0, 0, 0),
            "TYPE_MISMATCH",
            id="invalid-indices-count-gives-no-triangles",
        ),
        pytest.param(
            document(INDEXED, accessors=[5, *ACCESSORS[1:]]),
            (0, 2, 0, 0),
            "UNRESOLVED_REFERENCE",
            id="accessor-not-an-object",
        ),
    ],
)
def test_counts_match_khronos_on_malformed_documents(
    tmp_path, plugin_manager, gltf, expected, code
):
    result = validate_bytes(tmp_path, "odd.gltf", gltf, plugin_manager)
    assert counts(result) == expected
    if code is not None:
        assert code in codes(result)
    assert "READER_CRASHED" not in codes(result)


def test_every_property_of_the_wrong_type_is_reported_never_crashed_on(tmp_path, plugin_manager):
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes()))
    material = builder.add_material(shading="unlit", base_color_texture=texture)
    builder.add_node(
        builder.add_mesh([Primitive(4, 6, material=material, texcoords=True, normals=True)])
    )
    builder.add_animation()
    builder.add_skinned_triangle([builder.add_node()])
    primitive = builder.document["meshes"][0]["primitives"][0]
    primitive["targets"] = [{"POSITION": primitive["attributes"]["POSITION"]}]
    builder.document["accessors"][0]["sparse"] = {
        "count": 1,
        "indices": {"bufferView": builder.add_buffer_view(bytes(4)), "componentType": 5123},
        "values": {"bufferView": builder.add_buffer_view(bytes(12))},
    }
    original = json.loads(builder.embedded_gltf())
    junk = [None, "x", -1, 1.5, True, [], {}, 2**60]
    for path in _paths(original):
        for value in junk:
            broken = json.loads(json.dumps(original))
            _set(broken, path, value)
            result = validate_bytes(
                tmp_path, "broken.gltf", json.dumps(broken).encode(), plugin_manager
            )
            crashes = {"READER_CRASHED", "CHECK_CRASHED"} & set(codes(result))
            assert not crashes, (path, value, crashes)


@pytest.mark.parametrize(
    ("version", "code"),
    [
        ("1.0", "UNKNOWN_ASSET_MAJOR_VERSION"),
        ("3.0", "UNKNOWN_ASSET_MAJOR_VERSION"),
        ("2", "PATTERN_MISMATCH"),
        (1, "TYPE_MISMATCH"),
    ],
)
def test_unreadable_versions_are_reported_and_give_no_statistics(
    tmp_path, plugin_manager, version, code
):
    gltf = json.loads(document(POSITION_ONLY))
    gltf["asset"]["version"] = version
    result = validate_bytes(tmp_path, "old.gltf", json.dumps(gltf).encode(), plugin_manager)
    assert code in codes(result)
    [asset] = result.assets
    assert counts(result) == (0, 0, 0, 0)
    assert asset.document is None


def test_gltf_1_with_a_numeric_version_also_says_it_is_gltf_1(tmp_path, plugin_manager):
    gltf = json.dumps({"asset": {"version": 1}, "meshes": {"box": {}}}).encode()
    result = validate_bytes(tmp_path, "old.gltf", gltf, plugin_manager)
    assert codes(result) == ["TYPE_MISMATCH", "UNKNOWN_ASSET_MAJOR_VERSION"]


def test_newer_minor_version_is_a_warning_and_still_read(tmp_path, plugin_manager):
    gltf = json.loads(document(POSITION_ONLY))
    gltf["asset"]["version"] = "2.1"
    result = validate_bytes(tmp_path, "new.gltf", json.dumps(gltf).encode(), plugin_manager)
    assert only_issue(result, "UNKNOWN_ASSET_MINOR_VERSION").severity == "warning"
    assert counts(result) == (3, 1, 0, 0)


def test_missing_asset_is_an_undefined_property(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "m.gltf", b'{"meshes": []}', plugin_manager)
    assert only_issue(result, "UNDEFINED_PROPERTY").pointer == "/"


def test_byte_order_mark_is_reported_like_khronos_and_the_document_still_read(
    tmp_path, plugin_manager
):
    gltf = b"\xef\xbb\xbf" + document(INDEXED)
    result = validate_bytes(tmp_path, "bom.gltf", gltf, plugin_manager)
    assert "byte order mark" in only_issue(result, "INVALID_JSON").message
    assert counts(result) == (3, 2, 0, 0)


@pytest.mark.parametrize(
    ("gltf", "code"),
    [
        (b'{"asset": {"version": "2.0"', "INVALID_JSON"),
        (b'{"asset": {"version": "2.0", "generator": "\xff"}}', "INVALID_JSON"),
        (b'{"asset": {"version": "2.0"}, "x": NaN}', "INVALID_JSON"),
        (b"{" + b'"a":[' * 5000 + b"]" * 5000 + b"}", "INVALID_JSON"),
    ],
    ids=["truncated", "invalid-utf8", "nan", "nested-too-deeply"],
)
def test_json_that_is_not_a_gltf_object_is_reported(tmp_path, plugin_manager, gltf, code):
    result = validate_bytes(tmp_path, "bad.gltf", gltf, plugin_manager)
    assert only_issue(result, code).pointer == ""
    assert counts(result) == (0, 0, 0, 0)


def test_a_json_array_is_no_gltf_alone_and_a_type_mismatch_named_gltf_in_an_archive(
    tmp_path, plugin_manager
):
    array = b' ["not", "an", "object"]'
    alone = validate_bytes(tmp_path, "bad.gltf", array, plugin_manager)
    assert codes(alone) == ["UNSUPPORTED_FILE_TYPE"]
    packed = validate_bytes(tmp_path, "pack.zip", zip_of({"bad.gltf": array}), plugin_manager)
    assert only_issue(packed, "TYPE_MISMATCH").pointer == ""


def test_external_bin_missing_is_an_io_error(tmp_path, plugin_manager):
    gltf = showcase().gltf_json("missing.bin")
    result = validate_bytes(tmp_path, "car.gltf", gltf, plugin_manager)
    assert only_issue(result, "IO_ERROR").pointer == "/buffers/0/uri"
    assert counts(result) == (48, 26, 3, 1)


def test_external_image_is_measured(tmp_path, plugin_manager):
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "wood.png").write_bytes(png_bytes(16, 8))
    builder = GltfBuilder()
    builder.add_image(uri="textures/wood.png")
    result = validate_bytes(tmp_path, "m.gltf", builder.gltf_json("unused.bin"), plugin_manager)
    [texture] = result.assets[0].textures
    assert (texture.name, texture.uri, texture.width, texture.height) == (
        "wood.png",
        "textures/wood.png",
        16,
        8,
    )


@pytest.mark.parametrize(
    ("buffer", "code"),
    [
        ({"byteLength": 4, "uri": "data:application/octet-stream;base64,@@@@"}, "INVALID_URI"),
        # Khronos glTF-Validator: INVALID_URI, "Expecting '='" or "Invalid MIME type".
        ({"byteLength": 1, "uri": "data:application/octet-stream;;base64,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:application/octet-stream;foo;base64,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:application/octet-stream;BASE64,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:application/octet-stream;base64;x=y,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:octet-stream;base64,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:application/octet/stream;base64,AA=="}, "INVALID_URI"),
        ({"byteLength": 1, "uri": "data:application/octet-stream;base64,AA="}, "INVALID_URI"),
        (
            {"byteLength": 4, "uri": data_uri(bytes(4), "text/plain")},
            "BUFFER_DATA_URI_MIME_TYPE_INVALID",
        ),
        ({"byteLength": 8, "uri": data_uri(bytes(4))}, "BUFFER_BYTE_LENGTH_MISMATCH"),
    ],
)
def test_buffer_data_uris_are_checked(tmp_path, plugin_manager, buffer, code):
    gltf = json.dumps({"asset": {"version": "2.0"}, "buffers": [buffer]}).encode()
    result = validate_bytes(tmp_path, "m.gltf", gltf, plugin_manager)
    assert only_issue(result, code).pointer.startswith("/buffers/0")


@pytest.mark.parametrize(
    "uri",
    [
        "data:application/octet-stream;base64,AA",  # padding left out
        "data:application/octet-stream;base64,AA%3D%3D",  # padding percent-escaped
        "data:application/octet-stream;base64,_w==",  # the URL-safe alphabet
        "data:application/octet-stream;x=y;base64,AA==",  # a parameter before base64
        "data:Application/Octet-Stream;base64,AA==",  # media types ignore case
    ],
)
def test_well_formed_buffer_data_uris_khronos_accepts_are_read(tmp_path, plugin_manager, uri):
    gltf = json.dumps({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 1, "uri": uri}]})
    result = validate_bytes(tmp_path, "m.gltf", gltf.encode(), plugin_manager)
    assert codes(result) == ["UNUSED_OBJECT"]


def test_buffer_view_past_its_buffer_is_too_long(tmp_path, plugin_manager):
    gltf = json.dumps(
        {
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": 16, "uri": data_uri(bytes(16))}],
            "bufferViews": [{"buffer": 0, "byteOffset": 8, "byteLength": 12}],
        }
    ).encode()
    result = validate_bytes(tmp_path, "m.gltf", gltf, plugin_manager)
    assert only_issue(result, "BUFFER_VIEW_TOO_LONG").pointer == "/bufferViews/0/byteLength"


@pytest.mark.parametrize(
    ("accessor", "view", "length"),
    [
        ({"count": 5, "componentType": 5126, "type": "VEC3"}, {"byteLength": 48}, 60),
        (
            {"count": 3, "componentType": 5126, "type": "VEC3"},
            {"byteLength": 36, "byteStride": 16},
            44,
        ),
        (
            {"count": 4, "componentType": 5126, "type": "VEC3", "byteOffset": 4},
            {"byteLength": 48},
            48,
        ),
    ],
)
def test_accessor_past_its_buffer_view_is_too_long(
    tmp_path, plugin_manager, accessor, view, length
):
    gltf = json.dumps(
        {
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": 64, "uri": data_uri(bytes(64))}],
            "bufferViews": [{"buffer": 0, **view}],
            "accessors": [{"bufferView": 0, **accessor}],
        }
    ).encode()
    result = validate_bytes(tmp_path, "m.gltf", gltf, plugin_manager)
    assert f"length {length})" in only_issue(result, "ACCESSOR_TOO_LONG").message


def _matrix_document(matrices: np.ndarray, component_type: int, *, cut: int = 0) -> bytes:
    """A triangle and an accessor over ``matrices`` stored with padded columns, in a view that
    ends at the last column (``cut`` bytes earlier), with the true ``min`` and ``max``."""
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    data = padded_matrix_bytes(matrices)
    flat = matrices.reshape(len(matrices), -1)
    builder.document["accessors"].append(
        {
            "bufferView": builder.add_buffer_view(data[: len(data) - cut]),
            "componentType": component_type,
            "count": len(matrices),
            "type": f"MAT{matrices.shape[1]}",
            "min": flat.min(axis=0).tolist(),
            "max": flat.max(axis=0).tolist(),
        }
    )
    return builder.embedded_gltf()


#: Matrices whose columns need padding (Khronos' "matrix with gaps"), as (shape, dtype, GL type).
PADDED_MATRICES = [
    ((2, 2), np.uint8, 5121),
    ((3, 3), np.int8, 5120),
    ((3, 3), np.uint16, 5123),
    ((3, 3), np.int16, 5122),
]


@pytest.mark.parametrize(("shape", "dtype", "component_type"), PADDED_MATRICES)
def test_padded_matrix_columns_are_read_without_their_padding(
    tmp_path, plugin_manager, shape, dtype, component_type
):
    # Khronos glTF-Validator: valid, the accessor only UNUSED_OBJECT. The view ends at the last
    # column, and the 0xFF padding would break min and max if it were read as values.
    matrices = (np.arange(3 * shape[0] * shape[1]).reshape(3, *shape) % 7 + 1).astype(dtype)
    result = validate_bytes(
        tmp_path, "m.gltf", _matrix_document(matrices, component_type), plugin_manager
    )
    assert codes(result) == ["UNUSED_OBJECT"]


def test_padded_matrices_one_byte_short_of_the_last_column_are_too_long(tmp_path, plugin_manager):
    matrices = np.ones((3, 3, 3), np.uint16)  # 24-byte stride, 22-byte elements: 70 bytes
    result = validate_bytes(
        tmp_path, "m.gltf", _matrix_document(matrices, 5123, cut=1), plugin_manager
    )
    assert "(offset 0, length 70)" in only_issue(result, "ACCESSOR_TOO_LONG").message


def _paths(value, path=()):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        if key == "uri" or (isinstance(value, list) and isinstance(item, int | float)):
            continue  # numbers in arrays (min, max, factors, matrices) feed no statistic
        yield (*path, key)
        yield from _paths(item, (*path, key))


def _set(document, path, value):
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value
