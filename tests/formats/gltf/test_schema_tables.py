"""The schema tables' quick tests agree with the schema walker's full checks: a value a
property passes as plainly valid has no finding, and a property the walker skips has none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assetcheck.formats.gltf.extension_schemas import EXTENSIONS
from assetcheck.formats.gltf.schema import SchemaWalker
from assetcheck.formats.gltf.schema_tables import (
    COLLECTIONS,
    LARGEST_EXACT,
    LARGEST_NUMBER,
    PROJECTIONS,
    ROOT,
    ObjectSchema,
    Prop,
)
from assetcheck.issues import IssueCollector, IssueRegistry
from assetcheck.plugins.manager import build_registry, get_plugin_manager

SAMPLES: list[object] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    16,
    0.0,
    0.5,
    1.0,
    -0.5,
    1.5,
    -2.0,
    LARGEST_EXACT,
    LARGEST_EXACT + 1,
    -LARGEST_EXACT,
    10**400,
    LARGEST_NUMBER,
    -LARGEST_NUMBER,
    float("inf"),
    float("-inf"),
    float("nan"),
    "",
    "a",
    "1.0",
    "2.1",
    [],
    [0],
    [0, 1, 2],
    [1, 1],
    [-1],
    [0.5],
    [0.5, 0.5],
    [0.5, 0.5, 0.5],
    [0.5, 0.5, 0.5, 0.5],
    [2.0, 2.0, 2.0],
    [1.0] * 16,
    [0, 0.5, float("inf")],
    [True, 1, 1],
    ["a"],
    ["a", "a"],
    [None],
    {},
    {"POSITION": 0},
    {"POSITION": -1},
    {"a": "b"},
    [{}],
    [{"POSITION": 0}],
]


def schemas() -> Iterator[ObjectSchema]:
    """Every object schema of the tables, core and extensions, nested ones included."""
    stack = [
        ROOT,
        *(schema for schema, _ in COLLECTIONS.values()),
        *PROJECTIONS.values(),
        *(schema for placements in EXTENSIONS.values() for schema in placements.values()),
    ]
    seen: set[int] = set()
    while stack:
        schema = stack.pop()
        if id(schema) in seen:
            continue
        seen.add(id(schema))
        yield schema
        stack.extend(prop.schema for prop in schema.properties.values() if prop.schema)


PROPERTIES = [
    pytest.param(key, prop, id=f"{schema.name}.{key}")
    for schema in schemas()
    for key, prop in schema.properties.items()
]


def samples(prop: Prop) -> list[object]:
    """:data:`SAMPLES` and the values at the edges of ``prop``'s constraints."""
    edges: list[object] = list(prop.enum or ())
    for bound in (prop.minimum, prop.maximum, prop.exclusive_minimum, prop.standalone):
        if bound is not None:
            edges += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5, float(bound)]
            edges += [[bound] * length for length in prop.lengths or (1,)]
    return SAMPLES + edges


@pytest.fixture(scope="module")
def registry() -> IssueRegistry:
    return build_registry(get_plugin_manager())


def findings(registry: IssueRegistry, key: str, prop: Prop, value: object) -> list[str]:
    """The codes the walker's full check of ``key: value`` reports, or when ``prop`` is not
    walked, those of walking an object holding ``key: value`` and nothing else."""
    collector = IssueCollector(registry)
    walker = SchemaWalker(collector.for_file("probe.gltf"), frozenset(EXTENSIONS))
    if prop.walked:
        walker.check_property(prop, value, "", key)
    else:
        walker.check_object(ObjectSchema("probe", {key: prop}), {key: value}, "")
    return [issue.code for issue in collector.issues]


@pytest.mark.parametrize(("key", "prop"), PROPERTIES)
def test_a_value_passed_as_plainly_valid_has_no_finding(
    registry: IssueRegistry, key: str, prop: Prop
):
    test = prop.plainly_valid
    if test is None or not prop.walked:
        return
    for value in samples(prop):
        if test(value):
            assert findings(registry, key, prop, value) == [], value


@pytest.mark.parametrize(("key", "prop"), PROPERTIES)
def test_a_property_the_walker_skips_has_no_finding_whatever_it_holds(
    registry: IssueRegistry, key: str, prop: Prop
):
    if prop.walked:
        return
    for value in samples(prop):
        assert findings(registry, key, prop, value) == [], value


def test_the_common_valid_values_pass_the_quick_tests():
    assert Prop("index").plainly_valid(3)
    assert Prop("string").plainly_valid("name")
    assert Prop("string", enum=("A", "B")).plainly_valid("B")
    assert Prop("uint", enum=(5126,)).plainly_valid(5126)
    assert Prop("uint", minimum=1).plainly_valid(1)
    assert Prop("number", minimum=0, maximum=1).plainly_valid(0.5)
    assert Prop("numbers", lengths=(3,)).plainly_valid([1, 2.5, -3])
    assert Prop("indices").plainly_valid([0, 2, 1])
    assert Prop("bool").plainly_valid(False)
    assert not Prop("index").plainly_valid(True)
    assert not Prop("indices").plainly_valid([0, 0])
    assert not Prop("numbers", lengths=(3,)).plainly_valid([1, 2])
