"""Types of the compiled mesh kernels (``_kernels.pyx``: contracts in its docstrings)."""

import mmap

import numpy as np

def hash_positions(
    positions: np.ndarray, coords: np.ndarray, keys: np.ndarray, first: int = 0, last: int = -1
) -> None: ...
def usable_corners(
    triangles: np.ndarray, vertex_count: int, corners: np.ndarray, first: int, last: int
) -> int: ...
def lower_vertex_counts(corners: np.ndarray, first: int, last: int, counts: np.ndarray) -> int: ...
def edge_cursors(counts: np.ndarray) -> int: ...
def file_edges(
    corners: np.ndarray, first: int, last: int, cursors: np.ndarray, entries: np.ndarray
) -> None: ...
def tally_edges(
    entries: np.ndarray, ends: np.ndarray, low: int, high: int, starts: np.ndarray | None = None
) -> np.ndarray: ...
def piece_counts(
    corners: np.ndarray, vertex_count: int, starts: np.ndarray | None = None
) -> np.ndarray: ...
def flat_marks(
    coords: np.ndarray,
    keys: np.ndarray,
    corners: np.ndarray,
    first: int,
    last: int,
    flat_ratio: float,
    bits: int,
    flags: np.ndarray,
    part_counts: np.ndarray,
) -> int: ...
def split_windings(
    coords: np.ndarray,
    keys: np.ndarray,
    corners: np.ndarray,
    first: int,
    last: int,
    bits: int,
    flags: np.ndarray,
    cursors: np.ndarray,
    split: np.ndarray,
    numbers: np.ndarray | None = None,
) -> None: ...
def count_repeats(
    split: np.ndarray,
    bounds: np.ndarray,
    low: int,
    high: int,
    numbers: np.ndarray | None = None,
    repeated: np.ndarray | None = None,
) -> int: ...
def meshes_faults(
    coords: np.ndarray,
    keys: np.ndarray,
    corners: np.ndarray,
    vertex_starts: np.ndarray,
    triangle_starts: np.ndarray,
    flat_ratio: float,
) -> np.ndarray: ...
def mapped_areas(
    coords: np.ndarray,
    uvs: np.ndarray,
    corners: np.ndarray,
    uv_areas: np.ndarray,
    surface_areas: np.ndarray,
) -> None: ...
def count_off_length(texels: np.ndarray, low: int, high: int) -> int: ...
def flat_count(coords: np.ndarray, corners: np.ndarray, flat_ratio: float) -> int: ...
def unit_length_outliers(
    vectors: np.ndarray, threshold: float, margin: float, first: int = 0, last: int = -1
) -> tuple[np.ndarray, np.ndarray]: ...
def mark_used(used: np.ndarray, indices: np.ndarray) -> None: ...
def rasterise(points: np.ndarray, cells: int, counts: np.ndarray, narrow_cells: int) -> None: ...
def inside_out_votes(
    coords: np.ndarray, normals: np.ndarray, corners: np.ndarray
) -> tuple[int, int]: ...
def signature_positions(
    data: bytes | memoryview | mmap.mmap, signature: bytes, stop: int, limit: int
) -> list[int]: ...
def draw_nearest(
    screen: np.ndarray,
    planes: np.ndarray,
    drawn: np.ndarray,
    top: np.ndarray,
    rows: np.ndarray,
    depth: np.ndarray,
    seen: np.ndarray,
) -> None: ...
def resolve_samples(seen: np.ndarray, shades: np.ndarray, picture: np.ndarray) -> None: ...
