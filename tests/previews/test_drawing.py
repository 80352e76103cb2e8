"""Preview pictures: drawn from glTF data and FBX geometry with numpy, stored beside the
upload."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.fbx import reader as fbx_reader
from assetcheck.formats.source import SourceFile
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.previews import drawing
from assetcheck.previews.drawing import preview_path, scene_triangles
from assetcheck.previews.png import encode_png
from assetcheck.previews.raster import render_clay
from assetcheck.sandbox import decoder as sandbox_decoder
from assetcheck.testing.compressed import draco_glb, pawn_mesh
from assetcheck.testing.fbx import MeshSpec, Scene, ascii_fbx, binary_fbx, cube
from assetcheck.testing.shapes import lathe, pawn_glb
from assetcheck.testing.zip import zip_of
from tests.previews import draw_previews


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def decode_png(data: bytes) -> np.ndarray:
    """The RGBA pixels of a PNG as :func:`encode_png` writes it (one IDAT, filter 0)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        payload = data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(
            kind + payload
        )
        chunks[kind] = payload
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 6) and b"IEND" in chunks
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, -1)
    assert not rows[:, 0].any()  # every scanline unfiltered
    return rows[:, 1:].reshape(height, width, 4)


def write_upload(folder: Path, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    upload = folder / "upload"
    upload.write_bytes(data)
    return upload


def test_a_glb_is_drawn_into_the_job_folder_as_a_png_with_a_transparent_background(
    tmp_path, plugin_manager
):
    upload = write_upload(tmp_path / "job", pawn_glb())
    assert draw_previews(upload, "pawn.glb", plugin_manager) == 1
    pixels = decode_png(preview_path(tmp_path / "job", "pawn.glb").read_bytes())
    assert pixels.shape == (drawing.HEIGHT, drawing.WIDTH, 4)
    assert pixels[0, 0, 3] == 0 and pixels[-1, -1, 3] == 0  # corners: background
    middle = pixels[drawing.HEIGHT // 2, drawing.WIDTH // 2]
    assert middle[3] == 255 and 60 < middle[:3].mean() < 240  # the pawn, lit


def test_the_picture_is_shaded_so_the_shape_reads_not_a_flat_silhouette():
    positions, indices = lathe()
    pixels = render_clay(positions[indices], 240, 180)
    covered = pixels[..., 3] == 255
    assert np.unique(pixels[covered][:, 0]).size > 10


def test_instances_are_placed_by_their_node_transforms(tmp_path, plugin_manager):
    one = scene_triangles(read_asset(tmp_path / "one", pawn_glb(copies=1), plugin_manager))
    three = scene_triangles(read_asset(tmp_path / "three", pawn_glb(copies=3), plugin_manager))
    assert len(three) == 3 * len(one)
    width = lambda triangles: np.ptp(triangles[..., 0])  # noqa: E731
    assert width(three) == pytest.approx(width(one) + 2.0)  # pawns one unit apart


def test_a_huge_mesh_is_thinned_to_the_triangle_cap(tmp_path, plugin_manager, monkeypatch):
    monkeypatch.setattr(drawing, "MAX_TRIANGLES", 100)
    asset = read_asset(tmp_path / "job", pawn_glb(copies=4), plugin_manager)
    assert 90 <= len(scene_triangles(asset)) <= 100


def test_every_model_in_a_zip_gets_its_own_picture(tmp_path, plugin_manager):
    archive = zip_of({"props/pawn.glb": pawn_glb(), "props/pawns.glb": pawn_glb(copies=2)})
    upload = write_upload(tmp_path / "job", archive)
    assert draw_previews(upload, "props.zip", plugin_manager) == 2
    first = preview_path(tmp_path / "job", "props/pawn.glb")
    second = preview_path(tmp_path / "job", "props/pawns.glb")
    assert first.is_file() and second.is_file() and first != second
    assert first.parent == tmp_path / "job" / "previews"


def test_no_picture_is_started_after_the_time_given(tmp_path, plugin_manager):
    upload = write_upload(tmp_path / "job", pawn_glb())
    assert draw_previews(upload, "pawn.glb", plugin_manager, until=time.monotonic() - 1) == 0


@pytest.mark.parametrize(
    ("name", "data", "module"),
    [
        ("cube.fbx", lambda: binary_fbx(Scene(meshes=[cube()])), fbx_reader),
        # The Draco decoder takes run_decoder from the sandbox when it first decodes.
        ("pawn.glb", lambda: draco_glb(pawn_mesh()), sandbox_decoder),
    ],
)
def test_a_model_is_parsed_or_decoded_once_for_its_report_and_its_pictures(
    tmp_path, plugin_manager, monkeypatch, name, data, module
):
    children = []
    original = module.run_decoder

    def counted(*args, **kwargs):
        children.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "run_decoder", counted)
    upload = write_upload(tmp_path / "job", data())

    assert draw_previews(upload, name, plugin_manager) == 1
    assert children == [name]


@pytest.mark.parametrize("writer", [binary_fbx, ascii_fbx])
def test_an_fbx_is_drawn_like_a_glb(tmp_path, plugin_manager, writer):
    upload = write_upload(tmp_path / "job", writer(Scene(meshes=[cube()])))
    assert draw_previews(upload, "cube.fbx", plugin_manager) == 1
    pixels = decode_png(preview_path(tmp_path / "job", "cube.fbx").read_bytes())
    covered = pixels[..., 3] == 255
    assert covered[drawing.HEIGHT // 2, drawing.WIDTH // 2]
    assert np.unique(pixels[covered][:, 0]).size > 1  # lit faces, not a flat silhouette


def test_an_fbx_in_z_up_centimetres_stands_upright_at_its_size_in_metres(tmp_path, plugin_manager):
    column = MeshSpec(
        "Column",
        [(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (0.0, 10.0)],
        [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]],
    )
    asset = read_asset(
        tmp_path / "job",
        binary_fbx(Scene(meshes=[column], up_axis=2)),
        plugin_manager,
        name="column.fbx",
    )
    triangles = scene_triangles(asset)
    extent = np.ptp(triangles.reshape(-1, 3), axis=0)
    assert extent == pytest.approx([0.02, 0.10, 0.02], abs=1e-6)  # 10 cm tall, along +Y


def test_every_model_file_of_a_zip_is_drawn_fbx_included(tmp_path, plugin_manager):
    archive = zip_of(
        {"props/pawn.glb": pawn_glb(), "props/cube.fbx": binary_fbx(Scene(meshes=[cube()]))}
    )
    upload = write_upload(tmp_path / "job", archive)
    assert draw_previews(upload, "props.zip", plugin_manager) == 2
    assert preview_path(tmp_path / "job", "props/cube.fbx").is_file()


@pytest.mark.parametrize(
    "data", [b"glTF\x02\x00\x00\x00\xff\xff\xff\xff", b"{not json", b"PK\x03\x04broken", b""]
)
def test_a_broken_upload_gets_no_picture_and_no_error(tmp_path, plugin_manager, data):
    upload = write_upload(tmp_path / "job", data)
    assert draw_previews(upload, "broken.glb", plugin_manager) == 0


def test_picture_names_come_from_a_digest_never_from_the_archive_path(tmp_path):
    path = preview_path(tmp_path, "../../etc/passwd.glb")
    assert path.parent == tmp_path / "previews"
    assert path.name.endswith(".png") and ".." not in path.name


def test_encode_png_refuses_what_is_not_rgba_bytes():
    with pytest.raises(ValueError):
        encode_png(np.zeros((4, 4, 3), np.uint8))


def read_asset(folder: Path, data: bytes, plugin_manager, name: str = "model.glb"):
    """The asset as the readers make it, with its buffers and geometry (``validate`` lets go
    of them); the format is named by ``name``'s extension."""
    path = write_upload(folder, data)
    source = SourceFile(name, path.read_bytes(), name.rsplit(".", 1)[1])
    issues = IssueCollector(build_registry(plugin_manager)).for_file(name)
    return plugin_manager.hook.read_asset(source=source, issues=issues, options=ValidationOptions())
