"""An accessor's declared ``min`` and ``max``, read as Khronos glTF-Validator reads them."""

from __future__ import annotations

import numpy as np

from assetcheck.formats.gltf.accessor_data import (
    FLOAT,
    INTEGER_RANGES,
    AccessorLayout,
)
from assetcheck.formats.gltf.fields import as_integer, is_number


def declared_bounds(accessor: dict, key: str, layout: AccessorLayout) -> np.ndarray | None:
    """``accessor[key]`` (``min`` or ``max``) as Khronos keeps it, or None when it is malformed.

    Float bounds are rounded to single precision; integer bounds must fit the component type.
    """
    value = accessor.get(key)
    if not isinstance(value, list) or len(value) != layout.components:
        return None
    if layout.component_type == FLOAT:
        if not all(map(is_number, value)):
            return None
        bounds = np.array(value, dtype=np.float64)
        return bounds.astype(np.float32) if np.isfinite(bounds).all() else None
    numbers = [as_integer(v) for v in value]
    lowest, highest = INTEGER_RANGES[layout.component_type]
    if any(n is None or not lowest <= n <= highest for n in numbers):
        return None
    return np.array(numbers, dtype=np.int64)


def has_bounds(accessor: dict, layout: AccessorLayout | None) -> bool:
    """Whether the accessor has usable ``min`` and ``max`` (Khronos ignores malformed ones)."""
    return layout is not None and all(
        declared_bounds(accessor, key, layout) is not None for key in ("min", "max")
    )
