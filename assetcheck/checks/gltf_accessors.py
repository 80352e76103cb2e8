"""Accessor contents against the accessor's JSON: ``min``/``max``, NaN and infinity, sparse indices.

Whole accessors are compared at once with numpy. As in Khronos glTF-Validator, float bounds
are compared exactly after rounding the declared values to single precision, and only
accessors whose data can be read are checked.

Most accessors agree with their bounds, and most are small: where a document has several of
one data format, they are reduced together, one numpy pass for them all (:func:`agreeing`),
and only the others are looked at one by one to say what is wrong.
"""

from __future__ import annotations

import warnings

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_bounds import DeclaredBounds, Numbers, as_array
from assetcheck.formats.gltf.accessor_data import (
    FLOAT,
    AccessorLayout,
    AccessorReader,
    SparseLayout,
)
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.stacking import SMALL_ROWS, stackable_groups, stacked
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

CODES = (
    "ACCESSOR_MIN_MISMATCH",
    "ACCESSOR_MAX_MISMATCH",
    "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND",
    "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND",
    "ACCESSOR_INVALID_FLOAT",
    "ACCESSOR_SPARSE_INDICES_NON_INCREASING",
    "ACCESSOR_SPARSE_INDEX_OOB",
)


def first_true(mask: np.ndarray) -> int:
    """The flat index of the first true element of ``mask`` (which has one)."""
    return int(np.argmax(mask.ravel()))


#: Up to this many elements, one reduction along axis 0 beats one per column (numpy's call
#: overhead dominates); beyond, column by column is several times faster on a narrow array.
_SMALL_ACCESSOR = 4096


def column_extremes(values: np.ndarray, key: str, skip_nan: bool) -> np.ndarray:
    """The smallest (``key`` ``min``) or largest value of each column, NaN skipped as Khronos
    skips it when ``skip_nan``."""
    if skip_nan:
        nan_reduce = np.nanmin if key == "min" else np.nanmax
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column
            return nan_reduce(values, axis=0)
    reduce = np.minimum.reduce if key == "min" else np.maximum.reduce
    if len(values) <= _SMALL_ACCESSOR:
        return reduce(values, axis=0)
    return np.array([reduce(values[:, c]) for c in range(values.shape[1])])


#: An accessor the check reads: its index, layout and values.
Readable = tuple[int, AccessorLayout, np.ndarray]


def agreeing(readable: list[Readable], bounds: DeclaredBounds) -> set[int]:
    """The accessors of ``readable`` with nothing to report: all values finite, and each
    declared bound (when there is one) their extreme. Small accessors are stacked per
    component type and width (:mod:`~assetcheck.formats.gltf.stacking`) and reduced
    together; the others are left to the caller."""
    small = (
        ((layout.component_type, values.shape[1]), (index, layout, values))
        for index, layout, values in readable
        if len(values) <= SMALL_ROWS
    )
    found: set[int] = set()
    for _, group in stackable_groups(small):
        values, starts = stacked([values for _, _, values in group])
        lows = np.minimum.reduceat(values, starts, axis=0)
        highs = np.maximum.reduceat(values, starts, axis=0)
        layout = group[0][1]
        fine = np.ones(len(group), dtype=bool)
        if layout.component_type == FLOAT:  # NaN and infinities show in the extremes
            fine &= np.isfinite(lows).all(axis=1) & np.isfinite(highs).all(axis=1)
        declared = [bounds.numbers(index) for index, _, _ in group]
        for side, actual in enumerate((lows, highs)):
            known = [
                (row, numbers)
                for row, both in enumerate(declared)
                if (numbers := both[side]) is not None
            ]
            if known:
                rows = np.array([row for row, _ in known])
                expected = as_array([numbers for _, numbers in known], layout)
                fine[rows[(actual[rows] != expected).any(axis=1)]] = False
        found.update(group[row][0] for row in np.flatnonzero(fine).tolist())
    return found


def _check_bounds(
    declared_numbers: tuple[Numbers | None, Numbers | None],
    values: np.ndarray,
    layout: AccessorLayout,
    at: str,
    issues: FileIssues,
    all_finite: bool,
) -> None:
    for numbers, key, outside in zip(
        declared_numbers, ("min", "max"), (np.less, np.greater), strict=True
    ):
        if numbers is None:
            continue
        declared = as_array(numbers, layout)
        actual = column_extremes(values, key, not all_finite)
        for component in np.flatnonzero(actual != declared):
            pointer = child(child(at, key), int(component))
            issues.add(
                f"ACCESSOR_{key.upper()}_MISMATCH",
                pointer=pointer,
                declared=_show(declared[component]),
                actual=_show(actual[component]),
            )
            beyond = int(np.count_nonzero(outside(values[:, component], declared[component])))
            if beyond:
                bound = "MIN" if key == "min" else "MAX"
                issues.add(
                    f"ACCESSOR_ELEMENT_OUT_OF_{bound}_BOUND",
                    pointer=pointer,
                    count=beyond,
                    declared=_show(declared[component]),
                )


def _check_floats(values: np.ndarray, at: str, issues: FileIssues) -> bool:
    """Report NaN and infinite values; True when there are none."""
    # min and max propagate NaN and show infinities: a cheap test before the full mask.
    if np.isfinite(values.min()) and np.isfinite(values.max()):
        return True
    invalid = ~np.isfinite(values)
    first = first_true(invalid)
    issues.add(
        "ACCESSOR_INVALID_FLOAT",
        pointer=at,
        count=int(np.count_nonzero(invalid)),
        first=first,
        value=_show(values.ravel()[first]),
    )
    return False


def _check_sparse_indices(
    reader: AccessorReader, sparse: SparseLayout, count: int, at: str, issues: FileIssues
) -> None:
    indices = reader.sparse_indices(sparse)
    if indices is None:
        return
    pointer = child(at, "sparse")
    steps = np.flatnonzero(indices[1:] <= indices[:-1]) + 1
    if steps.size:
        issues.add(
            "ACCESSOR_SPARSE_INDICES_NON_INCREASING",
            pointer=pointer,
            count=steps.size,
            first=int(steps[0]),
        )
    outside = np.flatnonzero(indices >= count)
    if outside.size:
        issues.add(
            "ACCESSOR_SPARSE_INDEX_OOB",
            pointer=pointer,
            count=outside.size,
            first=int(outside[0]),
            limit=count,
        )


def _show(value: object) -> str:
    number = value.item() if isinstance(value, np.generic) else value
    return repr(float(number)) if isinstance(number, float) else str(number)


def check_accessors(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    reader, bounds = asset.gltf.reader, asset.gltf.declared_bounds
    accessors = asset.gltf.json.get("accessors")
    checked: list[tuple[int, AccessorLayout]] = []
    readable: list[Readable] = []
    for index in range(len(accessors) if isinstance(accessors, list) else 0):
        layout = reader.layout(index)
        if (
            layout is None
            or (layout.buffer_view is None and layout.sparse is None)
            or reader.draco_decoded(index)
        ):  # Draco's quantized bounds: gltf_draco
            continue
        checked.append((index, layout))
        values = reader.read(index)
        if values is not None:
            readable.append((index, layout, values))
    fine = agreeing(readable, bounds)
    read = {index: values for index, _, values in readable}
    for index, layout in checked:
        if layout.sparse is not None:
            at = child("/accessors", index)
            _check_sparse_indices(reader, layout.sparse, layout.count, at, context.issues)
        values = read.get(index)
        if values is None or index in fine:
            continue
        at = child("/accessors", index)
        all_finite = layout.component_type != FLOAT or _check_floats(values, at, context.issues)
        _check_bounds(bounds.numbers(index), values, layout, at, context.issues, all_finite)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-accessors",
            "Accessor data against its declared min and max; NaN and "
            "infinite floats; sparse indices.",
            check_accessors,
            CODES,
            GLTF_FORMATS,
        )
    ]
