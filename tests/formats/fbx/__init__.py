"""Tests of the FBX reader; :data:`WRITERS` are the FBX 7 layouts ``assetcheck.testing`` writes,
for tests that prove a rule holds in each of them, :data:`ALL_WRITERS` those and FBX 6's."""

from assetcheck.testing.fbx import ascii_fbx, binary_fbx

WRITERS = {
    "binary 7400": lambda scene: binary_fbx(scene),
    "compressed binary 7500": lambda scene: binary_fbx(scene, 7500, compress=True),
    "ascii 7400": lambda scene: ascii_fbx(scene),
}
ALL_WRITERS = {
    **WRITERS,
    "binary 6100": lambda scene: binary_fbx(scene, 6100),
    "ascii 6100": lambda scene: ascii_fbx(scene, 6100),
}
