"""The clay pictures: the same pixels, bit for bit, as the numpy rasterizer drew them.

The digests below were taken from the numpy scan conversion and depth test before they moved
into the compiled kernel (``draw_nearest``): real models of the test assets, as the preview
writer gets them, and hostile triangle sets (degenerate, NaN, huge, overlapping, more than
``TOTAL_PIXELS`` to draw), each at the preview's size and at an odd small one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.drawing import HEIGHT, WIDTH, scene_triangles
from assetcheck.previews.raster import render_clay

ASSETS = Path(__file__).parents[1] / "assets"
MODELS = (
    "compressed/pawn.glb",
    "compressed/pawn_draco.glb",
    "topology/mesh_separate_pieces.glb",
    "topology/textured_cube.glb",
    "gltf/texture_density_excessive.gltf",
    "scale/fbx_conversion_on_nodes.fbx",
    "scale/fbx_z_up.fbx",
    "scale/model_pivot_far_from_base_fbx.fbx",
)
SIZES = ((WIDTH, HEIGHT), (37, 23))


def model_triangles(relative: str) -> np.ndarray:
    """The triangles the preview writer draws for a test asset."""
    drawn: list[np.ndarray] = []
    validate(
        ASSETS / relative,
        plugin_manager=get_plugin_manager(),
        on_checked=lambda asset, source: drawn.append(scene_triangles(asset)),
    )
    return drawn[0]


def soup(count: int, spread: float, size: float, seed: int) -> np.ndarray:
    """``count`` triangles with corners on a coarse grid (so corners, edges and planes are
    shared, and depths tie), each within ``size`` of a point within ``spread``."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(-4, 5, (count, 1, 3)) * spread / 4
    return centres + rng.integers(-4, 5, (count, 3, 3)) * size / 4


def hostile() -> dict[str, np.ndarray]:
    flat = np.array([[[0, 0, 0], [1, 1, 1], [2, 2, 2]], [[0, 0, 0], [0, 0, 0], [0, 0, 0]]])
    one = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]])
    not_finite = soup(40, 4, 1, 3).copy()
    not_finite[::3, 1, 0] = np.nan
    not_finite[1::7, 2, 2] = np.inf
    far = np.concatenate([soup(30, 1, 1, 4), [[[1e300, 0, 0], [0, 1e-300, 0], [0, 0, 1]]]])
    coplanar = np.array([[[0, 0, 0], [4, 0, 0], [0, 4, 0]], [[0, 0, 0], [4, 4, 0], [0, 4, 0]]])
    return {
        "degenerate": np.concatenate([flat, one * 1e-12, one]),
        "only degenerate": flat,
        "not finite": not_finite,
        "huge": soup(30, 1, 1, 4) * 1e200,
        "one far away": far,
        "overflowing": np.array([[[-1e308, 0, 0], [1e308, 0, 0], [0, 1e308, 1e308]]]),
        "coplanar overlaps": np.concatenate([coplanar, coplanar[::-1], coplanar[:, ::-1]]),
        "small soup": soup(3000, 8, 1, 1),
        "big overlapping soup": soup(90, 1, 4, 2),
        "above the total to draw": soup(800, 0.5, 8, 5),
    }


CASES = {**{name: None for name in MODELS}, **dict.fromkeys(hostile())}

GOLDEN: dict[tuple[str, int], str] = {
    ("compressed/pawn.glb", 480): "2e1d5722ae32cf92",
    ("compressed/pawn.glb", 37): "4022f4ab4792f185",
    ("compressed/pawn_draco.glb", 480): "44cb83a702acfdd3",
    ("compressed/pawn_draco.glb", 37): "c61e11cafc0e3d61",
    ("topology/mesh_separate_pieces.glb", 480): "0884052be5393208",
    ("topology/mesh_separate_pieces.glb", 37): "b98da3fcc9a83df4",
    ("topology/textured_cube.glb", 480): "df4a4a75e5673eb0",
    ("topology/textured_cube.glb", 37): "d1fb1d6d68202f19",
    ("gltf/texture_density_excessive.gltf", 480): "df51a637a7b5bff8",
    ("gltf/texture_density_excessive.gltf", 37): "152f95c59ede267c",
    ("scale/fbx_conversion_on_nodes.fbx", 480): "df4a4a75e5673eb0",
    ("scale/fbx_conversion_on_nodes.fbx", 37): "d1fb1d6d68202f19",
    ("scale/fbx_z_up.fbx", 480): "df4a4a75e5673eb0",
    ("scale/fbx_z_up.fbx", 37): "d1fb1d6d68202f19",
    ("scale/model_pivot_far_from_base_fbx.fbx", 480): "5f59272d2a47c734",
    ("scale/model_pivot_far_from_base_fbx.fbx", 37): "d1fb1d6d68202f19",
    ("degenerate", 480): "c3bd6cb1bd1018f3",
    ("degenerate", 37): "9545c769d5154e37",
    ("only degenerate", 480): "65b095f8650bf6f8",
    ("only degenerate", 37): "c1a644a68322e923",
    ("not finite", 480): "2dfea92ad1af037a",
    ("not finite", 37): "aea671db84ca55f4",
    ("huge", 480): "8a1b2c22c0f8ea52",
    ("huge", 37): "adc44d880583cbd9",
    ("one far away", 480): "65b095f8650bf6f8",
    ("one far away", 37): "c1a644a68322e923",
    ("overflowing", 480): "812f0c58073e6649",
    ("overflowing", 37): "f756cc4254b8722a",
    ("coplanar overlaps", 480): "9c9aedf0e3f4b9cf",
    ("coplanar overlaps", 37): "b86aee1ccad3f932",
    ("small soup", 480): "823234ed1116f4c3",
    ("small soup", 37): "424c1841277cdf2f",
    ("big overlapping soup", 480): "db96a1df22094b83",
    ("big overlapping soup", 37): "21ee6f28ed5d44d4",
    ("above the total to draw", 480): "8bb6c965933062e2",
    ("above the total to draw", 37): "807a82cd4128fa49",
}


def digest(pixels: np.ndarray) -> str:
    assert pixels.dtype == np.uint8
    return hashlib.sha256(pixels.tobytes()).hexdigest()[:16]


def triangles_of(name: str) -> np.ndarray:
    return model_triangles(name) if name in MODELS else hostile()[name]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(CASES))
def test_render_clay_draws_the_pixels_the_numpy_rasterizer_drew(name, size):
    assert digest(render_clay(triangles_of(name), *size)) == GOLDEN[name, size[0]]
