"""World bounding boxes: bounds of points without their NaNs, and boxes placed by transforms."""

from __future__ import annotations

import numpy as np

from assetcheck.mesh.bounds import Box, corners, placed_box, point_bounds


def test_point_bounds_leave_out_nan():
    points = np.array([[0.0, 1.0, 2.0], [np.nan, -1.0, 5.0], [3.0, np.nan, 4.0]])
    low, high = point_bounds(points)
    assert low.tolist() == [0.0, -1.0, 2.0] and high.tolist() == [3.0, 1.0, 5.0]


def test_a_coordinate_without_any_number_gives_no_box():
    points = np.array([[0.0, np.nan, 2.0], [1.0, np.nan, 5.0]])
    assert placed_box([np.eye(4)], [corners(*point_bounds(points))]) is None


def test_boxes_are_placed_by_their_transforms():
    shift = np.eye(4)
    shift[:3, 3] = [10.0, 0.0, 0.0]
    unit = corners([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    box = placed_box([np.eye(4), shift], [unit, unit])
    assert isinstance(box, Box)
    assert box.extents.tolist() == [11.0, 2.0, 3.0] and box.size == 11.0
    assert box.bottom_centre.tolist() == [5.5, 0.0, 1.5]
