"""The compiled mesh kernels count what straightforward Python counts, on random meshes.

Each reference below is the rule of ``docs/topology.md`` written the plainest way (dicts, sets,
a loop per triangle): slow, obviously right, and kept only here. Meshes are drawn on a coarse
grid of positions, so welded corners, flat and repeated triangles, shared and non-manifold
edges and separate pieces all come up often.
"""

from __future__ import annotations

import mmap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck.mesh import faults as faults_module
from assetcheck.mesh._kernels import (
    count_off_length,
    count_repeats,
    draw_nearest,
    file_edges,
    hash_positions,
    lower_vertex_counts,
    meshes_faults,
    signature_positions,
    split_windings,
    tally_edges,
)
from assetcheck.mesh._kernels import mapped_areas as kernel_areas
from assetcheck.mesh.duplicates import FLAT_RATIO, triangle_marks
from assetcheck.mesh.faults import (
    CHUNK_TRIANGLES,
    faulty_triangles,
    meshes_triangle_faults,
    triangle_faults,
    unused_vertices,
)
from assetcheck.mesh.prepared import PreparedMesh, Vertices, usable_corners
from assetcheck.mesh.topology import Topology, meshes_topology, welded_corners
from assetcheck.mesh.uvs import OVERLAP_GRID, lightmap_faults, mapped_areas
from tests.mesh.test_uvs import scanned_cells

#: Coordinates meshes are drawn from: few, so positions repeat and corners line up.
GRID = [-1.0, -0.0, 0.0, 0.5, 1.0, 2.0]
ODD = [float("nan"), float("inf"), 1e-30, 3.0e38]


@st.composite
def meshes(draw: st.DrawFn, odd: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(positions (count, 3) float32, triangles (n, 3) uint32)``; some triangles repeat a
    corner, repeat an earlier triangle (in any rotation) or point past the vertices."""
    values = st.sampled_from(GRID + ODD if odd else GRID)
    count = draw(st.integers(3, 24))
    positions = np.array(draw(st.lists(values, min_size=3 * count, max_size=3 * count)))
    corner = st.integers(0, count if odd else count - 1)
    triangles = draw(st.lists(st.tuples(corner, corner, corner), max_size=40))
    repeats = draw(st.lists(st.tuples(st.integers(0, 39), st.integers(0, 2)), max_size=8))
    for index, turn in repeats:
        if index < len(triangles):
            a, b, c = triangles[index]
            triangles.append(((a, b, c), (b, c, a), (c, a, b))[turn])
    return (
        positions.reshape(count, 3).astype(np.float32),
        np.array(triangles, np.uint32).reshape(-1, 3),
    )


def reference_topology(corners: np.ndarray) -> tuple[int, int, int, int, int]:
    """Distinct, boundary, non-manifold and misoriented edges and pieces, from a dict of each
    edge's directions and a union-find of plain dicts."""
    directions: dict[tuple[int, int], list[bool]] = {}
    parent: dict[int, int] = {}

    def root(vertex: int) -> int:
        while parent.setdefault(vertex, vertex) != vertex:
            vertex = parent[vertex]
        return vertex

    for a, b, c in corners.T.tolist():
        for start, end in ((a, b), (b, c), (c, a)):
            directions.setdefault((min(start, end), max(start, end)), []).append(start > end)
        for other in (b, c):
            parent[root(other)] = root(a)
    runs = list(directions.values())
    return (
        len(runs),
        sum(len(run) == 1 for run in runs),
        sum(len(run) >= 3 for run in runs),
        sum(len(run) == 2 and run[0] == run[1] for run in runs),
        len({root(vertex) for vertex in list(parent)}),
    )


def counted(topology: Topology) -> tuple[int, int, int, int, int]:
    return (
        topology.edges,
        topology.boundary_edges,
        topology.non_manifold_edges,
        topology.misoriented_edges,
        topology.pieces,
    )


def reference_flat(points: np.ndarray) -> bool:
    """Whether the triangle ``points`` (3 corners x 3 axes, float32) is flat: twice its area
    at most FLAT_RATIO times its longest side squared, in float32 as the kernel computes it;
    NaN is never flat."""
    a, b, c = points
    with np.errstate(invalid="ignore", over="ignore"):
        ab, ac, bc = b - a, c - a, c - b
        cross = np.array(
            [
                ab[1] * ac[2] - ab[2] * ac[1],
                ab[2] * ac[0] - ab[0] * ac[2],
                ab[0] * ac[1] - ab[1] * ac[0],
            ],
            np.float32,
        )
        twice_area = np.sqrt((cross[0] * cross[0] + cross[1] * cross[1]) + cross[2] * cross[2])
        lengths = [(v[0] * v[0] + v[1] * v[1]) + v[2] * v[2] for v in (ab, ac, bc)]
        longest = np.float32(np.nan) if np.isnan(lengths).any() else max(lengths)
        return bool(twice_area <= FLAT_RATIO * longest)


def reference_faults(
    positions: np.ndarray, triangles: np.ndarray
) -> tuple[list[int], list[int], int]:
    """The numbers of the flat and of the duplicate triangles among the usable ones (distinct
    corners, all existing), and how many triangles repeat a corner."""
    vertices = Vertices.of(positions)
    count = len(positions)
    flat, duplicates, repeated_corner = [], [], 0
    seen: set[tuple[int, int, int]] = set()
    for number, (a, b, c) in enumerate(triangles.tolist()):
        if len({a, b, c}) < 3:
            repeated_corner += 1
            continue
        if max(a, b, c) >= count:
            continue
        if reference_flat(vertices.coords[:, [a, b, c]].T):
            flat.append(number)
            continue
        ka, kb, kc = (int(vertices.keys[i]) for i in (a, b, c))
        winding = min((ka, kb, kc), (kb, kc, ka), (kc, ka, kb))  # the same in every rotation
        if winding in seen:
            duplicates.append(number)
        seen.add(winding)
    return flat, duplicates, repeated_corner


@settings(max_examples=300, deadline=None)
@given(st.lists(meshes(), min_size=1, max_size=4))
def test_edges_and_pieces_are_those_of_a_dict_and_a_plain_union_find(drawn):
    prepared = [PreparedMesh(Vertices.of(p), t) for p, t in drawn]
    welded = [(welded_corners(mesh), len(mesh.vertices)) for mesh in prepared]
    expected = [reference_topology(corners) for corners, _ in welded]
    assert [counted(topology) for topology in meshes_topology(welded)] == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(meshes(), min_size=1, max_size=3))
def test_edges_and_pieces_of_vertices_far_apart_are_those_of_the_reference(drawn):
    # Ids 2**15 or more apart do not fit the edge table's 16-bit entries: it takes 32 bits.
    prepared = [PreparedMesh(Vertices.of(p), t) for p, t in drawn]
    welded = [(welded_corners(mesh), len(mesh.vertices)) for mesh in prepared]
    spread = [(corners * np.uint32(40_009), count * 40_009) for corners, count in welded]
    expected = [reference_topology(corners) for corners, _ in welded]
    assert [counted(topology) for topology in meshes_topology(spread)] == expected


@settings(max_examples=300, deadline=None)
@given(meshes(odd=True))
def test_flat_and_duplicate_triangles_are_those_a_loop_over_the_triangles_finds(drawn):
    positions, triangles = drawn
    flat, duplicates, repeated_corner = reference_faults(positions, triangles)
    mesh = PreparedMesh(Vertices.of(positions), triangles)
    faults = triangle_faults(mesh)
    assert (faults.total, faults.zero_area, faults.duplicates) == (
        len(triangles),
        len(flat),
        len(duplicates),
    )
    assert triangle_faults(mesh, repeated_are_flat=True).zero_area == len(flat) + repeated_corner
    marked_flat, marked_duplicates = faulty_triangles(mesh.vertices, triangles, 1000)
    assert (marked_flat.tolist(), marked_duplicates.tolist()) == (flat, duplicates)


@settings(max_examples=100, deadline=None)
@given(st.lists(meshes(odd=True), max_size=6), st.sampled_from([0, 7, 40]))
def test_meshes_counted_together_get_the_faults_each_has_alone(drawn, small):
    prepared = [
        PreparedMesh(Vertices.of(positions), triangles.astype(dtype))
        for (positions, triangles), dtype in zip(
            drawn, [np.uint8, np.uint16, np.uint32] * 2, strict=False
        )
    ]
    alone = [triangle_faults(mesh) for mesh in prepared]
    assert meshes_triangle_faults(prepared) == alone
    # Some meshes too big to count together, batches of a few triangles.
    saved = faults_module.SMALL_MESH_TRIANGLES, faults_module.BATCH_TRIANGLES
    faults_module.SMALL_MESH_TRIANGLES, faults_module.BATCH_TRIANGLES = small, 30
    try:
        assert meshes_triangle_faults(prepared) == alone
    finally:
        faults_module.SMALL_MESH_TRIANGLES, faults_module.BATCH_TRIANGLES = saved


def test_meshes_counted_together_refuse_a_corner_past_its_own_mesh():
    coords = np.zeros((3, 6), np.float32)
    keys = np.arange(6, dtype=np.uint64)
    corners = np.array([[0, 0], [1, 1], [2, 3]], np.int64)
    starts = np.array([0, 3, 6], np.int64)
    with pytest.raises(IndexError, match="triangle 1 points past the 3 vertices"):
        meshes_faults(coords, keys, corners, starts, np.array([0, 1, 2], np.int64), 1e-6)
    with pytest.raises(ValueError, match="mesh 1 lies outside"):
        meshes_faults(coords, keys, corners, starts, np.array([0, 2, 1], np.int64), 1e-6)


@given(
    st.integers(0, 30),
    st.lists(st.integers(-5, 40), max_size=60),
    st.sampled_from([np.uint8, np.uint16, np.uint32, np.int32, np.int64]),
)
def test_unused_vertices_are_those_no_index_in_range_names(count, indices, dtype):
    info = np.iinfo(dtype)
    values = np.array([i for i in indices if info.min <= i <= info.max], dtype)
    used = {i for i in values.tolist() if 0 <= i < count}
    assert unused_vertices(values, count) == count - len(used)


#: Lightmap UVs: anywhere around the unit square, or on a cell's centre or corner (so edges
#: run along rows of centres and through them).
UV = st.one_of(
    st.floats(-0.125, 1.125, width=32),
    st.integers(-8, 2 * OVERLAP_GRID + 8).map(lambda half_cells: half_cells / (2 * OVERLAP_GRID)),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(*[UV] * 6), min_size=1, max_size=12))
def test_lightmap_cells_are_those_a_scan_of_every_centre_finds(triangles):
    uvs = np.array(triangles, np.float64).reshape(-1, 2)
    corners = np.arange(len(uvs)).reshape(-1, 3).T
    faults = lightmap_faults(uvs, corners)
    scanned = scanned_cells(uvs, corners, faults.grid)
    assert (faults.covered_cells, faults.overlapped_cells) == scanned


def test_duplicates_of_a_mesh_searched_in_many_parts_are_those_a_loop_finds():
    # Enough triangles that the kernel splits their hashes into several parts by their top
    # bits; few positions, so many triangles repeat one another.
    rng = np.random.default_rng(5)
    positions = rng.choice(GRID, (40, 3)).astype(np.float32)
    triangles = rng.integers(0, 40, (30_000, 3)).astype(np.uint32)
    flat, duplicates, _ = reference_faults(positions, triangles)
    mesh = PreparedMesh(Vertices.of(positions), triangles)
    faults = triangle_faults(mesh)
    assert (faults.zero_area, faults.duplicates) == (len(flat), len(duplicates))
    assert 2048 < len(triangles) - len(flat) - len(duplicates) < len(duplicates)
    marked_flat, marked_duplicates = faulty_triangles(mesh.vertices, triangles, 30_000)
    assert (marked_flat.tolist(), marked_duplicates.tolist()) == (flat, duplicates)


def test_kernels_refuse_corners_past_the_vertices_instead_of_reading_past_them():
    corners = np.array([[0], [1], [3]], np.uint32)
    vertices = Vertices.of(np.zeros((3, 3), np.float32))
    with pytest.raises(IndexError, match="past the 3 vertices"):
        meshes_topology([(corners, 3)])
    with pytest.raises(IndexError, match="past the 3 vertices"):
        triangle_marks(vertices, corners, 1)
    areas = np.empty(1, np.float32)
    with pytest.raises(IndexError, match="past the 3 vertices"):
        kernel_areas(vertices.coords, np.zeros((2, 3), np.float32), corners, areas, areas)


def reference_areas(coords: np.ndarray, uvs: np.ndarray, corners: np.ndarray):
    """Twice each triangle's UV area (its magnitude) and surface area, in float32 numpy as
    the texel density measured them before the kernel."""
    with np.errstate(invalid="ignore", over="ignore"):
        uv = np.take(uvs, corners, axis=1)
        uv_ab, uv_ac = uv[:, 1] - uv[:, 0], uv[:, 2] - uv[:, 0]
        twice_uv = np.abs(uv_ab[0] * uv_ac[1] - uv_ab[1] * uv_ac[0])
        points = np.take(coords, corners, axis=1)
        ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
        cross = ab[[1, 2, 0]] * ac[[2, 0, 1]] - ab[[2, 0, 1]] * ac[[1, 2, 0]]
        return twice_uv, np.sqrt(np.einsum("ij,ij->j", cross, cross))


#: Any float32: mostly of moderate size, and the odd ones.
ANY_FLOAT = st.one_of(st.floats(-1e3, 1e3, width=32), st.floats(width=32), st.sampled_from(ODD))


@settings(max_examples=200, deadline=None)
@given(meshes(odd=True), st.data())
def test_mapped_areas_of_each_triangle_are_numpys(drawn, data):
    positions, triangles = drawn
    count = len(positions)
    # Some coordinates anywhere in float32, the others on the grid (so triangles are flat,
    # repeat corners and share edges too).
    anywhere = data.draw(
        st.lists(st.one_of(st.none(), ANY_FLOAT), min_size=3 * count, max_size=3 * count)
    )
    for at, value in enumerate(anywhere):
        if value is not None:
            positions.flat[at] = value
    corners = PreparedMesh(Vertices.of(positions), triangles).corners
    uvs = np.array(
        data.draw(st.lists(ANY_FLOAT, min_size=2 * count, max_size=2 * count)), np.float32
    ).reshape(2, count)
    coords = Vertices.of(positions).coords
    uv, surface = np.empty(corners.shape[1], np.float32), np.empty(corners.shape[1], np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        kernel_areas(coords, uvs, corners, uv, surface)
    expected_uv, expected_surface = reference_areas(coords, uvs, corners)
    # Equal values, NaN where numpy has NaN (whichever its sign: neither sum counts it).
    assert np.array_equal(uv, expected_uv, equal_nan=True)
    assert np.array_equal(surface, expected_surface, equal_nan=True)


def test_mapped_areas_sum_each_chunk_of_triangles_in_float64():
    rng = np.random.default_rng(3)
    positions = rng.normal(size=(5000, 3)).astype(np.float32)
    uvs = rng.normal(size=(5000, 2)).astype(np.float32)
    uvs[7] = np.nan  # its triangles count in neither sum
    corners = rng.integers(0, 5000, (3, 2 * CHUNK_TRIANGLES + 5)).astype(np.uint32)
    vertices = Vertices.of(positions)
    expected = [0.0, 0.0]
    for start in range(0, corners.shape[1], CHUNK_TRIANGLES):
        areas = reference_areas(vertices.coords, uvs.T, corners[:, start : start + CHUNK_TRIANGLES])
        usable = np.isfinite(areas[0]) & np.isfinite(areas[1])
        for number, twice in enumerate(areas):
            expected[number] += float(twice.sum(where=usable, dtype=np.float64)) / 2
    assert mapped_areas(vertices, uvs, corners) == tuple(expected)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.sampled_from([3, 4]),
    st.integers(0, 200_000),
    st.integers(0, 200_000),
    st.data(),
)
def test_vectors_off_length_are_those_numpy_counts(rows, columns, channels, low, high, data):
    values = data.draw(st.lists(st.integers(0, 255), min_size=rows * columns * channels))
    texels = np.array(values[: rows * columns * channels], np.uint8)
    texels = texels.reshape(rows, columns, channels)
    lengths = ((texels[..., :3].astype(np.int64) * 2 - 255) ** 2).sum(axis=-1)
    expected = int(np.count_nonzero((lengths < low) | (lengths > high)))
    assert count_off_length(texels, low, high) == expected


def test_a_vector_needs_three_channels():
    with pytest.raises(ValueError, match="three channels"):
        count_off_length(np.zeros((2, 2, 2), np.uint8), 0, 1)


def found_positions(data: bytes, signature: bytes, stop: int, limit: int) -> list[int]:
    """``signature_positions`` the plain way: ``bytes.find`` from one byte past the last."""
    positions: list[int] = []
    position = data.find(signature, 0, stop)
    while position != -1 and len(positions) < limit:
        positions.append(position)
        position = data.find(signature, position + 1, stop)
    return positions


#: Pieces the searched data is drawn from: signatures whole and in part, and runs of other bytes
#: long enough that occurrences fall on both sides of the scan's block boundaries.
PIECES = [b"P", b"K", b"\x05", b"\x06", b"PK\x05\x06", b"PK", b"\x00" * 37, b"\x06" * 200]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=120).map(b"".join),
    st.sampled_from([b"PK\x05\x06", b"P", b"PP", b"PKP", b"\x06\x06", b"\x05\x06\x00"]),
    st.integers(0, 60),
    st.data(),
)
def test_signature_positions_are_those_repeated_find_gives(data, signature, limit, draw):
    stop = draw.draw(st.integers(0, len(data) + 8))
    expected = found_positions(data, signature, stop, limit)
    assert signature_positions(data, signature, stop, limit) == expected


@pytest.mark.parametrize("position", [0, 1, 251, 252, 253, 255, 256, 257, 509, 996])
def test_a_signature_is_found_wherever_it_lies(position):
    data = bytearray(1000)
    data[position : position + 4] = b"PK\x05\x06"
    assert signature_positions(bytes(data), b"PK\x05\x06", len(data), 10) == [position]
    assert signature_positions(bytes(data), b"PK\x05\x06", position + 3, 10) == []


def test_overlapping_signatures_are_each_found_up_to_the_limit():
    data = b"x" + b"P" * 600
    assert signature_positions(data, b"PP", len(data), 1000) == list(range(1, 600))
    assert signature_positions(data, b"PP", len(data), 5) == [1, 2, 3, 4, 5]
    assert signature_positions(data, b"PP", len(data), 0) == []


def test_signatures_are_found_in_a_memory_map(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(5000) + b"PK\x05\x06" + bytes(3000) + b"PK\x05\x06")
    with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        assert signature_positions(data, b"PK\x05\x06", len(data), 10) == [5000, 8004]
        assert signature_positions(b"", b"PK\x05\x06", 10, 10) == []


def test_an_empty_signature_is_refused():
    with pytest.raises(ValueError, match="empty signature"):
        signature_positions(b"data", b"", 4, 1)


def numpy_vertices(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The coordinates and position hashes as numpy computed them before the kernel."""
    with np.errstate(invalid="ignore"):  # adding 0.0 quiets a signalling NaN
        coords = np.ascontiguousarray(positions.T, dtype=np.float32) + np.float32(0.0)
    bits = coords.view(np.uint32)
    keys = (bits[1].astype(np.uint64) << np.uint64(32)) | bits[0]
    keys ^= bits[2].astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    for multiplier in (0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, None):
        keys ^= keys >> np.uint64(33)
        if multiplier is not None:
            keys *= np.uint64(multiplier)
    return coords, keys


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(GRID + ODD + [-3.0e38, float("-inf"), -1e-45]), max_size=60),
    st.sampled_from([np.float32, np.float64, np.float16, np.int16, np.uint8]),
    st.booleans(),
)
def test_position_hashes_are_those_numpy_computed(values, dtype, strided):
    count = len(values) // 3
    with np.errstate(invalid="ignore", over="ignore"):
        positions = np.array(values[: 3 * count], np.float64).astype(dtype).reshape(count, 3)
    if strided:  # every other row of an interleaved buffer, as accessors with a stride are
        positions = np.repeat(positions, 2, axis=0)[::2]
    vertices = Vertices.of(positions)
    coords, keys = numpy_vertices(positions)
    assert vertices.coords.tobytes() == coords.tobytes()
    assert vertices.keys.tobytes() == keys.tobytes()


def test_negative_zero_and_nan_payloads_hash_as_numpy_hashed_them():
    bits = np.array([0x80000000, 0x7FC00001, 0xFFC00000, 0x7F800001, 0], np.uint32)
    positions = np.stack([bits, bits[::-1], np.roll(bits, 1)], axis=1).view(np.float32)
    coords, keys = numpy_vertices(positions)
    assert Vertices.of(positions).keys.tobytes() == keys.tobytes()
    assert Vertices.of(positions).coords.tobytes() == coords.tobytes()


def test_position_hashes_need_matching_arrays():
    with pytest.raises(ValueError, match="one hash per position"):
        hash_positions(
            np.zeros((4, 3), np.float32), np.zeros((3, 4), np.float32), np.zeros(3, np.uint64)
        )


def numpy_usable_corners(triangles: np.ndarray, vertex_count: int) -> np.ndarray:
    """The usable corners as numpy filtered them before the kernel."""
    corners = np.ascontiguousarray(triangles.T)
    a, b, c = corners
    usable = (a != b) & (b != c) & (c != a)
    if int(corners.max(initial=0)) >= vertex_count:
        usable &= (corners < vertex_count).all(axis=0)
    return corners if usable.all() else corners[:, usable]


INDEX_TYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(*[st.sampled_from([0, 1, 2, 3, 5, 6, 7, 127, -1])] * 3), max_size=40),
    st.sampled_from(INDEX_TYPES),
    st.integers(0, 8),
    st.booleans(),
    st.integers(1, 5),
)
def test_usable_corners_are_those_numpy_kept(triangles, dtype, vertex_count, strided, threads):
    with np.errstate(over="ignore"):
        array = np.array(triangles, np.int64).astype(dtype).reshape(-1, 3)
    if strided:  # every other triangle of a larger array
        array = np.repeat(array, 2, axis=0)[::2]
    kept = usable_corners(array, vertex_count, threads)
    expected = numpy_usable_corners(array, vertex_count)
    assert kept.dtype == expected.dtype and kept.flags.c_contiguous
    assert kept.tolist() == expected.tolist()


def test_the_largest_unsigned_indices_are_past_the_vertices():
    triangles = np.array([[0, 1, 2**63], [0, 1, 2**64 - 1], [0, 1, 2]], np.uint64)
    assert usable_corners(triangles, 3).tolist() == [[0], [1], [2]]
    assert usable_corners(triangles[:0], 3).shape == (3, 0)


def test_the_stages_refuse_cursors_and_bounds_outside_their_arrays_instead_of_writing_past():
    corners = np.array([[0], [1], [2]], np.uint32)
    with pytest.raises(IndexError, match="past the vertices or the entries"):
        file_edges(corners, 0, 1, np.array([2, 0, 0], np.uint32), np.empty(3, np.uint16))
    with pytest.raises(ValueError, match="end outside the entries"):
        tally_edges(np.empty(3, np.uint16), np.array([2, 4, 4], np.uint32), 0, 3)
    with pytest.raises(ValueError, match="not among"):
        lower_vertex_counts(corners, 0, 2, np.zeros(3, np.uint32))
    vertices = Vertices.of(np.eye(3, dtype=np.float32))
    flags = np.zeros(1, np.uint8)
    with pytest.raises(IndexError, match="past the vertices or its part"):
        split_windings(
            vertices.coords, vertices.keys, corners, 0, 1, 0, flags,
            np.array([1], np.int64), np.empty(1, np.uint64),
        )  # fmt: skip
    with pytest.raises(ValueError, match="outside the windings"):
        count_repeats(np.empty(2, np.uint64), np.array([0, 3], np.int64), 0, 1)


def test_draw_nearest_gives_a_sample_of_equal_depths_to_the_later_triangle():
    square = np.array([[[0, 0, 1], [4, 0, 1], [0, 4, 1]], [[4, 4, 1], [0, 4, 1], [4, 0, 1]]])
    screen = np.concatenate([square, square, square[:1] - [0, 0, 1]]).astype(np.float64)
    planes = np.tile([0.0, 0.0, 1.0], (5, 1))
    planes[4, 2] = 0.0  # nearer, but not drawn
    depth, seen = np.full((4, 4), np.inf), np.full((4, 4), -1, np.int32)
    drawn = np.array([0, 1, 2, 3])
    draw_nearest(screen, planes, drawn, np.zeros(4, np.int64), np.full(4, 4), depth, seen)
    # Both halves hold the samples on the diagonal (their centres are on both edges).
    assert seen.tolist() == [[2, 2, 2, 3], [2, 2, 3, 3], [2, 3, 3, 3], [3, 3, 3, 3]]
    assert (depth == 1).all()
