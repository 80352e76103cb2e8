"""The OBJ reader: statements into meshes, counts, limits, paths, material libraries and ZIPs."""

from __future__ import annotations

import time
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.obj.mtl import read_mtl, texture_path
from assetcheck.formats.obj.parse import BLOCK_BYTES, MAX_LINE_BYTES, read_obj_text
from assetcheck.formats.registry import SNIFF_BYTES, format_registry
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.png import encode_png
from tests.formats.fbx.test_fbx_corpus import CORPUS

CUBE = b"""# a unit cube, quads, with normals and UVs
mtllib cube.mtl
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
vn 0 -1 0
vn 0 1 0
vn -1 0 0
vn 1 0 0
usemtl painted
f 4/1/1 3/2/1 2/3/1 1/4/1
f 5/1/2 6/2/2 7/3/2 8/4/2
f 1/1/3 2/2/3 6/3/3 5/4/3
usemtl plain
f 8/1/4 7/2/4 3/3/4 4/4/4
f -8/1/5 -4/2/5 -1/3/5 -5/4/5
f -7/1/6 -6/2/6 -2/3/6 -3/4/6
"""
MTL = b"""newmtl painted
Kd 0.8 0.8 0.8
map_Kd -s 1 1 1 textures/albedo map.png
norm textures/normal.png
Pr 0.5
newmtl plain
Kd 0.5 0.5 0.5
"""


def png(width: int = 4, height: int = 4) -> bytes:
    return encode_png(np.zeros((height, width, 4), np.uint8))


def codes(result) -> set[str]:
    return {issue.code for issue in result.issues}


def write_zip(path, files: dict[str, bytes]):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


@pytest.fixture(scope="module")
def formats():
    return format_registry(get_plugin_manager())


def test_a_cube_of_quads_is_one_mesh_per_material_with_counts_as_docs_define(tmp_path):
    (tmp_path / "cube.obj").write_bytes(CUBE)
    (tmp_path / "cube.mtl").write_bytes(MTL)
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "albedo map.png").write_bytes(png(8, 8))
    (tmp_path / "textures" / "normal.png").write_bytes(png(8, 8))

    result = validate(tmp_path / "cube.obj")

    (asset,) = result.assets
    assert (asset.vertex_count, asset.triangle_count) == (8, 12)
    assert [(p.name, p.vertex_count, p.triangle_count) for p in asset.parts] == [
        ("cube (painted)", 8, 6),
        ("cube (plain)", 8, 6),
    ]
    assert [(m.name, m.pbr, m.texture_count) for m in asset.materials] == [
        ("painted", True, 2),
        ("plain", False, 0),
    ]
    assert asset.uses_pbr
    assert [(t.uri, t.width) for t in asset.textures] == [
        ("textures/albedo map.png", 8),
        ("textures/normal.png", 8),
    ]
    assert not {c for c in codes(result) if c.startswith("OBJ_")}
    assert "MESH_MISSING_NORMALS" not in codes(result)


def test_negative_indices_count_back_from_the_last_element_read():
    text = read_obj_text(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\nf -4 -3 -1\n", Limits())

    assert text.corners[:, 0].tolist() == [0, 1, 2, 0, 1, 3]
    assert text.out_of_range.count == 0


@pytest.mark.parametrize(
    "face",
    [
        b"f -4 -2 -1",
        b"f 0 1 2",
        b"f 1 2 4",
        b"f 1/1 2/1 3/1",
        b"f 1//2 2//1 3//1",
        b"f 1 2 -99999999999999999999",
    ],
)
def test_an_index_before_the_first_or_past_the_last_element_is_out_of_range(face):
    text = read_obj_text(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\n" + face + b"\nf 1 2 3\n", Limits())

    assert (text.out_of_range.count, text.out_of_range.line) == (1, 5)
    assert text.corners.tolist() == [[0, -1, -1], [1, -1, -1], [2, -1, -1]]


def test_the_shared_mesh_checks_run_on_obj_meshes(tmp_path):
    flat = b"v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 4\nf 1 2 4\n"
    (tmp_path / "flat.obj").write_bytes(flat)

    found = codes(validate(tmp_path / "flat.obj"))

    assert {"MESH_ZERO_AREA_TRIANGLES", "MESH_DUPLICATE_TRIANGLES", "MESH_MISSING_NORMALS"} <= found


def test_a_billion_vertex_index_is_out_of_range_without_allocating_for_it(tmp_path):
    (tmp_path / "claim.obj").write_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 1000000000\nf 1 2 3\n")
    tracemalloc.start()
    try:
        result = validate(tmp_path / "claim.obj")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert "OBJ_INDEX_OUT_OF_RANGE" in codes(result)
    assert result.assets[0].triangle_count == 1
    assert peak < 64 << 20


class EndlessLine:
    """10 GiB of digits that never end a line, made on demand; counts the bytes handed out."""

    def __init__(self) -> None:
        self.handed_out = 0

    def __len__(self) -> int:
        return 10 << 30

    def __getitem__(self, part: slice) -> bytes:
        start, stop, _ = part.indices(len(self))
        self.handed_out += stop - start
        return b"v 1" + b"1" * (stop - start - 3) if start == 0 else b"1" * (stop - start)


def test_a_10_gib_line_stops_the_read_after_one_block():
    stream = EndlessLine()
    started = time.monotonic()

    text = read_obj_text(stream, Limits())  # type: ignore[arg-type]

    assert text.stop is not None
    assert text.stop.code == "OBJ_LINE_TOO_LONG"
    assert stream.handed_out == BLOCK_BYTES
    assert time.monotonic() - started < 5


def test_a_line_over_the_limit_in_a_file_is_reported_and_nothing_is_read(tmp_path):
    path = tmp_path / "long.obj"
    path.write_bytes(b"v 0 0 0\n# " + b"x" * (MAX_LINE_BYTES + 10) + b"\nv 1 1 1\n")

    result = validate(path)

    assert "OBJ_LINE_TOO_LONG" in codes(result)
    assert not result.assets[0].parsed


def test_a_byte_order_mark_and_windows_line_ends_are_read_as_text():
    text = read_obj_text(b"\xef\xbb\xbfv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n", Limits())

    assert (len(text.positions), len(text.corners), text.unknown_statements.count) == (3, 3, 0)


def test_the_time_limit_stops_the_read():
    text = read_obj_text(b"v 0 0 0\n" * 100, Limits(parse_timeout=0))

    assert text.stop is not None and text.stop.code == "VALIDATION_TIMEOUT"


def test_the_memory_limit_stops_the_read():
    text = read_obj_text(b"v 0 0 0\n" * 50_000, Limits(memory_limit_mb=1))

    assert text.stop is not None and text.stop.code == "RESOURCE_LIMIT"


def test_malformed_statements_and_loose_numbers_are_counted_with_their_first_line():
    text = read_obj_text(
        b"v 1 2\nv 1 2 3.1+e2\nvt x y\nfoo bar\nf 1/1 -1/1\nf 1/x\nf -2 -1 1\n", Limits()
    )

    assert (text.syntax_errors.count, text.syntax_errors.line) == (3, 1)
    assert (text.loose_numbers.count, text.loose_numbers.line) == (1, 2)
    # every v keeps its row, so later indices name the vertices the author meant
    assert text.positions.tolist() == [[1.0, 2.0, 0.0], [1.0, 2.0, 3.1]]
    assert text.texcoords.tolist() == [[0.0, 0.0]]
    assert (text.unknown_statements.count, text.unknown_statements.example) == (1, "foo")
    assert text.corners.tolist() == [[0, 0, -1], [1, 0, -1], [0, -1, -1], [1, -1, -1], [0, -1, -1]]
    assert text.element_sizes.tolist() == [2, 3]


def test_a_batch_of_mixed_corner_forms_reads_like_one_of_a_single_form():
    uniform = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\n"
    mixed = uniform + b"f 1 2//1 3/1\n"

    one, other = read_obj_text(uniform, Limits()), read_obj_text(mixed, Limits())

    assert other.corners[:3].tolist() == one.corners.tolist() == [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
    assert other.corners[3:].tolist() == [[0, -1, -1], [1, -1, 0], [2, 0, -1]]


def test_obj_content_is_recognised_without_its_name_and_never_claims_other_formats(formats):
    assert formats.sniff(b"# exported\n\nmtllib a.mtl\nv 0 0 0\nf 1 1 1\n") == "obj"
    assert formats.sniff(b'{"asset": {"version": "2.0"}}') == "gltf"
    assert formats.sniff(b"; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n") == "fbx"
    assert formats.sniff(b"glTF\x02\x00\x00\x00") == "glb"
    assert formats.sniff(b"PK\x03\x04v 0 0 0\n") == "zip"
    assert formats.sniff(b"newmtl a\nKd 1 1 1\n") is None  # an MTL is not a model
    assert formats.sniff(b"v 0 0 0\nhello world\n") is None
    assert formats.sniff(b"v 0 0 0\x00\n") is None


def test_no_real_file_of_another_format_is_taken_for_obj(formats):
    """Every file of Debian's assimp test models and of the shared corpus: only OBJ content
    is OBJ (``.obj`` files that are not, the UTF-16 one and the empty one, are named so)."""
    roots = [Path("/usr/share/assimp/models"), CORPUS.parent]
    files = [p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file()]
    if not files:
        pytest.skip("neither assimp-testmodels nor the shared corpus is present")
    taken = set()
    for path in files:
        with path.open("rb") as file:
            if formats.sniff(file.read(SNIFF_BYTES)) == "obj":
                taken.add(path.suffix.lower())
    assert taken == {".obj"}


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/etc/passwd", "OBJ_EXTERNAL_PATH"),
        ("C:\\models\\cube.mtl", "OBJ_EXTERNAL_PATH"),
        ("http://example.com/cube.mtl", "OBJ_EXTERNAL_PATH"),
        ("../../secret.mtl", "OBJ_PATH_TRAVERSAL"),
    ],
)
def test_paths_that_leave_the_upload_are_security_findings_never_read(tmp_path, path, code):
    (tmp_path / "m.obj").write_bytes(f"mtllib {path}\nv 0 0 0\np 1\n".encode())

    result = validate(tmp_path / "m.obj")

    assert code in codes(result)
    assert not result.security.safe


def test_an_obj_in_a_zip_reads_its_mtl_and_textures_beside_it(tmp_path):
    archive = write_zip(
        tmp_path / "cube.zip",
        {
            "model/cube.obj": CUBE,
            "model/cube.mtl": MTL,
            "model/textures/albedo map.png": png(),
            "model/textures/normal.png": png(),
        },
    )

    result = validate(archive)

    (asset,) = result.assets
    assert (asset.filename, asset.format, asset.triangle_count) == ("model/cube.obj", "obj", 12)
    assert asset.uses_pbr and asset.material_count == 2
    assert all(t.width == 4 for t in asset.textures)
    assert not {c for c in codes(result) if c.startswith("OBJ_")}


def test_a_missing_mtl_or_texture_in_a_zip_has_its_code(tmp_path):
    no_mtl = validate(write_zip(tmp_path / "a.zip", {"cube.obj": CUBE}))
    no_texture = validate(write_zip(tmp_path / "b.zip", {"cube.obj": CUBE, "cube.mtl": MTL}))

    assert "OBJ_MISSING_MTL" in codes(no_mtl)
    assert "OBJ_UNDEFINED_MATERIAL" not in codes(no_mtl)  # the missing library says it all
    missing = [i for i in no_texture.issues if i.code == "OBJ_MISSING_TEXTURE"]
    assert [i.message for i in missing] == [
        "Material painted uses the image textures/albedo map.png, which the upload does not hold.",
        "Material painted uses the image textures/normal.png, which the upload does not hold.",
    ]


def test_a_material_no_library_defines_is_reported(tmp_path):
    (tmp_path / "cube.obj").write_bytes(CUBE.replace(b"usemtl plain", b"usemtl other"))
    (tmp_path / "cube.mtl").write_bytes(MTL)

    result = validate(tmp_path / "cube.obj", options=ValidationOptions())

    undefined = [i for i in result.issues if i.code == "OBJ_UNDEFINED_MATERIAL"]
    assert len(undefined) == 1 and "other" in undefined[0].message


def test_mtl_texture_options_are_skipped_and_names_may_hold_spaces():
    assert texture_path("-s 1 1 1 -o 0.5 -bm 0.2 my texture.png") == "my texture.png"
    assert texture_path("-clamp on -type sphere sky.png") == "sky.png"
    assert texture_path("-imfchan r bump.png") == "bump.png"
    assert texture_path("plain.png") == "plain.png"


def test_mtl_pbr_keys_make_a_material_physically_based():
    materials = read_mtl(b"newmtl a\nKd 1 1 1\nnewmtl b\nPm 1\nmap_Pr rough.png\n")

    assert (materials["a"].pbr, materials["b"].pbr) == (False, True)
    assert materials["b"].images == [("map_pr", "rough.png")]


def test_a_zip_member_named_obj_that_is_no_obj_text_gets_the_reader_s_words(tmp_path):
    binary = validate(write_zip(tmp_path / "a.zip", {"model.obj": b"\x00\x01binary\n" * 8}))
    unknown = validate(write_zip(tmp_path / "b.zip", {"cube.obj": b"shape box\n" + CUBE}))
    long_mtl = b"newmtl plain\nmap_Kd " + b"x" * (MAX_LINE_BYTES + 1) + b"\n"
    bad_mtl = validate(write_zip(tmp_path / "c.zip", {"cube.obj": CUBE, "cube.mtl": long_mtl}))

    assert "OBJ_PARSE_ERROR" in codes(binary)
    assert "OBJ_UNKNOWN_STATEMENT" in codes(unknown)
    (issue,) = [i for i in bad_mtl.issues if i.code == "OBJ_BAD_MTL"]
    assert "longer than the" in issue.message
