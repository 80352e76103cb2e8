"""FBX materials' texture slots against ufbx, an independent reader, on every real FBX file
with textures (the shared corpus, the production corpus, Debian's assimp-testmodels).

pyufbx gives, per material, each texture connected to a property (``material_prop``) and the
texture's embedded bytes (``content``): our slots must be the same (material, property,
texture) triples, FBX 7's connections and FBX 6's layer elements alike, and each embedded
image ours points at must hold ufbx's bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.materials import read_materials
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.tree import FbxSource
from assetcheck.formats.fbx.walk import walk_fbx
from tests.formats.fbx.real_files import assert_known_files_found, real_fbx_files, ufbx_scene
from tests.formats.fbx.test_fbx_corpus import ASSIMP_FBX, CORPUS
from tests.formats.fbx.test_fbx_production_corpus import PRODUCTION

#: Textured files each corpus must hold (the test proves nothing if they are gone): binary,
#: ASCII, split and fragmented embedded content, 3ds Max PBR slot names, FBX 6 layers.
TEXTURED = {
    CORPUS: {
        "maya_textured_cube_6100_ascii.fbx",
        "maya_material_chart_6100_binary.fbx",
        "maya_textured_cube_7500_ascii.fbx",
        "synthetic_texture_split_7500_binary.fbx",
        "max_pbr_spec_gloss_material_7700_ascii.fbx",
    },
    ASSIMP_FBX: {"box_embedded_texture_fragmented.fbx", "maxPbrMaterial_metalRough.fbx"},
    PRODUCTION: {"Furniture-Pack_kitchenSink.fbx"},
}


def test_the_known_textured_files_are_found():
    assert_known_files_found(real_fbx_files(b"Texture"), TEXTURED)


@pytest.mark.parametrize("path", real_fbx_files(b"Texture"))
def test_texture_slots_and_embedded_bytes_equal_ufbx(path: Path):
    with ufbx_scene(path) as scene:
        theirs = sorted(
            (material.name, slot.material_prop, slot.texture.name)
            for material in scene.materials
            for slot in material.textures
        )
        contents = {texture.name: bytes(texture.content or b"") for texture in scene.textures}

    data = path.read_bytes()
    materials, images = read_materials(FbxObjects.of(walk_fbx(data, Limits()).tree))
    ours = sorted(
        (material.name, slot.slot, slot.texture)
        for material in materials
        for slot in material.slots
    )
    assert ours == theirs
    source = FbxSource(memoryview(data), binary=data.startswith(b"Kaydara"))
    for material in materials:
        for slot in material.slots:
            embedded = (
                bytes(source.blob(images[slot.image].spans)) if slot.image is not None else b""
            )
            assert embedded == contents[slot.texture], (material.name, slot.slot)
