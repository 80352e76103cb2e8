"""The animation content rules on keys built here: which keys are redundant, which tracks are
constant, which rotations flip, and the tolerances that decide them (``docs/animations.md``)."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.animation.keys import (
    ANGLE_TOLERANCE,
    VALUE_TOLERANCE,
    Track,
    judge,
)


def track(values, path="translation", interpolation="LINEAR", times=None, tangents=None):
    values = np.asarray(values, dtype=np.float64)
    times = np.arange(len(values), dtype=np.float64) if times is None else np.asarray(times)
    return Track(path, interpolation, times, values, tangents)


def redundant_keys(one: Track) -> np.ndarray:
    return judge([one])[0].redundant


def is_constant(one: Track) -> bool:
    return judge([one])[0].constant


def hemisphere_flips(one: Track) -> np.ndarray:
    return judge([one])[0].flips


def turn(angle: float) -> list[float]:
    """The quaternion of a turn by ``angle`` radians about z."""
    return [0.0, 0.0, np.sin(angle / 2), np.cos(angle / 2)]


def test_a_steady_run_has_every_interior_key_redundant():
    assert redundant_keys(track([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]])).tolist() == [1, 2]


def test_keys_are_judged_at_their_own_times():
    values = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
    assert redundant_keys(track(values, times=[0, 1, 2])).tolist() == [1]
    assert redundant_keys(track(values, times=[0, 0.5, 2])).tolist() == []


def test_a_corner_is_not_redundant():
    assert redundant_keys(track([[0, 0, 0], [1, 0, 0], [1, 1, 0]])).size == 0


def test_step_keys_that_repeat_the_key_before_are_redundant_but_not_the_last():
    values = [[0, 0, 0], [0, 0, 0], [5, 0, 0], [5, 0, 0]]
    assert redundant_keys(track(values, interpolation="STEP")).tolist() == [1]


def test_cubic_splines_are_not_judged():
    values = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
    tangents = np.zeros((3, 2, 3))
    assert redundant_keys(track(values, "translation", "CUBICSPLINE", tangents=tangents)).size == 0


def test_rotations_on_one_steady_turn_are_redundant_whatever_their_sign():
    keys = [turn(0.0), [-x for x in turn(0.5)], turn(1.0)]
    assert redundant_keys(track(keys, path="rotation")).tolist() == [1]


def test_a_rotation_off_the_turn_by_more_than_the_tolerance_is_kept():
    near = track([turn(0.0), turn(0.5 + ANGLE_TOLERANCE / 2), turn(1.0)], path="rotation")
    off = track([turn(0.0), turn(0.5 + ANGLE_TOLERANCE * 2), turn(1.0)], path="rotation")
    assert redundant_keys(near).tolist() == [1]
    assert redundant_keys(off).size == 0


@pytest.mark.parametrize("largest", [2.0, 2000.0])
def test_the_value_tolerance_grows_with_the_largest_value_beyond_one(largest):
    tolerance = VALUE_TOLERANCE * largest

    def middle_off_by(offset: float) -> Track:
        return track([[0, 0, 0], [largest / 2 + offset, 0, 0], [largest, 0, 0]])

    assert redundant_keys(middle_off_by(tolerance / 2)).tolist() == [1]
    assert redundant_keys(middle_off_by(tolerance * 2)).size == 0


def test_a_track_of_one_value_is_constant_and_one_key_is_not():
    assert is_constant(track([[1, 2, 3]] * 4))
    assert not is_constant(track([[1, 2, 3]]))
    assert not is_constant(track([[1, 2, 3], [1, 2, 3.1]]))


def test_a_rotation_track_of_one_turn_stored_with_both_signs_flips_rather_than_stays():
    one_turn = track([turn(0.3), [-x for x in turn(0.3)], turn(0.3)], path="rotation")
    assert not is_constant(one_turn)
    assert hemisphere_flips(one_turn).tolist() == [1, 2]


def test_rotations_that_are_not_unit_length_are_left_to_khronos_rule():
    keys = [[0, 0, 0, 2], [0, 0, 0, 2], [0, 0, 0, 2]]
    judgement = judge([track(keys, path="rotation")])[0]
    assert not judgement.constant
    assert judgement.redundant.size == judgement.flips.size == 0


def test_a_spline_with_tangents_is_not_constant():
    tangents = np.zeros((2, 2, 3))
    tangents[0, 1, 0] = 1.0
    assert not is_constant(track([[1, 0, 0]] * 2, "translation", "CUBICSPLINE", tangents=tangents))


def test_each_key_on_the_far_side_from_the_one_before_is_a_flip():
    keys = [turn(0.0), [-x for x in turn(0.1)], [-x for x in turn(0.2)], turn(0.3)]
    assert hemisphere_flips(track(keys, path="rotation")).tolist() == [1, 3]


def test_step_rotations_and_other_paths_do_not_flip():
    keys = [turn(0.0), [-x for x in turn(0.1)]]
    assert hemisphere_flips(track(keys, path="rotation", interpolation="STEP")).size == 0
    assert hemisphere_flips(track([[0, 0, 1], [0, 0, -1]])).size == 0


def test_tracks_judged_together_give_what_each_gives_alone():
    tracks = [
        track([[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
        track([turn(0.0), [-x for x in turn(0.5)], turn(1.0)], path="rotation"),
        track([[5, 5, 5]] * 3),
        track([[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]]),
        track([[0, 0, 0], [0, 0, 0], [4, 0, 0]], interpolation="STEP"),
        track([[2, 0, 0], [3, 0, 0]]),
    ]
    together = judge(tracks)
    alone = [judge([one])[0] for one in tracks]
    assert [j.constant for j in together] == [j.constant for j in alone]
    assert [j.redundant.tolist() for j in together] == [j.redundant.tolist() for j in alone]
    assert [j.flips.tolist() for j in together] == [j.flips.tolist() for j in alone]
    assert [j.redundant.tolist() for j in together] == [[1], [1], [1], [3], [1], []]
    assert [j.constant for j in together] == [False, False, True, False, False, False]
