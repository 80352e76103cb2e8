"""Where the bytes of a binary FBX go: every object sized from its record, none left out."""

from __future__ import annotations

from assetcheck.formats.fbx.byte_usage import fbx_byte_usage
from assetcheck.testing.fbx import Scene, ascii_fbx, binary_fbx, cube, grid
from tests.formats import validate_bytes


def test_a_binary_fbx_is_broken_down_by_object_and_adds_up_to_its_size(tmp_path):
    data = binary_fbx(Scene(meshes=[cube("Crate"), grid("Floor", 10, 10)]))
    usage = validate_bytes(tmp_path, "scene.fbx", data).assets[0].byte_usage
    assert usage is not None
    assert usage.total == sum(usage.categories.values()) == len(data)
    named = {item.name: item for item in usage.items}
    assert named["geometry 'Floor'"].bytes > named["geometry 'Crate'"].bytes > 0
    assert (
        usage.categories["geometry"]
        == named["geometry 'Floor'"].bytes + named["geometry 'Crate'"].bytes
    )
    assert {"scene", "container"} <= set(usage.categories)
    assert usage.attributes == {}  # compressed arrays have no per-attribute byte count


def test_fbx_7500_with_64_bit_records_adds_up_too():
    data = binary_fbx(Scene(meshes=[cube()]), version=7500)
    usage = fbx_byte_usage(data)
    assert usage is not None and usage.total == len(data)


def test_ascii_fbx_and_a_file_whose_records_do_not_add_up_are_not_broken_down():
    assert fbx_byte_usage(ascii_fbx(Scene(meshes=[cube()]))) is None
    data = bytearray(binary_fbx(Scene(meshes=[cube()])))
    data[27:31] = (len(data) * 2).to_bytes(4, "little")  # the first record ends past the file
    assert fbx_byte_usage(bytes(data)) is None
