"""The FBX geometry of the asset model: triangulation, world placement and safe transfer."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from assetcheck.formats.fbx.model import (
    FbxAxes,
    FbxGeometry,
    FbxImage,
    FbxInstance,
    FbxMaterial,
    FbxMesh,
    FbxScene,
    FbxSkin,
    FbxTextureSlot,
    unpack_geometry,
    unpack_skin,
)
from assetcheck.formats.fbx.scene import RESULT_TYPES
from assetcheck.formats.fbx.tree import FbxSource
from assetcheck.sandbox.child import ChildCrashed, run_in_child


def square_geometry() -> FbxGeometry:
    positions = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0]], float)
    corners = np.array([0, 1, 2, 3, 1, 4, 2], np.int32)
    return FbxGeometry(positions, corners, np.array([0, 4], np.int32))


def scene_of(geometry: FbxGeometry, matrix: np.ndarray, **facts) -> FbxScene:
    mesh = FbxMesh(
        "Square",
        len(geometry.positions),
        3,
        2,
        1,
        0,
        True,
        False,
        geometry=geometry,
        instances=[FbxInstance("Node", matrix)],
    )
    defaults = {"unit_meters": 0.01, "axes": FbxAxes("+X", "+Z", "-Y")}
    return FbxScene(
        7400,
        False,
        "",
        original_unit_meters=0.01,
        original_up_axis="+Z",
        frames_per_second=30.0,
        bone_count=0,
        meshes=[mesh],
        **{**defaults, **facts},
    )


def test_polygons_are_fan_triangulated_from_their_first_corner():
    assert square_geometry().triangles().tolist() == [[0, 1, 2], [0, 2, 3], [1, 4, 2]]


def test_world_triangles_are_in_metres_with_y_up():
    matrix = np.eye(4)
    matrix[:3, 3] = [0, 0, 100]  # 100 cm up, in a Z-up file
    ((name, positions, triangles),) = scene_of(square_geometry(), matrix).world_triangles()

    assert name == "Node" and positions.dtype == np.float32
    # (1, 1, 100) cm with Z up and -Y to the front: 1 m up, 1 cm right and 1 cm back.
    assert positions[2].tolist() == pytest.approx([0.01, 1.0, -0.01])
    assert triangles.tolist() == [[0, 1, 2], [0, 2, 3], [1, 4, 2]]


def test_a_scene_survives_the_trip_from_the_parser_child():
    scene = scene_of(square_geometry(), np.eye(4))

    back = run_in_child(lambda: scene, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)

    geometry = back.meshes[0].geometry
    assert np.array_equal(geometry.positions, scene.meshes[0].geometry.positions)
    assert np.array_equal(geometry.triangles(), scene.meshes[0].geometry.triangles())
    assert np.array_equal(back.meshes[0].instances[0].geometry_to_world, np.eye(4))


def test_materials_and_embedded_images_survive_the_trip_from_the_parser_child():
    slot = FbxTextureSlot("NormalMap", "bumps", "bumps.png", 0)
    scene = scene_of(
        square_geometry(),
        np.eye(4),
        materials=[FbxMaterial("Wood", [slot], {"Opacity": [1.0]})],
        images=[FbxImage("bumps", "bumps.png", ((10, 20),))],
    )

    back = run_in_child(lambda: scene, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)

    assert back.materials == scene.materials
    assert back.images == scene.images


def test_embedded_images_are_read_from_the_file_until_the_scene_lets_go_of_it():
    scene = scene_of(square_geometry(), np.eye(4), images=[FbxImage("a", "a.png", ((2, 5),))])
    assert scene.image_data(0) is None  # as the parser child sends it: no bytes
    scene.source = FbxSource(memoryview(b"..PNG.."), binary=True)

    assert bytes(scene.image_data(0)) == b"PNG"
    assert scene.image_data(1) is None  # an index the parser child did not send
    scene.drop_geometry()
    assert scene.image_data(0) is None


def test_an_ascii_image_that_is_not_base64_is_not_read():
    scene = scene_of(square_geometry(), np.eye(4), images=[FbxImage("a", "a.png", ((0, 5),))])
    scene.source = FbxSource(memoryview(b"abcde"), binary=False)  # 5 characters: no bytes

    assert scene.image_data(0) is None


def test_the_corner_mesh_has_a_vertex_per_polygon_corner_welded_at_its_control_point():
    geometry = square_geometry()
    mesh = geometry.corner_mesh

    assert mesh is geometry.corner_mesh  # prepared once, for the topology and UV checks
    assert len(mesh.vertices) == len(geometry.corners) == 7
    assert mesh.triangles.tolist() == geometry.corner_triangles().tolist()
    ids = mesh.welded_ids.tolist()
    assert ids[1] == ids[4] and ids[2] == ids[6]  # corners at control points 1 and 2
    assert len(set(ids)) == len(geometry.positions)


def test_a_prepared_geometry_travels_without_what_it_prepared():
    scene = scene_of(square_geometry(), np.eye(4))
    assert len(scene.meshes[0].geometry.corner_mesh.corners[0]) == 3

    back = run_in_child(lambda: scene, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)

    geometry = back.meshes[0].geometry
    assert "corner_mesh" not in vars(geometry)
    assert geometry.corner_mesh.triangles.tolist() == [[0, 1, 2], [0, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize("protocol", [4, 5])
def test_a_geometry_pickles_with_any_recent_protocol(protocol):
    back = pickle.loads(pickle.dumps(square_geometry(), protocol))
    assert np.array_equal(back.positions, square_geometry().positions)


def test_a_geometry_with_an_unexpected_array_type_is_refused():
    geometry = square_geometry()
    geometry.corners = np.array([1.5] * 7, np.float16)
    with pytest.raises(ValueError, match="unexpected array"):
        pickle.loads(pickle.dumps(geometry, 5))


class ForgedGeometry:
    """What a parser child subverted by its file could send: the geometry's rebuilder, called
    with arguments of the child's choosing."""

    def __init__(self, *arguments: object) -> None:
        self.arguments = arguments

    def __reduce_ex__(self, protocol):
        return unpack_geometry, self.arguments


def forged_arguments(**changes: object) -> tuple:
    """The arguments a square geometry pickles with, some replaced."""
    names = ["positions", "corners", "polygon_starts", "normals", "uvs", "polygon_materials"]
    arguments = dict(zip(names, square_geometry().__reduce_ex__(4)[1], strict=True))
    return tuple({**arguments, **changes}.values())


@pytest.mark.parametrize(
    "changes",
    [
        {"positions": None},
        {"corners": None, "polygon_starts": None},
        {"normals": ("not", "arrays")},
        {"uvs": (forged_arguments()[0], None)},
        {"positions": "dtype, shape, data"},
    ],
    ids=[
        "no positions",
        "no polygons",
        "a layer of strings",
        "a layer without its indices",
        "a string",
    ],
)
def test_a_geometry_without_the_arrays_it_must_have_is_refused(changes):
    forged = ForgedGeometry(*forged_arguments(**changes))

    with pytest.raises(ChildCrashed, match="unexpected result"):
        run_in_child(lambda: forged, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)


def test_a_geometry_without_its_optional_layers_arrives_without_them():
    back = run_in_child(
        lambda: ForgedGeometry(*forged_arguments()),
        timeout=10,
        memory_limit_mb=256,
        result_types=RESULT_TYPES,
    )
    assert back.normals is None and back.uvs is None and back.polygon_materials is None
    assert np.array_equal(back.corners, square_geometry().corners)


def two_bone_skin() -> FbxSkin:
    """Bone A weighs control points 0 and 1, bone B 1 (half each) and 7 (past the 5)."""
    bind = np.stack([np.eye(4), np.eye(4)])
    return FbxSkin(
        names=["A", "B"],
        bound=np.array([True, False]),
        starts=np.array([0, 2], np.int32),
        vertices=np.array([0, 1, 1, 7], np.int32),
        weights=np.array([1.0, 0.5, 0.5, 1.0]),
        bind_matrices=bind,
        bone_world=np.stack([np.eye(4), np.full((4, 4), np.nan)]),
        points=5,
    )


def test_a_skin_arrives_from_the_child_with_its_counts_per_control_point():
    back = run_in_child(two_bone_skin, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)

    assert back.names == ["A", "B"]
    assert back.clusters.tolist() == [0, 0, 1, 1]
    assert back.in_range.tolist() == [True, True, True, False]
    assert back.influences.tolist() == [1, 2, 0, 0, 0]
    assert back.sums.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]


class ForgedSkin:
    """A skin's rebuilder called with arguments of a subverted child's choosing."""

    def __init__(self, *arguments: object) -> None:
        self.arguments = arguments

    def __reduce_ex__(self, protocol):
        return unpack_skin, self.arguments


def forged_skin(index: int, value: object) -> ForgedSkin:
    arguments = list(two_bone_skin().__reduce_ex__(4)[1])
    arguments[index] = value
    return ForgedSkin(*arguments)


@pytest.mark.parametrize(
    ("index", "value"),
    [
        (0, ["A", 2]),
        (0, ["A"]),
        (2, ("<i4", (2,), np.array([0, 9], np.int32).tobytes())),
        (2, ("<i4", (2,), np.array([2, 0], np.int32).tobytes())),
        (5, ("<f8", (2, 16), np.zeros(32).tobytes())),
        (7, 5.5),
    ],
    ids=[
        "a name that is not text",
        "fewer names than clusters",
        "a cluster starting past the weights",
        "clusters out of order",
        "bind matrices of the wrong shape",
        "a fractional control point count",
    ],
)
def test_a_skin_whose_arrays_do_not_fit_together_is_refused(index, value):
    forged = forged_skin(index, value)

    with pytest.raises(ChildCrashed, match="unexpected result"):
        run_in_child(lambda: forged, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)
