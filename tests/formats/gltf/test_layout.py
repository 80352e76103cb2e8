"""The declared-size checks' quick tests (``_plain_view``, ``_fits_plainly``) pass only what the
full checks have nothing to report on, and give the layout the full check gives."""

from __future__ import annotations

import itertools

import pytest

from assetcheck.formats.gltf.fields import FieldReader
from assetcheck.formats.gltf.layout import (
    Buffer,
    ViewLayout,
    _check_accessor,
    _check_view,
    _fits_plainly,
    _plain_view,
)
from assetcheck.issues import IssueCollector, IssueRegistry
from assetcheck.plugins.manager import build_registry, get_plugin_manager

MISSING = object()
#: Values of an integer field: plain ones, the edges of the ranges checked, and wrong types.
NUMBERS: list[object] = [
    MISSING,
    None,
    0,
    1,
    3,
    4,
    8,
    252,
    253,
    -1,
    2**53,
    2**53 + 1,
    4.0,
    1.5,
    True,
    "4",
    [4],
]
BUFFERS = [Buffer(64, b"\0" * 64), None, Buffer(None, None)]
VIEWS = [ViewLayout(64, None), None, ViewLayout(64, 12), ViewLayout(None, None)]


@pytest.fixture(scope="module")
def registry() -> IssueRegistry:
    return build_registry(get_plugin_manager())


def fields(registry: IssueRegistry) -> tuple[IssueCollector, FieldReader]:
    collector = IssueCollector(registry)
    return collector, FieldReader(collector.for_file("probe.gltf"))


def json_object(**values: object) -> dict:
    return {key: value for key, value in values.items() if value is not MISSING}


def test_a_plain_view_has_no_finding_and_the_full_checks_layout(registry):
    passed = 0
    for buffer, offset, length, stride in itertools.product(
        NUMBERS, NUMBERS, [*NUMBERS, 16, 60, 64, 65], NUMBERS
    ):
        view = json_object(buffer=buffer, byteOffset=offset, byteLength=length, byteStride=stride)
        plain = _plain_view(view, BUFFERS)
        if plain is None:
            continue
        collector, reader = fields(registry)
        assert _check_view(view, 0, BUFFERS, reader) == plain, view
        assert collector.issues == [], view
        passed += 1
    assert passed > 50


def test_an_accessor_that_fits_plainly_has_no_finding(registry):
    passed = 0
    kinds = [("VEC3", 5126), ("MAT3", 5121), ("SCALAR", 5123), ("VEC9", 5126), ("VEC3", 5)]
    for view, offset, (kind, component), count in itertools.product(
        NUMBERS, [*NUMBERS, 12, 16], kinds, [None, 1, 4, 6]
    ):
        accessor = json_object(bufferView=view, byteOffset=offset, componentType=component)
        accessor["type"] = kind
        if not _fits_plainly(accessor, count, VIEWS):
            continue
        collector, reader = fields(registry)
        _check_accessor(accessor, 0, count, VIEWS, reader)
        assert collector.issues == [], accessor
        passed += 1
    assert passed > 50
