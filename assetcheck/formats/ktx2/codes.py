"""Issue types of KTX2 images (``image/ktx2``, used through ``KHR_texture_basisu``): the
structure of the file against the KTX 2.0 specification, read without transcoding, and the
rules the glTF extension adds. Each is reported at the image (``/images/<i>``)."""

from assetcheck.issues import IssueArea

_REENCODE = (
    "Encode the texture again with a current KTX2 writer (KTX-Software's ktx create "
    "or toktx, gltf-transform etc1s/uastc); if it stays, report it to the tool that "
    "wrote it."
)
_RECOPY = "The file is damaged or cut short: export or copy the texture again."
_BASISU = (
    "Encode the texture for glTF with gltf-transform etc1s or uastc, or with KTX-Software "
    "(ktx create --encode basis-lz or uastc)."
)

declare = IssueArea("ktx2", fix=_REENCODE).declare


ISSUE_TYPES = [
    # The file's structure.
    declare(
        "KTX2_IDENTIFIER_INVALID",
        "error",
        "The image starts like a KTX file but its identifier is not KTX2's ({found}): a "
        "KTX 1 file, or line endings changed by a text-mode transfer.",
        "Convert KTX 1 textures to KTX2 (ktx create), or copy the file again in binary mode.",
        title="Not a KTX2 image",
    ),
    declare(
        "KTX2_HEADER_TRUNCATED",
        "error",
        "The KTX2 file is {size} bytes long, shorter than its header and level index "
        "({needed} bytes).",
        _RECOPY,
        title="KTX2 image cut short",
    ),
    declare(
        "KTX2_HEADER_INVALID",
        "error",
        "The KTX2 header is invalid: {reason}.",
        title="Broken KTX2 image header",
    ),
    declare(
        "KTX2_TEXTURE_TYPE_INVALID",
        "error",
        "The KTX2 sizes, layers and faces describe no texture type: {reason}.",
        title="KTX2 image of no known texture type",
    ),
    declare(
        "KTX2_DIMENSION_TOO_LARGE",
        "error",
        "The KTX2 texture claims {width}x{height}x{depth} texels, more than the {limit} "
        "per side any GPU accepts.",
        "Resize the texture to at most {limit} per side (4096 is plenty for most assets) "
        "and encode it again.",
        title="KTX2 image too large for any GPU",
    ),
    declare(
        "KTX2_LEVEL_COUNT_INVALID",
        "error",
        "The KTX2 mip level count is invalid: {reason}.",
        title="Wrong number of mipmap levels in a KTX2 image",
    ),
    declare(
        "KTX2_DFD_INVALID",
        "error",
        "The KTX2 data format descriptor is invalid: {reason}.",
        title="Broken format description in a KTX2 image",
    ),
    declare(
        "KTX2_DATA_OUT_OF_FILE",
        "error",
        "The KTX2 index puts {section} at bytes {start:,} to {end:,}, past the end of the "
        "file ({size:,} bytes): the file is truncated or its index lies.",
        _RECOPY,
        title="KTX2 image data past the end of the file",
    ),
    declare(
        "KTX2_SECTIONS_OVERLAP",
        "error",
        "In the KTX2 file, {first} and {second} overlap.",
        title="Overlapping data in a KTX2 image",
    ),
    declare(
        "KTX2_SECTION_ORDER_INVALID",
        "error",
        "The KTX2 sections are out of order: {reason}.",
        title="KTX2 image data out of order",
    ),
    declare(
        "KTX2_ALIGNMENT_INVALID",
        "error",
        "In the KTX2 file, {section} starts at byte {start:,}, not on a multiple of {alignment}.",
        title="Misaligned data in a KTX2 image",
    ),
    declare(
        "KTX2_LEVEL_LENGTH_INVALID",
        "error",
        "KTX2 mip level {level} has an invalid length: {reason}.",
        title="Broken mipmap level in a KTX2 image",
    ),
    declare(
        "KTX2_KEY_VALUE_DATA_INVALID",
        "error",
        "The KTX2 key/value data is invalid: {reason}.",
        title="Broken metadata in a KTX2 image",
    ),
    declare(
        "KTX2_GLOBAL_DATA_INVALID",
        "error",
        "The KTX2 supercompression global data is invalid: {reason}.",
        title="Broken compression tables in a KTX2 image",
    ),
    declare(
        "KTX2_ZSTD_DATA_INVALID",
        "error",
        "KTX2 mip level {level} is not valid Zstandard data: {reason}.",
        _RECOPY,
        title="Broken Zstandard data in a KTX2 image",
    ),
    # KHR_texture_basisu.
    declare(
        "KTX2_BASISU_FORMAT_INVALID",
        "error",
        "The KTX2 image is not in a format KHR_texture_basisu allows: {reason}.",
        _BASISU,
        title="KTX2 image not in Basis Universal format",
    ),
    declare(
        "KTX2_BASISU_NOT_2D",
        "error",
        "The KTX2 image is {kind}; KHR_texture_basisu textures must be 2D.",
        "Export each face, layer or slice as its own 2D texture and encode it again.",
        title="Basis Universal texture that is not 2D",
    ),
    declare(
        "KTX2_BASISU_DIMENSIONS",
        "error",
        "The KTX2 image is {width}x{height}; KHR_texture_basisu needs both sides to be "
        "multiples of 4.",
        "Resize the texture to multiples of 4 (powers of two work best) and encode it again.",
        title="Basis Universal texture size not a multiple of 4",
    ),
    declare(
        "KTX2_BASISU_METADATA",
        "error",
        "The KTX2 image's {key} is {value}; KHR_texture_basisu allows only {default}.",
        "Bake the swizzle or orientation into the pixels and encode the texture again without it.",
        title="Basis Universal texture with settings it does not allow",
    ),
    declare(
        "KTX2_BASISU_COLOR_SPACE",
        "error",
        "The KTX2 image is shown by {usage}, which needs the {expected} transfer function, "
        "but its data format descriptor gives {transfer}: the engine will decode it wrongly.",
        "Encode colour textures (base colour, emissive) as sRGB and data textures (normal, "
        "occlusion, metallic-roughness) as linear: gltf-transform picks this by slot; with "
        "toktx use --assign_oetf srgb or linear.",
        title="Texture in the wrong colour space",
    ),
    declare(
        "KTX2_MIPMAPS_INCOMPLETE",
        "warning",
        "The KTX2 image has {levels} of its {full} mip levels, but a texture samples it "
        "with mipmaps: engines must decode it and build the rest at load time, or cannot.",
        "Encode the texture with all mip levels (gltf-transform does by default; toktx "
        "--genmipmap), or use a sampler without mipmap filtering.",
        title="Missing mipmaps in a KTX2 texture",
    ),
]
