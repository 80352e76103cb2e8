"""FBX skin clusters against ufbx, an independent reader, on every real file that has skins
(the shared corpus, the production corpus, Debian's assimp-testmodels).

pyufbx gives, per cluster, only its name and ``num_weights`` (the control points it lists,
zero weights included), and each node's world matrix: our clusters linked to a bone must list
as many weights, cluster by cluster, and their bones' world matrices must be ufbx's. ufbx drops
the clusters linked to no bone, so ours are compared without them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.walk import walk_fbx
from tests.formats.fbx.real_files import assert_known_files_found, real_fbx_files, ufbx_scene
from tests.formats.fbx.test_fbx_corpus import ASSIMP_FBX
from tests.formats.fbx.test_fbx_production_corpus import PRODUCTION

#: Files with skins each corpus must hold (the test proves nothing if they are gone).
SKINNED = {
    PRODUCTION: {"Characters-and-Animals_Animated-Woman_smooth.fbx"},
    ASSIMP_FBX: {"animation_with_skeleton.fbx", "huesitos.fbx"},
}


def test_the_known_skinned_files_are_found():
    assert_known_files_found(real_fbx_files(b"Cluster"), SKINNED)


@pytest.mark.parametrize("path", real_fbx_files(b"Cluster"))
def test_cluster_weights_and_bones_equal_ufbx(path: Path):
    with ufbx_scene(path) as scene:
        theirs = sorted(
            [cluster.num_weights for skin in mesh.skin_deformers for cluster in skin.clusters]
            for mesh in scene.meshes
            if mesh.skin_deformers
        )
        worlds: dict[str, list[np.ndarray]] = {}
        for node in scene.nodes:
            # pyufbx fills a C-ordered array column by column: transpose it.
            worlds.setdefault(node.name, []).append(node.world_transform.T)

    skins = [m.skin for m in read_geometries(walk_fbx(path.read_bytes(), Limits()).tree)]
    ours = sorted(
        [int(n) for n, bound in zip(skin.ends - skin.starts, skin.bound, strict=True) if bound]
        for skin in skins
        if skin is not None
    )
    assert ours == theirs
    for skin in filter(None, skins):
        for row in np.flatnonzero(skin.bound):
            world = skin.bone_world[row]
            scale = max(1.0, float(np.abs(world).max()))
            assert any(
                np.allclose(world, matrix, rtol=0, atol=1e-9 * scale)
                for matrix in worlds[skin.names[row]]
            ), skin.names[row]
