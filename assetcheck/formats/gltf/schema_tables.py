"""The glTF 2.0 JSON schema of every core object, as Khronos glTF-Validator applies it.

Each :class:`ObjectSchema` lists the properties an object may have; ``extensions`` and
``extras`` are allowed everywhere. ``reader=True`` marks a property whose type, presence and
range the glTF reader already reports (``formats/gltf*.py``): the schema check leaves those
alone and only looks inside them. Properties of kind ``any`` are checked by a semantic check
(accessor ``min``/``max`` depend on the accessor's type).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

COMPONENT_TYPES = (5120, 5121, 5122, 5123, 5125, 5126)
INDEX_COMPONENT_TYPES = (5121, 5123, 5125)
ACCESSOR_TYPES = ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4")
BUFFER_VIEW_TARGETS = (34962, 34963)
MAG_FILTERS = (9728, 9729)
MIN_FILTERS = (9728, 9729, 9984, 9985, 9986, 9987)
WRAP_MODES = (33071, 33648, 10497)
VERSION_PATTERN = re.compile(r"^([0-9]+)\.([0-9]+)$")

#: Integers up to this size are read exactly as they are (:func:`~.fields.as_integer`).
LARGEST_EXACT = 2**53
#: The largest finite JSON number (a larger one reads as infinite, as in Khronos).
LARGEST_NUMBER = sys.float_info.max

#: Enumerations that an extension listed in ``extensionsUsed`` widens.
EXTENSION_VALUES = {
    "mimeType": {"EXT_texture_webp": ("image/webp",)},
    "path": {"KHR_animation_pointer": ("pointer",)},
}


@dataclass(frozen=True)
class Prop:
    """One property: its JSON kind and constraints.

    Kinds: ``index``, ``uint``, ``number``, ``string``, ``bool``, ``object`` (with ``schema``),
    ``objects`` (a non-empty array of ``schema`` objects), ``indices`` (unique indices),
    ``numbers`` (with ``lengths``), ``strings`` (unique), ``index_map`` (semantic -> index),
    ``index_maps`` (an array of those), ``any`` (checked elsewhere). ``standalone`` is a value
    allowed outside the range (``KHR_materials_ior`` takes 0); ``multiple_of`` constrains
    integers.
    """

    kind: str
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    enum: tuple | None = None
    extendable: bool = False
    pattern: re.Pattern | None = None
    lengths: tuple[int, ...] | None = None
    schema: ObjectSchema | None = None
    reader: bool = False
    standalone: float | None = None
    multiple_of: int | None = None

    @cached_property
    def walked(self) -> bool:
        """Whether the schema walker looks at this property at all: not for ``any`` (checked
        elsewhere), nor for the reader's scalars, whose type, presence and range the reader
        reports (the walker only looks inside the reader's objects and arrays)."""
        return self.kind != "any" and not (self.reader and self.kind in _SCALARS)

    @cached_property
    def plainly_valid(self) -> Callable[[object], bool] | None:
        """A quick test passing values that are, at a glance, valid here and hold nothing to
        walk into: a value it passes has no finding. What it does not pass (or every value,
        when this is None: objects, arrays of objects, patterns) the walker checks in full.
        It tests exact types (``json.loads`` makes exact ints, floats, strs, lists, dicts),
        so subclasses and booleans take the long way."""
        return _plain_test(self)


@dataclass(frozen=True)
class ObjectSchema:
    name: str
    properties: dict[str, Prop] = field(default_factory=dict)

    @cached_property
    def allowed(self) -> frozenset[str]:
        """The keys an object may hold: its properties, ``extensions`` and ``extras``."""
        return frozenset(self.properties) | {"extensions", "extras"}

    @cached_property
    def walked(self) -> tuple[tuple[str, Prop, Callable[[object], bool] | None], ...]:
        """The properties the schema walker looks at (:attr:`Prop.walked`), in order, each
        with its :attr:`Prop.plainly_valid` (looked up once, not once per object)."""
        return tuple(
            (key, prop, prop.plainly_valid) for key, prop in self.properties.items() if prop.walked
        )

    @cached_property
    def needed(self) -> frozenset[str]:
        """The properties whose absence is itself a finding (``UNDEFINED_PROPERTY``): required
        ones, and arrays of objects and index maps, which Khronos reads as required. The
        schema walker looks only at these among the properties an object leaves out."""
        return frozenset(
            key
            for key, prop in self.properties.items()
            if not prop.reader
            and prop.kind != "any"
            and (prop.required or prop.kind in ("objects", "index_map"))
        )


_SCALARS = frozenset({"index", "uint", "number", "string", "bool"})


def _plain_test(prop: Prop) -> Callable[[object], bool] | None:
    """:attr:`Prop.plainly_valid` for ``prop``: the common valid values of each kind, as the
    walker's full checks (:class:`~assetcheck.formats.gltf.schema.SchemaWalker`) judge them."""
    if prop.kind == "bool":
        return _is_bool
    if prop.kind == "string" and prop.pattern is None:
        return _is_str if prop.enum is None else _member_of(str, prop.enum)
    if prop.kind == "index":
        return _is_index
    if prop.kind == "uint" and prop.enum is not None:
        return _member_of(int, prop.enum)
    if prop.exclusive_minimum is not None or prop.multiple_of is not None or prop.enum:
        return None
    if prop.kind == "uint":
        lowest = 0 if prop.minimum is None else prop.minimum
        highest = LARGEST_EXACT if prop.maximum is None else min(prop.maximum, LARGEST_EXACT)
        return lambda value: type(value) is int and lowest <= value <= highest
    lowest = -LARGEST_NUMBER if prop.minimum is None else prop.minimum
    highest = LARGEST_NUMBER if prop.maximum is None else prop.maximum
    if prop.kind == "number":
        return lambda value: (
            (type(value) is float or type(value) is int) and (lowest <= value <= highest)
        )
    if prop.kind == "numbers":
        lengths = prop.lengths
        return lambda value: (
            type(value) is list
            and (len(value) in lengths if lengths is not None else bool(value))
            and all(
                (type(item) is float or type(item) is int) and lowest <= item <= highest
                for item in value
            )
        )
    if prop.kind == "indices":
        return lambda value: (
            type(value) is list
            and bool(value)
            and all(_is_index(item) for item in value)
            and len(set(value)) == len(value)
        )
    if prop.kind == "index_map" and prop.reader:  # only its emptiness is the walker's
        return lambda value: type(value) is dict and bool(value)
    return None


def _is_bool(value: object) -> bool:
    return type(value) is bool


def _is_str(value: object) -> bool:
    return type(value) is str


def _is_index(value: object) -> bool:
    return type(value) is int and 0 <= value <= LARGEST_EXACT


def _member_of(kind: type, values: tuple) -> Callable[[object], bool]:
    """A test for a value of exactly ``kind`` among ``values`` (an extension may widen an
    enumeration, never narrow it, so the core values pass whatever the extensions)."""
    allowed = frozenset(values)
    return lambda value: type(value) is kind and value in allowed


def obj(title: str, /, **properties: Prop) -> ObjectSchema:
    """The schema ``title`` (the kind of object, as extensions name their placements)."""
    return ObjectSchema(title, properties)


NAME = Prop("string")
TEXTURE_INFO = obj("textureInfo", index=Prop("index", required=True), texCoord=Prop("uint"))
NORMAL_TEXTURE_INFO = obj(
    "normalTextureInfo",
    index=Prop("index", required=True),
    texCoord=Prop("uint"),
    scale=Prop("number"),
)
OCCLUSION_TEXTURE_INFO = obj(
    "occlusionTextureInfo",
    index=Prop("index", required=True),
    texCoord=Prop("uint"),
    strength=Prop("number", minimum=0, maximum=1),
)

SPARSE = obj(
    "accessor.sparse",
    count=Prop("uint", required=True, minimum=1),
    indices=Prop(
        "object",
        required=True,
        schema=obj(
            "accessor.sparse.indices",
            bufferView=Prop("index", required=True),
            byteOffset=Prop("uint"),
            componentType=Prop("uint", required=True, enum=INDEX_COMPONENT_TYPES),
        ),
    ),
    values=Prop(
        "object",
        required=True,
        schema=obj(
            "accessor.sparse.values",
            bufferView=Prop("index", required=True),
            byteOffset=Prop("uint"),
        ),
    ),
)

ACCESSOR = obj(
    "accessor",
    bufferView=Prop("index", reader=True),
    byteOffset=Prop("uint", reader=True),
    componentType=Prop("uint", required=True, enum=COMPONENT_TYPES),
    normalized=Prop("bool"),
    count=Prop("uint", reader=True),
    type=Prop("string", required=True, enum=ACCESSOR_TYPES),
    max=Prop("any"),
    min=Prop("any"),
    sparse=Prop("object", schema=SPARSE),
    name=NAME,
)

ANIMATION = obj(
    "animation",
    channels=Prop(
        "objects",
        required=True,
        schema=obj(
            "animation.channel",
            sampler=Prop("index", required=True),
            target=Prop(
                "object",
                required=True,
                schema=obj(
                    "animation.channel.target",
                    node=Prop("index"),
                    path=Prop(
                        "string",
                        required=True,
                        extendable=True,
                        enum=("translation", "rotation", "scale", "weights"),
                    ),
                ),
            ),
        ),
    ),
    samplers=Prop(
        "objects",
        required=True,
        schema=obj(
            "animation.sampler",
            input=Prop("index", required=True),
            interpolation=Prop("string", enum=("LINEAR", "STEP", "CUBICSPLINE")),
            output=Prop("index", required=True),
        ),
    ),
    name=NAME,
)

ASSET = obj(
    "asset",
    copyright=Prop("string"),
    generator=Prop("string"),
    version=Prop("string", reader=True),
    minVersion=Prop("string", pattern=VERSION_PATTERN),
)

BUFFER = obj(
    "buffer", uri=Prop("string", reader=True), byteLength=Prop("uint", reader=True), name=NAME
)

BUFFER_VIEW = obj(
    "bufferView",
    buffer=Prop("index", reader=True),
    byteOffset=Prop("uint", reader=True),
    byteLength=Prop("uint", reader=True),
    byteStride=Prop("uint", reader=True),
    target=Prop("uint", enum=BUFFER_VIEW_TARGETS),
    name=NAME,
)

CAMERA = obj(
    "camera",
    type=Prop("string", required=True, enum=("orthographic", "perspective")),
    orthographic=Prop("any"),
    perspective=Prop("any"),
    name=NAME,
)

#: Only the projection ``camera.type`` names is read (by the camera check).
PROJECTIONS = {
    "orthographic": obj(
        "camera.orthographic",
        xmag=Prop("number", required=True),
        ymag=Prop("number", required=True),
        zfar=Prop("number", required=True, exclusive_minimum=0),
        znear=Prop("number", required=True, minimum=0),
    ),
    "perspective": obj(
        "camera.perspective",
        aspectRatio=Prop("number", exclusive_minimum=0),
        yfov=Prop("number", required=True, exclusive_minimum=0),
        zfar=Prop("number", exclusive_minimum=0),
        znear=Prop("number", required=True, exclusive_minimum=0),
    ),
}

IMAGE = obj(
    "image",
    uri=Prop("string", reader=True),
    mimeType=Prop("string", enum=("image/jpeg", "image/png"), extendable=True),
    bufferView=Prop("index", reader=True),
    name=NAME,
)

MATERIAL = obj(
    "material",
    pbrMetallicRoughness=Prop(
        "object",
        schema=obj(
            "material.pbrMetallicRoughness",
            baseColorFactor=Prop("numbers", lengths=(4,), minimum=0, maximum=1),
            baseColorTexture=Prop("object", schema=TEXTURE_INFO),
            metallicFactor=Prop("number", minimum=0, maximum=1),
            roughnessFactor=Prop("number", minimum=0, maximum=1),
            metallicRoughnessTexture=Prop("object", schema=TEXTURE_INFO),
        ),
    ),
    normalTexture=Prop("object", schema=NORMAL_TEXTURE_INFO),
    occlusionTexture=Prop("object", schema=OCCLUSION_TEXTURE_INFO),
    emissiveTexture=Prop("object", schema=TEXTURE_INFO),
    emissiveFactor=Prop("numbers", lengths=(3,), minimum=0, maximum=1),
    alphaMode=Prop("string", enum=("OPAQUE", "MASK", "BLEND")),
    alphaCutoff=Prop("number", minimum=0),
    doubleSided=Prop("bool"),
    name=NAME,
)

PRIMITIVE = obj(
    "mesh.primitive",
    attributes=Prop("index_map", reader=True),
    indices=Prop("index", reader=True),
    material=Prop("index", reader=True),
    mode=Prop("uint", reader=True),
    targets=Prop("index_maps"),
)

MESH = obj(
    "mesh",
    primitives=Prop("objects", reader=True, schema=PRIMITIVE),
    weights=Prop("numbers"),
    name=NAME,
)

NODE = obj(
    "node",
    camera=Prop("index"),
    children=Prop("indices"),
    skin=Prop("index"),
    matrix=Prop("numbers", lengths=(16,)),
    mesh=Prop("index"),
    rotation=Prop("numbers", lengths=(4,), minimum=-1, maximum=1),
    scale=Prop("numbers", lengths=(3,)),
    translation=Prop("numbers", lengths=(3,)),
    weights=Prop("numbers"),
    name=NAME,
)

SAMPLER = obj(
    "sampler",
    magFilter=Prop("uint", enum=MAG_FILTERS),
    minFilter=Prop("uint", enum=MIN_FILTERS),
    wrapS=Prop("uint", enum=WRAP_MODES),
    wrapT=Prop("uint", enum=WRAP_MODES),
    name=NAME,
)

SCENE = obj("scene", nodes=Prop("indices"), name=NAME)

SKIN = obj(
    "skin",
    inverseBindMatrices=Prop("index"),
    skeleton=Prop("index"),
    joints=Prop("indices", required=True),
    name=NAME,
)

TEXTURE = obj("texture", sampler=Prop("index"), source=Prop("index"), name=NAME)

#: The root's collections, in the order Khronos reads them, and whether the reader owns them.
COLLECTIONS: dict[str, tuple[ObjectSchema, bool]] = {
    "accessors": (ACCESSOR, True),
    "animations": (ANIMATION, True),
    "buffers": (BUFFER, True),
    "bufferViews": (BUFFER_VIEW, True),
    "cameras": (CAMERA, False),
    "images": (IMAGE, True),
    "materials": (MATERIAL, True),
    "meshes": (MESH, True),
    "nodes": (NODE, False),
    "samplers": (SAMPLER, False),
    "scenes": (SCENE, False),
    "skins": (SKIN, False),
    "textures": (TEXTURE, False),
}

ROOT = obj(
    "glTF",
    extensionsUsed=Prop("strings"),
    extensionsRequired=Prop("strings"),
    asset=Prop("object", reader=True, schema=ASSET),
    scene=Prop("index"),
    **{name: Prop("any") for name in COLLECTIONS},
)
