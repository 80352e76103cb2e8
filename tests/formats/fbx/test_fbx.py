"""The FBX reader on files built in code: counts, details, limits and hostile bytes."""

from __future__ import annotations

import faulthandler
import os
import random
import signal
import zipfile
import zlib

import pytest

from assetcheck.asset import Asset
from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.fbx import reader as fbx_reader
from assetcheck.formats.fbx.model import FbxAxes
from assetcheck.formats.source import SourceFile
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.testing.fbx import (
    MaterialSpec,
    MeshSpec,
    Scene,
    VideoSpec,
    ascii_fbx,
    binary_fbx,
    cube,
    grid,
    scene_nodes,
)
from assetcheck.testing.fbx_nodes import Array, Node, encode_binary

HEXAGON = MeshSpec(
    "Fan",
    [
        (0.0, 0.0, 0.0),
        (1.0, 0.0, 0.0),
        (2.0, 1.0, 0.0),
        (1.0, 2.0, 0.0),
        (0.0, 2.0, 0.0),
        (-1.0, 1.0, 0.0),
    ],
    [[0, 1, 2, 3, 4, 5]],
    normals=False,
    uv_sets=2,
)
SCENE = Scene(
    meshes=[cube("Box", ["Red"]), HEXAGON],
    materials=[MaterialSpec("Red", "lambert")],
    animations=[("Walk", 2.0)],
)
ENCODINGS = {
    "binary-6100": lambda scene: binary_fbx(scene, 6100),
    "binary-7100": lambda scene: binary_fbx(scene, 7100),
    "binary-7400": lambda scene: binary_fbx(scene, 7400),
    "binary-7400-zlib": lambda scene: binary_fbx(scene, 7400, compress=True),
    "binary-7500-64bit": lambda scene: binary_fbx(scene, 7500),
    "binary-7700-64bit": lambda scene: binary_fbx(scene, 7700),
    "ascii-6100": lambda scene: ascii_fbx(scene, 6100),
    "ascii-7400": lambda scene: ascii_fbx(scene, 7400),
    "ascii-7700": lambda scene: ascii_fbx(scene, 7700),
}


@pytest.fixture(scope="module")
def registry():
    return build_registry(get_plugin_manager())


@pytest.fixture
def read(registry):
    """Read FBX bytes as a member of an upload (no path on disk): the asset and the issues."""

    def read(data: bytes, limits: Limits | None = None) -> tuple[Asset, list]:
        collector = IssueCollector(registry)
        source = SourceFile("model.fbx", data, "fbx")
        asset = fbx_reader.read_asset(
            source=source,
            issues=collector.for_file(source.name),
            options=ValidationOptions(limits=limits or Limits()),
        )
        return asset, collector.issues

    return read


def codes(issues) -> list[str]:
    return [issue.code for issue in issues]


@pytest.mark.parametrize("encode", ENCODINGS.values(), ids=ENCODINGS.keys())
def test_counts_control_points_fan_triangles_materials_and_stacks_in_every_encoding(read, encode):
    asset, issues = read(encode(SCENE))

    assert issues == []
    assert asset.format == "fbx"
    assert (asset.vertex_count, asset.triangle_count) == (8 + 6, 12 + 4)
    assert (asset.material_count, asset.animation_count) == (1, 1)
    assert [part.to_dict() for part in asset.parts] == [
        {"name": "Box", "vertexCount": 8, "triangleCount": 12, "materialCount": 1},
        {"name": "Fan", "vertexCount": 6, "triangleCount": 4, "materialCount": 0},
    ]


@pytest.mark.parametrize("encode", ENCODINGS.values(), ids=ENCODINGS.keys())
def test_mesh_details_give_face_shapes_normals_uv_sets_and_materials(read, encode):
    asset, _ = read(encode(SCENE))

    box, fan = asset.fbx.meshes
    assert (box.faces, box.quads, box.ngons) == (6, 6, 0)
    assert (fan.faces, fan.quads, fan.ngons) == (1, 0, 1)
    assert (box.has_normals, fan.has_normals) == (True, False)
    assert (box.uv_sets, fan.uv_sets) == (1, 2)
    assert (box.materials, fan.materials) == (["Red"], [])
    assert not box.skinned and box.bones == 0


@pytest.mark.parametrize("encode", [binary_fbx, ascii_fbx], ids=["binary", "ascii"])
def test_a_mesh_whose_geometry_has_no_name_is_named_after_the_nodes_drawing_it(read, encode):
    lever = cube("Lever")
    lever.geometry_name = ""  # as Asset Forge and Kenney's writer leave it
    lonely = Scene(meshes=[lever])

    asset, _ = read(encode(lonely))

    assert [mesh.name for mesh in asset.fbx.meshes] == ["Lever"]
    assert [part.name for part in asset.parts] == ["Lever"]


def test_an_unnamed_geometry_no_node_draws_is_named_by_its_position(read):
    loose = cube("Loose")
    loose.geometry_name = ""
    nodes = scene_nodes(Scene(meshes=[cube("Box"), loose]), 7400, binary=True)
    connections = next(node for node in nodes if node.name == "Connections")
    loose_geometry = 1_000_000_000_001  # the builder's id of the second geometry
    connections.children = [c for c in connections.children if c.props[1] != loose_geometry]

    asset, _ = read(encode_binary(nodes, 7400))

    assert [mesh.name for mesh in asset.fbx.meshes] == ["Box", "mesh 1"]


def test_scene_details_give_version_encoding_creator_units_and_axes(read):
    scene = Scene(meshes=[cube()], creator="Exporter 1.0", unit_scale_cm=100.0, up_axis=2)

    binary, _ = read(binary_fbx(scene, 7500))
    ascii_, _ = read(ascii_fbx(scene, 7400))

    assert binary.fbx.version == 7500 and binary.fbx.ascii is False
    assert ascii_.fbx.version == 7400 and ascii_.fbx.ascii is True
    assert binary.fbx.creator == "Exporter 1.0"
    assert binary.fbx.unit_meters == pytest.approx(1.0)
    assert binary.fbx.axes == FbxAxes(right="+X", up="+Z", front="-Y")
    assert binary.details["axes"] == {"right": "+X", "up": "+Z", "front": "-Y"}


def test_lambert_and_phong_materials_are_not_pbr(read):
    scene = Scene(meshes=[cube()], materials=[MaterialSpec("A", "lambert"), MaterialSpec("B")])

    asset, _ = read(binary_fbx(scene))

    assert [(m.name, m.shading, m.pbr) for m in asset.materials] == [
        ("A", "lambert", False),
        ("B", "phong", False),
    ]
    assert asset.uses_pbr is False


def test_a_physical_material_makes_the_asset_use_pbr(read):
    scene = Scene(meshes=[cube()], materials=[MaterialSpec("Metal", "unknown", physical=True)])

    asset, _ = read(binary_fbx(scene))

    assert [(m.shading, m.pbr) for m in asset.materials] == [("physicalMaterial", True)]
    assert asset.uses_pbr is True


@pytest.mark.parametrize("version", [6100, 7400])
def test_animation_duration_is_the_time_span_of_its_stack(read, version):
    scene = Scene(meshes=[cube()], animations=[("Walk", 2.0), ("Run", 0.5)])

    asset, _ = read(binary_fbx(scene, version))

    assert [(a.name, a.duration) for a in asset.animations] == [("Walk", 2.0), ("Run", 0.5)]


def test_embedded_texture_reports_its_size_and_no_uri(read):
    png = b"\x89PNG\r\n\x1a\n" + bytes(200)
    scene = Scene(meshes=[cube()], videos=[VideoSpec("Skin", "maps/skin.png", png)])

    asset, _ = read(binary_fbx(scene))

    (texture,) = asset.textures
    assert (texture.name, texture.uri, texture.byte_size) == ("Skin", None, len(png))
    assert asset.fbx.textures[0].embedded is True


def test_external_texture_keeps_the_path_as_written(read):
    scene = Scene(meshes=[cube()], videos=[VideoSpec("Skin", "maps/skin.png", b"")])

    asset, issues = read(ascii_fbx(scene))

    (texture,) = asset.textures
    assert (texture.uri, texture.byte_size) == ("maps/skin.png", None)
    assert asset.fbx.textures[0].relative_filename == "maps/skin.png"
    assert issues == []


def test_content_without_a_path_is_parsed_from_a_temporary_file_that_is_removed(
    read, tmp_path, monkeypatch
):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    asset, _ = read(binary_fbx(SCENE))

    assert asset.vertex_count == 14
    assert list(tmp_path.iterdir()) == []


def test_other_formats_are_left_to_other_readers(registry):
    collector = IssueCollector(registry)
    source = SourceFile("model.glb", b"glTF", "glb")

    asset = fbx_reader.read_asset(
        source=source, issues=collector.for_file("model.glb"), options=ValidationOptions()
    )

    assert asset is None


def test_version_outside_3000_to_7700_is_an_error_but_what_was_read_is_kept(read):
    asset, issues = read(ascii_fbx(Scene(meshes=[cube()]), 8000))

    assert codes(issues) == ["FBX_UNSUPPORTED_VERSION"]
    assert "8000" in issues[0].message
    assert (asset.vertex_count, asset.triangle_count) == (8, 12)


@pytest.mark.parametrize("seed", range(5))
def test_random_bytes_named_fbx_report_a_parse_error(read, seed):
    noise = random.Random(seed).randbytes(4096)

    asset, issues = read(noise)

    assert codes(issues) == ["FBX_PARSE_ERROR"]
    assert asset.vertex_count == 0


def test_damaged_binary_magic_is_not_taken_for_ascii_fbx(read):
    damaged = binary_fbx(SCENE).replace(b"\x00", b" ")  # a text-mode transfer

    _, issues = read(damaged)

    assert codes(issues) == ["FBX_PARSE_ERROR"]


@pytest.mark.parametrize("encode", [binary_fbx, ascii_fbx], ids=["binary", "ascii"])
def test_truncated_files_report_an_error_and_never_raise(read, encode):
    data = encode(SCENE)

    for cut in range(0, len(data), max(1, len(data) // 40)):
        asset, issues = read(data[:cut])
        assert isinstance(asset, Asset)
        if asset.vertex_count == 0:
            assert any(issue.severity == "error" for issue in issues), cut


def test_bit_flipped_files_never_raise(read):
    """Each parse is bounded by the child's time limit, so a hang cannot stall the test."""
    data = binary_fbx(Scene(meshes=[cube("Box", ["Red"])], materials=[MaterialSpec("Red")]))
    rng = random.Random(20240101)
    limits = Limits(parse_timeout=10.0, memory_limit_mb=512)

    for _ in range(300):
        flipped = bytearray(data)
        position = rng.randrange(len(flipped))
        flipped[position] ^= 1 << rng.randrange(8)
        asset, _ = read(bytes(flipped), limits)
        assert isinstance(asset, Asset)


#: Bytes of the big array: 200 MB, in 8 KiB blocks.
BIG_ARRAY_BLOCKS = 24_414


@pytest.fixture(scope="module")
def big_fbx() -> bytes:
    """An honest FBX (250 KB) whose one array inflates to 200 MB of doubles: its parse needs far
    more memory than any test process has spare in its heap (the child's limit counts only the
    address space it adds to what it inherits). Random bytes in each block keep the compression
    ratio plausible, so the pre-scan lets it through."""
    block = bytes(8192 - 16) + random.Random(7).randbytes(16)
    compressor = zlib.compressobj(6)
    payload = b"".join(compressor.compress(block) for _ in range(BIG_ARRAY_BLOCKS))
    count = BIG_ARRAY_BLOCKS * 8192 // 8
    array = Array(
        "d", [], compress=True, declared_count=count, payload=payload + compressor.flush()
    )
    geometry = Node("Geometry", [1, "Mesh\x00\x01Geometry", "Mesh"], [Node("Vertices", [array])])
    return encode_binary([Node("Objects", children=[geometry])])


def test_memory_limit_gives_resource_limit_and_the_next_file_still_reads(read, big_fbx):
    asset, issues = read(big_fbx, Limits(memory_limit_mb=1))
    assert codes(issues) == ["RESOURCE_LIMIT"]
    assert "1 MB" in issues[0].message
    assert asset.vertex_count == 0

    asset, issues = read(big_fbx)
    assert issues == []
    assert asset.vertex_count == BIG_ARRAY_BLOCKS * 8192 // 8 // 3


def test_time_limit_gives_validation_timeout_and_the_next_file_still_reads(read):
    big = binary_fbx(Scene(meshes=[grid("Grid", 300, 300)]))

    asset, issues = read(big, Limits(parse_timeout=0.001))
    assert codes(issues) == ["VALIDATION_TIMEOUT"]
    assert asset.vertex_count == 0

    asset, issues = read(big)
    assert issues == []
    assert asset.triangle_count == 2 * 300 * 300


def test_a_parser_crash_is_reported_and_the_next_file_still_reads(read, monkeypatch):
    def crash(path: str, filename: str, tree: object) -> Asset:
        faulthandler.disable()  # pytest's handler would print a traceback for the signal
        os.kill(os.getpid(), signal.SIGSEGV)
        raise AssertionError("unreachable")

    with monkeypatch.context() as patched:
        patched.setattr(fbx_reader, "read_scene", crash)
        asset, issues = read(binary_fbx(SCENE))
    assert codes(issues) == ["FBX_PARSER_CRASHED"]
    assert "SIGSEGV" in issues[0].message
    assert issues[0].security_level == "high"

    asset, issues = read(binary_fbx(SCENE))
    assert issues == [] and asset.vertex_count == 14


def test_a_parser_child_that_sends_an_asset_without_its_scene_has_crashed(read, monkeypatch):
    def subverted(path: str, filename: str, tree: object) -> Asset:
        return Asset.unread(filename, "fbx")  # an Asset, as expected, but with no FbxScene

    monkeypatch.setattr(fbx_reader, "read_scene", subverted)
    asset, issues = read(binary_fbx(SCENE))

    assert codes(issues) == ["FBX_PARSER_CRASHED"]
    assert "without its FBX scene" in issues[0].message
    assert asset.vertex_count == 0 and asset.fbx is None


def test_validate_reports_an_fbx_upload_in_the_result(tmp_path):
    path = tmp_path / "hero.fbx"
    path.write_bytes(binary_fbx(SCENE))

    result = validate(path)

    assert result.to_dict()["meshes"] == [
        {
            "filename": "hero.fbx",
            "vertexCount": 14,
            "triangleCount": 16,
            "materialCount": 1,
            "usesPBR": False,
            "animationCount": 1,
            "parts": [
                {"name": "Box", "vertexCount": 8, "triangleCount": 12, "materialCount": 1},
                {"name": "Fan", "vertexCount": 6, "triangleCount": 4, "materialCount": 0},
            ],
        }
    ]
    assert result.security.safe


def test_validate_reads_fbx_files_inside_a_zip(tmp_path):
    path = tmp_path / "pack.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("models/box.fbx", binary_fbx(Scene(meshes=[cube()])))
        archive.writestr("models/fan.fbx", ascii_fbx(Scene(meshes=[HEXAGON])))

    result = validate(path)

    assert [(a.filename, a.vertex_count, a.triangle_count) for a in result.assets] == [
        ("models/box.fbx", 8, 12),
        ("models/fan.fbx", 6, 4),
    ]
