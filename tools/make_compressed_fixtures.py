"""Write the committed compressed-geometry fixtures of tests/assets/compressed/.

    .venv/bin/python tools/make_compressed_fixtures.py

One model, the lathe pawn with normals (its poles make 64 zero-area triangles), three ways:
``pawn.glb`` uncompressed, ``pawn_draco.glb`` with ``KHR_draco_mesh_compression`` (Draco's
sequential encoding, which keeps every vertex and triangle) and ``pawn_meshopt.glb`` with
``EXT_meshopt_compression`` (a fallback buffer without data). The encoders are the real ones
(see :mod:`assetcheck.testing.compressed`); the tests mutate these files for the error cases.
"""

from __future__ import annotations

from pathlib import Path

from assetcheck.testing.compressed import draco_glb, meshopt_glb, pawn_mesh, plain_glb

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "assets" / "compressed"


def main() -> None:
    mesh = pawn_mesh()
    files = {
        "pawn.glb": plain_glb(mesh, "Pawn"),
        "pawn_draco.glb": draco_glb(mesh, "Pawn", preserve_order=True),
        "pawn_meshopt.glb": meshopt_glb(mesh, "Pawn"),
    }
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (FOLDER / name).write_bytes(data)
        print(f"{FOLDER / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
