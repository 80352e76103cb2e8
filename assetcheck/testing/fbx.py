"""Writers of real FBX files from a small :class:`Scene` description.

:func:`binary_fbx` and :func:`ascii_fbx` write the node tree an exporter of the given version
writes (the FBX 6 layout below version 7000), for files readers should accept. Hostile files
are built from node trees directly with :mod:`assetcheck.testing.fbx_nodes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assetcheck.testing.fbx_nodes import Array, Node, encode_ascii, encode_binary

#: FBX time units per second (``KTime``).
KTIME_PER_SECOND = 46_186_158_000
#: ``KeyAttrFlags`` of a key interpolating linearly, cubically, or holding its value (the FBX
#: SDK's ``FbxAnimCurveDef``).
LINEAR_KEY, CUBIC_KEY, CONSTANT_KEY = 0x4, 0x8, 0x2

#: ``3dsMax|ClassIDa/b`` of the 3ds Max Physical Material, a PBR shading model.
PHYSICAL_MATERIAL_CLASS_ID = (0x3D6B1CEC, 0xDEADC001 - (1 << 32))  # stored as signed int32


@dataclass
class ClusterSpec:
    """A skin cluster: it weighs control points ``indexes`` by ``weights`` on the bone model
    ``bone`` (a root ``LimbNode`` at ``translation``; None links the cluster to no bone).

    Its ``TransformLink`` is the bone's translation (the bind pose), or ``bind_translation``
    when given; ``transform_link`` replaces it with 16 values as written (column by column).
    """

    bone: str | None
    indexes: Sequence[int]
    weights: Sequence[float]
    translation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    bind_translation: tuple[float, float, float] | None = None
    transform_link: Sequence[float] | None = None

    def link_values(self) -> list[float]:
        if self.transform_link is not None:
            return list(self.transform_link)
        x, y, z = self.translation if self.bind_translation is None else self.bind_translation
        return [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, x, y, z, 1.0]


@dataclass
class CurveSpec:
    """An animation curve (FBX 7 layouts only): ``values`` at ``times`` (seconds) on the
    ``component`` of property ``prop`` of the model ``model`` (a mesh's, else a bone made for
    it, connected to the scene unless ``in_scene`` is False), in stack ``stack`` of
    :attr:`Scene.animations`. ``flags`` are each key's ``KeyAttrFlags`` (all linear when None)
    and ``slopes`` each key's cubic right and next-left slopes (zero when None);
    ``ref_counts`` replaces the ``KeyAttrRefCount`` written (for damaged curves).
    """

    model: str
    times: Sequence[float]
    values: Sequence[float]
    prop: str = "Lcl Translation"
    component: str = "X"
    flags: Sequence[int] | None = None
    slopes: Sequence[tuple[float, float]] | None = None
    stack: int = 0
    in_scene: bool = True
    ref_counts: Sequence[int] | None = None

    def attributes(self) -> tuple[list[int], list[int], list[float]]:
        """``KeyAttrFlags``, ``KeyAttrRefCount`` and ``KeyAttrDataFloat`` as written: one
        entry for all keys when they are linear, else one per key."""
        keys = len(self.times)
        if self.flags is None:
            flags, counts, data = [LINEAR_KEY], [keys], [0.0, 0.0, 0.0, 0.0]
        else:
            slopes = self.slopes or [(0.0, 0.0)] * keys
            data = [value for right, left in slopes for value in (right, left, 0.0, 0.0)]
            flags, counts = list(self.flags), [1] * keys
        return flags, counts if self.ref_counts is None else list(self.ref_counts), data


@dataclass
class MeshSpec:
    """A mesh: control points, polygons (lists of control point indices) and its materials.

    ``normal`` is the normal written at every corner; ``scale``, ``rotation`` (degrees) and
    ``translation`` the model's ``Lcl Scaling``, ``Lcl Rotation`` and ``Lcl Translation``.
    ``raw_indices`` replaces the ``PolygonVertexIndex`` array as written (for damaged files).
    ``uv_values`` gives every UV set one UV per control point (all zero when None).
    ``geometry_name`` names the geometry apart from its model (FBX 7 layout only); Asset Forge
    and Kenney's writer leave it empty. ``uv_index`` writes the UVs by polygon corner through
    that ``UVIndex`` (-1 for "none"); ``material_slots`` the ``Materials`` array (0 for every
    polygon when None). ``skin`` gives the mesh one skin deformer with these clusters.
    """

    name: str
    vertices: Sequence[tuple[float, float, float]]
    polygons: Sequence[Sequence[int]]
    materials: Sequence[str] = ()
    normals: bool = True
    uv_sets: int = 1
    normal: tuple[float, float, float] = (0.0, 0.0, 1.0)
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    translation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    raw_indices: Sequence[int] | None = None
    uv_values: Sequence[tuple[float, float]] | None = None
    geometry_name: str | None = None
    uv_index: Sequence[int] | None = None
    material_slots: Sequence[int] | None = None
    skin: Sequence[ClusterSpec] = ()


@dataclass
class MaterialSpec:
    """A material: ``shading_model`` as written (``lambert``, ``phong``, ``unknown``...).

    ``physical`` marks it a 3ds Max Physical Material (PBR), as 3ds Max writes it;
    ``properties`` adds numeric properties as (name, type, value): ``("Opacity", "double",
    0.5)``.
    """

    name: str
    shading_model: str = "phong"
    physical: bool = False
    properties: Sequence[tuple[str, str, object]] = ()


@dataclass
class VideoSpec:
    """An image (a ``Video``, embedded when ``content`` is not empty) and its texture,
    connected to each (material, property) of ``slots``: ``("Wood", "NormalMap")``. The FBX 6
    layout connects the texture to each model drawn with the material and names it in a
    texture layer element of the property (``LayerElementNormalMap_Textures``;
    ``LayerElementTexture`` for ``Diffuse``) on the polygons of that material."""

    name: str
    filename: str
    content: bytes
    slots: Sequence[tuple[str, str]] = ()


@dataclass
class Scene:
    """What :func:`binary_fbx` and :func:`ascii_fbx` write."""

    meshes: Sequence[MeshSpec] = ()
    materials: Sequence[MaterialSpec] = ()
    animations: Sequence[tuple[str, float]] = ()
    curves: Sequence[CurveSpec] = ()
    videos: Sequence[VideoSpec] = ()
    creator: str = "AssetCheck test builder"
    unit_scale_cm: float = 1.0
    up_axis: int = 1  # 1 for Y up, 2 for Z up


def cube(name: str = "Cube", materials: Sequence[str] = ()) -> MeshSpec:
    """A unit cube of 8 control points and 6 quads (12 triangles)."""
    vertices = [(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
    quads = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]
    return MeshSpec(name, vertices, quads, materials)


def grid(name: str, columns: int, rows: int) -> MeshSpec:
    """A flat grid of ``columns * rows`` quads, for big meshes."""
    vertices = [(float(x), float(y), 0.0) for y in range(rows + 1) for x in range(columns + 1)]
    width = columns + 1
    quads = [
        [y * width + x, y * width + x + 1, (y + 1) * width + x + 1, (y + 1) * width + x]
        for y in range(rows)
        for x in range(columns)
    ]
    return MeshSpec(name, vertices, quads, normals=False, uv_sets=0)


def binary_fbx(scene: Scene, version: int = 7400, *, compress: bool = False) -> bytes:
    """``scene`` as a binary FBX file of ``version`` (6100 writes the FBX 6 layout)."""
    return encode_binary(scene_nodes(scene, version, binary=True, compress=compress), version)


def ascii_fbx(scene: Scene, version: int = 7400, *, trailing_commas: bool = False) -> bytes:
    """``scene`` as an ASCII FBX file of ``version`` (6100 writes the FBX 6 layout);
    ``trailing_commas`` ends every array with a comma, as some writers do."""
    return encode_ascii(
        scene_nodes(scene, version, binary=False), version, trailing_commas=trailing_commas
    )


def scene_nodes(scene: Scene, version: int, *, binary: bool, compress: bool = False) -> list[Node]:
    """The top-level nodes an exporter of ``version`` writes for ``scene``."""
    writer = _SceneWriter(scene, version, binary, compress)
    return writer.nodes()


# An object-to-object connection: (child, parent), by name in FBX 6 and by id in FBX 7.
_Link = tuple[str | int, str | int]


@dataclass
class _SceneWriter:
    scene: Scene
    version: int
    binary: bool
    compress: bool

    @property
    def legacy(self) -> bool:
        return self.version < 7000

    def nodes(self) -> list[Node]:
        header = Node(
            "FBXHeaderExtension",
            children=[
                Node("FBXHeaderVersion", [1003]),
                Node("FBXVersion", [self.version]),
                Node("Creator", [self.scene.creator]),
            ],
        )
        top = [header, Node("Creator", [self.scene.creator]), self._global_settings()]
        objects = Node("Objects")
        links: list[_Link] = []
        for index, mesh in enumerate(self.scene.meshes):
            self._mesh(objects, links, mesh, index)
        for index, material in enumerate(self.scene.materials):
            objects.children.append(self._material(material, index))
        for index, video in enumerate(self.scene.videos):
            self._video(objects, links, video, index)
        if not self.legacy:
            for index, (name, seconds) in enumerate(self.scene.animations):
                objects.children += self._anim_stack(links, name, seconds, index)
        property_links = [] if self.legacy else self._curves(objects, links)
        if not self.legacy:
            property_links += self._texture_slots()
        connections = Node(
            "Connections",
            children=[
                *(
                    Node("Connect" if self.legacy else "C", ["OO", child, parent])
                    for child, parent in links
                ),
                *(Node("C", ["OP", *link]) for link in property_links),
            ],
        )
        top += [objects, connections]
        if self.legacy and self.scene.animations:
            top.append(self._takes())
        return top

    def _name(self, name: str, cls: str) -> str:
        return f"{name}\x00\x01{cls}" if self.binary else f"{cls}::{name}"

    def _id(self, family: int, index: int) -> int:
        """A unique object id: the family (1 geometry, 2 model...) and the index in it."""
        return 1_000_000_000_000 * family + index

    def _ref(self, name: str, cls: str, family: int, index: int) -> str | int:
        """How connections name an object: by name in FBX 6, by id in FBX 7."""
        return self._name(name, cls) if self.legacy else self._id(family, index)

    def _head(self, name: str, cls: str, family: int, index: int, subclass: str = "") -> list:
        """An object node's properties: its id (FBX 7 only), name and subclass."""
        head: list[object] = [self._name(name, cls), subclass]
        return head if self.legacy else [self._id(family, index), *head]

    def _props(self, props: list[tuple[str, str, object]]) -> Node:
        if self.legacy:
            rows = [Node("Property", [name, kind, "", value]) for name, kind, value in props]
            return Node("Properties60", children=rows)
        rows = [Node("P", [name, kind, "", "", value]) for name, kind, value in props]
        return Node("Properties70", children=rows)

    def _vector_prop(self, name: str, vector: tuple[float, float, float]) -> Node:
        """A three-number property row: ``P`` (FBX 7) or ``Property`` (FBX 6)."""
        head = [name, name, ""] if self.legacy else [name, name, "", "A"]
        return Node("Property" if self.legacy else "P", [*head, *map(float, vector)])

    def _global_settings(self) -> Node:
        z_up = self.scene.up_axis == 2  # then the front is -Y, as 3ds Max and Blender write it
        props = self._props(
            [
                ("UpAxis", "int", self.scene.up_axis),
                ("UpAxisSign", "int", 1),
                ("FrontAxis", "int", 1 if z_up else 2),
                ("FrontAxisSign", "int", -1 if z_up else 1),
                ("CoordAxis", "int", 0),
                ("CoordAxisSign", "int", 1),
                ("UnitScaleFactor", "double", self.scene.unit_scale_cm),
                ("OriginalUnitScaleFactor", "double", self.scene.unit_scale_cm),
            ]
        )
        return Node("GlobalSettings", [], [Node("Version", [1000]), props])

    def _array(self, kind: str, values: Sequence[float | int]) -> list[object]:
        if self.legacy:
            # FBX 6 writes an array as one scalar property per element.
            return [float(v) if kind == "d" else int(v) for v in values]
        return [Array(kind, values, compress=self.compress)]

    def _legacy_textures(
        self, mesh: MeshSpec, model_ref: str | int, links: list[_Link]
    ) -> list[tuple[int, int, str]]:
        """FBX 6: connect the textures of the mesh's materials to its model ``model_ref``;
        (texture number in the model, material slot, property) of each."""
        found: list[tuple[int, int, str]] = []
        numbers: dict[int, int] = {}
        for index, video in enumerate(self.scene.videos):
            for material, prop in video.slots:
                if material not in mesh.materials:
                    continue
                if index not in numbers:
                    numbers[index] = len(numbers)
                    links.append((self._ref(video.name, "Texture", 6, index), model_ref))
                found.append((numbers[index], list(mesh.materials).index(material), prop))
        return found

    def _geometry_children(
        self, mesh: MeshSpec, textures: Sequence[tuple[int, int, str]] = ()
    ) -> list[Node]:
        points = [c for vertex in mesh.vertices for c in vertex]
        indices = (
            list(mesh.raw_indices)
            if mesh.raw_indices is not None
            else [
                -i - 1 if corner == len(polygon) - 1 else i
                for polygon in mesh.polygons
                for corner, i in enumerate(polygon)
            ]
        )
        corners = len(indices)
        children = [
            Node("Vertices", self._array("d", points)),
            Node("PolygonVertexIndex", self._array("i", indices)),
            Node("GeometryVersion", [124]),
        ]
        layer = []
        if mesh.normals:
            children.append(
                self._layer_element(
                    "LayerElementNormal",
                    0,
                    "Normals",
                    list(mesh.normal) * corners,
                    "ByPolygonVertex",
                )
            )
            layer.append(("LayerElementNormal", 0))
        uv_mapping = "ByVertice" if mesh.uv_index is None else "ByPolygonVertex"
        for uv_set in range(mesh.uv_sets):
            children.append(
                self._layer_element(
                    "LayerElementUV",
                    uv_set,
                    "UV",
                    _uv_values(mesh),
                    uv_mapping,
                    index=mesh.uv_index,
                )
            )
            layer.append(("LayerElementUV", uv_set))
        if mesh.materials:
            slots = mesh.material_slots
            children.append(
                self._layer_element(
                    "LayerElementMaterial",
                    0,
                    "Materials",
                    [0] * len(mesh.polygons) if slots is None else list(slots),
                    "ByPolygon",
                    kind="i",
                )
            )
            layer.append(("LayerElementMaterial", 0))
        for texture, slot, prop in textures:
            name = "LayerElementTexture" if prop == "Diffuse" else f"LayerElement{prop}_Textures"
            used = [0] * len(mesh.polygons) if mesh.material_slots is None else mesh.material_slots
            ids = [texture if polygon_slot == slot else -1 for polygon_slot in used]
            children.append(self._layer_element(name, 0, "TextureId", ids, "ByPolygon", kind="i"))
            layer.append((name, 0))
        children.append(
            Node(
                "Layer",
                [0],
                [Node("Version", [100])]
                + [
                    Node("LayerElement", [], [Node("Type", [name]), Node("TypedIndex", [index])])
                    for name, index in layer
                ],
            )
        )
        return children

    def _layer_element(
        self,
        name: str,
        number: int,
        array_name: str,
        values: list,
        mapping: str,
        kind: str = "d",
        index: Sequence[int] | None = None,
    ) -> Node:
        """A layer element; its values are indexed when they are integers or ``index`` is
        given (then written as ``<array_name>Index``)."""
        indexed = kind == "i" or index is not None
        children = [
            Node("Version", [101]),
            Node("Name", [f"set{number}"]),
            Node("MappingInformationType", [mapping]),
            Node("ReferenceInformationType", ["IndexToDirect" if indexed else "Direct"]),
            Node(array_name, self._array(kind, values)),
        ]
        if index is not None:
            children.append(Node(array_name + "Index", self._array("i", index)))
        return Node(name, [number], children)

    def _mesh(self, objects: Node, links: list[_Link], mesh: MeshSpec, index: int) -> None:
        model_ref = self._ref(mesh.name, "Model", 2, index)
        scene_ref = self._name("Scene", "Model") if self.legacy else 0
        links.append((model_ref, scene_ref))
        for material in mesh.materials:
            position = [m.name for m in self.scene.materials].index(material)
            links.append((self._ref(material, "Material", 3, position), model_ref))
        model_props = self._props([("Lcl Translation", "Lcl Translation", 0.0)])
        if mesh.translation != (0.0, 0.0, 0.0):
            model_props.children = [self._vector_prop("Lcl Translation", mesh.translation)]
        if mesh.rotation != (0.0, 0.0, 0.0):
            model_props.children.append(self._vector_prop("Lcl Rotation", mesh.rotation))
        if mesh.scale != (1.0, 1.0, 1.0):
            model_props.children.append(self._vector_prop("Lcl Scaling", mesh.scale))
        model = Node(
            "Model",
            self._head(mesh.name, "Model", 2, index, "Mesh"),
            [Node("Version", [232]), model_props],
        )
        if self.legacy:
            model.children += self._geometry_children(
                mesh, self._legacy_textures(mesh, model_ref, links)
            )
            objects.children.append(model)
            self._skin(objects, links, mesh, index, model_ref)
            return
        geometry_name = mesh.name if mesh.geometry_name is None else mesh.geometry_name
        geometry = Node(
            "Geometry",
            self._head(geometry_name, "Geometry", 1, index, "Mesh"),
            self._geometry_children(mesh),
        )
        objects.children += [geometry, model]
        links.append((self._id(1, index), model_ref))
        self._skin(objects, links, mesh, index, self._id(1, index))

    def _skin(
        self, objects: Node, links: list[_Link], mesh: MeshSpec, index: int, owner: str | int
    ) -> None:
        """The mesh's skin deformer, connected to ``owner`` (its geometry; FBX 6: its model),
        its clusters and their bones."""
        if not mesh.skin:
            return
        skin_name = f"{mesh.name}Skin"
        objects.children.append(
            Node(
                "Deformer",
                self._head(skin_name, "Deformer", 10, index, "Skin"),
                [Node("Version", [101]), Node("Link_DeformAcuracy", [50.0])],
            )
        )
        skin_ref = self._ref(skin_name, "Deformer", 10, index)
        links.append((skin_ref, owner))
        scene_ref = self._name("Scene", "Model") if self.legacy else 0
        for number, cluster in enumerate(mesh.skin):
            key = index * 1000 + number
            name = f"{mesh.name}Cluster{number}"
            identity = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]
            objects.children.append(
                Node(
                    "Deformer",
                    self._head(name, "SubDeformer", 11, key, "Cluster"),
                    [
                        Node("Version", [100]),
                        Node("UserData", ["", ""]),
                        Node("Indexes", self._array("i", cluster.indexes)),
                        Node("Weights", self._array("d", cluster.weights)),
                        Node("Transform", self._array("d", identity)),
                        Node("TransformLink", self._array("d", cluster.link_values())),
                    ],
                )
            )
            cluster_ref = self._ref(name, "SubDeformer", 11, key)
            links.append((cluster_ref, skin_ref))
            if cluster.bone is None:
                continue
            props = self._props([])
            props.children.append(self._vector_prop("Lcl Translation", cluster.translation))
            objects.children.append(
                Node(
                    "Model",
                    self._head(cluster.bone, "Model", 12, key, "LimbNode"),
                    [Node("Version", [232]), props],
                )
            )
            bone_ref = self._ref(cluster.bone, "Model", 12, key)
            links += [(bone_ref, scene_ref), (bone_ref, cluster_ref)]

    def _material(self, material: MaterialSpec, index: int) -> Node:
        props: list[tuple[str, str, object]] = [("DiffuseColor", "ColorRGB", 0.8)]
        props += material.properties
        if material.physical:
            class_a, class_b = PHYSICAL_MATERIAL_CLASS_ID
            props += [
                ("3dsMax", "Compound", ""),
                ("3dsMax|ClassIDa", "int", class_a),
                ("3dsMax|ClassIDb", "int", class_b),
            ]
        return Node(
            "Material",
            self._head(material.name, "Material", 3, index),
            [
                Node("Version", [102]),
                Node("ShadingModel", [material.shading_model]),
                Node("MultiLayer", [0]),
                self._props(props),
            ],
        )

    def _video(self, objects: Node, links: list[_Link], video: VideoSpec, index: int) -> None:
        video_children = [
            Node("Type", ["Clip"]),
            Node("Filename", [video.filename]),
            Node("RelativeFilename", [video.filename]),
        ]
        if video.content:
            video_children.append(Node("Content", [video.content]))
        objects.children.append(
            Node("Video", self._head(video.name, "Video", 5, index, "Clip"), video_children)
        )
        objects.children.append(
            Node(
                "Texture",
                self._head(video.name, "Texture", 6, index),
                [
                    Node("Type", ["TextureVideoClip"]),
                    Node("FileName", [video.filename]),
                    Node("RelativeFilename", [video.filename]),
                ],
            )
        )
        links.append(
            (self._ref(video.name, "Video", 5, index), self._ref(video.name, "Texture", 6, index))
        )

    def _texture_slots(self) -> list[tuple[int, int, str]]:
        """The connections of the videos' textures to material properties."""
        names = [m.name for m in self.scene.materials]
        return [
            (self._id(6, index), self._id(3, names.index(material)), prop)
            for index, video in enumerate(self.scene.videos)
            for material, prop in video.slots
        ]

    def _anim_stack(self, links: list[_Link], name: str, seconds: float, index: int) -> list[Node]:
        stop = round(seconds * KTIME_PER_SECOND)
        links.append((self._id(8, index), self._id(7, index)))
        return [
            Node(
                "AnimationStack",
                self._head(name, "AnimStack", 7, index),
                [
                    self._props(
                        [
                            ("LocalStart", "KTime", 0),
                            ("LocalStop", "KTime", stop),
                            ("ReferenceStart", "KTime", 0),
                            ("ReferenceStop", "KTime", stop),
                        ]
                    ),
                ],
            ),
            Node("AnimationLayer", self._head("BaseLayer", "AnimLayer", 8, index)),
        ]

    def _curves(self, objects: Node, links: list[_Link]) -> list[tuple[int, int, str]]:
        """The curves of :attr:`Scene.curves`, one curve node per model, property and stack,
        and the bones they animate; their property connections (child, parent, property)."""
        models = {mesh.name: self._id(2, index) for index, mesh in enumerate(self.scene.meshes)}
        nodes: dict[tuple[str, str, int], int] = {}
        property_links: list[tuple[int, int, str]] = []
        for number, curve in enumerate(self.scene.curves):
            if curve.model not in models:
                models[curve.model] = self._id(15, number)
                objects.children.append(
                    Node("Model", self._head(curve.model, "Model", 15, number, "LimbNode"))
                )
                if curve.in_scene:
                    links.append((models[curve.model], 0))
            channel = (curve.model, curve.prop, curve.stack)
            if channel not in nodes:
                nodes[channel] = self._id(13, number)
                objects.children.append(
                    Node("AnimationCurveNode", self._head(curve.prop, "AnimCurveNode", 13, number))
                )
                links.append((nodes[channel], self._id(8, curve.stack)))
                property_links.append((nodes[channel], models[curve.model], curve.prop))
            flags, counts, data = curve.attributes()
            objects.children.append(
                Node(
                    "AnimationCurve",
                    self._head("", "AnimCurve", 14, number),
                    [
                        Node("Default", [0.0]),
                        Node("KeyVer", [4009]),
                        Node(
                            "KeyTime",
                            [Array("l", [round(t * KTIME_PER_SECOND) for t in curve.times])],
                        ),
                        Node("KeyValueFloat", [Array("f", curve.values, self.compress)]),
                        Node("KeyAttrFlags", [Array("i", flags)]),
                        Node("KeyAttrDataFloat", [Array("f", data)]),
                        Node("KeyAttrRefCount", [Array("i", counts)]),
                    ],
                )
            )
            property_links.append((self._id(14, number), nodes[channel], f"d|{curve.component}"))
        return property_links

    def _takes(self) -> Node:
        takes = [
            Node(
                "Take",
                [name],
                [
                    Node("LocalTime", [0, round(seconds * KTIME_PER_SECOND)]),
                    Node("ReferenceTime", [0, round(seconds * KTIME_PER_SECOND)]),
                ],
            )
            for name, seconds in self.scene.animations
        ]
        return Node("Takes", children=[Node("Current", [self.scene.animations[0][0]]), *takes])


def _uv_values(mesh: MeshSpec) -> list[float]:
    if mesh.uv_values is None:
        return [0.0, 0.0] * len(mesh.vertices)
    return [value for uv in mesh.uv_values for value in uv]
