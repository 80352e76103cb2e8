"""Compiled kernels of the mesh measures: each loop runs once over the triangles, in C.

The Python modules of :mod:`assetcheck.mesh` call these and own the rules; every kernel gives
the counts (and marks) of the numpy code it replaced, bit for bit: the floating-point formulas
are the same, evaluated in the same order and precision (compiled without fused multiply-add,
``hatch_build.py``). How they are built and what they gained: docs/performance.md, "Compiled
kernels".
"""

from libc.math cimport ceil, fabsf, floor, sqrtf
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcmp, memset

import numpy as np

ctypedef fused index_t:
    int8_t
    int16_t
    uint8_t
    uint16_t
    uint32_t
    int32_t
    int64_t
    uint64_t

cdef enum:
    # Buckets of the edge table at most this long are sorted by insertion, longer by qsort.
    SHORT_BUCKET = 16
    # Values a part of the duplicate search holds, about: its hash set (32 KB) stays cached.
    PART_VALUES = 2048
    # Bytes the signature search screens at once: a fixed count the compiler vectorises.
    SCREEN_BYTES = 256

# Fibonacci hashing's multiplier (2^64 / golden ratio), spreading values over the hash set.
cdef uint64_t SPREAD = 0x9E3779B97F4A7C15ULL


cdef class _Owners:
    """The mesh each vertex id belongs to, for ids visited in increasing order: meshes whose
    ids begin at ``starts`` (one mesh when there are none)."""

    cdef const uint64_t[:] starts
    cdef Py_ssize_t meshes, current

    def __init__(self, starts):
        self.meshes = 1 if starts is None else len(starts)
        self.starts = np.zeros(1, np.uint64) if starts is None else starts
        self.current = 0

    cdef inline Py_ssize_t of(self, uint64_t vertex) noexcept:
        while self.current + 1 < self.meshes and self.starts[self.current + 1] <= vertex:
            self.current += 1
        return self.current


def edge_counts(const uint32_t[:, :] corners, Py_ssize_t vertex_count, starts=None):
    """Per mesh (see :class:`_Owners`), the distinct, boundary, non-manifold and misoriented
    edges of the triangles ``corners`` (``(3, n)`` welded ids below ``vertex_count``), as an
    int64 ``(4, meshes)`` array. Each edge is filed under its lower vertex (a counting sort,
    no comparison sort), with its higher vertex and direction bit; a vertex's few edges are
    then sorted and read as runs, the edge table of ``docs/topology.md``."""
    cdef _Owners owners = _Owners(starts)
    result = np.zeros((4, owners.meshes), np.int64)
    cdef int64_t[:, ::1] counts = result
    cdef Py_ssize_t n = corners.shape[1], t, side, v, begin, end, run
    cdef uint32_t a, b, lower
    if vertex_count >= 1 << 31:
        raise ValueError("an edge table holds fewer than 2**31 vertices")
    cdef int64_t *offsets = <int64_t *>calloc(vertex_count + 1, sizeof(int64_t))
    cdef uint32_t *entries = <uint32_t *>malloc(max(3 * n, 1) * sizeof(uint32_t))
    try:
        if offsets == NULL or entries == NULL:
            raise MemoryError()
        for t in range(n):
            for side in range(3):
                a, b = corners[side, t], corners[(side + 1) % 3, t]
                if a >= vertex_count or b >= vertex_count:
                    raise IndexError(f"triangle {t} points past the {vertex_count} vertices")
                offsets[(a if a < b else b) + 1] += 1
        for v in range(vertex_count):
            offsets[v + 1] += offsets[v]
        for t in range(n):
            for side in range(3):
                a, b = corners[side, t], corners[(side + 1) % 3, t]
                lower = a if a < b else b
                # the higher vertex, then whether the triangle runs the edge downwards
                entries[offsets[lower]] = ((b if a < b else a) << 1) | (a > b)
                offsets[lower] += 1
        begin = 0
        for v in range(vertex_count):
            end = offsets[v]
            if end > begin:
                _sort(entries + begin, end - begin)
                _tally_runs(entries, begin, end, &counts[0, 0], owners.meshes, owners.of(v))
            begin = end
    finally:
        free(offsets)
        free(entries)
    return result


cdef void _tally_runs(
    const uint32_t *entries, Py_ssize_t begin, Py_ssize_t end, int64_t *counts,
    Py_ssize_t meshes, Py_ssize_t mesh
) noexcept:
    """Tally the runs of equal higher vertices in the sorted ``entries[begin:end]`` into
    ``counts`` (``(4, meshes)``, row by row) at ``mesh``."""
    cdef Py_ssize_t first = begin, last
    while first < end:
        last = first + 1
        while last < end and entries[last] >> 1 == entries[first] >> 1:
            last += 1
        counts[mesh] += 1
        if last - first == 1:
            counts[meshes + mesh] += 1
        elif last - first >= 3:
            counts[2 * meshes + mesh] += 1
        elif entries[first] == entries[first + 1]:
            counts[3 * meshes + mesh] += 1
        first = last


cdef int _compare(const void *left, const void *right) noexcept nogil:
    cdef uint32_t a = (<const uint32_t *>left)[0], b = (<const uint32_t *>right)[0]
    return (a > b) - (a < b)


cdef inline void _sort(uint32_t *values, Py_ssize_t count) noexcept:
    cdef Py_ssize_t i, j
    cdef uint32_t value
    if count > SHORT_BUCKET:
        qsort(values, count, sizeof(uint32_t), _compare)
        return
    for i in range(1, count):
        value = values[i]
        j = i
        while j > 0 and values[j - 1] > value:
            values[j] = values[j - 1]
            j -= 1
        values[j] = value


def piece_counts(const uint32_t[:, :] corners, Py_ssize_t vertex_count, starts=None):
    """Per mesh (see :class:`_Owners`), how many connected pieces the triangles ``corners``
    (``(3, n)`` ids below ``vertex_count``) form, as int64: union-find with path halving."""
    cdef _Owners owners = _Owners(starts)
    result = np.zeros(owners.meshes, np.int64)
    cdef int64_t[:] pieces = result
    cdef Py_ssize_t n = corners.shape[1], t, v
    cdef uint32_t a, b, c
    if vertex_count >= 1 << 32:
        raise ValueError("pieces are counted among fewer than 2**32 vertices")
    cdef uint32_t *parent = <uint32_t *>malloc(max(vertex_count, 1) * sizeof(uint32_t))
    cdef uint8_t *used = <uint8_t *>calloc(max(vertex_count, 1), 1)
    try:
        if parent == NULL or used == NULL:
            raise MemoryError()
        for v in range(vertex_count):
            parent[v] = <uint32_t>v
        for t in range(n):
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if a >= vertex_count or b >= vertex_count or c >= vertex_count:
                raise IndexError(f"triangle {t} points past the {vertex_count} vertices")
            used[a] = used[b] = used[c] = 1
            _join(parent, a, b)
            _join(parent, a, c)
        for v in range(vertex_count):
            if used[v] and parent[v] == v:
                pieces[owners.of(v)] += 1
    finally:
        free(parent)
        free(used)
    return result


cdef inline uint32_t _root(uint32_t *parent, uint32_t vertex) noexcept:
    while parent[vertex] != vertex:
        parent[vertex] = parent[parent[vertex]]
        vertex = parent[vertex]
    return vertex


cdef inline void _join(uint32_t *parent, uint32_t a, uint32_t b) noexcept:
    a, b = _root(parent, a), _root(parent, b)
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b


def triangle_marks(
    const float[:, ::1] coords,
    const uint64_t[::1] keys,
    const index_t[:, :] corners,
    float flat_ratio,
    uint8_t[:] flat=None,
    uint8_t[:] repeated=None,
):
    """``(zero_area, duplicates)`` among the triangles ``corners`` (``(3, n)`` indices of
    the vertices ``coords``, ``(3, count)``, whose position hashes are ``keys``); when given,
    ``flat`` and ``repeated`` (one byte per triangle) are set where a triangle is flat or
    repeats an earlier one. The rules are :func:`assetcheck.mesh.faults.triangle_faults`'s:
    flat when twice its area is at most ``flat_ratio`` times its longest side squared (NaN is
    never flat), a duplicate when an earlier triangle that is not flat has its winding hash."""
    cdef Py_ssize_t n = corners.shape[1], count = keys.shape[0], t, zero_area = 0, solid = 0
    cdef index_t a, b, c
    cdef uint64_t ka, kb, kc
    if coords.shape[1] != count:
        raise ValueError("one position hash per vertex")
    if not n:
        return 0, 0
    if n >= 1 << 32:
        raise ValueError("triangles are numbered below 2**32")
    cdef _Rows rows = _rows_of(coords)
    cdef uint64_t *windings = <uint64_t *>malloc(n * sizeof(uint64_t))
    cdef uint32_t *numbers = <uint32_t *>malloc(n * sizeof(uint32_t)) if repeated is not None else NULL
    try:
        if windings == NULL or (repeated is not None and numbers == NULL):
            raise MemoryError()
        for t in range(n):
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if not (_within(a, count) and _within(b, count) and _within(c, count)):
                raise IndexError(f"triangle {t} points past the {count} vertices")
            if _is_flat(rows, a, b, c, flat_ratio):
                zero_area += 1
                if flat is not None:
                    flat[t] = 1
                continue
            ka, kb, kc = keys[a], keys[b], keys[c]
            windings[solid] = (ka ^ (kb >> 1)) + (kb ^ (kc >> 1)) + (kc ^ (ka >> 1))
            if numbers != NULL:
                numbers[solid] = <uint32_t>t
            solid += 1
        return zero_area, _repeats(windings, numbers, solid, repeated)
    finally:
        free(windings)
        free(numbers)


cdef Py_ssize_t _repeats(
    const uint64_t *values, const uint32_t *numbers, Py_ssize_t count, uint8_t[:] repeated
) except -1:
    """How many of ``values`` equal an earlier one; those are marked in ``repeated`` at their
    ``numbers`` when given. The values are first split by their top bits into parts of about
    :data:`PART_VALUES`, keeping their order, and each part is searched with a hash set that
    stays in the CPU caches: one hash set over all the values would miss them on every probe."""
    cdef int bits = 0
    while (count >> bits) > PART_VALUES:
        bits += 1
    cdef Py_ssize_t parts = <Py_ssize_t>1 << bits, i, part, largest = 0, found = 0
    cdef int shift = 64 - bits
    cdef int64_t *starts = <int64_t *>calloc(parts + 1, sizeof(int64_t))
    cdef uint64_t *split = <uint64_t *>malloc(max(count, 1) * sizeof(uint64_t))
    cdef uint32_t *split_numbers = NULL
    cdef _HashSet seen
    try:
        if numbers != NULL:
            split_numbers = <uint32_t *>malloc(max(count, 1) * sizeof(uint32_t))
        if starts == NULL or split == NULL or (numbers != NULL and split_numbers == NULL):
            raise MemoryError()
        for i in range(count):
            starts[(values[i] >> shift if bits else 0) + 1] += 1
        for part in range(parts):
            largest = max(largest, starts[part + 1])
            starts[part + 1] += starts[part]
        for i in range(count):
            part = values[i] >> shift if bits else 0
            split[starts[part]] = values[i]
            if numbers != NULL:
                split_numbers[starts[part]] = numbers[i]
            starts[part] += 1
        seen = _HashSet(largest)
        for part in range(parts):
            seen.clear()
            for i in range(starts[part - 1] if part else 0, starts[part]):
                if not seen.add(split[i]):
                    found += 1
                    if numbers != NULL:
                        repeated[split_numbers[i]] = 1
        return found
    finally:
        free(starts)
        free(split)
        free(split_numbers)


cdef struct _Rows:
    const float *x
    const float *y
    const float *z


cdef inline _Rows _rows_of(const float[:, ::1] coords) noexcept:
    cdef _Rows rows
    rows.x, rows.y, rows.z = &coords[0, 0], &coords[1, 0], &coords[2, 0]
    return rows


def flat_count(const float[:, ::1] coords, const index_t[:, :] corners, float flat_ratio):
    """How many of the triangles ``corners`` (``(3, n)`` indices of the vertices ``coords``)
    are flat, by the rule of :func:`triangle_marks`."""
    cdef Py_ssize_t n = corners.shape[1], count = coords.shape[1], t, flat = 0
    cdef index_t a, b, c
    if not (n and count):
        return 0
    cdef _Rows rows = _rows_of(coords)
    for t in range(n):
        a, b, c = corners[0, t], corners[1, t], corners[2, t]
        if not (_within(a, count) and _within(b, count) and _within(c, count)):
            raise IndexError(f"triangle {t} points past the {count} vertices")
        flat += _is_flat(rows, a, b, c, flat_ratio)
    return flat


def mapped_areas(
    const float[:, ::1] coords,
    const float[:, ::1] uvs,
    const index_t[:, :] corners,
    float[::1] uv_areas,
    float[::1] surface_areas,
):
    """Per triangle of ``corners`` (``(3, n)`` indices of the vertices ``coords``, ``(3,
    count)``, and of their texture coordinates ``uvs``, ``(2, count)``): twice its area in UV
    space (its magnitude) into ``uv_areas`` and twice its area on the surface into
    ``surface_areas`` (``n`` each), float32 as numpy computes them (NaN or infinite where a
    corner is not finite)."""
    cdef Py_ssize_t n = corners.shape[1], count = coords.shape[1], t
    cdef index_t a, b, c
    if uvs.shape[1] != count or uv_areas.shape[0] < n or surface_areas.shape[0] < n:
        raise ValueError("the UVs, or the arrays of areas, do not match the mesh")
    if not (n and count):
        return
    cdef _Rows rows = _rows_of(coords)
    cdef const float *u = &uvs[0, 0]
    cdef const float *v = &uvs[1, 0]
    cdef float abu, abv, acu, acv, abx, aby, abz, acx, acy, acz, cross_x, cross_y, cross_z
    for t in range(n):
        a, b, c = corners[0, t], corners[1, t], corners[2, t]
        if not (_within(a, count) and _within(b, count) and _within(c, count)):
            raise IndexError(f"triangle {t} points past the {count} vertices")
        abu, abv, acu, acv = u[b] - u[a], v[b] - v[a], u[c] - u[a], v[c] - v[a]
        uv_areas[t] = fabsf(abu * acv - abv * acu)
        abx, aby, abz = rows.x[b] - rows.x[a], rows.y[b] - rows.y[a], rows.z[b] - rows.z[a]
        acx, acy, acz = rows.x[c] - rows.x[a], rows.y[c] - rows.y[a], rows.z[c] - rows.z[a]
        cross_x = aby * acz - abz * acy
        cross_y = abz * acx - abx * acz
        cross_z = abx * acy - aby * acx
        surface_areas[t] = sqrtf(cross_x * cross_x + cross_y * cross_y + cross_z * cross_z)


def count_off_length(const uint8_t[:, :, ::1] texels, int64_t low, int64_t high):
    """How many of the ``texels`` (rows x columns x channels, at least 3) read as vectors,
    ``(2 * value - 255)`` for each of the first three channels, have a squared length (in
    255ths, squared) below ``low`` or above ``high``: a normal map's texels whose vectors are
    not unit length."""
    cdef Py_ssize_t rows = texels.shape[0], columns = texels.shape[1], y, x
    cdef int64_t found = 0, length, r, g, b
    if texels.shape[2] < 3:
        raise ValueError("a vector needs three channels")
    for y in range(rows):
        for x in range(columns):
            r = 2 * <int64_t>texels[y, x, 0] - 255
            g = 2 * <int64_t>texels[y, x, 1] - 255
            b = 2 * <int64_t>texels[y, x, 2] - 255
            length = r * r + g * g + b * b
            found += length < low or length > high
    return found


cdef inline bint _within(index_t value, Py_ssize_t count) noexcept:
    """Whether ``value`` numbers one of ``count`` items (64-bit values past 2^63 do not)."""
    return 0 <= <int64_t>value < count


cdef inline float _greater(float a, float b) noexcept:
    """numpy's ``maximum``: NaN when either is NaN."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


cdef inline bint _is_flat(_Rows p, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, float ratio) noexcept:
    cdef float abx = p.x[b] - p.x[a], aby = p.y[b] - p.y[a], abz = p.z[b] - p.z[a]
    cdef float acx = p.x[c] - p.x[a], acy = p.y[c] - p.y[a], acz = p.z[c] - p.z[a]
    cdef float bcx = p.x[c] - p.x[b], bcy = p.y[c] - p.y[b], bcz = p.z[c] - p.z[b]
    cdef float cross_x = aby * acz - abz * acy
    cdef float cross_y = abz * acx - abx * acz
    cdef float cross_z = abx * acy - aby * acx
    cdef float twice_area = sqrtf(cross_x * cross_x + cross_y * cross_y + cross_z * cross_z)
    cdef float longest = _greater(
        _greater(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz),
        bcx * bcx + bcy * bcy + bcz * bcz,
    )
    return twice_area <= ratio * longest


cdef class _HashSet:
    """A set of 64-bit values (open addressing, linear probing) for up to ``capacity``
    values, at most two thirds full."""

    cdef uint64_t *slots
    cdef uint64_t mask
    cdef int shift
    cdef bint has_zero  # 0 marks an empty slot, so the value 0 is kept apart

    def __cinit__(self, Py_ssize_t capacity):
        cdef uint64_t size = 16
        self.shift = 60
        while size < <uint64_t>capacity + <uint64_t>capacity // 2:
            size <<= 1
            self.shift -= 1
        self.mask = size - 1
        self.slots = <uint64_t *>calloc(size, sizeof(uint64_t))
        if self.slots == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.slots)

    cdef void clear(self) noexcept:
        memset(self.slots, 0, (self.mask + 1) * sizeof(uint64_t))
        self.has_zero = False

    cdef inline bint add(self, uint64_t value) noexcept:
        """Add ``value``; whether it was new."""
        cdef uint64_t slot
        if value == 0:
            if self.has_zero:
                return False
            self.has_zero = True
            return True
        slot = (value * SPREAD) >> self.shift
        while self.slots[slot]:
            if self.slots[slot] == value:
                return False
            slot = (slot + 1) & self.mask
        self.slots[slot] = value
        return True


def mark_used(uint8_t[:] used, const index_t[:] indices):
    """Set ``used`` at each of ``indices`` (those outside ``used`` are ignored)."""
    cdef Py_ssize_t count = used.shape[0], i
    cdef index_t value
    for i in range(indices.shape[0]):
        value = indices[i]
        if _within(value, count):
            used[value] = 1


def rasterise(
    const double[:, :, :] points, Py_ssize_t cells, int32_t[:] counts, Py_ssize_t narrow_cells
):
    """Add to ``counts`` (``cells * cells``, row by row) one for each triangle of ``points``
    (``(2, 3, n)``, finite, in cell units) whose inside strictly holds a cell's centre. A
    triangle at most ``narrow_cells`` wide has every centre of its bounds tested; a wider one
    is drawn a row at a time, its run of cells solved from the three edges and settled by the
    same test, so both ways find the same cells (docs/uv-checks.md)."""
    cdef Py_ssize_t n = points.shape[2], t, k
    cdef double corner[6]
    cdef double twice_area, sign
    cdef Py_ssize_t low_x, low_y, high_x, high_y
    for t in range(n):
        for k in range(3):
            corner[2 * k] = points[0, k, t]
            corner[2 * k + 1] = points[1, k, t]
        twice_area = (corner[2] - corner[0]) * (corner[5] - corner[1]) - (
            corner[3] - corner[1]
        ) * (corner[4] - corner[0])
        if not (twice_area > 0 or twice_area < 0):  # flat, or NaN: no centre is inside
            continue
        sign = 1.0 if twice_area > 0 else -1.0
        low_x, high_x = _cell_span(corner[0], corner[2], corner[4], cells)
        low_y, high_y = _cell_span(corner[1], corner[3], corner[5], cells)
        if high_x - low_x <= narrow_cells:
            _test_centres(corner, sign, low_x, high_x, low_y, high_y, cells, counts)
        else:
            _draw_rows(corner, sign, low_x, high_x, low_y, high_y, cells, counts)


cdef inline (Py_ssize_t, Py_ssize_t) _cell_span(
    double a, double b, double c, Py_ssize_t cells
) noexcept:
    """The first and past-the-last cell whose centre may lie strictly between the smallest
    and the largest of ``a``, ``b`` and ``c``, within the grid."""
    cdef double smallest = min(a, b, c), largest = max(a, b, c)
    cdef double low = min(max(floor(smallest - 0.5) + 1, 0.0), <double>cells)
    cdef double high = min(max(ceil(largest - 0.5), 0.0), <double>cells)
    return <Py_ssize_t>low, <Py_ssize_t>max(high, low)


cdef inline bint _inside(const double *corner, double sign, double x, double centre_y) noexcept:
    """Whether the centre of cell ``x`` of the row at ``centre_y`` is strictly inside."""
    cdef double centre_x = x + 0.5
    cdef double ax, ay, bx, by
    cdef int k
    for k in range(3):
        ax, ay = corner[2 * k], corner[2 * k + 1]
        bx, by = corner[(2 * k + 2) % 6], corner[(2 * k + 3) % 6]
        if not ((bx - ax) * (centre_y - ay) - (by - ay) * (centre_x - ax)) * sign > 0:
            return False
    return True


cdef void _test_centres(
    const double *corner, double sign, Py_ssize_t low_x, Py_ssize_t high_x, Py_ssize_t low_y,
    Py_ssize_t high_y, Py_ssize_t cells, int32_t[:] counts
) noexcept:
    cdef Py_ssize_t x, y
    for y in range(low_y, high_y):
        for x in range(low_x, high_x):
            if _inside(corner, sign, x, y + 0.5):
                counts[y * cells + x] += 1


cdef void _draw_rows(
    const double *corner, double sign, Py_ssize_t left, Py_ssize_t right, Py_ssize_t low_y,
    Py_ssize_t high_y, Py_ssize_t cells, int32_t[:] counts
) noexcept:
    cdef Py_ssize_t x, y, start, stop
    cdef double centre_y, first, past, across, slope, crossing, ax, ay, bx, by
    cdef int k
    for y in range(low_y, high_y):
        centre_y = y + 0.5
        # Solved in floating point: exact up to one cell at each end.
        first, past = left, right
        for k in range(3):
            ax, ay = corner[2 * k], corner[2 * k + 1]
            bx, by = corner[(2 * k + 2) % 6], corner[(2 * k + 3) % 6]
            # Inside where across - slope * (centre_x - ax) > 0.
            across = sign * (bx - ax) * (centre_y - ay)
            slope = sign * (by - ay)
            if slope < 0:
                crossing = ax + across / slope - 0.5  # the cell whose centre is on the edge
                first = max(first, floor(crossing) + 1)
            elif slope > 0:
                crossing = ax + across / slope - 0.5
                past = min(past, ceil(crossing))
            elif slope == 0 and not across > 0:
                past = first
        if first != first or past != past:  # NaN from overflowing corners: nothing drawn
            continue
        start = <Py_ssize_t>min(max(first, <double>left), <double>right)
        stop = <Py_ssize_t>min(max(past, <double>start), <double>right)
        # Settled by the test of a centre, as a cell-by-cell scan makes it.
        if start > left and _inside(corner, sign, start - 1, centre_y):
            start -= 1
        if start < stop and not _inside(corner, sign, start, centre_y):
            start += 1
        if stop < right and _inside(corner, sign, stop, centre_y):
            stop += 1
        if stop > start and not _inside(corner, sign, stop - 1, centre_y):
            stop -= 1
        for x in range(start, stop):
            counts[y * cells + x] += 1


ctypedef fused normal_t:
    float
    double


def inside_out_votes(
    const float[:, ::1] coords, const normal_t[:, :] normals, const index_t[:, :] corners
):
    """``(against, along)``: of the triangles ``corners`` (``(3, n)`` indices of the vertices
    ``coords``, ``(3, count)``, whose normals are ``normals``, ``(count, 3)``), how many have
    their face normal pointing against the sum of their corners' normals, and how many along
    it. In double precision, by the arithmetic of NumPy's ``cross`` and a left-to-right dot
    product; a triangle whose product is zero or NaN counts in neither. ``IndexError`` for an
    index outside the vertices or the normals."""
    cdef Py_ssize_t count = coords.shape[1], triangles = corners.shape[1], t, k
    cdef Py_ssize_t a, b, c
    cdef _Rows p = _rows_of(coords)
    cdef double e1[3]
    cdef double e2[3]
    cdef double n[3]
    cdef double product
    cdef Py_ssize_t against = 0, along = 0
    if normals.shape[1] != 3:
        raise ValueError("normals must be (count, 3)")
    count = min(count, normals.shape[0])
    for t in range(triangles):
        a, b, c = <Py_ssize_t>corners[0, t], <Py_ssize_t>corners[1, t], <Py_ssize_t>corners[2, t]
        if not (0 <= a < count and 0 <= b < count and 0 <= c < count):
            raise IndexError(f"triangle {t} has a corner outside the vertices or normals")
        e1[0] = <double>p.x[b] - <double>p.x[a]
        e1[1] = <double>p.y[b] - <double>p.y[a]
        e1[2] = <double>p.z[b] - <double>p.z[a]
        e2[0] = <double>p.x[c] - <double>p.x[a]
        e2[1] = <double>p.y[c] - <double>p.y[a]
        e2[2] = <double>p.z[c] - <double>p.z[a]
        for k in range(3):
            n[k] = <double>normals[a, k] + <double>normals[b, k] + <double>normals[c, k]
        product = (
            (e1[1] * e2[2] - e1[2] * e2[1]) * n[0]
            + (e1[2] * e2[0] - e1[0] * e2[2]) * n[1]
            + (e1[0] * e2[1] - e1[1] * e2[0]) * n[2]
        )
        if product < 0:
            against += 1
        elif product > 0:
            along += 1
    return against, along


def signature_positions(
    const uint8_t[::1] data, const uint8_t[::1] signature, Py_ssize_t stop, Py_ssize_t limit
):
    """The positions, in increasing order, of the first ``limit`` occurrences of ``signature``
    that lie wholly in ``data[:stop]`` (overlapping ones included): what repeated
    ``data.find(signature, position + 1, stop)`` finds. Blocks of :data:`SCREEN_BYTES` are
    screened for the signature's first and last bytes in vectorised loops, several bytes a
    cycle whatever the data holds, and only blocks that pass are searched byte by byte."""
    cdef Py_ssize_t length = signature.shape[0], block, size, i, last
    if length == 0:
        raise ValueError("an empty signature")
    positions = []
    # Occurrences start before ``end``.
    cdef Py_ssize_t end = min(stop, data.shape[0]) - length + 1
    if end <= 0 or limit <= 0:
        return positions
    cdef const uint8_t *bytes = &data[0]
    cdef const uint8_t *wanted = &signature[0]
    cdef uint8_t first = wanted[0], final = wanted[length - 1]
    last = length - 1
    block = 0
    while block < end:
        size = min(<Py_ssize_t>SCREEN_BYTES, end - block)
        if size < SCREEN_BYTES or _may_hold(bytes + block, first, final, last):
            for i in range(block, block + size):
                if (
                    bytes[i] == first
                    and bytes[i + last] == final
                    and memcmp(bytes + i, wanted, length) == 0
                ):
                    positions.append(i)
                    if len(positions) == limit:
                        return positions
        block += size
    return positions


cdef inline bint _may_hold(
    const uint8_t *block, uint8_t first, uint8_t final, Py_ssize_t last
) noexcept nogil:
    """Whether a signature whose first byte is ``first`` and byte ``last`` is ``final`` may
    start in the :data:`SCREEN_BYTES` bytes at ``block`` (all its bytes readable)."""
    cdef uint8_t found = 0
    cdef Py_ssize_t i
    for i in range(SCREEN_BYTES):
        found |= (block[i] == first) & (block[i + last] == final)
    return found != 0
