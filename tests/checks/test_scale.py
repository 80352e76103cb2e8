"""Scale and placement: the model's size against the profile's range with the likely unit
mistake, its origin against its base, and its dimensions against the product's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.dimensions import ProductDimensions
from assetcheck.asset.options import ValidationOptions
from assetcheck.checks import scale
from assetcheck.engine import validate
from assetcheck.mesh.bounds import describe_length
from assetcheck.testing.fbx import Scene, binary_fbx, cube
from assetcheck.testing.gltf import GltfBuilder, Primitive
from assetcheck.testing.shapes import box_glb
from tests.checks.scale_cases import CASES, Case
from tests.formats import codes, only_issue, validate_bytes

SIZE_CODES = {"MODEL_EXTREMELY_LARGE", "MODEL_EXTREMELY_SMALL"}


def placed_mesh_glb(**transform) -> bytes:
    """One mesh 3 m wide (the builder lays 4 vertices along x) on a node with ``transform``."""
    builder = GltfBuilder()
    node = builder.add_node(builder.add_mesh([Primitive(4, normals=True)]), name="wheel")
    builder.document["nodes"][node].update(transform)
    return builder.glb()


def check(tmp_path, data: bytes, name: str = "m.glb", **options):
    path = tmp_path / name
    path.write_bytes(data)
    return validate(path, options=ValidationOptions(**options))


# Size.


def test_model_kilometres_wide_is_in_the_wrong_unit(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(scale=[1000.0, 1.0, 1.0]))
    assert only_issue(result, "MODEL_EXTREMELY_LARGE").message == (
        "The model is 3 km across, more than 1 km, the largest plausible for the generic "
        "profile: most likely millimetres exported as metres, 1000x too large (at its real "
        "size it would be 3 m across)."
    )


def test_model_a_hundredth_of_a_millimetre_wide_is_in_the_wrong_unit(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(scale=[1e-5, 1e-5, 1e-5]))
    assert only_issue(result, "MODEL_EXTREMELY_SMALL").message.startswith(
        "The model is 0.03 mm across, less than 0.1 mm, the smallest plausible for the "
        "generic profile: most likely a conversion to metres applied to centimetres twice, "
        "100x too small (at its real size it would be 3 mm across)"
    )


def test_human_sized_model_is_fine(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(translation=[500.0, 0.0, 0.0]))
    assert SIZE_CODES.isdisjoint(codes(result))


@pytest.mark.parametrize(
    ("metres", "code", "likely"),
    [
        (200.0, "MODEL_EXTREMELY_LARGE", "centimetres exported as metres, 100x too large"),
        (0.002, "MODEL_EXTREMELY_SMALL", "applied to centimetres twice, 100x too small"),
        (3000.0, "MODEL_EXTREMELY_LARGE", "millimetres exported as metres, 1000x too large"),
    ],
)
def test_product_profiles_find_the_unit_that_makes_a_product(tmp_path, metres, code, likely):
    data = box_glb([0.0, 0.0, 0.0], [metres, metres / 2, metres / 2])
    issue = only_issue(check(tmp_path, data, engine="shopify"), code)
    assert likely in issue.message
    assert issue.severity == "warning"


def test_a_size_no_unit_mistake_explains_is_still_reported(tmp_path):
    data = box_glb([0.0, 0.0, 0.0], [1e6, 1.0, 1.0])  # 1,000 km: no factor makes it a product
    issue = only_issue(check(tmp_path, data, engine="3d-commerce"), "MODEL_EXTREMELY_LARGE")
    assert issue.message.endswith(
        "no usual unit mistake (centimetres, millimetres, inches) explains it."
    )


def test_a_building_is_plausible_for_an_engine_not_for_a_store(tmp_path):
    data = box_glb([0.0, 0.0, 0.0], [200.0, 30.0, 40.0])
    assert SIZE_CODES.isdisjoint(codes(check(tmp_path, data, engine="unity")))
    assert "MODEL_EXTREMELY_LARGE" in codes(check(tmp_path, data, engine="scene-viewer"))


def test_size_spans_every_placed_instance(tmp_path):
    builder = GltfBuilder()
    mesh = builder.add_mesh([Primitive(3, normals=True)])
    builder.add_node(mesh)
    builder.document["nodes"][builder.add_node(mesh)]["translation"] = [1500.0, 0.0, 0.0]
    assert "MODEL_EXTREMELY_LARGE" in codes(validate_bytes(tmp_path, "m.glb", builder.glb()))


def test_skinned_mesh_is_sized_by_its_joints_not_its_own_node(tmp_path):
    # Vertices in millimetres under a joint scaled to metres: 3 m, as skinning places them.
    builder = GltfBuilder()
    corners = np.array([[0, 0, 0], [3000, 0, 0], [0, 3000, 0]], np.float32)
    position = builder.add_accessor(corners, "VEC3", minmax=True)
    builder.document["meshes"] = [{"primitives": [{"attributes": {"POSITION": position}}]}]
    joint = builder.add_node(name="hips")
    builder.document["nodes"][joint]["scale"] = [0.001, 0.001, 0.001]
    skinned = builder.add_node(0, name="body")
    builder.document["skins"] = [{"joints": [joint]}]
    unskinned = validate_bytes(tmp_path, "u.glb", builder.glb())
    builder.document["nodes"][skinned]["skin"] = 0
    skinned_result = validate_bytes(tmp_path, "s.glb", builder.glb())
    assert "MODEL_EXTREMELY_LARGE" in codes(unskinned)
    assert SIZE_CODES.isdisjoint(codes(skinned_result))


def test_obj_numbers_are_taken_as_metres(tmp_path):
    obj = b"v 0 0 0\nv 2000 0 0\nv 0 1 0\nf 1 2 3\n"  # 2 km if metres, 2 m if millimetres
    issue = only_issue(validate_bytes(tmp_path, "m.obj", obj), "MODEL_EXTREMELY_LARGE")
    assert "millimetres exported as metres, 1000x too large" in issue.message


@pytest.mark.parametrize(
    ("meters", "text"), [(1500, "1.5 km"), (1.8, "1.8 m"), (0.04, "4 cm"), (0.00005, "0.05 mm")]
)
def test_lengths_read_in_the_best_unit(meters, text):
    assert describe_length(meters) == text


# The origin.


def test_origin_far_from_the_model_is_reported_on_its_root_node(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(translation=[500.0, 0.0, 0.0]))
    issue = only_issue(result, "MODEL_PIVOT_FAR_FROM_BASE")
    assert (issue.pointer, issue.severity) == ("/nodes/0", "info")
    assert issue.message.startswith(
        "The model's origin, where engines and AR viewers place and turn it, is 502 m from "
        "the centre of its base, more than the model's own size (3 m)"
    )


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ([-0.5, 0.0, -0.5], [0.5, 1.0, 0.5]),  # origin at the bottom centre
        ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),  # at a corner of the base
        ([-0.5, -1.0, -0.5], [0.5, 0.0, 0.5]),  # at the top centre
    ],
)
def test_origin_on_or_at_the_edge_of_the_model_is_fine(tmp_path, low, high):
    assert "MODEL_PIVOT_FAR_FROM_BASE" not in codes(check(tmp_path, box_glb(low, high)))


def test_shopify_makes_a_far_origin_a_warning(tmp_path):
    data = box_glb([5.0, 0.0, 5.0], [6.0, 1.0, 6.0])
    issue = only_issue(check(tmp_path, data, engine="shopify"), "MODEL_PIVOT_FAR_FROM_BASE")
    assert issue.severity == "warning"


def test_origin_of_several_roots_names_no_node(tmp_path):
    builder = GltfBuilder()
    mesh = builder.add_mesh([Primitive(3, normals=True)])
    for x in (100.0, 101.0):
        node = builder.add_node(mesh)
        builder.document["nodes"][node]["translation"] = [x, 0.0, 0.0]
    builder.document["scenes"] = [{"nodes": [0, 1]}]
    issue = only_issue(
        validate_bytes(tmp_path, "m.glb", builder.glb()), "MODEL_PIVOT_FAR_FROM_BASE"
    )
    assert issue.pointer is None


def test_fbx_origin_is_measured_in_metres_after_the_unit(tmp_path):
    mesh = cube("Crate")
    mesh.translation = (1000.0, 0.0, 0.0)  # 10 m away in centimetres, the cube 2 cm wide
    result = validate_bytes(tmp_path, "m.fbx", binary_fbx(Scene(meshes=[mesh])))
    assert (
        "is 10 m from the centre of its base"
        in only_issue(result, "MODEL_PIVOT_FAR_FROM_BASE").message
    )


# The product's dimensions.


def test_dimensions_within_three_percent_match(tmp_path):
    data = box_glb([-0.3, 0.0, -0.2], [0.3, 0.9, 0.2])
    given = ProductDimensions(width=0.61, height=0.88, depth=0.4)
    assert "MODEL_DIMENSIONS_MISMATCH" not in codes(check(tmp_path, data, dimensions=given))


def test_a_side_beyond_the_tolerance_is_named(tmp_path):
    data = box_glb([-0.3, 0.0, -0.2], [0.3, 0.9, 0.2])
    given = ProductDimensions(width=0.6, height=1.0, depth=0.4)
    issue = only_issue(check(tmp_path, data, dimensions=given), "MODEL_DIMENSIONS_MISMATCH")
    assert issue.message == (
        "The model measures 0.6 x 0.9 x 0.4 m (width x height x depth), the product "
        "0.6 x 1 x 0.4 m: height 90 cm instead of 1 m more than the 3% tolerance."
    )


def test_every_side_off_by_one_factor_names_the_factor(tmp_path):
    data = box_glb([-30.0, 0.0, -20.0], [30.0, 90.0, 20.0])  # centimetres as metres
    given = ProductDimensions(width=0.6, height=0.9)
    issue = only_issue(check(tmp_path, data, dimensions=given), "MODEL_DIMENSIONS_MISMATCH")
    assert issue.message.endswith(
        "tolerance; every side is off by the same factor: scaled by 0.01 it fits."
    )
    assert "depth" not in issue.message.split(": ")[1]


def test_fbx_dimensions_are_compared_in_metres_y_up(tmp_path):
    # A 2 x 2 x 2 unit cube in a Z-up file measured in metres.
    data = binary_fbx(Scene(meshes=[cube()], up_axis=2, unit_scale_cm=100.0))
    given = ProductDimensions(width=2.0, height=2.0, depth=2.0)
    assert "MODEL_DIMENSIONS_MISMATCH" not in codes(
        check(tmp_path, data, "m.fbx", dimensions=given)
    )
    smaller = ProductDimensions(height=1.0)
    assert "MODEL_DIMENSIONS_MISMATCH" in codes(check(tmp_path, data, "m.fbx", dimensions=smaller))


# Golden findings on crafted files (tests/assets/scale, from tests/checks/scale_cases.py).

GOLDEN = Path(__file__).resolve().parents[1] / "assets" / "scale"
GOLDEN_CODES = {*scale.CODES, "FBX_CONVERSION_ON_NODES", "FBX_Z_UP"}


def golden_findings(path: Path, case: Case) -> list[list]:
    options = ValidationOptions(engine=case.engine, dimensions=case.dimensions)
    return sorted(
        [issue.code, issue.severity, issue.pointer]
        for issue in validate(path, options=options).issues
        if issue.code in GOLDEN_CODES
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_file_gives_its_golden_findings(name, update_golden):
    case = CASES[name]
    path, report = GOLDEN / f"{name}.{case.extension}", GOLDEN / f"{name}.report.json"
    if update_golden:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(case.make())
        report.write_text(json.dumps({"findings": golden_findings(path, case)}, indent=1) + "\n")
    assert golden_findings(path, case) == json.loads(report.read_text())["findings"]


def test_every_code_has_a_golden_case_named_after_it():
    named = {name.upper().removesuffix("_OBJ").removesuffix("_FBX") for name in CASES}
    assert named >= GOLDEN_CODES
    for name in CASES:
        findings = json.loads((GOLDEN / f"{name}.report.json").read_text())["findings"]
        code = name.upper().removesuffix("_OBJ").removesuffix("_FBX")
        assert (code in {found[0] for found in findings}) == (code in GOLDEN_CODES), name


def test_golden_folder_holds_only_known_cases():
    assert {path.name.split(".")[0] for path in GOLDEN.iterdir()} == set(CASES)


def test_a_default_scene_out_of_range_names_the_first_scenes_root(tmp_path):
    builder = GltfBuilder()
    node = builder.add_node(builder.add_mesh([Primitive(3, normals=True)]))
    builder.document["nodes"][node]["translation"] = [100.0, 0.0, 0.0]
    builder.document["scenes"] = [{"nodes": [node]}]
    builder.document["scene"] = 7
    result = validate_bytes(tmp_path, "m.glb", builder.glb())
    assert only_issue(result, "MODEL_PIVOT_FAR_FROM_BASE").pointer == f"/nodes/{node}"
