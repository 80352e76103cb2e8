"""Walks over the node graph (hierarchy, loops, skin roots, animation channels) stay linear.

Hostile files (issue 13): deep chains, chains closed into loops, skins of thousands of joints
and animations of thousands of channels. Timings live in ``bench/hostile_graphs.py``; these
tests pin the behaviour and count the work instead of timing it.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from assetcheck.checks import gltf_animations
from assetcheck.formats.gltf import model as gltf_model
from assetcheck.formats.gltf.links import NodeTree
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats import codes, validate_bytes


class CountingDict(dict):
    """A dict that counts its lookups (``in``, ``[]`` and ``get``)."""

    lookups = 0

    def __contains__(self, key: object) -> bool:
        CountingDict.lookups += 1
        return super().__contains__(key)

    def __getitem__(self, key: object) -> object:
        CountingDict.lookups += 1
        return super().__getitem__(key)

    def get(self, key: object, default: object = None) -> object:
        CountingDict.lookups += 1
        return super().get(key, default)


@pytest.fixture
def parent_lookups(monkeypatch) -> type[CountingDict]:
    """Makes every document's parent map count its lookups; returns the counter's class."""
    link = gltf_model.link_document

    def counting_link(document, reader):
        links = link(document, reader)
        links.parents = CountingDict(links.parents)
        return links

    monkeypatch.setattr(gltf_model, "link_document", counting_link)
    CountingDict.lookups = 0
    return CountingDict


def chain_gltf(count: int, *, loop: bool = False) -> bytes:
    builder = GltfBuilder()
    mesh = builder.add_mesh([Primitive(3, index_count=3, normals=True)])
    builder.add_node_chain(count, loop=loop, leaf_mesh=mesh)
    return builder.embedded_gltf()


def walk_up(parents: dict[int, int], node: int) -> list[int]:
    """A node's lineage the slow, obvious way: itself, then parents until one comes back."""
    lineage = [node]
    while lineage[-1] in parents and parents[lineage[-1]] not in lineage:
        lineage.append(parents[lineage[-1]])
    if lineage[-1] in parents:
        lineage.append(parents[lineage[-1]])
    return lineage


def test_a_50000_node_chain_validates_without_deep_recursion(tmp_path):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        result = validate_bytes(tmp_path, "chain.gltf", chain_gltf(50_000))
    finally:
        sys.setrecursionlimit(limit)
    found = codes(result)
    assert "CHECK_CRASHED" not in found and "NODE_LOOP" not in found
    assert result.valid


def test_walking_a_chain_and_a_loop_looks_up_each_parent_a_few_times(tmp_path, parent_lookups):
    nodes = 2_000
    validate_bytes(tmp_path, "chain.gltf", chain_gltf(nodes))
    validate_bytes(tmp_path, "loop.gltf", chain_gltf(nodes, loop=True))
    assert parent_lookups.lookups < 2 * 20 * nodes


def test_a_deep_skin_looks_up_each_parent_a_few_times(tmp_path, parent_lookups):
    joints = 2_000
    builder = GltfBuilder()
    chain = builder.add_node_chain(joints)
    for _ in range(3):
        builder.add_skinned_triangle(chain[::-1])
    result = validate_bytes(tmp_path, "skin.gltf", builder.embedded_gltf())
    assert "SKIN_NO_COMMON_ROOT" not in codes(result)
    assert parent_lookups.lookups < 20 * joints


def test_every_node_of_a_closed_chain_is_a_node_loop(tmp_path):
    result = validate_bytes(tmp_path, "loop.gltf", chain_gltf(1_000, loop=True))
    assert result.issue_counts["NODE_LOOP"] == 1_000
    assert result.issue_counts["SCENE_NON_ROOT_NODE"] == 1


def test_nodes_hanging_off_a_loop_are_not_loops_themselves(tmp_path):
    builder = GltfBuilder()
    loop = builder.add_node_chain(3, loop=True)
    hanging = builder.add_node_chain(2)
    builder.document["nodes"][loop[1]]["children"].append(hanging[0])
    result = validate_bytes(tmp_path, "loop.gltf", builder.embedded_gltf())
    pointers = {issue.pointer for issue in result.issues if issue.code == "NODE_LOOP"}
    assert pointers == {f"/nodes/{node}" for node in loop}


def test_a_skeleton_must_be_an_ancestor_of_every_joint_of_a_deep_skin(tmp_path):
    for skeleton, expected in ((0, set()), (1, set()), (9_999, {"SKIN_SKELETON_INVALID"})):
        builder = GltfBuilder()
        chain = builder.add_node_chain(10_000)
        builder.add_skinned_triangle(chain[:0:-1])
        builder.document["skins"][0]["skeleton"] = chain[skeleton]
        found = set(codes(validate_bytes(tmp_path, "skin.gltf", builder.embedded_gltf())))
        assert found & {"SKIN_SKELETON_INVALID", "SKIN_NO_COMMON_ROOT"} == expected, skeleton


def test_joints_under_two_roots_have_no_common_root(tmp_path):
    builder = GltfBuilder()
    first, second = builder.add_node_chain(3), builder.add_node_chain(3)
    builder.add_skinned_triangle([first[-1], second[-1]])
    assert "SKIN_NO_COMMON_ROOT" in codes(
        validate_bytes(tmp_path, "s.gltf", builder.embedded_gltf())
    )


def test_joints_leading_into_one_loop_share_it_as_root(tmp_path):
    builder = GltfBuilder()
    loop = builder.add_node_chain(4, loop=True)
    hanging = builder.add_node_chain(2)
    builder.document["nodes"][loop[2]]["children"].append(hanging[0])
    builder.add_skinned_triangle([hanging[-1], loop[0]])
    builder.document["skins"][0]["skeleton"] = loop[3]
    found = set(codes(validate_bytes(tmp_path, "s.gltf", builder.embedded_gltf())))
    assert not found & {"SKIN_NO_COMMON_ROOT", "SKIN_SKELETON_INVALID"}


@pytest.mark.parametrize("seed", range(40))
def test_the_node_tree_answers_as_walking_up_does(seed):
    rng = random.Random(seed)
    count = 14
    parents = {kid: rng.randrange(count) for kid in range(count) if rng.random() < 0.85}
    children: dict[int, list[int]] = {node: [] for node in range(count)}
    for kid, parent in parents.items():
        children[parent].append(kid)
    tree = NodeTree(parents, children)
    lineages = {node: walk_up(parents, node) for node in range(count)}
    for node, lineage in lineages.items():
        assert tree.on_loop(node) == (node in lineage[1:])
        assert tree.top(node) == (lineage[-1] if lineage[-1] not in parents else None)
        for other in range(count):
            assert tree.in_lineage(node, other) == (other in lineage), (node, other)
    for _ in range(20):
        nodes = rng.sample(range(count), rng.randint(1, 4))
        shared = set.intersection(*(set(lineages[node]) for node in nodes))
        common = tree.common_lineage(nodes)
        assert common.exists == bool(shared)
        assert common.top == next((n for n in shared if n not in parents), None)
        assert {n for n in range(count) if n in common} == shared


def test_duplicate_targets_pair_each_channel_with_every_later_one(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    builder.add_animation(channels=2)
    channels = builder.document["animations"][0]["channels"]
    channels[1:1] = [dict(channels[0]), dict(channels[0])]
    found = [
        (issue.pointer, issue.message)
        for issue in validate_bytes(tmp_path, "a.gltf", builder.embedded_gltf()).issues
        if issue.code == "ANIMATION_DUPLICATE_TARGETS"
    ]
    at = "/animations/0/channels/{}/target".format
    assert found == [
        (at(0), "The channel has the same target as channel 1."),
        (at(0), "The channel has the same target as channel 2."),
        (at(1), "The channel has the same target as channel 2."),
    ]


def test_channels_are_not_compared_pair_by_pair(tmp_path, monkeypatch):
    calls = Counter()
    index_of = gltf_animations.index_of

    def counting_index_of(parent, key):
        calls[key] += 1
        return index_of(parent, key)

    monkeypatch.setattr(gltf_animations, "index_of", counting_index_of)
    builder = GltfBuilder()
    builder.add_animation(channels=2_000)
    result = validate_bytes(tmp_path, "a.gltf", builder.embedded_gltf())
    assert "ANIMATION_DUPLICATE_TARGETS" not in codes(result)
    assert calls["node"] < 10 * 2_000


def test_thousands_of_channels_on_one_target_are_counted_not_listed_pair_by_pair(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    builder.add_animation(channels=1)
    channels = builder.document["animations"][0]["channels"]
    channels[1:] = [dict(channels[0]) for _ in range(2_999)]
    result = validate_bytes(tmp_path, "a.gltf", builder.embedded_gltf())
    listed = [i for i in result.issues if i.code == "ANIMATION_DUPLICATE_TARGETS"]
    assert result.issue_counts["ANIMATION_DUPLICATE_TARGETS"] == 3_000 * 2_999 // 2
    assert 0 < len(listed) <= 100 and result.truncated
    assert listed[0].message == "The channel has the same target as channel 1."
