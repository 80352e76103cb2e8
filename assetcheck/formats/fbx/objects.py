"""The objects of an FBX file's node tree and how its ``Connections`` link them: what every
reader of the tree (geometry, skins, animation curves) starts from.

FBX 7 connects objects by id (``C: "OO", child, parent``; ``C: "OP", child, parent,
"property"`` to a property of the parent), FBX 6 by name (``Connect: "OO", "Model::a",
"Model::b"``) and keeps each geometry inside its model; FBX 5 and older keep their models at
the top level.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from assetcheck.formats.fbx.tree import FbxNode, FbxTree


@dataclass
class FbxObjects:
    """The object nodes the walk kept, in file order, and the connections between them.

    ``links`` are the object-to-object connections as (child, parent) keys; ``property_links``
    the object-to-property ones as (child, parent, property name). ``legacy`` is true for the
    FBX 6 layout, whose objects start with their name rather than a numeric id, and whose
    connections name objects rather than number them.
    """

    nodes: list[FbxNode]
    links: list[tuple[Hashable, Hashable]]
    property_links: list[tuple[Hashable, Hashable, str]]
    legacy: bool

    @classmethod
    def of(cls, tree: FbxTree) -> FbxObjects:
        """The objects of ``tree``; FbxTreeError when its node structure cannot be read."""
        top_level = tree.top_level()
        found = {node.name: node for node in top_level}
        nodes = found.get("Objects", FbxNode("Objects")).children
        nodes = nodes + [node for node in top_level if node.name == "Model"]  # FBX 5
        connections = found.get("Connections", FbxNode("Connections")).children
        links, property_links = [], []
        for c in connections:
            if c.name not in ("C", "Connect") or len(c.props) < 3:
                continue
            if c.props[0] == "OO":
                links.append((c.props[1], c.props[2]))
            elif c.props[0] == "OP" and len(c.props) >= 4:
                property_links.append((c.props[1], c.props[2], c.text(3)))
        legacy = not any(node.props and isinstance(node.props[0], int) for node in nodes)
        return cls(nodes, links, property_links, legacy)

    def key(self, node: FbxNode) -> Hashable:
        """How connections name an object: its id (FBX 7) or its full name (FBX 6)."""
        return node.text(0) if self.legacy else node.props[0] if node.props else None

    def named(self, name: str) -> dict[Hashable, FbxNode]:
        """The objects whose node is called ``name`` (``Model``, ``Deformer``...), by key."""
        return {self.key(node): node for node in self.nodes if node.name == name}


def object_name(node: FbxNode) -> str:
    """An object's name without its class: ``Model::Cube`` (ASCII) and ``Cube\\x00\\x01Model``
    (binary) are both ``Cube``."""
    name = node.text(0 if isinstance(node.props[0], str) else 1) if node.props else ""
    if "\x00\x01" in name:
        return name.split("\x00\x01", 1)[0]
    return name.split("::", 1)[1] if "::" in name else name
