"""The schema walker's dependency rules read a dependency as Khronos' getters do."""

from __future__ import annotations

import math

import pytest

from assetcheck.formats.gltf.schema import SchemaWalker
from assetcheck.formats.gltf.schema_tables import ACCESSOR
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager


@pytest.mark.parametrize(
    ("view", "usable"),
    [
        (0, True),
        (3, True),
        (2**53, True),
        (2**53 + 1, True),
        (1.0, True),
        (-1, False),
        (10**400, False),
        (True, False),
        (math.nan, False),
        ("0", False),
        (None, False),
    ],
)
def test_a_byte_offset_needs_a_usable_buffer_view(view, usable):
    collector = IssueCollector(build_registry(get_plugin_manager()))
    accessor = {"bufferView": view, "byteOffset": 0, "componentType": 5126, "count": 1}
    SchemaWalker(collector.for_file("probe.gltf"), frozenset()).check_object(
        ACCESSOR, {**accessor, "type": "SCALAR"}, "/accessors/0"
    )
    codes = [issue.code for issue in collector.issues]
    assert ("UNSATISFIED_DEPENDENCY" not in codes) is usable
