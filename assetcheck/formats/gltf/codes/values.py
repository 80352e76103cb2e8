"""Issue types found in accessor and image data, with Khronos glTF-Validator's codes.

Khronos reports each bad element on its own; AssetCheck reports each bad accessor use once,
with how many elements are wrong and the first of them (``first``, an element index), so a mesh
with a million bad normals makes one readable finding instead of a million.
"""

from assetcheck.issues import IssueArea

_REEXPORT = "Export the model again; if the problem stays, fix it in the modelling tool."
_BOUNDS = "Recompute the accessor's min and max from its data (most exporters do this)."


declare = IssueArea("gltf", fix=_REEXPORT).declare


ISSUE_TYPES = [
    declare(
        "ACCESSOR_MIN_MISMATCH",
        "error",
        "Declared minimum {declared} of this component does not match the actual minimum {actual}.",
        _BOUNDS,
        title="Stored minimum does not match the data",
    ),
    declare(
        "ACCESSOR_MAX_MISMATCH",
        "error",
        "Declared maximum {declared} of this component does not match the actual maximum {actual}.",
        _BOUNDS,
        title="Stored maximum does not match the data",
    ),
    declare(
        "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND",
        "error",
        "{count} element(s) are less than the declared minimum {declared}.",
        _BOUNDS,
        title="Data below its stored minimum",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND",
        "error",
        "{count} element(s) are greater than the declared maximum {declared}.",
        _BOUNDS,
        title="Data above its stored maximum",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_INVALID_FLOAT",
        "error",
        "{count} value(s) are NaN or infinite; the first at index {first} is {value}.",
        title="Broken numbers (NaN or infinite)",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_SPARSE_INDICES_NON_INCREASING",
        "error",
        "{count} sparse indices are not greater than the previous one; the first at index {first}.",
        title="Sparse data out of order",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_SPARSE_INDEX_OOB",
        "error",
        "{count} sparse indices are not less than the accessor's count ({limit}); the first "
        "at index {first}.",
        title="Sparse data points past the end",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_INDEX_OOB",
        "error",
        "{count} index value(s) exceed the last vertex index ({limit}); the first at index "
        "{first} is {value}.",
        title="Triangles point to vertices that do not exist",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_INDEX_PRIMITIVE_RESTART",
        "error",
        "{count} index value(s) are the primitive restart value {value}; the first at index "
        "{first}.",
        title="Forbidden restart value in triangle indices",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_INDEX_TRIANGLE_DEGENERATE",
        "info",
        "{count} of {total} triangles are degenerate (two corners share a vertex).",
        "Remove the degenerate triangles (most tools can merge or clean them).",
        title="Collapsed triangles",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "ACCESSOR_VECTOR3_NON_UNIT",
        "error",
        "{count} vector(s) are not of unit length; the first at element {first} has length "
        "{length}.",
        "Normalise the normals and tangents before export.",
        title="Broken normals or tangents",
        count_phrase="on {count:,} {count:vertex|vertices}",
    ),
    declare(
        "ACCESSOR_INVALID_SIGN",
        "error",
        "{count} tangent(s) have a w component other than 1.0 or -1.0; the first at element "
        "{first} is {value}.",
        "Export the tangents again with their handedness in w.",
        title="Broken tangent handedness",
        count_phrase="on {count:,} {count:vertex|vertices}",
    ),
    declare(
        "ACCESSOR_NON_CLAMPED",
        "error",
        "{count} color value(s) are outside 0..1; the first at index {first} is {value}.",
        "Clamp the vertex colours to 0..1.",
        title="Colour values outside 0 to 1",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
        "error",
        "{count} keyframe time(s) are negative; the first at index {first} is {value}.",
        title="Keyframes before time zero",
        count_phrase="({count:,})",
    ),
    declare(
        "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
        "error",
        "{count} keyframe time(s) are not greater than the previous one; the first at index "
        "{first}.",
        title="Keyframes out of order",
        count_phrase="({count:,})",
    ),
    declare(
        "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
        "error",
        "{count} rotation(s) are not unit quaternions; the first at element {first} has "
        "length {length}.",
        "Normalise the rotation keyframes.",
        title="Broken rotation keyframes",
        count_phrase="({count:,})",
    ),
    declare(
        "ACCESSOR_INVALID_IBM",
        "error",
        "{count} inverse bind matrices have a last row other than (0, 0, 0, 1); the first at "
        "element {first}.",
        title="Broken bind pose matrices",
        count_phrase="({count:,})",
    ),
    declare(
        "ACCESSOR_JOINTS_INDEX_OOB",
        "error",
        "{count} joint index value(s) exceed the last joint ({limit}) of skin {skin}; the "
        "first at vertex {first} is {value}.",
        "The vertices are weighted to bones the skin does not list: bind the mesh to the "
        "armature again (or add the missing bones to it) and export again.",
        title="Vertices weighted to bones that do not exist",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_JOINTS_INDEX_DUPLICATE",
        "error",
        "{count} vertices use the same joint twice; the first is vertex {first}.",
        title="Same bone weighted twice",
        count_phrase="on {count:,} {count:vertex|vertices}",
    ),
    declare(
        "ACCESSOR_JOINTS_USED_ZERO_WEIGHT",
        "warning",
        "{count} joint index value(s) are non-zero with a zero weight; the first at vertex "
        "{first}.",
        "Set the joint index of unused influences to 0.",
        title="Bone influences with zero weight",
        count_phrase="in {count:,} {count:place|places}",
    ),
    declare(
        "ACCESSOR_WEIGHTS_NEGATIVE",
        "error",
        "{count} weight(s) are negative; the first at vertex {first}.",
        "Clean and normalise the weights in the modelling tool (Blender: Weights > Clean, "
        "then Normalize All; Maya: Skin > Prune Small Weights, then Normalize Weights).",
        title="Negative skin weights",
        count_phrase="({count:,})",
    ),
    declare(
        "ACCESSOR_WEIGHTS_NON_NORMALIZED",
        "error",
        "{count} vertices have weights that do not sum to 1; the first is vertex {first} "
        "(sum {sum}).",
        "Normalise the skin weights of every vertex (Blender: Weights > Normalize All; Maya: "
        "Skin > Normalize Weights); with 8- or 16-bit weights, round so that each vertex's "
        "values add up to exactly 255 or 65535.",
        title="Skin weights that do not add up to 1",
        count_phrase="on {count:,} {count:vertex|vertices}",
    ),
    declare(
        "IMAGE_MIME_TYPE_INVALID",
        "error",
        "The image data is {actual} but the image declares {declared}.",
        "Set mimeType to the image's real format, or convert the image.",
        title="Image is not the type it claims",
    ),
    declare(
        "IMAGE_UNRECOGNIZED_FORMAT",
        "warning",
        "The image data is not in a recognised format.",
        "Use PNG or JPEG (or KTX2/WebP with their extension).",
        title="Unknown image format",
    ),
    declare(
        "IMAGE_NON_ENABLED_MIME_TYPE",
        "error",
        "{mime_type} images need the {extension} extension, which extensionsUsed does not list.",
        "Convert the image to PNG or JPEG, or list {extension} in extensionsUsed.",
        title="Image format needs an undeclared extension",
    ),
    declare(
        "IMAGE_UNEXPECTED_EOS",
        "error",
        "The image data ends before its headers do.",
        "The image is truncated: export or copy it again.",
        title="Image file cut short",
    ),
    declare(
        "IMAGE_DATA_INVALID",
        "error",
        "The image data is malformed: {reason}",
        "Re-export the image with a standard encoder.",
        title="Broken image",
    ),
    declare(
        "IMAGE_FEATURES_UNSUPPORTED",
        "warning",
        "The image uses features glTF viewers ignore: colour space information other than "
        "sRGB or linear, non-square pixels, or animation.",
        "Save the image as plain sRGB (or linear) with square pixels and a single frame.",
        title="Image features viewers ignore",
    ),
    declare(
        "IMAGE_NPOT_DIMENSIONS",
        "info",
        "The image is {width}x{height}: not a power of two on each side.",
        "Resize to powers of two if the asset targets platforms that need them for mipmaps.",
        title="Texture size not a power of two",
    ),
]
