"""The real product's dimensions a model is checked against (``options.dimensions``).

Given in metres as width (X), height (Y, up) and depth (Z), glTF's axes, which every format's
model is turned into before it is measured. Any of the three may be left out (a product sheet
that gives only a height); at least one is needed. The API takes a JSON object
(``{"width": 0.6, "height": 0.9, "depth": 0.4}``), the CLI ``--dimensions WxHxD`` (``0.6x0.9x0.4``,
``-`` for a side left out); ``docs/scale.md`` says how they are compared.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

#: The sides, in the order ``WxHxD`` writes them.
SIDES = ("width", "height", "depth")
#: The largest side accepted, in metres: far beyond any product, small enough to be a number.
LARGEST_SIDE = 10_000.0


class DimensionsError(ValueError):
    """Dimensions that cannot be used; the message says why, for a person to read."""


@dataclass(frozen=True)
class ProductDimensions:
    """The product's sides in metres; None for a side not given."""

    width: float | None = None
    height: float | None = None
    depth: float | None = None

    def __post_init__(self) -> None:
        given = [side for side in SIDES if getattr(self, side) is not None]
        if not given:
            raise DimensionsError("dimensions need at least one of width, height and depth")
        for side in given:
            value = getattr(self, side)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DimensionsError(f"dimensions: {side} must be a number of metres")
            if not (math.isfinite(value) and 0 < value <= LARGEST_SIDE):
                raise DimensionsError(
                    f"dimensions: {side} must be more than 0 and at most {LARGEST_SIDE:,.0f} "
                    f"metres, not {value!r}"
                )

    def sides(self) -> list[tuple[int, str, float]]:
        """``(axis, side, metres)`` of each side given: axis 0 is X, 1 is Y, 2 is Z."""
        return [
            (axis, side, float(value))
            for axis, side in enumerate(SIDES)
            if (value := getattr(self, side)) is not None
        ]

    def to_json(self) -> dict[str, float]:
        """The sides given, as the API takes them."""
        return {side: value for _, side, value in self.sides()}

    @classmethod
    def from_json(cls, value: object) -> ProductDimensions:
        """Dimensions from a JSON object of ``width``, ``height``, ``depth`` (metres); a
        :class:`DimensionsError` for anything else."""
        if not isinstance(value, Mapping):
            raise DimensionsError(
                'dimensions must be an object such as {"width": 0.6, "height": 0.9, "depth": 0.4}'
            )
        unknown = sorted(set(value) - set(SIDES))
        if unknown:
            raise DimensionsError(
                f"dimensions: unknown key {', '.join(map(str, unknown))}: "
                "the keys are width, height and depth"
            )
        return cls(**{side: value[side] for side in SIDES if value.get(side) is not None})

    @classmethod
    def from_text(cls, text: str) -> ProductDimensions:
        """Dimensions from ``WxHxD`` in metres (``0.6x0.9x0.4``; ``-`` leaves a side out)."""
        parts = text.lower().replace("\N{MULTIPLICATION SIGN}", "x").split("x")
        if len(parts) != len(SIDES):
            raise DimensionsError(
                f"dimensions {text!r}: give width, height and depth in metres as WxHxD, "
                "such as 0.6x0.9x0.4 (- for a side you do not know)"
            )
        values: dict[str, float] = {}
        for side, part in zip(SIDES, parts, strict=True):
            if part.strip() == "-":
                continue
            try:
                values[side] = float(part)
            except ValueError:
                raise DimensionsError(
                    f"dimensions {text!r}: the {side} {part.strip()!r} is not a number of metres"
                ) from None
        return cls(**values)
