"""OBJ faces engines triangulate differently: not flat, or concave."""

from __future__ import annotations

import pytest

from assetcheck.engine import validate

SQUARE = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SQUARE + b"f 1 2 3 4\n", set()),  # flat and convex
        (SQUARE + b"v 0.5 0.5 0\nf 1 2 3 4\nf 1 2 3\n", set()),  # triangles are always fine
        (b"v 0 0 0\nv 1 0 0\nv 1 1 0.5\nv 0 1 0\nf 1 2 3 4\n", {"OBJ_NONPLANAR_FACES"}),
        (SQUARE + b"v 0.5 0.2 0\nf 1 2 3 5 4\n", {"OBJ_CONCAVE_FACES"}),  # a dart
        (SQUARE + b"v 0.5 0.2 0\nf 1 4 5 3 2\n", {"OBJ_CONCAVE_FACES"}),  # wound the other way
    ],
)
def test_faces_that_triangulate_differently_are_found(tmp_path, text, expected):
    (tmp_path / "m.obj").write_bytes(text)

    found = {i.code for i in validate(tmp_path / "m.obj").issues if i.code.startswith("OBJ_")}

    assert found == expected


def test_the_concave_face_of_assimps_test_model_is_found():
    path = "/usr/share/assimp/models/OBJ/concave_polygon.obj"
    try:
        result = validate(path)
    except FileNotFoundError:
        pytest.skip("Debian's assimp-testmodels package is not installed")

    (issue,) = [i for i in result.issues if i.code == "OBJ_CONCAVE_FACES"]
    assert issue.headline == "Concave faces (1 face)"
