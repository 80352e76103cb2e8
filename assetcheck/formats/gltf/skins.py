"""Skins: the nodes every joint of a skin descends from."""

from __future__ import annotations

from assetcheck.formats.gltf.links import (
    CommonLineage,
    DocumentLinks,
    index_list,
)


def skin_roots(links: DocumentLinks, skin: int) -> CommonLineage:
    """The nodes that are ancestors-or-self of every joint of ``skin`` (its usable joints).

    Costs time linear in the joint count (membership tests included), whatever the depth.
    """
    nodes = links.items("nodes")
    joints = [
        j
        for j in index_list(links.items("skins")[skin], "joints")
        if j < len(nodes) and nodes[j] is not None
    ]
    return links.tree.common_lineage(joints)
