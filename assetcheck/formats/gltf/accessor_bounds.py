"""An accessor's declared ``min`` and ``max``, read as Khronos glTF-Validator reads them.

:class:`DeclaredBounds` reads them once per document (``GltfDocument.declared_bounds``): the
accessor check compares them with the data, the mesh check asks whether POSITION has them
and the buffer check whether they are well formed.
"""

from __future__ import annotations

import math

import numpy as np

from assetcheck.formats.gltf.accessor_data import (
    FLOAT,
    INTEGER_RANGES,
    TYPE_COMPONENTS,
    AccessorLayout,
    AccessorReader,
)
from assetcheck.formats.gltf.fields import as_integer, is_number

#: The bounds of one accessor as numbers: floats for FLOAT accessors, ints for the others.
Numbers = list[float] | list[int]

_JSON_NUMBERS = frozenset({float, int})
_INT = frozenset({int})
_FLOAT = frozenset({float})


def declared_numbers(accessor: dict, key: str, layout: AccessorLayout) -> Numbers | None:
    """``accessor[key]`` (``min`` or ``max``) as a list of numbers, or None when it is
    malformed: float bounds must be finite numbers, integer bounds must fit the component type,
    and there must be one per component."""
    value = accessor.get(key)
    if not isinstance(value, list) or len(value) != TYPE_COMPONENTS[layout.type]:
        return None
    kinds = set(map(type, value))  # what json.loads gives: floats and ints, the fast path
    if layout.component_type == FLOAT:
        if kinds == _FLOAT:  # the common case: already floats, no copy needed
            return value if all(map(math.isfinite, value)) else None
        if not (kinds <= _JSON_NUMBERS or all(map(is_number, value))):
            return None
        try:
            floats = list(map(float, value))
        except OverflowError:  # an int beyond the float range: Infinity, as in Khronos
            return None
        return floats if all(map(math.isfinite, floats)) else None
    lowest, highest = INTEGER_RANGES[layout.component_type]
    if kinds == _INT:
        return value if lowest <= min(value) and max(value) <= highest else None
    numbers = [as_integer(v) for v in value]
    if any(n is None or not lowest <= n <= highest for n in numbers):
        return None
    return numbers  # type: ignore[return-value]  # no None left


def as_array(numbers: Numbers | list[Numbers], layout: AccessorLayout) -> np.ndarray:
    """Declared bounds (one accessor's, or rows of several of one component type) as Khronos
    keeps them: floats rounded to single precision, integers as ``int64``."""
    if layout.component_type == FLOAT:
        return np.array(numbers, dtype=np.float64).astype(np.float32)
    return np.array(numbers, dtype=np.int64)


def declared_bounds(accessor: dict, key: str, layout: AccessorLayout) -> np.ndarray | None:
    """``accessor[key]`` (``min`` or ``max``) as Khronos keeps it, or None when it is malformed.

    Float bounds are rounded to single precision; integer bounds must fit the component type.
    """
    numbers = declared_numbers(accessor, key, layout)
    return None if numbers is None else as_array(numbers, layout)


def has_bounds(accessor: dict, layout: AccessorLayout | None) -> bool:
    """Whether the accessor has usable ``min`` and ``max`` (Khronos ignores malformed ones)."""
    return layout is not None and all(
        declared_numbers(accessor, key, layout) is not None for key in ("min", "max")
    )


class DeclaredBounds:
    """The declared ``min`` and ``max`` of one document's accessors, each read once.

    ``accessors`` is the document's ``accessors`` array as read, ``reader`` its accessor
    reader (for the layouts). An accessor without a usable layout has no bounds.
    """

    def __init__(self, accessors: object, reader: AccessorReader) -> None:
        self._accessors = accessors if isinstance(accessors, list) else []
        self._reader = reader
        self._numbers: dict[int, tuple[Numbers | None, Numbers | None]] = {}

    def numbers(self, index: int) -> tuple[Numbers | None, Numbers | None]:
        """Accessor ``index``'s ``min`` and ``max`` (:func:`declared_numbers`): None for
        each that is absent or malformed."""
        found = self._numbers.get(index)
        if found is None:
            layout = self._reader.layout(index)
            accessor = self._accessors[index] if layout is not None else None
            found = (
                (
                    declared_numbers(accessor, "min", layout),
                    declared_numbers(accessor, "max", layout),
                )
                if accessor is not None and layout is not None
                else (None, None)
            )
            self._numbers[index] = found
        return found

    def complete(self, index: int) -> bool:
        """Whether accessor ``index`` has both, well formed (:func:`has_bounds`)."""
        low, high = self.numbers(index)
        return low is not None and high is not None
