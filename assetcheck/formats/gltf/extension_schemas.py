"""The JSON schemas of the glTF extensions, by the kind of object each extends.

:data:`EXTENSIONS` maps an extension to the schema of its object on each kind of object it may
extend (kinds are the :class:`~assetcheck.formats.gltf.schema_tables.ObjectSchema` names:
``glTF``, ``node``, ``material``, ``textureInfo``...). The schema check applies one only when
the extension is declared in ``extensionsUsed`` and sits where it belongs, as Khronos
glTF-Validator does; an extension object anywhere else is ``UNEXPECTED_EXTENSION_OBJECT``.

Types, ranges, defaults and required properties follow Khronos glTF-Validator 2.0.0-dev.3.10.
What its getters check beyond the schema lives in checks of its own: the spot of a
``KHR_lights_punctual`` light (:mod:`assetcheck.checks.gltf_extension_objects`) exists only on
spot lights, so it is ``any`` here.

:data:`UNVALIDATED_BY_KHRONOS` lists the extensions this Khronos version does not validate
(it reports them as ``UNSUPPORTED_EXTENSION``): their findings are advice, reported as the
warning ``EXTENSION_SCHEMA_MISMATCH`` so that they never make a file invalid that Khronos calls
valid.
"""

from __future__ import annotations

import re

from assetcheck.formats.gltf.schema_tables import (
    NAME,
    NORMAL_TEXTURE_INFO,
    TEXTURE_INFO,
    ObjectSchema,
    Prop,
    obj,
)

HALF_PI = 1.5707963267948966
#: A JSON Pointer (RFC 6901), as ``KHR_animation_pointer`` requires.
JSON_POINTER = re.compile(r"^(?:/(?:[^/~]|~0|~1)*)*$")
TEXTURE_INFO_KINDS = ("textureInfo", "normalTextureInfo", "occlusionTextureInfo")
LIGHT_TYPES = ("directional", "point", "spot")
LIGHTS = "KHR_lights_punctual"
VARIANTS = "KHR_materials_variants"
ANIMATION_POINTER = "KHR_animation_pointer"


def _unit() -> Prop:
    """A number in [0, 1]."""
    return Prop("number", minimum=0, maximum=1)


def _texture() -> Prop:
    return Prop("object", schema=TEXTURE_INFO)


def _material(name: str, /, **properties: Prop) -> dict[str, ObjectSchema]:
    return {"material": obj(name, **properties)}


LIGHT_SPOT = obj(
    "KHR_lights_punctual.light.spot",
    innerConeAngle=Prop("number", minimum=0, maximum=HALF_PI),
    outerConeAngle=Prop("number", exclusive_minimum=0, maximum=HALF_PI),
)
#: Defaults of the spot cone angles, used when the property is absent.
SPOT_DEFAULTS = {"innerConeAngle": 0.0, "outerConeAngle": HALF_PI / 2}

LIGHT = obj(
    "KHR_lights_punctual.light",
    color=Prop("numbers", lengths=(3,), minimum=0, maximum=1),
    intensity=Prop("number", minimum=0),
    spot=Prop("any"),
    type=Prop("string", required=True, enum=LIGHT_TYPES),
    range=Prop("number", exclusive_minimum=0),
    name=NAME,
)

VARIANT_MAPPING = obj(
    "KHR_materials_variants.mapping",
    variants=Prop("indices", required=True),
    material=Prop("index", required=True),
    name=NAME,
)

_TEXTURE_TRANSFORM = obj(
    "KHR_texture_transform",
    offset=Prop("numbers", lengths=(2,)),
    rotation=Prop("number"),
    scale=Prop("numbers", lengths=(2,)),
    texCoord=Prop("uint"),
)

_IMAGE_SOURCE = {"texture": obj("texture.source", source=Prop("index"))}


def _meshopt(name: str, extra_filters: tuple[str, ...]) -> dict[str, ObjectSchema]:
    """The schemas of a meshopt extension (``EXT_`` or ``KHR_``) on buffers and buffer views."""
    return {
        "buffer": obj(f"{name}.buffer", fallback=Prop("bool")),
        "bufferView": obj(
            f"{name}.bufferView",
            buffer=Prop("index", required=True),
            byteOffset=Prop("uint"),
            byteLength=Prop("uint", required=True, minimum=1),
            # The ratified range: 2 and 4 for index data (the published schema's multiple of 4
            # from 4 to 252 predates it); each mode's own rule is MESHOPT_INVALID_LAYOUT's.
            byteStride=Prop("uint", required=True, minimum=2, maximum=256),
            count=Prop("uint", required=True, minimum=1),
            mode=Prop("string", required=True, enum=("ATTRIBUTES", "TRIANGLES", "INDICES")),
            filter=Prop(
                "string", enum=("NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", *extra_filters)
            ),
        ),
    }


EXTENSIONS: dict[str, dict[str, ObjectSchema]] = {
    LIGHTS: {
        "glTF": obj(LIGHTS, lights=Prop("objects", required=True, schema=LIGHT)),
        "node": obj(f"{LIGHTS}.node", light=Prop("index", required=True)),
    },
    VARIANTS: {
        "glTF": obj(
            VARIANTS,
            variants=Prop(
                "objects",
                required=True,
                schema=obj(f"{VARIANTS}.variant", name=Prop("string", required=True)),
            ),
        ),
        "mesh.primitive": obj(
            f"{VARIANTS}.primitive", mappings=Prop("objects", required=True, schema=VARIANT_MAPPING)
        ),
    },
    ANIMATION_POINTER: {
        "animation.channel.target": obj(
            ANIMATION_POINTER, pointer=Prop("string", required=True, pattern=JSON_POINTER)
        )
    },
    "KHR_texture_transform": dict.fromkeys(TEXTURE_INFO_KINDS, _TEXTURE_TRANSFORM),
    "EXT_texture_webp": _IMAGE_SOURCE,
    "KHR_materials_pbrSpecularGlossiness": _material(
        "KHR_materials_pbrSpecularGlossiness",
        diffuseFactor=Prop("numbers", lengths=(4,), minimum=0, maximum=1),
        diffuseTexture=_texture(),
        specularFactor=Prop("numbers", lengths=(3,), minimum=0, maximum=1),
        glossinessFactor=_unit(),
        specularGlossinessTexture=_texture(),
    ),
    "KHR_materials_unlit": _material("KHR_materials_unlit"),
    "KHR_materials_emissive_strength": _material(
        "KHR_materials_emissive_strength", emissiveStrength=Prop("number", minimum=0)
    ),
    "KHR_materials_clearcoat": _material(
        "KHR_materials_clearcoat",
        clearcoatFactor=_unit(),
        clearcoatTexture=_texture(),
        clearcoatRoughnessFactor=_unit(),
        clearcoatRoughnessTexture=_texture(),
        clearcoatNormalTexture=Prop("object", schema=NORMAL_TEXTURE_INFO),
    ),
    "KHR_materials_sheen": _material(
        "KHR_materials_sheen",
        sheenColorFactor=Prop("numbers", lengths=(3,), minimum=0, maximum=1),
        sheenColorTexture=_texture(),
        sheenRoughnessFactor=_unit(),
        sheenRoughnessTexture=_texture(),
    ),
    "KHR_materials_specular": _material(
        "KHR_materials_specular",
        specularFactor=_unit(),
        specularTexture=_texture(),
        specularColorFactor=Prop("numbers", lengths=(3,), minimum=0),
        specularColorTexture=_texture(),
    ),
    "KHR_materials_transmission": _material(
        "KHR_materials_transmission", transmissionFactor=_unit(), transmissionTexture=_texture()
    ),
    "KHR_materials_volume": _material(
        "KHR_materials_volume",
        attenuationColor=Prop("numbers", lengths=(3,), minimum=0, maximum=1),
        attenuationDistance=Prop("number", exclusive_minimum=0),
        thicknessFactor=Prop("number", minimum=0),
        thicknessTexture=_texture(),
    ),
    "KHR_materials_ior": _material(
        "KHR_materials_ior", ior=Prop("number", minimum=1, standalone=0)
    ),
    "KHR_materials_dispersion": _material(
        "KHR_materials_dispersion", dispersion=Prop("number", minimum=0)
    ),
    "KHR_materials_iridescence": _material(
        "KHR_materials_iridescence",
        iridescenceFactor=_unit(),
        iridescenceTexture=_texture(),
        iridescenceIor=Prop("number", minimum=1),
        iridescenceThicknessMinimum=Prop("number", minimum=0),
        iridescenceThicknessMaximum=Prop("number", minimum=0),
        iridescenceThicknessTexture=_texture(),
    ),
    "KHR_materials_anisotropy": _material(
        "KHR_materials_anisotropy",
        anisotropyStrength=_unit(),
        anisotropyRotation=Prop("number"),
        anisotropyTexture=_texture(),
    ),
    # Extensions Khronos glTF-Validator 2.0.0-dev.3.10 does not validate.
    "KHR_texture_basisu": _IMAGE_SOURCE,
    "EXT_meshopt_compression": _meshopt("EXT_meshopt_compression", ()),
    # Its ratified successor: the COLOR filter added (AssetCheck decodes both, with one rule set).
    "KHR_meshopt_compression": _meshopt("KHR_meshopt_compression", ("COLOR",)),
    "KHR_draco_mesh_compression": {
        "mesh.primitive": obj(
            "KHR_draco_mesh_compression",
            bufferView=Prop("index", required=True),
            attributes=Prop("index_map", required=True),
        )
    },
}

UNVALIDATED_BY_KHRONOS = frozenset(
    {
        "KHR_texture_basisu",
        "EXT_meshopt_compression",
        "KHR_meshopt_compression",
        "KHR_draco_mesh_compression",
    }
)
