"""Compiled kernels of the mesh measures: each loop runs once over the triangles, in C.

The Python modules of :mod:`assetcheck.mesh` call these and own the rules; every kernel gives
the counts (and marks) of the numpy code it replaced, bit for bit: the floating-point formulas
are the same, evaluated in the same order and precision (compiled without fused multiply-add,
``hatch_build.py``). How they are built and what they gained: docs/performance.md, "Compiled
kernels" and "Big files". Being the package's one compiled extension, it also holds two
kernels that are not of meshes: the ZIP polyglot search's byte scan (``signature_positions``)
and the normal maps' vector lengths (``count_off_length``).
"""

from libc.math cimport ceil, fabs, fabsf, floor, sqrt, sqrtf
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcmp, memcpy, memset

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

ctypedef fused real_t:
    float
    double

cdef enum:
    # Buckets of the edge table at most this long are sorted by insertion, longer by qsort.
    SHORT_BUCKET = 16
    # Values a part of the duplicate search holds, about: its hash set (32 KB) stays cached.
    PART_VALUES = 2048
    # Bytes the signature search screens at once: a fixed count the compiler vectorises.
    SCREEN_BYTES = 256

# Fibonacci hashing's multiplier (2^64 / golden ratio), spreading values over the hash set.
cdef uint64_t SPREAD = 0x9E3779B97F4A7C15ULL
# MurmurHash3's 64-bit finaliser's multipliers.
cdef uint64_t MIX1 = 0xFF51AFD7ED558CCDULL, MIX2 = 0xC4CEB9FE1A85EC53ULL


def hash_positions(const real_t[:, :] positions, float[:, ::1] coords, uint64_t[::1] keys):
    """Lay out ``positions`` (``(count, 3)``) as ``coords`` (``(3, count)`` float32, rows x, y
    and z; ``-0.0`` made ``0.0`` by adding ``0.0``) and hash each vertex into ``keys``: the
    bits of y and x as one 64-bit value, xor the bits of z times :data:`SPREAD`, through
    MurmurHash3's finaliser. Vertices at the same position (bit for bit) hash alike."""
    cdef Py_ssize_t count = positions.shape[0], i
    cdef float x, y, z
    cdef uint32_t x_bits, y_bits, z_bits
    cdef uint64_t key
    if positions.shape[1] != 3 or coords.shape[0] != 3 or coords.shape[1] != count:
        raise ValueError("positions are (count, 3) and their coordinates (3, count)")
    if keys.shape[0] != count:
        raise ValueError("one hash per position")
    for i in range(count):
        x = <float>positions[i, 0] + <float>0.0
        y = <float>positions[i, 1] + <float>0.0
        z = <float>positions[i, 2] + <float>0.0
        coords[0, i], coords[1, i], coords[2, i] = x, y, z
        memcpy(&x_bits, &x, 4)
        memcpy(&y_bits, &y, 4)
        memcpy(&z_bits, &z, 4)
        key = ((<uint64_t>y_bits << 32) | x_bits) ^ (<uint64_t>z_bits * SPREAD)
        key ^= key >> 33
        key *= MIX1
        key ^= key >> 33
        key *= MIX2
        keys[i] = key ^ (key >> 33)


def usable_corners(const index_t[:, ::1] triangles, Py_ssize_t vertex_count):
    """The ``(n, 3)`` ``triangles`` as a new ``(3, kept)`` array of their dtype, without those
    that repeat an index or hold one not below ``vertex_count`` (as numpy's ``<`` compares: a
    negative index is below it), in their order: one pass, each triangle written and kept
    when usable. A contiguous copy, not the triangles' transposed view: the edge table and
    the union-find read rows faster than the interleaved triangles (docs/performance.md)."""
    cdef Py_ssize_t n = triangles.shape[0], t, kept = 0
    cdef index_t a, b, c
    result = np.empty((3, n), np.asarray(triangles).dtype)
    if not n:
        return result
    cdef index_t[:, ::1] corners = result
    cdef const index_t *flat = &triangles[0, 0]
    for t in range(n):
        a, b, c = flat[3 * t], flat[3 * t + 1], flat[3 * t + 2]
        corners[0, kept], corners[1, kept], corners[2, kept] = a, b, c
        kept += _usable(a, b, c, vertex_count)
    return result if kept == n else np.ascontiguousarray(result[:, :kept])


cdef inline bint _usable(index_t a, index_t b, index_t c, Py_ssize_t vertex_count) noexcept:
    return (
        (a != b) & (b != c) & (c != a)
        & (a < vertex_count) & (b < vertex_count) & (c < vertex_count)
    )


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
    no comparison sort), with its distance to the higher vertex and its direction bit; a
    vertex's few edges are then sorted and read as runs, the edge table of
    ``docs/topology.md``. The entries take 16 bits when every distance is below 2**15, as in
    meshes whose triangles use nearby vertices (half the fresh memory and its page faults),
    32 bits otherwise."""
    cdef _Owners owners = _Owners(starts)
    result = np.zeros((4, owners.meshes), np.int64)
    cdef int64_t[:, ::1] counts = result
    cdef Py_ssize_t n = corners.shape[1], t, v
    cdef uint32_t a, b, c, farthest = 0
    cdef _Rows32 rows = _rows32_of(corners)
    if vertex_count >= 1 << 31:
        raise ValueError("an edge table holds fewer than 2**31 vertices")
    if 3 * n >= 1 << 32:
        raise ValueError("an edge table holds fewer than 2**32 edges")
    cdef uint32_t *offsets = <uint32_t *>calloc(vertex_count + 1, sizeof(uint32_t))
    cdef void *entries = NULL
    try:
        if offsets == NULL:
            raise MemoryError()
        for t in range(n):
            a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
            if a >= vertex_count or b >= vertex_count or c >= vertex_count:
                raise IndexError(f"triangle {t} points past the {vertex_count} vertices")
            offsets[min(a, b) + 1] += 1
            offsets[min(b, c) + 1] += 1
            offsets[min(c, a) + 1] += 1
            farthest = max(farthest, max(a, max(b, c)) - min(a, min(b, c)))
        for v in range(vertex_count):
            offsets[v + 1] += offsets[v]
        if farthest < 1 << 15:
            entries = malloc(max(3 * n, 1) * sizeof(uint16_t))
            if entries == NULL:
                raise MemoryError()
            _tally_edges(<uint16_t *>entries, rows, n, offsets, vertex_count, counts, owners)
        else:
            entries = malloc(max(3 * n, 1) * sizeof(uint32_t))
            if entries == NULL:
                raise MemoryError()
            _tally_edges(<uint32_t *>entries, rows, n, offsets, vertex_count, counts, owners)
    finally:
        free(offsets)
        free(entries)
    return result


ctypedef fused entry_t:
    uint16_t
    uint32_t


cdef void _tally_edges(
    entry_t *entries, _Rows32 rows, Py_ssize_t n, uint32_t *offsets, Py_ssize_t vertex_count,
    int64_t[:, ::1] counts, _Owners owners
) noexcept:
    """File the edges of the triangles ``rows`` into ``entries`` at ``offsets`` (where each
    vertex's entries begin, once counted), then tally each vertex's sorted runs."""
    cdef Py_ssize_t t, v, begin = 0, end
    cdef uint32_t a, b, c
    for t in range(n):
        a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
        _file_edge(entries, offsets, a, b)
        _file_edge(entries, offsets, b, c)
        _file_edge(entries, offsets, c, a)
    for v in range(vertex_count):
        end = offsets[v]
        if end > begin:
            _sort(entries + begin, end - begin)
            _tally_runs(entries, begin, end, &counts[0, 0], owners.meshes, owners.of(v))
        begin = end


cdef inline void _file_edge(entry_t *entries, uint32_t *offsets, uint32_t a, uint32_t b) noexcept:
    """File the edge from ``a`` to ``b`` under its lower vertex: the distance to the higher
    vertex, then whether the triangle runs the edge downwards."""
    cdef uint32_t lower = min(a, b)
    entries[offsets[lower]] = <entry_t>(((max(a, b) - lower) << 1) | (a > b))
    offsets[lower] += 1


cdef struct _Rows32:
    # The (3, n) corners' rows, corner t of a row ``step`` values after corner t - 1.
    const uint32_t *a
    const uint32_t *b
    const uint32_t *c
    Py_ssize_t step


cdef _Rows32 _rows32_of(const uint32_t[:, :] corners) except *:
    """Pointers into ``corners``, C-ordered or a transposed ``(n, 3)`` array alike."""
    cdef _Rows32 rows
    if corners.shape[0] != 3 or corners.strides[1] % sizeof(uint32_t):
        raise ValueError("corners are (3, n), their steps whole values")
    rows.a = <const uint32_t *>(<const char *>&corners[0, 0])
    rows.b = <const uint32_t *>(<const char *>&corners[0, 0] + corners.strides[0])
    rows.c = <const uint32_t *>(<const char *>&corners[0, 0] + 2 * corners.strides[0])
    rows.step = corners.strides[1] // <Py_ssize_t>sizeof(uint32_t)
    return rows


cdef void _tally_runs(
    const entry_t *entries, Py_ssize_t begin, Py_ssize_t end, int64_t *counts,
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


cdef int _compare16(const void *left, const void *right) noexcept nogil:
    cdef uint16_t a = (<const uint16_t *>left)[0], b = (<const uint16_t *>right)[0]
    return (a > b) - (a < b)


cdef int _compare32(const void *left, const void *right) noexcept nogil:
    cdef uint32_t a = (<const uint32_t *>left)[0], b = (<const uint32_t *>right)[0]
    return (a > b) - (a < b)


cdef inline void _sort(entry_t *values, Py_ssize_t count) noexcept:
    cdef Py_ssize_t i, j
    cdef entry_t value
    if count > SHORT_BUCKET:
        if entry_t is uint16_t:
            qsort(values, count, sizeof(entry_t), _compare16)
        else:
            qsort(values, count, sizeof(entry_t), _compare32)
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
    cdef _Rows32 rows = _rows32_of(corners)
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
            a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
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
    never flat), a duplicate when an earlier triangle that is not flat has its winding hash.

    The windings of the triangles that are not flat are split by their top bits into parts
    of about :data:`PART_VALUES`, in their order, and each part is searched with a hash set
    that stays in the CPU caches: one hash set over all of them would miss the caches on
    every probe. The first pass over the triangles tests flatness and counts each part's
    windings; the second computes the windings again into their parts (cheaper than keeping
    them: 8 bytes a triangle of fresh memory)."""
    cdef Py_ssize_t n = corners.shape[1], count = keys.shape[0], t, zero_area = 0
    cdef Py_ssize_t part, largest = 0, found = 0, i
    cdef index_t a, b, c
    cdef uint64_t winding
    if coords.shape[1] != count:
        raise ValueError("one position hash per vertex")
    if not n:
        return 0, 0
    if n >= 1 << 32:
        raise ValueError("triangles are numbered below 2**32")
    cdef int bits = 0
    while (n >> bits) > PART_VALUES:
        bits += 1
    cdef Py_ssize_t parts = <Py_ssize_t>1 << bits
    cdef int shift = 64 - bits
    cdef _Rows rows = _rows_of(coords)
    cdef const uint64_t *hashes = &keys[0] if count else NULL
    cdef uint8_t *flags = <uint8_t *>malloc(n)
    cdef int64_t *starts = <int64_t *>calloc(parts + 1, sizeof(int64_t))
    cdef uint64_t *split = NULL
    cdef uint32_t *numbers = NULL
    cdef _HashSet seen
    try:
        if flags == NULL or starts == NULL:
            raise MemoryError()
        for t in range(n):
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if not (_within(a, count) and _within(b, count) and _within(c, count)):
                raise IndexError(f"triangle {t} points past the {count} vertices")
            flags[t] = _is_flat(rows, a, b, c, flat_ratio)
            if flags[t]:
                zero_area += 1
                if flat is not None:
                    flat[t] = 1
            else:
                starts[_part(_winding(hashes, a, b, c), shift) + 1] += 1
        for part in range(parts):
            largest = max(largest, starts[part + 1])
            starts[part + 1] += starts[part]
        split = <uint64_t *>malloc(max(n - zero_area, 1) * sizeof(uint64_t))
        if repeated is not None:
            numbers = <uint32_t *>malloc(max(n - zero_area, 1) * sizeof(uint32_t))
        if split == NULL or (repeated is not None and numbers == NULL):
            raise MemoryError()
        for t in range(n):
            if not flags[t]:
                a, b, c = corners[0, t], corners[1, t], corners[2, t]
                winding = _winding(hashes, a, b, c)
                part = _part(winding, shift)
                split[starts[part]] = winding
                if numbers != NULL:
                    numbers[starts[part]] = <uint32_t>t
                starts[part] += 1
        # Each part now ends at its start.
        seen = _HashSet(largest)
        for part in range(parts):
            seen.clear()
            for i in range(starts[part - 1] if part else 0, starts[part]):
                if not seen.add(split[i]):
                    found += 1
                    if numbers != NULL:
                        repeated[numbers[i]] = 1
        return zero_area, found
    finally:
        free(flags)
        free(starts)
        free(split)
        free(numbers)


cdef inline uint64_t _winding(
    const uint64_t *keys, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c
) noexcept:
    """A hash of the triangle's corners' position hashes, the same in each of its rotations
    and different (but for collisions) when reversed."""
    cdef uint64_t ka = keys[a], kb = keys[b], kc = keys[c]
    return (ka ^ (kb >> 1)) + (kb ^ (kc >> 1)) + (kc ^ (ka >> 1))


cdef inline Py_ssize_t _part(uint64_t value, int shift) noexcept:
    """The part of ``value``: its top ``64 - shift`` bits (one part when ``shift`` is 64)."""
    return <Py_ssize_t>(value >> shift) if shift < 64 else 0


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


def unit_length_outliers(const real_t[:, :] vectors, double threshold, double margin):
    """``(off, near)``, the rows of ``vectors`` (float32 or float64) whose length, computed in
    their own precision (``threshold`` and ``margin`` rounded to it, as numpy compares with
    Python floats), differs from 1 by more than ``threshold``, and apart from them those whose
    difference is within ``margin`` of ``threshold``: undecided at this precision, for the
    caller to judge again in double precision. Both are ascending ``intp`` arrays."""
    cdef Py_ssize_t n = vectors.shape[0], columns = vectors.shape[1], i, j, off_count = 0
    cdef Py_ssize_t near_count = 0
    cdef real_t total, error, limit = <real_t>threshold, band = <real_t>margin
    off, near = np.empty(n, np.intp), np.empty(n, np.intp)
    cdef Py_ssize_t[::1] off_rows = off, near_rows = near
    for i in range(n):
        total = 0
        for j in range(columns):
            total = total + vectors[i, j] * vectors[i, j]
        error = <real_t>sqrt(total) - 1
        error = -error if error < 0 else error
        if (error - limit if error >= limit else limit - error) < band:
            near_rows[near_count] = i
            near_count += 1
        elif error > limit:
            off_rows[off_count] = i
            off_count += 1
    return off[:off_count].copy(), near[:near_count].copy()


def mark_used(uint8_t[::1] used, const index_t[::1] indices):
    """Set ``used`` at each of ``indices`` (those outside ``used`` are ignored); both
    contiguous, which makes the loop twice as fast as strided views (7 to 3 ms for the 10.8
    million indices of the 100 MB grid)."""
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


def inside_out_votes(
    const float[:, ::1] coords, const real_t[:, :] normals, const index_t[:, :] corners
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
