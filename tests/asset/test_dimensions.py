"""The product's dimensions: read from the CLI's WxHxD and the API's JSON object."""

from __future__ import annotations

import pytest

from assetcheck.asset.dimensions import DimensionsError, ProductDimensions


@pytest.mark.parametrize(
    ("text", "sides"),
    [
        ("0.6x0.9x0.4", (0.6, 0.9, 0.4)),
        ("-x1.8x-", (None, 1.8, None)),
        ("0.6\N{MULTIPLICATION SIGN}0.9\N{MULTIPLICATION SIGN}0.4", (0.6, 0.9, 0.4)),
    ],
)
def test_dimensions_are_read_as_width_height_depth(text, sides):
    given = ProductDimensions.from_text(text)
    assert (given.width, given.height, given.depth) == sides


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, 0.0, 20_000.0])
def test_sides_that_are_no_length_are_refused(value):
    with pytest.raises(DimensionsError, match="must be more than 0"):
        ProductDimensions(height=value)


def test_json_keeps_only_the_sides_given():
    given = ProductDimensions.from_json({"width": 0.6, "depth": None})
    assert given.to_json() == {"width": 0.6}
