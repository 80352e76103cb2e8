"""Types of the compiled mesh kernels (``_kernels.pyx``: contracts in its docstrings)."""

import mmap

import numpy as np

def edge_counts(
    corners: np.ndarray, vertex_count: int, starts: np.ndarray | None = None
) -> np.ndarray: ...
def piece_counts(
    corners: np.ndarray, vertex_count: int, starts: np.ndarray | None = None
) -> np.ndarray: ...
def triangle_marks(
    coords: np.ndarray,
    keys: np.ndarray,
    corners: np.ndarray,
    flat_ratio: float,
    flat: np.ndarray | None = None,
    repeated: np.ndarray | None = None,
) -> tuple[int, int]: ...
def mapped_areas(
    coords: np.ndarray,
    uvs: np.ndarray,
    corners: np.ndarray,
    uv_areas: np.ndarray,
    surface_areas: np.ndarray,
) -> None: ...
def count_off_length(texels: np.ndarray, low: int, high: int) -> int: ...
def flat_count(coords: np.ndarray, corners: np.ndarray, flat_ratio: float) -> int: ...
def mark_used(used: np.ndarray, indices: np.ndarray) -> None: ...
def rasterise(points: np.ndarray, cells: int, counts: np.ndarray, narrow_cells: int) -> None: ...
def inside_out_votes(
    coords: np.ndarray, normals: np.ndarray, corners: np.ndarray
) -> tuple[int, int]: ...
def signature_positions(
    data: bytes | memoryview | mmap.mmap, signature: bytes, stop: int, limit: int
) -> list[int]: ...
