"""What the objects of a glTF document refer to, resolved once per asset and shared by the checks.

The glTF checks report; this module only reads. :func:`link_document` walks the JSON the way
Khronos glTF-Validator links it (silently skipping whatever is malformed, since the schema
check reports that) and keeps what several checks need: the node tree, the primitives with
their attribute sets, what each material asks of a primitive, and the skins' joints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeGuard

from assetcheck.formats.gltf.accessor_data import AccessorLayout, AccessorReader
from assetcheck.formats.gltf.fields import as_integer, child, extensions_used
from assetcheck.formats.gltf.schema_tables import LARGEST_EXACT

ARRAY_SEMANTICS = ("COLOR", "JOINTS", "TEXCOORD", "WEIGHTS")
_VERTEX_SEMANTICS = frozenset({"POSITION", "NORMAL", "TANGENT"})
_SEMANTIC_INDEX = re.compile(r"0|[1-9][0-9]*")

#: Texture info keys of materials (core and extensions) that sample a normal map.
NORMAL_TEXTURE_KEYS = frozenset({"normalTexture", "clearcoatNormalTexture"})
#: Material extensions that shade with the tangent frame (anisotropy follows the tangent).
TANGENT_FRAME_EXTENSIONS = frozenset({"KHR_materials_anisotropy"})

#: The extensions Khronos glTF-Validator 2.0.0-dev.3.10 knows, and the kinds of object each may
#: extend (``textureInfo`` stands for every texture info, normal and occlusion ones included).
SUPPORTED_EXTENSIONS: dict[str, frozenset[str]] = {
    "EXT_texture_webp": frozenset({"texture"}),
    "KHR_animation_pointer": frozenset({"animation.channel.target"}),
    "KHR_lights_punctual": frozenset({"glTF", "node"}),
    "KHR_mesh_quantization": frozenset(),
    "KHR_texture_transform": frozenset({"textureInfo"}),
    "KHR_materials_variants": frozenset({"glTF", "mesh.primitive"}),
    **{
        f"KHR_materials_{name}": frozenset({"material"})
        for name in (
            "anisotropy",
            "clearcoat",
            "dispersion",
            "emissive_strength",
            "ior",
            "iridescence",
            "pbrSpecularGlossiness",
            "sheen",
            "specular",
            "transmission",
            "unlit",
            "volume",
        )
    },
}


def collection(document: dict, name: str) -> list[dict | None]:
    """A top-level array of ``document``, index-aligned, with None for non-object elements."""
    value = document.get(name)
    if not isinstance(value, list):
        return []
    return [item if isinstance(item, dict) else None for item in value]


def index_of(parent: object, key: str) -> int | None:
    """``parent[key]`` when it is a valid (non-negative integer) index, else None."""
    return as_index(parent.get(key)) if isinstance(parent, dict) else None


def as_index(value: object) -> int | None:
    """``value`` when it is a valid (non-negative integer) index, else None."""
    if type(value) is int and 0 <= value <= LARGEST_EXACT:  # the common case, checked first
        return value
    if value is None:  # the common case for optional references: cheap
        return None
    number = as_integer(value)
    return number if number is not None and number >= 0 else None


def index_list(parent: object, key: str) -> list[int]:
    """The valid indices of an array of indices such as ``children`` (others are skipped)."""
    value = parent.get(key) if isinstance(parent, dict) else None
    if not isinstance(value, list):
        return []
    return [number for item in value if (number := as_index(item)) is not None]


def resolves(index: int | None, items: list) -> TypeGuard[int]:
    """Whether ``index`` names a usable (object) element of ``items``."""
    return index is not None and index < len(items) and items[index] is not None


def resolve(index: int | None, items: list[dict | None]) -> dict | None:
    """The object ``index`` names in ``items``, or None when it names none."""
    return items[index] if index is not None and index < len(items) else None


@dataclass
class AttributeSet:
    """The semantics of a primitive's ``attributes`` as Khronos counts them.

    Array semantics (``TEXCOORD_n``...) count only when their indices start at 0 without gaps;
    joints and weights count only when they come in equal numbers.
    """

    has_position: bool = False
    has_normal: bool = False
    has_tangent: bool = False
    invalid: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    discontinuous: list[tuple[str, int, int]] = field(default_factory=list)
    joints_weights_mismatch: tuple[int, int] | None = None

    @property
    def texcoord_count(self) -> int:
        return self.counts.get("TEXCOORD", 0)

    @property
    def joints_count(self) -> int:
        return self.counts.get("JOINTS", 0)


def semantic_index(suffix: str) -> int | None:
    """The ``n`` of ``TEXCOORD_n``: decimal digits without a leading zero, else None."""
    return int(suffix) if _SEMANTIC_INDEX.fullmatch(suffix) else None


def read_attribute_set(attributes: dict) -> AttributeSet:
    found = AttributeSet("POSITION" in attributes, "NORMAL" in attributes, "TANGENT" in attributes)
    highest = dict.fromkeys(ARRAY_SEMANTICS, -1)
    counts = dict.fromkeys(ARRAY_SEMANTICS, 0)
    for semantic in attributes:
        if semantic in _VERTEX_SEMANTICS or semantic.startswith("_"):
            continue
        parts = semantic.split("_")
        number = semantic_index(parts[1]) if len(parts) == 2 else None
        if parts[0] not in ARRAY_SEMANTICS or number is None:
            found.invalid.append(semantic)
            continue
        counts[parts[0]] += 1
        highest[parts[0]] = max(highest[parts[0]], number)
    for name in ARRAY_SEMANTICS:
        if highest[name] + 1 != counts[name]:
            found.discontinuous.append((name, highest[name] + 1, counts[name]))
            counts[name] = 0
    if counts["JOINTS"] != counts["WEIGHTS"]:
        found.joints_weights_mismatch = (counts["JOINTS"], counts["WEIGHTS"])
        counts["JOINTS"] = counts["WEIGHTS"] = 0
    found.counts = counts
    return found


@dataclass
class Primitive:
    """One mesh primitive with its references resolved (None where they do not resolve)."""

    mesh: int
    number: int
    pointer: str
    json: dict
    semantics: AttributeSet
    attributes: dict[str, int] = field(default_factory=dict)
    indices: int | None = None
    material: int | None = None
    mode: int | None = 4
    targets: list[dict[str, int]] | None = None
    #: Khronos' vertex count: the count of the first resolved attribute accessor with a
    #: usable layout.
    vertex_count: int | None = None


@dataclass
class MaterialNeeds:
    """What a material asks of the primitives using it: texture coordinate sets, tangents.

    ``needs_tangent``: it samples a normal map, so a primitive without tangents gets generated
    ones. ``uses_tangent``: it shades with tangents given to it, for a normal map or for an
    extension of :data:`TANGENT_FRAME_EXTENSIONS`.
    """

    texcoords: dict[str, int] = field(default_factory=dict)
    needs_tangent: bool = False
    can_provide_tangent: bool = False
    uses_tangent: bool = False


@dataclass
class DocumentLinks:
    """The resolved structure of one glTF document (see the module docstring)."""

    document: dict[str, Any]
    reader: AccessorReader
    collections: dict[str, list[dict | None]]
    #: Each accessor's layout, read once (None where the accessor is unusable).
    layouts: list[AccessorLayout | None]
    primitives: list[Primitive]
    materials: list[MaterialNeeds | None]
    parents: dict[int, int]
    children: dict[int, list[int]]
    joints: set[int]

    def items(self, name: str) -> list[dict | None]:
        return self.collections[name]

    def layout(self, accessor: int | None) -> AccessorLayout | None:
        """The layout of accessor ``accessor``; None for None, an index past the end or an
        unusable accessor."""
        layouts = self.layouts
        return layouts[accessor] if accessor is not None and 0 <= accessor < len(layouts) else None

    @cached_property
    def tree(self) -> NodeTree:
        """The node hierarchy as :class:`NodeTree`, built on first use in linear time."""
        return NodeTree(self.parents, self.children)

    @cached_property
    def node_scenes(self) -> dict[int, set[int]]:
        """The scenes each node is shown in (its scene's roots and their descendants); a node
        no scene shows is absent. Built on first use, one walk per scene."""
        nodes = self.items("nodes")
        found: dict[int, set[int]] = {}
        for number, scene in enumerate(self.items("scenes")):
            stack = [
                n
                for n in (index_list(scene, "nodes") if scene else [])
                if n < len(nodes) and nodes[n] is not None
            ]
            seen: set[int] = set()
            while stack:
                node = stack.pop()
                found.setdefault(node, set()).add(number)
                if node not in seen:
                    seen.add(node)
                    stack.extend(self.children.get(node, ()))
        return found

    @cached_property
    def _uses(self) -> tuple[Use, ...]:
        return tuple(_find_uses(self))

    def mesh_primitives(self, mesh: int) -> list[Primitive]:
        """The primitives of ``mesh`` in order (an empty list for an unknown mesh)."""
        return self._primitives_by_mesh.get(mesh, [])

    @cached_property
    def _primitives_by_mesh(self) -> dict[int, list[Primitive]]:
        by_mesh: dict[int, list[Primitive]] = {}
        for primitive in self.primitives:
            by_mesh.setdefault(primitive.mesh, []).append(primitive)
        return by_mesh


class NodeTree:
    """Ancestry questions about the nodes, each answered in constant time.

    A node's *lineage* is the node itself and its parents up to a node without a parent (its
    *top*), or, when the parents come back to a node already met, up to that node: the lineage
    then takes in the whole loop. (``parents`` holds one parent per node, the last listed, as
    Khronos links them.) Building costs one pass over the nodes: each node is coloured while the
    walk up from it is under way and gets its *anchor* when the walk is done, so no node is
    walked twice however deep the hierarchy or however many loops it has.

    The anchor of a node is the first node of its lineage that has no parent or lies on a loop.
    Cutting every loop node from its parent leaves a forest whose roots are the anchors; a
    depth-first pass over that forest numbers each node on entry and exit, so that whether one
    node is an ancestor of another is a comparison of numbers.
    """

    def __init__(self, parents: dict[int, int], children: dict[int, list[int]]) -> None:
        self.parents = parents
        #: Loop node -> the smallest node of its loop (the loop's name).
        self.loops: dict[int, int] = {}
        self.anchors: dict[int, int] = {}
        self._find_anchors(children)
        self._enter: dict[int, int] = {}
        self._exit: dict[int, int] = {}
        self._number_forest(children)

    def on_loop(self, node: int) -> bool:
        """Whether ``node`` is its own ancestor (Khronos' ``NODE_LOOP``)."""
        return node in self.loops

    def top(self, node: int) -> int | None:
        """The last node of ``node``'s lineage when it has no parent; None when the lineage ends
        in a loop."""
        anchor = self.anchors.get(node, node)
        return None if anchor in self.loops else anchor

    def in_lineage(self, node: int, other: int) -> bool:
        """Whether ``other`` is ``node`` or one of its ancestors."""
        anchor = self.anchors.get(node, node)
        if anchor == self.anchors.get(other, other):
            return self._enter.get(other, 0) <= self._enter.get(node, 0) and self._exit.get(
                node, 0
            ) <= self._exit.get(other, 0)
        return anchor in self.loops and self.loops[anchor] == self.loops.get(other)

    def common_lineage(self, nodes: list[int]) -> CommonLineage:
        """What the lineages of ``nodes`` share (see :class:`CommonLineage`)."""
        anchors = {self.anchors.get(node, node) for node in nodes}
        if len(anchors) == 1:
            anchor = anchors.pop()
            return CommonLineage(self, nodes, True, self.top(anchor))
        loops = {self.loops.get(anchor) for anchor in anchors}
        return CommonLineage(self, nodes, len(loops) == 1 and None not in loops, None)

    def _find_anchors(self, nodes: Iterable[int]) -> None:
        """Fill :attr:`anchors` and :attr:`loops`, walking up from each node not yet anchored.

        Nodes on the current walk are grey (``position``), anchored ones black: a walk stops at
        the first black node, a parentless node, or a grey one (it closed a loop).
        """
        for start in nodes:
            path: list[int] = []
            position: dict[int, int] = {}
            node = start
            while node not in self.anchors:
                if node in position:
                    self._mark_loop(path[position[node] :])
                    del path[position[node] :]
                    break
                position[node] = len(path)
                path.append(node)
                if node not in self.parents:
                    self.anchors[node] = node
                    break
                node = self.parents[node]
            anchor = self.anchors[node]
            for member in path:
                self.anchors[member] = anchor

    def _mark_loop(self, loop: list[int]) -> None:
        """Anchor each node of ``loop`` to itself and name the loop after its smallest node."""
        name = min(loop)
        for member in loop:
            self.loops[member] = name
            self.anchors[member] = member

    def _number_forest(self, children: dict[int, list[int]]) -> None:
        """Number entries and exits in one depth-first pass over the forest of anchors.

        A forest edge joins a node to a child whose (last) parent it is, unless the child is on
        a loop; a child listed twice is entered once.
        """
        clock = 0
        for root in children:
            if self.anchors.get(root) != root:
                continue
            stack = [(root, False)]
            while stack:
                node, leaving = stack.pop()
                if leaving:
                    self._exit[node] = clock
                elif node not in self._enter:
                    self._enter[node] = clock
                    stack.append((node, True))
                    stack.extend(
                        (kid, False)
                        for kid in children.get(node, ())
                        if self.parents.get(kid) == node and kid not in self.loops
                    )
                clock += 1


class CommonLineage(NamedTuple):
    """What the lineages of some nodes (a skin's joints) share.

    ``exists``: some node is in every lineage (all lead to one top, or all into one loop);
    ``top``: the parentless node in every lineage, if there is one. ``node in common`` tells
    whether ``node`` is in every lineage, in time linear in the number of nodes given.
    """

    tree: NodeTree
    nodes: list[int]
    exists: bool
    top: int | None

    def __contains__(self, node: object) -> bool:
        return (
            self.exists
            and isinstance(node, int)
            and all(self.tree.in_lineage(member, node) for member in self.nodes)
        )


COLLECTIONS = (
    "accessors",
    "animations",
    "buffers",
    "bufferViews",
    "cameras",
    "images",
    "materials",
    "meshes",
    "nodes",
    "samplers",
    "scenes",
    "skins",
    "textures",
)


def link_document(document: dict[str, Any], reader: AccessorReader) -> DocumentLinks:
    """The links of ``document``, whose accessors ``reader`` reads. Every check shares one
    (``asset.gltf.links``, :mod:`assetcheck.formats.gltf.model`)."""
    collections = {name: collection(document, name) for name in COLLECTIONS}
    layouts = [reader.layout(index) for index in range(len(collections["accessors"]))]
    links = DocumentLinks(document, reader, collections, layouts, [], [], {}, {}, set())
    extensions = linked_extensions(document)
    links.materials = [
        None if material is None else _material_needs(material, i, extensions)
        for i, material in enumerate(collections["materials"])
    ]
    for index, mesh in enumerate(collections["meshes"]):
        primitives = mesh.get("primitives") if mesh is not None else None
        if isinstance(primitives, list) and all(isinstance(p, dict) for p in primitives):
            links.primitives.extend(
                _primitive(links, index, number, primitive)
                for number, primitive in enumerate(primitives)
            )
    nodes = collections["nodes"]
    for index, node in enumerate(nodes):
        if node is None:
            continue
        links.children[index] = [c for c in index_list(node, "children") if resolves(c, nodes)]
        for kid in links.children[index]:
            links.parents[kid] = index  # the last parent wins, as in Khronos
    for skin in collections["skins"]:
        links.joints.update(j for j in index_list(skin, "joints") if resolves(j, nodes))
    return links


def _primitive(links: DocumentLinks, mesh: int, number: int, json: dict) -> Primitive:
    accessors = links.collections["accessors"]
    attributes = json.get("attributes")
    if not isinstance(attributes, dict):
        attributes = {}
    resolved = _resolved_map(attributes, accessors)
    layouts = (links.layouts[accessor] for accessor in resolved.values())
    layout = next((layout for layout in layouts if layout is not None), None)
    mode = json.get("mode", 4)
    if type(mode) is not int:  # the common case is an exact int: no conversion needed
        mode = as_integer(mode)
    targets = json.get("targets")
    return Primitive(
        mesh,
        number,
        f"/meshes/{mesh}/primitives/{number}",
        json,
        read_attribute_set(attributes),
        resolved,
        _resolved(json, "indices", accessors),
        _resolved(json, "material", links.collections["materials"]),
        mode if mode is not None and 0 <= mode <= 6 else None,
        [_resolved_map(target, accessors) for target in targets]
        if isinstance(targets, list) and targets and all(isinstance(t, dict) for t in targets)
        else None,
        None if layout is None else layout.count,
    )


def _resolved_map(mapping: dict, items: list) -> dict[str, int]:
    """The entries of a ``name -> index`` map (``attributes``, a morph target) whose index
    resolves in ``items``, in order."""
    return {
        name: index for name, value in mapping.items() if resolves(index := as_index(value), items)
    }


def _resolved(parent: dict, key: str, items: list) -> int | None:
    index = index_of(parent, key)
    return index if resolves(index, items) else None


def texture_infos(
    value: object,
    pointer: str,
    extensions: frozenset[str],
) -> Iterator[tuple[str, str, dict]]:
    """Every texture info under a material: ``(pointer, key, info)``.

    A texture info is an object under a key ending in ``Texture`` (``baseColorTexture``,
    ``clearcoatNormalTexture``...). Inside ``extensions`` only the ``extensions`` given (those
    supported and declared) are searched, as only they are linked; ``extras`` never are.
    """
    stack: list[tuple[str, object, bool]] = [(pointer, value, False)]
    while stack:
        at, item, is_extensions = stack.pop()
        if not isinstance(item, dict):
            continue
        for key, nested in reversed(item.items()):
            if key == "extras" or (is_extensions and key not in extensions):
                continue
            if key.endswith("Texture") and isinstance(nested, dict):
                yield child(at, key), key, nested
            elif isinstance(nested, dict):
                stack.append((child(at, key), nested, key == "extensions"))


def linked_extensions(document: dict) -> frozenset[str]:
    """The extensions Khronos links: declared in ``extensionsUsed`` and supported."""
    return frozenset(extensions_used(document) & SUPPORTED_EXTENSIONS.keys())


def _material_needs(material: dict, index: int, extensions: frozenset[str]) -> MaterialNeeds:
    needs = MaterialNeeds(can_provide_tangent=isinstance(material.get("normalTexture"), dict))
    for pointer, key, info in texture_infos(material, child("/materials", index), extensions):
        texcoord = as_integer(info.get("texCoord", 0))
        needs.texcoords[pointer] = texcoord if texcoord is not None and texcoord >= 0 else -1
        if key in NORMAL_TEXTURE_KEYS:
            needs.needs_tangent = True
    own = material.get("extensions")
    shaded_by = {
        name
        for name in extensions & TANGENT_FRAME_EXTENSIONS
        if isinstance(own, dict) and isinstance(own.get(name), dict)
    }
    needs.uses_tangent = needs.needs_tangent or bool(shaded_by)
    return needs


class Use(NamedTuple):
    """One use of an accessor or buffer view: ``role`` is Khronos' usage name (a named tuple:
    a document has one or two per accessor, made cheaply)."""

    collection: str
    index: int  # type: ignore[assignment]  # shadows tuple.index: the name the checks read
    role: str
    pointer: str


def uses(links: DocumentLinks) -> tuple[Use, ...]:
    """Every use of accessors and buffer views, in the order Khronos links them (found on
    first use and kept by ``links``: the byte usage, the buffer and unused checks and the
    overlays all read them)."""
    return links._uses


def _find_uses(links: DocumentLinks) -> list[Use]:
    found: list[Use] = []
    accessors, views = links.items("accessors"), links.items("bufferViews")

    def use(accessor: int | None, role: str, view_role: str, pointer: str) -> None:
        if accessor is None:
            return
        found.append(Use("accessors", accessor, role, pointer))
        view = index_of(accessors[accessor], "bufferView")
        if resolves(view, views):
            found.append(Use("bufferViews", view, view_role, pointer))

    for index, layout in enumerate(links.layouts):
        json = accessors[index] if layout is not None and layout.sparse is not None else None
        sparse = json.get("sparse") if json is not None else None
        if not isinstance(sparse, dict):
            continue
        for part in ("indices", "values"):
            view = index_of(sparse.get(part), "bufferView")
            if resolves(view, views):
                pointer = child(
                    child(child(child("/accessors", index), "sparse"), part), "bufferView"
                )
                found.append(Use("bufferViews", view, "Other", pointer))
    for index, image in enumerate(links.items("images")):
        view = index_of(image, "bufferView")
        if resolves(view, views):
            found.append(
                Use("bufferViews", view, "Image", child(child("/images", index), "bufferView"))
            )
    for primitive in links.primitives:
        at = child(primitive.pointer, "attributes")
        for semantic, accessor in primitive.attributes.items():
            use(accessor, "VertexAttribute", "VertexBuffer", child(at, semantic))
        use(
            primitive.indices,
            "PrimitiveIndices",
            "IndexBuffer",
            child(primitive.pointer, "indices"),
        )
        for number, target in enumerate(primitive.targets or ()):
            at = child(child(primitive.pointer, "targets"), number)
            for semantic, accessor in target.items():
                use(accessor, "VertexAttribute", "VertexBuffer", child(at, semantic))
    for index, skin in enumerate(links.items("skins")):
        matrices = index_of(skin, "inverseBindMatrices")
        if resolves(matrices, accessors):
            use(matrices, "IBM", "IBM", child(child("/skins", index), "inverseBindMatrices"))
    for index, animation in enumerate(links.items("animations")):
        for number, sampler in animation_samplers(animation):
            at = child(child(child("/animations", index), "samplers"), number)
            for key, role in (("input", "AnimationInput"), ("output", "AnimationOutput")):
                reference = index_of(sampler, key)
                if resolves(reference, accessors):
                    use(reference, role, "Other", child(at, key))
    return found


def animation_samplers(animation: dict | None) -> list[tuple[int, dict]]:
    """The samplers of an animation whose ``samplers`` and ``channels`` are usable arrays.

    Khronos links an animation only when both arrays are non-empty arrays of objects.
    """
    if animation is None:
        return []
    samplers, channels = animation.get("samplers"), animation.get("channels")
    if not _object_array(samplers) or not _object_array(channels):
        return []
    return list(enumerate(samplers))


def _object_array(value: object) -> TypeGuard[list[dict]]:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
