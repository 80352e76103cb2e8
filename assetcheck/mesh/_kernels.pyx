"""Compiled kernels of the mesh measures: each loop runs once over the triangles, in C.

The Python modules of :mod:`assetcheck.mesh` call these and own the rules; every kernel gives
the counts (and marks) of the numpy code it replaced, bit for bit: the floating-point formulas
are the same, evaluated in the same order and precision (compiled without fused multiply-add,
``hatch_build.py``). The big passes release the GIL and take a span of the triangles (or
vertices, or parts), so that :mod:`assetcheck.mesh.threads` can run spans on several threads:
their results do not depend on the split. How they are built and what they gained:
docs/performance.md, "Compiled kernels", "Big files" and "Big meshes on every core". Being the
package's one compiled extension, it also holds kernels that are not of meshes: the ZIP
polyglot search's byte scan (``signature_positions``), the normal maps' vector lengths
(``count_off_length``) and the preview pictures' rasterizer (``draw_nearest``,
``resolve_samples``).
"""

from libc.math cimport INFINITY, ceil, fabs, fabsf, floor, isnan, sqrt, sqrtf
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdint cimport INT32_MAX
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


def hash_positions(
    const real_t[:, :] positions,
    float[:, ::1] coords,
    uint64_t[::1] keys,
    Py_ssize_t first=0,
    Py_ssize_t last=-1,
):
    """Lay out the vertices ``first`` to ``last`` (default: all) of ``positions`` (``(count,
    3)``) in ``coords`` (``(3, count)`` float32, rows x, y and z; ``-0.0`` made ``0.0`` by
    adding ``0.0``) and hash each into ``keys``: the bits of y and x as one 64-bit value, xor
    the bits of z times :data:`SPREAD`, through MurmurHash3's finaliser. Vertices at the same
    position (bit for bit) hash alike. Without the GIL: spans of the vertices can be laid out
    on several threads at once."""
    cdef Py_ssize_t count = positions.shape[0], i
    cdef float x, y, z
    cdef uint32_t x_bits, y_bits, z_bits
    cdef uint64_t key
    if positions.shape[1] != 3 or coords.shape[0] != 3 or coords.shape[1] != count:
        raise ValueError("positions are (count, 3) and their coordinates (3, count)")
    if keys.shape[0] != count:
        raise ValueError("one hash per position")
    last = count if last == -1 else last
    _check_span(first, last, count)
    with nogil:
        for i in range(first, last):
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


def usable_corners(
    const index_t[:, ::1] triangles,
    Py_ssize_t vertex_count,
    index_t[:, ::1] corners,
    Py_ssize_t first,
    Py_ssize_t last,
):
    """Write the triangles ``first`` to ``last`` of the ``(n, 3)`` ``triangles`` into the
    ``(3, n)`` ``corners`` (of their dtype) from column ``first`` on, without those that
    repeat an index or hold one not below ``vertex_count`` (as numpy's ``<`` compares: a
    negative index is below it), in their order, and return how many were kept: one pass,
    each triangle written and kept when usable. Without the GIL: spans of the triangles can
    be written on several threads at once, each into its own columns. The corners are a
    contiguous copy, not the triangles' transposed view: the edge table and the union-find
    read rows faster than the interleaved triangles (docs/performance.md)."""
    cdef Py_ssize_t n = triangles.shape[0], t, kept = first
    cdef index_t a, b, c
    if corners.shape[0] != 3 or corners.shape[1] != n:
        raise ValueError("the corners are (3, n) for (n, 3) triangles")
    _check_span(first, last, n)
    if first == last:
        return 0
    cdef const index_t *flat = &triangles[0, 0]
    with nogil:
        for t in range(first, last):
            a, b, c = flat[3 * t], flat[3 * t + 1], flat[3 * t + 2]
            corners[0, kept], corners[1, kept], corners[2, kept] = a, b, c
            kept += _usable(a, b, c, vertex_count)
    return kept - first


cdef inline bint _usable(
    index_t a, index_t b, index_t c, Py_ssize_t vertex_count
) noexcept nogil:
    return (
        (a != b) & (b != c) & (c != a)
        & (a < vertex_count) & (b < vertex_count) & (c < vertex_count)
    )


cdef struct _Owners:
    # The mesh each vertex id belongs to, for ids visited in increasing order: meshes whose
    # ids begin at ``starts`` (one mesh when there are none), ``current`` the last found.
    const uint64_t *starts
    Py_ssize_t meshes
    Py_ssize_t current


cdef _Owners _owners_of(const uint64_t[::1] starts) noexcept:
    cdef _Owners owners
    owners.starts, owners.meshes, owners.current = &starts[0], starts.shape[0], 0
    return owners


cdef inline Py_ssize_t _owner(_Owners *owners, uint64_t vertex) noexcept nogil:
    while owners.current + 1 < owners.meshes and owners.starts[owners.current + 1] <= vertex:
        owners.current += 1
    return owners.current


cdef object _mesh_starts(starts):
    """The first vertex id of each mesh, as a contiguous uint64 array: ``[0]`` for none."""
    return np.zeros(1, np.uint64) if starts is None else np.ascontiguousarray(starts, np.uint64)


# The edge table of ``docs/topology.md`` in three stages, each a pass that can run on several
# threads at once (mesh/edge_table.py runs them): each chunk of triangles counts its edges by
# lower vertex (``lower_vertex_counts``); the counts become each chunk's cursors
# (``edge_cursors``); each chunk files its edges at its cursors (``file_edges``), so that a
# vertex's entries are in the triangles' order whatever the chunks; then each range of
# vertices sorts its entries and tallies their runs (``tally_edges``).


def lower_vertex_counts(
    const uint32_t[:, :] corners, Py_ssize_t first, Py_ssize_t last, uint32_t[::1] counts
):
    """Add to ``counts`` (one per vertex) the edges of the triangles ``first`` to ``last``
    of ``corners`` (``(3, n)`` ids below ``len(counts)``) filed under each lower vertex, and
    return the largest span of ids in one of them (the farthest an edge reaches). Without
    the GIL; ``IndexError`` for the first triangle that points past the vertices."""
    cdef Py_ssize_t vertex_count = counts.shape[0], t, bad = -1
    cdef uint32_t a, b, c, farthest = 0
    cdef _Rows32 rows = _rows32_of(corners)
    _check_span(first, last, corners.shape[1])
    if first == last:
        return 0
    cdef uint32_t *tally = &counts[0] if vertex_count else NULL
    with nogil:
        for t in range(first, last):
            a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
            if a >= vertex_count or b >= vertex_count or c >= vertex_count:
                bad = t
                break
            tally[min(a, b)] += 1
            tally[min(b, c)] += 1
            tally[min(c, a)] += 1
            farthest = max(farthest, max(a, max(b, c)) - min(a, min(b, c)))
    if bad >= 0:
        raise IndexError(f"triangle {bad} points past the {vertex_count} vertices")
    return farthest


cdef void _check_span(Py_ssize_t first, Py_ssize_t last, Py_ssize_t count) except *:
    if not 0 <= first <= last <= count:
        raise ValueError(f"triangles {first} to {last} are not among the {count}")


def edge_cursors(uint32_t[:, ::1] counts):
    """Turn ``counts`` (``(chunks, vertices)``: each chunk's edges under each lower vertex)
    into cursors, in place: where each chunk files its first edge of each vertex, after the
    edges of every lower vertex and those of the same vertex from earlier chunks. Returns how
    many edges there are. Without the GIL."""
    cdef Py_ssize_t chunks = counts.shape[0], vertices = counts.shape[1], v, k
    cdef uint64_t running = 0
    cdef uint32_t count
    if vertices >= 1 << 31:
        raise ValueError("an edge table holds fewer than 2**31 vertices")
    with nogil:
        for v in range(vertices):
            for k in range(chunks):
                count = counts[k, v]
                counts[k, v] = <uint32_t>running
                running += count
    if running >= 1 << 32:
        raise ValueError("an edge table holds fewer than 2**32 edges")
    return running


ctypedef fused entry_t:
    uint16_t
    uint32_t


def file_edges(
    const uint32_t[:, :] corners,
    Py_ssize_t first,
    Py_ssize_t last,
    uint32_t[::1] cursors,
    entry_t[::1] entries,
):
    """File the edges of the triangles ``first`` to ``last`` of ``corners`` into ``entries``
    at ``cursors`` (one per vertex, as :func:`edge_cursors` left them), each cursor moved past
    the entries filed: an edge's entry is the distance to its higher vertex, shifted, and
    whether the triangle runs the edge downwards (distances must fit the entries, as
    :func:`lower_vertex_counts`' span tells). Without the GIL."""
    cdef Py_ssize_t vertex_count = cursors.shape[0], size = entries.shape[0], t, bad = -1
    cdef uint32_t a, b, c
    cdef _Rows32 rows = _rows32_of(corners)
    _check_span(first, last, corners.shape[1])
    if first == last:
        return
    cdef uint32_t *at = &cursors[0] if vertex_count else NULL
    cdef entry_t *filed = &entries[0] if size else NULL
    with nogil:
        for t in range(first, last):
            a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
            if (
                a >= vertex_count or b >= vertex_count or c >= vertex_count
                or not _file_edge(filed, at, size, a, b)
                or not _file_edge(filed, at, size, b, c)
                or not _file_edge(filed, at, size, c, a)
            ):
                bad = t
                break
    if bad >= 0:
        raise IndexError(f"triangle {bad} points past the vertices or the entries")


cdef inline bint _file_edge(
    entry_t *entries, uint32_t *cursors, Py_ssize_t size, uint32_t a, uint32_t b
) noexcept nogil:
    """File the edge from ``a`` to ``b`` at its lower vertex's cursor; false, filing
    nothing, when the cursor is past the ``size`` entries."""
    cdef uint32_t lower = min(a, b)
    if cursors[lower] >= size:
        return False
    entries[cursors[lower]] = <entry_t>(((max(a, b) - lower) << 1) | (a > b))
    cursors[lower] += 1
    return True


def tally_edges(
    entry_t[::1] entries, const uint32_t[::1] ends, Py_ssize_t low, Py_ssize_t high, starts=None
):
    """Per mesh (ids from ``starts``, as :class:`_Owners` reads them), the distinct, boundary,
    non-manifold and misoriented edges of the vertices ``low`` to ``high``, as an int64
    ``(4, meshes)`` array: vertex ``v``'s entries, ``entries[ends[v - 1]:ends[v]]`` (from 0
    for the first vertex), are sorted in place and read as runs of the same higher vertex:
    one entry is a boundary edge, two of opposite directions a well-made edge, two of the
    same direction a misoriented one, three or more a non-manifold edge. Without the GIL."""
    mesh_starts = _mesh_starts(starts)
    cdef _Owners owners = _owners_of(mesh_starts)
    result = np.zeros((4, owners.meshes), np.int64)
    cdef int64_t[:, ::1] counts = result
    cdef Py_ssize_t v, begin, end, size = entries.shape[0], bad = -1
    if not 0 <= low <= high <= ends.shape[0]:
        raise ValueError(f"vertices {low} to {high} are not among the {ends.shape[0]}")
    if low == high:
        return result
    begin = ends[low - 1] if low else 0
    cdef entry_t *filed = &entries[0] if size else NULL
    with nogil:
        for v in range(low, high):
            end = ends[v]
            if end < begin or end > size:
                bad = v
                break
            if end > begin:
                _sort(filed + begin, end - begin)
                _tally_runs(filed, begin, end, &counts[0, 0], owners.meshes, _owner(&owners, v))
            begin = end
    if bad >= 0:
        raise ValueError(f"vertex {bad}'s entries end outside the entries")
    return result


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
    if corners.shape[1] == 0:
        rows.a = rows.b = rows.c = NULL
        rows.step = 0
        return rows
    rows.a = <const uint32_t *>(<const char *>&corners[0, 0])
    rows.b = <const uint32_t *>(<const char *>&corners[0, 0] + corners.strides[0])
    rows.c = <const uint32_t *>(<const char *>&corners[0, 0] + 2 * corners.strides[0])
    rows.step = corners.strides[1] // <Py_ssize_t>sizeof(uint32_t)
    return rows


cdef void _tally_runs(
    const entry_t *entries, Py_ssize_t begin, Py_ssize_t end, int64_t *counts,
    Py_ssize_t meshes, Py_ssize_t mesh
) noexcept nogil:
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


cdef inline void _sort(entry_t *values, Py_ssize_t count) noexcept nogil:
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
    (``(3, n)`` ids below ``vertex_count``) form, as int64: union-find with path halving.
    Without the GIL, so that it can run beside the edge table's stages."""
    mesh_starts = _mesh_starts(starts)
    cdef _Owners owners = _owners_of(mesh_starts)
    result = np.zeros(owners.meshes, np.int64)
    cdef int64_t[:] pieces = result
    cdef Py_ssize_t n = corners.shape[1], t, v, bad = -1
    cdef uint32_t a, b, c
    cdef _Rows32 rows = _rows32_of(corners)
    if vertex_count >= 1 << 32:
        raise ValueError("pieces are counted among fewer than 2**32 vertices")
    cdef uint32_t *parent = <uint32_t *>malloc(max(vertex_count, 1) * sizeof(uint32_t))
    cdef uint8_t *used = <uint8_t *>calloc(max(vertex_count, 1), 1)
    try:
        if parent == NULL or used == NULL:
            raise MemoryError()
        with nogil:
            for v in range(vertex_count):
                parent[v] = <uint32_t>v
            for t in range(n):
                a, b, c = rows.a[t * rows.step], rows.b[t * rows.step], rows.c[t * rows.step]
                if a >= vertex_count or b >= vertex_count or c >= vertex_count:
                    bad = t
                    break
                used[a] = used[b] = used[c] = 1
                _join(parent, a, b)
                _join(parent, a, c)
            if bad < 0:
                for v in range(vertex_count):
                    if used[v] and parent[v] == v:
                        pieces[_owner(&owners, v)] += 1
        if bad >= 0:
            raise IndexError(f"triangle {bad} points past the {vertex_count} vertices")
    finally:
        free(parent)
        free(used)
    return result


cdef inline uint32_t _root(uint32_t *parent, uint32_t vertex) noexcept nogil:
    while parent[vertex] != vertex:
        parent[vertex] = parent[parent[vertex]]
        vertex = parent[vertex]
    return vertex


cdef inline void _join(uint32_t *parent, uint32_t a, uint32_t b) noexcept nogil:
    a, b = _root(parent, a), _root(parent, b)
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b


# Zero-area and duplicate triangles (mesh/faults.py's rules) in three stages, each a pass
# that can run on several threads at once (mesh/faults.py runs them): each chunk of
# triangles marks the flat ones and counts its windings by part, the top bits of the
# winding hash (``flat_marks``); each chunk writes its windings into their parts at cursors
# the counts give, so that a part holds its windings in the triangles' order whatever the
# chunks (``split_windings``); each range of parts is searched with a hash set that stays
# in the CPU caches (``count_repeats``): one hash set over all of them would miss the caches
# on every probe.


def flat_marks(
    const float[:, ::1] coords,
    const uint64_t[::1] keys,
    const index_t[:, :] corners,
    Py_ssize_t first,
    Py_ssize_t last,
    float flat_ratio,
    int bits,
    uint8_t[::1] flags,
    int64_t[::1] part_counts,
):
    """Of the triangles ``first`` to ``last`` of ``corners`` (``(3, n)`` indices of the
    vertices ``coords``, ``(3, count)``, whose position hashes are ``keys``), set ``flags``
    (one byte per triangle of ``corners``) to 1 where a triangle is flat: twice its area at
    most ``flat_ratio`` times its longest side squared (NaN is never flat); add each other
    triangle's winding to ``part_counts`` (``2**bits``) at its part; return how many are
    flat. Without the GIL; ``IndexError`` for the first triangle past the vertices."""
    cdef Py_ssize_t count = keys.shape[0], t, zero_area = 0, bad = -1
    cdef index_t a, b, c
    cdef int shift = 64 - bits
    _check_marks(coords, keys, corners, first, last, bits, flags.shape[0], part_counts.shape[0])
    if first == last:
        return 0
    cdef _Rows rows = _rows_of(coords)
    cdef const uint64_t *hashes = &keys[0]
    cdef int64_t *tally = &part_counts[0]
    with nogil:
        for t in range(first, last):
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if not (_within(a, count) and _within(b, count) and _within(c, count)):
                bad = t
                break
            flags[t] = _is_flat(rows, a, b, c, flat_ratio)
            if flags[t]:
                zero_area += 1
            else:
                tally[_part(_winding(hashes, a, b, c), shift)] += 1
    if bad >= 0:
        raise IndexError(f"triangle {bad} points past the {count} vertices")
    return zero_area


cdef void _check_marks(
    const float[:, ::1] coords,
    const uint64_t[::1] keys,
    const index_t[:, :] corners,
    Py_ssize_t first,
    Py_ssize_t last,
    int bits,
    Py_ssize_t flags,
    Py_ssize_t parts,
) except *:
    if coords.shape[1] != keys.shape[0]:
        raise ValueError("one position hash per vertex")
    if not 0 <= bits < 32 or parts != <Py_ssize_t>1 << bits:
        raise ValueError("one count per part")
    if flags != corners.shape[1]:
        raise ValueError("one flag per triangle")
    if corners.shape[1] >= 1 << 32:
        raise ValueError("triangles are numbered below 2**32")
    _check_span(first, last, corners.shape[1])


def split_windings(
    const float[:, ::1] coords,
    const uint64_t[::1] keys,
    const index_t[:, :] corners,
    Py_ssize_t first,
    Py_ssize_t last,
    int bits,
    uint8_t[::1] flags,
    int64_t[::1] cursors,
    uint64_t[::1] split,
    uint32_t[::1] numbers=None,
):
    """Write the windings of the triangles ``first`` to ``last`` that ``flags`` (set by
    :func:`flat_marks`) leaves unmarked into ``split`` at their part's cursor (``cursors``,
    ``2**bits``, each moved past what it wrote), and when given, each one's triangle number
    into ``numbers`` at the same place. Without the GIL."""
    cdef Py_ssize_t count = keys.shape[0], size = split.shape[0], t, at, bad = -1
    cdef index_t a, b, c
    cdef uint64_t winding
    cdef int shift = 64 - bits
    _check_marks(coords, keys, corners, first, last, bits, flags.shape[0], cursors.shape[0])
    if numbers is not None and numbers.shape[0] != size:
        raise ValueError("one triangle number per winding")
    if first == last:
        return
    cdef const uint64_t *hashes = &keys[0]
    cdef int64_t *cursor = &cursors[0]
    cdef uint64_t *written = &split[0] if size else NULL
    cdef uint32_t *numbered = NULL if numbers is None or not size else &numbers[0]
    with nogil:
        for t in range(first, last):
            if flags[t]:
                continue
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if not (_within(a, count) and _within(b, count) and _within(c, count)):
                bad = t
                break
            winding = _winding(hashes, a, b, c)
            at = cursor[_part(winding, shift)]
            if not 0 <= at < size:
                bad = t
                break
            written[at] = winding
            if numbered != NULL:
                numbered[at] = <uint32_t>t
            cursor[_part(winding, shift)] = at + 1
    if bad >= 0:
        raise IndexError(f"triangle {bad} points past the vertices or its part")


def count_repeats(
    const uint64_t[::1] split,
    const int64_t[::1] bounds,
    Py_ssize_t low,
    Py_ssize_t high,
    const uint32_t[::1] numbers=None,
    uint8_t[::1] repeated=None,
):
    """How many of the windings of the parts ``low`` to ``high`` repeat an earlier one of
    their part (part ``p`` is ``split[bounds[p]:bounds[p + 1]]``, in the triangles' order);
    when ``numbers`` and ``repeated`` are given, ``repeated`` is set to 1 at the number of
    each such triangle. Without the GIL."""
    cdef Py_ssize_t size = split.shape[0], part, i, largest = 0, found = 0
    cdef Py_ssize_t marks = 0 if repeated is None else repeated.shape[0]
    if not 0 <= low <= high < bounds.shape[0]:
        raise ValueError(f"parts {low} to {high} are not among the {bounds.shape[0] - 1}")
    for part in range(low, high):
        if not 0 <= bounds[part] <= bounds[part + 1] <= size:
            raise ValueError(f"part {part} lies outside the windings")
        largest = max(largest, bounds[part + 1] - bounds[part])
    if (numbers is None) != (repeated is None) or (numbers is not None and numbers.shape[0] != size):
        raise ValueError("a triangle number per winding, and marks, or neither")
    if not largest:
        return 0
    cdef const uint32_t *numbered = NULL if numbers is None else &numbers[0]
    cdef uint8_t *marked = NULL if repeated is None or not marks else &repeated[0]
    cdef _HashSet seen
    if not _set_init(&seen, largest):
        raise MemoryError()
    try:
        with nogil:
            for part in range(low, high):
                _set_clear(&seen)
                for i in range(bounds[part], bounds[part + 1]):
                    if not _set_add(&seen, split[i]):
                        found += 1
                        if numbered != NULL and numbered[i] < marks:
                            marked[numbered[i]] = 1
    finally:
        free(seen.slots)
    return found

def meshes_faults(
    const float[:, ::1] coords,
    const uint64_t[::1] keys,
    const int64_t[:, :] corners,
    const int64_t[::1] vertex_starts,
    const int64_t[::1] triangle_starts,
    float flat_ratio,
):
    """Per mesh ``m`` of several laid out one after another (its vertices those from
    ``vertex_starts[m]`` to ``vertex_starts[m + 1]`` of ``coords`` and ``keys``, its triangles
    the columns ``triangle_starts[m]`` to ``triangle_starts[m + 1]`` of ``corners``, indices
    of its own vertices), how many triangles are flat and how many of the others repeat an
    earlier one of the mesh: an int64 ``(2, meshes)`` array, the counts :func:`flat_marks`,
    :func:`split_windings` and :func:`count_repeats` give each mesh alone, in one pass with
    one hash set per mesh (for meshes small enough that it stays in the CPU caches).
    ``IndexError`` for the first triangle past its mesh's vertices."""
    cdef Py_ssize_t meshes = vertex_starts.shape[0] - 1, m, t, first, last, base, count
    cdef Py_ssize_t bad = -1
    cdef int64_t a, b, c
    if meshes < 0 or triangle_starts.shape[0] != meshes + 1:
        raise ValueError("the starts of each mesh and the end of the last")
    if coords.shape[0] != 3 or coords.shape[1] != keys.shape[0] or corners.shape[0] != 3:
        raise ValueError("coordinates are (3, count), one position hash per vertex")
    for m in range(meshes):
        if not (
            0 <= vertex_starts[m] <= vertex_starts[m + 1] <= keys.shape[0]
            and 0 <= triangle_starts[m] <= triangle_starts[m + 1] <= corners.shape[1]
        ):
            raise ValueError(f"mesh {m} lies outside the vertices or the triangles")
    result = np.zeros((2, meshes), np.int64)
    cdef int64_t[:, ::1] counts = result
    cdef _Rows rows
    cdef const uint64_t *hashes = NULL
    cdef _HashSet seen
    if keys.shape[0]:  # else every triangle points past the vertices
        rows, hashes = _rows_of(coords), &keys[0]
    for m in range(meshes):
        base, count = vertex_starts[m], vertex_starts[m + 1] - vertex_starts[m]
        first, last = triangle_starts[m], triangle_starts[m + 1]
        if first == last:
            continue
        if not _set_init(&seen, last - first):
            raise MemoryError()
        for t in range(first, last):
            a, b, c = corners[0, t], corners[1, t], corners[2, t]
            if not (_within(a, count) and _within(b, count) and _within(c, count)):
                bad = t
                break
            if _is_flat(rows, base + a, base + b, base + c, flat_ratio):
                counts[0, m] += 1
            elif not _set_add(&seen, _winding(hashes, base + a, base + b, base + c)):
                counts[1, m] += 1
        free(seen.slots)
        if bad >= 0:
            raise IndexError(f"triangle {bad} points past the {count} vertices of its mesh")
    return result


cdef inline uint64_t _winding(
    const uint64_t *keys, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c
) noexcept nogil:
    """A hash of the triangle's corners' position hashes, the same in each of its rotations
    and different (but for collisions) when reversed."""
    cdef uint64_t ka = keys[a], kb = keys[b], kc = keys[c]
    return (ka ^ (kb >> 1)) + (kb ^ (kc >> 1)) + (kc ^ (ka >> 1))


cdef inline Py_ssize_t _part(uint64_t value, int shift) noexcept nogil:
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


cdef inline bint _within(index_t value, Py_ssize_t count) noexcept nogil:
    """Whether ``value`` numbers one of ``count`` items (64-bit values past 2^63 do not)."""
    return 0 <= <int64_t>value < count


cdef inline float _greater(float a, float b) noexcept nogil:
    """numpy's ``maximum``: NaN when either is NaN."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


cdef inline bint _is_flat(
    _Rows p, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, float ratio
) noexcept nogil:
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


cdef struct _HashSet:
    # A set of 64-bit values (open addressing, linear probing), at most two thirds full.
    uint64_t *slots
    uint64_t mask
    int shift
    bint has_zero  # 0 marks an empty slot, so the value 0 is kept apart


cdef bint _set_init(_HashSet *values, Py_ssize_t capacity) noexcept:
    """Make ``values`` an empty set for up to ``capacity`` values; false when out of memory."""
    cdef uint64_t size = 16
    values.shift = 60
    while size < <uint64_t>capacity + <uint64_t>capacity // 2:
        size <<= 1
        values.shift -= 1
    values.mask = size - 1
    values.has_zero = False
    values.slots = <uint64_t *>calloc(size, sizeof(uint64_t))
    return values.slots != NULL


cdef inline void _set_clear(_HashSet *values) noexcept nogil:
    memset(values.slots, 0, (values.mask + 1) * sizeof(uint64_t))
    values.has_zero = False


cdef inline bint _set_add(_HashSet *values, uint64_t value) noexcept nogil:
    """Add ``value``; whether it was new."""
    cdef uint64_t slot
    if value == 0:
        if values.has_zero:
            return False
        values.has_zero = True
        return True
    slot = (value * SPREAD) >> values.shift
    while values.slots[slot]:
        if values.slots[slot] == value:
            return False
        slot = (slot + 1) & values.mask
    values.slots[slot] = value
    return True


def unit_length_outliers(
    const real_t[:, :] vectors,
    double threshold,
    double margin,
    Py_ssize_t first=0,
    Py_ssize_t last=-1,
):
    """``(off, near)``, the rows ``first`` to ``last`` (default: all) of ``vectors`` (float32
    or float64) whose length, computed in their own precision (``threshold`` and ``margin``
    rounded to it, as numpy compares with Python floats), differs from 1 by more than
    ``threshold``, and apart from them those whose difference is within ``margin`` of
    ``threshold``: undecided at this precision, for the caller to judge again in double
    precision. Both are ascending ``intp`` arrays. Without the GIL: spans of the rows can be
    judged on several threads at once."""
    cdef Py_ssize_t n = vectors.shape[0], columns = vectors.shape[1], i, j, off_count = 0
    cdef Py_ssize_t near_count = 0
    cdef real_t total, error, limit = <real_t>threshold, band = <real_t>margin
    last = n if last == -1 else last
    _check_span(first, last, n)
    off, near = np.empty(last - first, np.intp), np.empty(last - first, np.intp)
    cdef Py_ssize_t[::1] off_rows = off, near_rows = near
    with nogil:
        for i in range(first, last):
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


def draw_nearest(
    const double[:, :, ::1] screen,
    const double[:, ::1] planes,
    const int64_t[:] drawn,
    const int64_t[:] top,
    const int64_t[:] rows,
    double[:, ::1] depth,
    int32_t[:, ::1] seen,
):
    """Scan-convert the triangles ``drawn`` of ``screen`` (``(n, 3, 3)``: corners in samples,
    x right, y down, and depth) into the sample buffers ``depth`` and ``seen`` (``(height,
    width)``), in the order given. Triangle ``drawn[k]`` covers the rows ``top[k]`` to
    ``top[k] + rows[k] - 1`` (within the buffers); in each, the samples whose centre lies in the
    span between its edges at the row's centre line. A covered sample whose depth, from the
    triangle's plane ``planes[t]`` (``a * x + b * y + c``, at the centre), is at most the depth
    held takes it and the triangle's index: the nearest fragment wins, and of equal ones the
    later triangle (what the numpy depth test kept: docs/performance.md, "The service: drawing
    the previews in the compiled kernel")."""
    cdef Py_ssize_t height = depth.shape[0], width = depth.shape[1]
    cdef Py_ssize_t k, t, row, x, first_x, last_x
    cdef double a, b, c, centre_y, left, right, sample
    if seen.shape[0] != height or seen.shape[1] != width:
        raise ValueError("depth and seen are buffers of the same samples")
    if top.shape[0] != drawn.shape[0] or rows.shape[0] != drawn.shape[0]:
        raise ValueError("one span of rows per triangle drawn")
    if screen.shape[0] > INT32_MAX or planes.shape[0] != screen.shape[0]:
        raise ValueError("one plane per triangle, at most 2^31 - 1 triangles")
    for k in range(drawn.shape[0]):
        t = drawn[k]
        if t < 0 or t >= screen.shape[0] or top[k] < 0 or top[k] + rows[k] > height:
            raise ValueError("a triangle or a row outside the buffers")
    with nogil:
        for k in range(drawn.shape[0]):
            t = drawn[k]
            a, b, c = planes[t, 0], planes[t, 1], planes[t, 2]
            for row in range(top[k], top[k] + rows[k]):
                centre_y = row + 0.5
                left, right = INFINITY, -INFINITY
                left, right = _edge_span(&screen[t, 0, 0], &screen[t, 1, 0], centre_y, left, right)
                left, right = _edge_span(&screen[t, 1, 0], &screen[t, 2, 0], centre_y, left, right)
                left, right = _edge_span(&screen[t, 2, 0], &screen[t, 0, 0], centre_y, left, right)
                if isnan(left) or isnan(right):  # no span (numpy's cast of NaN made none either)
                    continue
                first_x = <Py_ssize_t>min(max(ceil(left - 0.5), 0.0), <double>width)
                last_x = <Py_ssize_t>min(max(floor(right - 0.5), -1.0), <double>(width - 1))
                for x in range(first_x, last_x + 1):
                    sample = a * (x + 0.5) + b * (row + 0.5) + c
                    if sample <= depth[row, x]:
                        depth[row, x] = sample
                        seen[row, x] = <int32_t>t


cdef inline (double, double) _edge_span(
    const double *p, const double *q, double centre_y, double left, double right
) noexcept nogil:
    """``left`` and ``right`` widened to where the edge from ``p`` to ``q`` (x, y, depth)
    crosses the line ``y = centre_y``, if it does (NaN kept, as numpy's minimum keeps it)."""
    cdef double rise = q[1] - p[1], along, x
    if rise == 0:
        return left, right
    along = (centre_y - p[1]) / rise
    if not (along >= 0 and along <= 1):
        return left, right
    x = p[0] + along * (q[0] - p[0])
    if isnan(x):
        return x, x
    return min(left, x), max(right, x)


def resolve_samples(
    const int32_t[:, ::1] seen, const float[:, ::1] shades, uint8_t[:, :, ::1] picture
):
    """Each pixel of ``picture`` (``(height, width, 4)`` RGBA) from its block of samples of
    ``seen`` (``factor`` times larger each way; -1: none): the samples' rows of ``shades``
    (RGB and coverage; -1, or past the end, is its last row: the background's) summed in
    float32, row by row of the block, then coverage over ``factor²`` as alpha and colour over
    the covered samples (at least 1e-6), times 255, rounded half to even and clamped: numpy's
    float32 arithmetic, in the same order."""
    cdef Py_ssize_t height = picture.shape[0], width = picture.shape[1]
    cdef Py_ssize_t factor, stride = seen.shape[1], y, x, dy, dx, owner, channel
    cdef Py_ssize_t background = shades.shape[0] - 1
    cdef float summed[4]
    cdef float blocks, covered, value
    if height == 0 or width == 0 or picture.shape[2] != 4 or shades.shape[1] != 4:
        raise ValueError("an RGBA picture, from RGBA shades")
    factor = seen.shape[0] // height
    if factor < 1 or seen.shape[0] != factor * height or stride != factor * width:
        raise ValueError("the samples are the picture's size times a whole factor")
    if background < 0:
        raise ValueError("shades end with the background's row")
    blocks = <float>(factor * factor)
    cdef const int32_t *block
    cdef const float *colours = &shades[0, 0]
    cdef uint8_t *pixel = &picture[0, 0, 0]
    with nogil:
        for y in range(height):
            for x in range(width):
                block = &seen[y * factor, x * factor]
                if x > 0 and _same_samples(block, stride, factor):
                    memcpy(pixel, pixel - 4, 4)
                    pixel += 4
                    continue
                summed[0] = summed[1] = summed[2] = summed[3] = 0
                for dy in range(factor):
                    for dx in range(factor):
                        owner = block[dy * stride + dx]
                        if owner < 0 or owner > background:
                            owner = background
                        for channel in range(4):
                            summed[channel] = summed[channel] + colours[owner * 4 + channel]
                covered = max(summed[3], <float>1e-6)
                for channel in range(3):
                    pixel[channel] = _byte(summed[channel] / covered * <float>255)
                pixel[3] = _byte(summed[3] / blocks * <float>255)
                pixel += 4


cdef inline bint _same_samples(
    const int32_t *block, Py_ssize_t stride, Py_ssize_t factor
) noexcept nogil:
    """Whether the ``factor²`` samples at ``block`` (rows ``stride`` apart) see what the block
    before them in the row sees, sample for sample: their pixel is then the same (most of a
    picture is background or large faces)."""
    cdef Py_ssize_t dy, dx
    for dy in range(factor):
        for dx in range(factor):
            if block[dy * stride + dx] != block[dy * stride + dx - factor]:
                return False
    return True


cdef inline uint8_t _byte(float value) noexcept nogil:
    """``value`` rounded half to even and clamped to a byte, as numpy's ``rint``, ``clip`` and
    cast to uint8 make it. Adding and taking away 2^23 rounds a float32 of ``[0, 2^23)`` to a
    whole number in the default rounding mode (``rintf`` is a library call a sample: 2-3x
    slower); larger ones end at 255 and negative ones at 0 either way. NaN makes 0, as numpy's
    cast does on x86."""
    value = (value + <float>8388608.0) - <float>8388608.0
    if not value >= 0:
        return 0
    return <uint8_t>min(value, <float>255)
