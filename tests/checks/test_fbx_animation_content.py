"""FBX animation curves under the rules of glTF animation keys, on files the FBX writers of
``assetcheck.testing`` build (binary, compressed binary and ASCII FBX 7)."""

from __future__ import annotations

import pytest

from assetcheck.checks.fbx_animation_content import CODES
from assetcheck.testing.fbx import (
    CONSTANT_KEY,
    CUBIC_KEY,
    LINEAR_KEY,
    CurveSpec,
    Scene,
    binary_fbx,
    cube,
)
from tests.formats import codes, only_issue, validate_bytes
from tests.formats.fbx import WRITERS

#: Five keys a quarter of a second apart.
TIMES = [0.0, 0.25, 0.5, 0.75, 1.0]
#: Motion no key of which is redundant: each key leaves the line between its neighbours.
WAVE = [0.0, 2.0, 1.0, 3.0, 0.0]


def animated(*curves: CurveSpec, seconds: float = 1.0) -> bytes:
    return binary_fbx(Scene(meshes=[cube()], animations=[("Walk", seconds)], curves=curves))


def animation_codes(result) -> list[str]:
    return [code for code in codes(result) if code in CODES]


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_motion_with_no_fault_raises_no_animation_issue_in_any_layout(tmp_path, writer):
    scene = Scene(
        meshes=[cube()],
        animations=[("Walk", 1.0)],
        curves=[
            CurveSpec("Cube", TIMES, WAVE),
            CurveSpec("Hips", TIMES, [0, 90, 170, 240, 350], prop="Lcl Rotation"),
        ],
    )
    assert animation_codes(validate_bytes(tmp_path, "a.fbx", writer(scene))) == []


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_keys_on_the_line_between_their_neighbours_are_redundant_in_any_layout(tmp_path, writer):
    scene = Scene(
        meshes=[cube()],
        animations=[("Walk", 1.0)],
        curves=[
            CurveSpec("Cube", TIMES, [0, 1, 2, 3, 2]),
            CurveSpec("Cube", TIMES, WAVE, component="Y"),
        ],
    )
    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", writer(scene)), "FBX_ANIMATION_REDUNDANT_KEYS"
    )

    assert issue.severity == "info"
    assert issue.message == (
        "Animation stack Walk: 2 of the 10 keys of Cube Lcl Translation hold the value "
        "interpolation between their neighbours already gives (the first is key 1 of its X "
        "curve); removing them saves about 24 bytes."
    )


def test_a_curve_that_never_changes_is_reported_with_its_neighbours_in_one_finding(tmp_path):
    data = animated(
        CurveSpec("Cube", TIMES, WAVE),
        CurveSpec("Cube", TIMES, [1.0] * 5, component="Y"),
        CurveSpec("Cube", TIMES, [2.0] * 5, component="Z"),
    )
    result = validate_bytes(tmp_path, "a.fbx", data)

    issue = only_issue(result, "FBX_ANIMATION_CURVE_CONSTANT")
    assert issue.severity == "info"
    assert issue.message == (
        "Animation stack Walk: the Y, Z curves of Cube Lcl Translation hold the same value at "
        "all their keys (10 keys): they move nothing and store about 120 bytes of keys."
    )
    assert "FBX_ANIMATION_REDUNDANT_KEYS" not in codes(result)  # constant keys are not counted


def test_cubic_keys_are_judged_constant_only_when_their_slopes_are_flat(tmp_path):
    cubic = [CUBIC_KEY] * 5
    flat = CurveSpec("Cube", TIMES, [1.0] * 5, flags=cubic)
    sloped = CurveSpec("Cube", TIMES, [1.0] * 5, "Lcl Scaling", flags=cubic, slopes=[(1, 1)] * 5)

    result = validate_bytes(tmp_path, "a.fbx", animated(flat, sloped))

    assert only_issue(result, "FBX_ANIMATION_CURVE_CONSTANT").message.startswith(
        "Animation stack Walk: the X curves of Cube Lcl Translation"
    )


def test_cubic_keys_are_never_judged_redundant(tmp_path):
    line = CurveSpec("Cube", TIMES, [0, 1, 2, 3, 4], flags=[CUBIC_KEY] * 5, slopes=[(4, 4)] * 5)
    assert animation_codes(validate_bytes(tmp_path, "a.fbx", animated(line))) == []


def test_in_a_curve_of_mixed_interpolation_only_keys_between_linear_segments_are_judged(tmp_path):
    # Segments: cubic, linear, linear, linear. Key 1 ends a cubic segment: never judged; key 2
    # and key 3 lie between linear segments, key 2 on the line, key 3 off it.
    flags = [CUBIC_KEY, LINEAR_KEY, LINEAR_KEY, LINEAR_KEY, LINEAR_KEY]
    curve = CurveSpec("Cube", TIMES, [0, 1, 2, 3, 0], flags=flags, slopes=[(4, 4)] * 5)

    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", animated(curve)), "FBX_ANIMATION_REDUNDANT_KEYS"
    )
    assert "1 of the 5 keys" in issue.message
    assert "the first is key 2 of its X curve" in issue.message


def test_a_stepped_key_that_repeats_the_key_before_is_redundant(tmp_path):
    curve = CurveSpec("Cube", TIMES, [0, 1, 1, 3, 3], flags=[CONSTANT_KEY] * 5)
    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", animated(curve)), "FBX_ANIMATION_REDUNDANT_KEYS"
    )
    assert "1 of the 5 keys" in issue.message
    assert "the first is key 2 of its X curve" in issue.message  # the last key sets the end


def test_rotation_keys_more_than_half_a_turn_apart_jump(tmp_path):
    jump = CurveSpec("Hips", TIMES, [0, 170, -170, -100, 0], "Lcl Rotation", component="Y")
    far = CurveSpec("Cube", TIMES, [0, 170, -170, -100, 0])  # a translation: not a turn
    result = validate_bytes(tmp_path, "a.fbx", animated(jump, far))

    issue = only_issue(result, "FBX_ANIMATION_ROTATION_JUMP")
    assert issue.severity == "info"
    assert issue.message.startswith(
        "Animation stack Walk: 1 keys of Hips Lcl Rotation turn more than 180 degrees from the "
        "key before (the first is key 2 of its Y curve, by 340 degrees)."
    )


def test_a_stepped_rotation_does_not_spin_between_its_keys(tmp_path):
    turns = [0, 170, -170, -100, 0]
    stepped = CurveSpec("Hips", TIMES, turns, "Lcl Rotation", flags=[CONSTANT_KEY] * 5)
    result = validate_bytes(tmp_path, "a.fbx", animated(stepped))
    assert "FBX_ANIMATION_ROTATION_JUMP" not in codes(result)


def test_values_that_are_not_finite_are_reported_and_their_curve_not_judged(tmp_path):
    broken = CurveSpec("Cube", TIMES, [0, float("nan"), 2, float("inf"), 4])
    result = validate_bytes(tmp_path, "a.fbx", animated(broken))

    issue = only_issue(result, "FBX_ANIMATION_VALUE_NOT_FINITE")
    assert issue.severity == "warning"
    assert issue.message.startswith(
        "Animation stack Walk: 2 keys of Cube Lcl Translation hold a value or time that is not "
        "a number or is infinite (the first is key 1 of its X curve)."
    )
    assert animation_codes(result) == ["FBX_ANIMATION_VALUE_NOT_FINITE"]


def test_key_times_that_do_not_increase_are_reported_and_their_curve_not_judged(tmp_path):
    backwards = CurveSpec("Cube", [0.0, 0.5, 0.5, 0.25, 1.0], [0, 1, 2, 3, 4])
    result = validate_bytes(tmp_path, "a.fbx", animated(backwards))

    issue = only_issue(result, "FBX_ANIMATION_KEY_TIMES_NOT_INCREASING")
    assert issue.severity == "warning"
    assert issue.message.startswith(
        "Animation stack Walk: the key times of Cube Lcl Translation do not increase: key 2 of "
        "its X curve, at 0.5 s, is not after the key before."
    )
    assert animation_codes(result) == ["FBX_ANIMATION_KEY_TIMES_NOT_INCREASING"]


def test_a_stack_whose_span_is_empty_lasts_no_time(tmp_path):
    result = validate_bytes(tmp_path, "a.fbx", animated(CurveSpec("Cube", TIMES, WAVE), seconds=0))

    issue = only_issue(result, "FBX_ANIMATION_ZERO_LENGTH")
    assert (issue.severity, issue.message) == (
        "info",
        "Animation stack Walk lasts no time: its LocalStart and LocalStop are both 0 s. It sets "
        "a pose, or nothing, rather than playing motion.",
    )


def test_a_stack_whose_keys_are_all_at_one_time_lasts_no_time(tmp_path):
    pose = [CurveSpec("Cube", [0.5], [1.0]), CurveSpec("Cube", [0.5], [2.0], component="Y")]
    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", animated(*pose)), "FBX_ANIMATION_ZERO_LENGTH"
    )
    assert "lasts no time: every key of its curves is at 0.5 s." in issue.message


def test_the_empty_take_of_a_static_scene_is_not_reported(tmp_path):
    data = binary_fbx(Scene(meshes=[cube()], animations=[("Take 001", 1.0)]))
    assert animation_codes(validate_bytes(tmp_path, "a.fbx", data)) == []


def test_curves_on_a_model_not_connected_to_the_scene_are_reported_once_per_model(tmp_path):
    lost = [
        CurveSpec("Lost", TIMES, WAVE, in_scene=False),
        CurveSpec("Lost", TIMES, WAVE, "Lcl Rotation", in_scene=False),
    ]
    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", animated(*lost)), "FBX_ANIMATION_TARGET_NOT_IN_SCENE"
    )
    assert (issue.severity, issue.message) == (
        "info",
        "Animation stack Walk: 2 curves animate model Lost, which is not connected to the "
        "scene: their keys are loaded and never seen.",
    )


def test_curves_of_each_stack_are_judged_in_that_stack(tmp_path):
    scene = Scene(
        meshes=[cube()],
        animations=[("Walk", 1.0), ("Run", 1.0)],
        curves=[
            CurveSpec("Cube", TIMES, WAVE),
            CurveSpec("Cube", TIMES, [1.0] * 5, stack=1),
        ],
    )
    issue = only_issue(
        validate_bytes(tmp_path, "a.fbx", binary_fbx(scene)), "FBX_ANIMATION_CURVE_CONSTANT"
    )
    assert issue.message.startswith("Animation stack Run: the X curves of Cube")


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_a_file_of_animation_alone_is_judged(tmp_path, writer):
    scene = Scene(animations=[("Walk", 1.0)], curves=[CurveSpec("Hips", TIMES, [1.0] * 5)])
    result = validate_bytes(tmp_path, "a.fbx", writer(scene))
    assert animation_codes(result) == ["FBX_ANIMATION_CURVE_CONSTANT"]
