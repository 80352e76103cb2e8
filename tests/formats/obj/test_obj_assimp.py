"""OBJ counts against an independent reader: assimp, on every OBJ of Debian's assimp-testmodels.

``assimp export FILE out.obj`` (a raw import, no post-processing, as the FBX cross-check does)
writes each face as assimp read it and each distinct position once. Our triangle count (a face
of ``n`` corners gives ``n - 2``) must equal the sum over the exported faces, and our vertex
count (the distinct positions, as 32-bit floats, that faces, lines and points use:
``docs/statistics.md``) the number of exported positions. Where assimp refuses a file (an empty
file, an index of 0) our reader must say why (``OBJ_NO_GEOMETRY``, ``OBJ_INDEX_OUT_OF_RANGE``,
keeping the faces it can read); where assimp reads nothing to draw (a point cloud without
points, the UTF-16 file) we read nothing either (``OBJ_NO_GEOMETRY``, ``OBJ_PARSE_ERROR``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from assetcheck.engine import validate

ASSIMP_MODELS = Path("/usr/share/assimp/models")
ASSIMP = shutil.which("assimp")


def _files() -> list:
    files = sorted(ASSIMP_MODELS.rglob("*.obj")) if ASSIMP_MODELS.is_dir() else []
    if not files or ASSIMP is None:
        reason = "Debian's assimp-testmodels or the assimp tool is not installed"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(path, id=str(path.relative_to(ASSIMP_MODELS))) for path in files]


def assimp_counts(path: Path, folder: Path) -> tuple[int, int] | None:
    """Triangles and distinct positions of assimp's raw reading of ``path``; None when
    assimp refuses the file."""
    exported = folder / "assimp.obj"
    done = subprocess.run(
        [str(ASSIMP), "export", str(path), str(exported)], capture_output=True, timeout=120
    )
    if done.returncode or not exported.is_file():
        return None
    lines = exported.read_bytes().splitlines()
    triangles = sum(max(len(line.split()) - 3, 0) for line in lines if line.startswith(b"f "))
    return triangles, sum(1 for line in lines if line.startswith(b"v "))


@pytest.mark.parametrize("path", _files())
def test_counts_equal_assimps(path, tmp_path):
    result = validate(path)
    refused = {"EMPTY_FILE", "UNSUPPORTED_FILE_TYPE"} & {i.code for i in result.issues}
    if refused:  # content no format reads (empty, UTF-16): refused as an upload of it is
        assert not result.assets and path.read_bytes()[:2] in (b"", b"\xfe\xff", b"\xff\xfe")
        return
    (asset,) = result.assets
    expected = assimp_counts(path, tmp_path)
    if expected is None:  # refused: we say why, keeping what is readable
        assert {i.code for i in result.issues} & {"OBJ_NO_GEOMETRY", "OBJ_INDEX_OUT_OF_RANGE"}
    elif expected == (0, 0):  # nothing assimp can draw: we read nothing either
        assert not asset.parsed
    else:
        assert (asset.triangle_count, asset.vertex_count) == expected
        assert sum(part.triangle_count for part in asset.parts) == asset.triangle_count
