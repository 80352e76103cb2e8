"""Cutting meshes into batches: every mesh once, in order, within the limits."""

from __future__ import annotations

import pytest

from assetcheck.mesh.batches import batches


@pytest.mark.parametrize("limit", [1, 5, 12, 100])
def test_batches_hold_every_mesh_once_in_order_within_the_triangle_limit(limit):
    sizes = [(3, 4), (0, 2), (7, 9), (12, 8), (1, 3), (0, 0), (5, 5)]
    cut = list(batches(sizes, limit))
    assert [index for batch in cut for index in batch] == list(range(len(sizes)))
    for batch in cut:
        assert len(batch) == 1 or sum(sizes[i][0] for i in batch) <= limit


def test_batches_stay_under_two_to_the_31_vertices():
    cut = list(batches([(1, 1 << 30), (1, 1 << 30), (1, 5)], 100))
    assert cut == [range(0, 1), range(1, 3)]


def test_no_meshes_make_no_batches():
    assert list(batches([], 10)) == []
