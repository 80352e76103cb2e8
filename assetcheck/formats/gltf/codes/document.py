"""Issue types of glTF documents (JSON and GLB alike).

Codes shared with Khronos glTF-Validator keep its names and default severities; the ``GLTF_*``
codes are AssetCheck's security findings (``docs/security.md``, glTF and GLB), and
``EXTENSION_SCHEMA_MISMATCH`` is AssetCheck's advice on extensions Khronos does not validate.
Issues about the
JSON carry a JSON Pointer (``/meshes/0/primitives/1``) to the property they are about.
"""

from assetcheck.issues import IssueArea

declare = IssueArea("gltf").declare

_FIX_SCHEMA = (
    "Fix the property in the glTF JSON, or export the model again with an up-to-date glTF exporter."
)

ISSUE_TYPES = [
    declare(
        "INVALID_JSON",
        "error",
        "The glTF JSON is not valid: {reason}.",
        "Save the glTF as UTF-8 JSON without a byte order mark, or export it again.",
    ),
    declare(
        "TYPE_MISMATCH",
        "error",
        "{value} is not {expected}.",
        _FIX_SCHEMA,
    ),
    declare(
        "ARRAY_TYPE_MISMATCH",
        "error",
        "Element {value} of this array is not {expected}, so the array is ignored.",
        _FIX_SCHEMA,
    ),
    declare(
        "UNDEFINED_PROPERTY",
        "error",
        "Property '{name}' must be defined.",
        _FIX_SCHEMA,
    ),
    declare(
        "INVALID_INDEX",
        "error",
        "{value} is not a valid index: indices are non-negative integers.",
        _FIX_SCHEMA,
    ),
    declare(
        "VALUE_NOT_IN_RANGE",
        "error",
        "Value {value} is out of range.",
        _FIX_SCHEMA,
    ),
    declare(
        "PATTERN_MISMATCH",
        "error",
        "Value '{value}' does not match the pattern '{pattern}'.",
        _FIX_SCHEMA,
    ),
    declare(
        "UNRESOLVED_REFERENCE",
        "error",
        "Index {index} refers to no element of '{collection}'.",
        "Point the reference at an existing element, or remove it.",
    ),
    declare(
        "UNKNOWN_ASSET_MAJOR_VERSION",
        "error",
        "glTF version {version} is not supported: only glTF 2.x is read, so no statistics were "
        "computed.",
        "Convert the model to glTF 2.0 (for example with Blender or the Khronos glTF 1.0 to 2.0 "
        "converter) and upload it again.",
    ),
    declare(
        "UNKNOWN_ASSET_MINOR_VERSION",
        "warning",
        "glTF minor version {version} is newer than this validator knows; it was read as 2.0.",
        "Export as glTF 2.0 if your engine does not support the newer version.",
    ),
    declare(
        "IO_ERROR",
        "error",
        "The resource '{uri}' could not be loaded: {reason}.",
        "Upload the file together with the resources it refers to (for example as a ZIP), "
        "or embed them by exporting as GLB.",
    ),
    declare(
        "INVALID_URI",
        "error",
        "The URI '{uri}' is not valid: {reason}.",
        "Use a relative path inside the asset's folder or a well-formed base64 data: URI.",
    ),
    declare(
        "BUFFER_DATA_URI_MIME_TYPE_INVALID",
        "error",
        "A buffer's data: URI has media type '{mime_type}'; it must be "
        "'application/octet-stream' or 'application/gltf-buffer'.",
        "Set the buffer's data: URI media type to application/octet-stream.",
    ),
    declare(
        "BUFFER_BYTE_LENGTH_MISMATCH",
        "error",
        "The buffer holds {actual} bytes, less than its declared byteLength ({declared}).",
        "Correct the buffer's byteLength, or supply the complete .bin file.",
    ),
    declare(
        "BUFFER_GLB_CHUNK_TOO_BIG",
        "warning",
        "The GLB BIN chunk holds {extra} bytes more than buffer 0 declares (padding is at most 3).",
        "Make buffer 0's byteLength match the BIN chunk, or remove the unused bytes.",
    ),
    declare(
        "BUFFER_MISSING_GLB_DATA",
        "error",
        "Buffer 0 has no URI, so its data should be the GLB BIN chunk, but the file has none.",
        _FIX_SCHEMA,
    ),
    declare(
        "BUFFER_VIEW_TOO_LONG",
        "error",
        "The buffer view does not fit in buffer {buffer} (byteLength {byte_length}).",
        _FIX_SCHEMA,
    ),
    declare(
        "ACCESSOR_TOO_LONG",
        "error",
        "The accessor (offset {byte_offset}, length {length}) does not fit in buffer view "
        "{buffer_view} (length {view_length}).",
        _FIX_SCHEMA,
    ),
    declare(
        "UNEXPECTED_PROPERTY",
        "warning",
        "Property '{name}' is not defined for this object by the glTF 2.0 schema.",
        "Remove the property, or move application data into 'extras'.",
    ),
    declare(
        "VALUE_NOT_IN_LIST",
        "warning",
        "Value {value} is not one of the allowed values ({allowed}).",
        _FIX_SCHEMA,
    ),
    declare(
        "EMPTY_ENTITY",
        "error",
        "This array or object must not be empty.",
        "Remove the empty property, or give it at least one element.",
    ),
    declare(
        "DUPLICATE_ELEMENTS",
        "error",
        "Element {value} appears more than once in this array.",
        "Remove the repeated element.",
    ),
    declare(
        "ARRAY_LENGTH_NOT_IN_LIST",
        "error",
        "The array has {length} elements; it must have {allowed}.",
        _FIX_SCHEMA,
    ),
    declare(
        "UNSATISFIED_DEPENDENCY",
        "error",
        "'{name}' is defined, so '{dependency}' must be defined too.",
        _FIX_SCHEMA,
    ),
    declare(
        "ONE_OF_MISMATCH",
        "error",
        "Exactly one of {names} must be defined.",
        _FIX_SCHEMA,
    ),
    declare(
        "VALUE_MULTIPLE_OF",
        "error",
        "Value {value} is not a multiple of {divisor}.",
        _FIX_SCHEMA,
    ),
    declare(
        "EXTENSION_SCHEMA_MISMATCH",
        "warning",
        "This {extension} property breaks the extension's JSON schema ({rule}). Khronos "
        "glTF-Validator does not check this extension; loaders that decode it may reject the "
        "asset.",
        "Fix the extension object, or export the model again with an up-to-date exporter.",
    ),
    declare(
        "NON_OBJECT_EXTRAS",
        "info",
        "'extras' is {value}; glTF recommends a JSON object there.",
        "Wrap the application data in a JSON object.",
    ),
    declare(
        "INVALID_GL_VALUE",
        "error",
        "Value {value} does not fit the component type {component_type}.",
        "Store minimum and maximum values in the accessor's own component type.",
    ),
    declare(
        "ASSET_MIN_VERSION_GREATER_THAN_VERSION",
        "error",
        "asset.minVersion '{min_version}' is greater than asset.version '{version}'.",
        "Set minVersion to a version no greater than the asset's version, or remove it.",
    ),
    declare(
        "URI_GLB",
        "info",
        "A buffer or image in a GLB refers to its data by URI instead of the binary chunk.",
        "Embed the data in the GLB binary chunk so the asset is one self-contained file.",
    ),
    declare(
        "DATA_URI_GLB",
        "warning",
        "A data: URI is used inside a GLB, where the binary chunk would hold the bytes "
        "without base64 overhead.",
        "Store the data in the GLB binary chunk instead.",
    ),
    declare(
        "GLTF_EXTERNAL_URI",
        "error",
        "The URI '{uri}' points outside the upload (a scheme, a host or an absolute path); it "
        "was not fetched.",
        "Ship every buffer and image with the asset under a relative path, or embed them "
        "(GLB or data: URIs).",
        security_level="high",
    ),
    declare(
        "GLTF_PATH_TRAVERSAL",
        "error",
        "The URI '{uri}' climbs out of the asset's folder; it was not read.",
        "Refer to resources by paths inside the asset's own folder, without '..' above it.",
        security_level="critical",
    ),
    declare(
        "GLTF_DATA_URI_MISMATCH",
        "warning",
        "The data: URI declares '{declared}' but its content is {actual}.",
        "Embed the image with its real media type, or convert it to the declared format.",
        security_level="medium",
    ),
]

#: Codes that make a file invalid where Khronos glTF-Validator would call it valid, and why.
STRICTER_THAN_KHRONOS = {
    "GLTF_EXTERNAL_URI": "Khronos only warns about a non-relative URI (`NON_RELATIVE_URI`) and "
    "loads it. AssetCheck validates uploads from strangers on a server: it "
    "never fetches a URI with a scheme, a host or an absolute path, so the "
    "asset is incomplete as uploaded, and the URI is a security finding.",
    "GLTF_PATH_TRAVERSAL": "Khronos reads a relative URI that climbs above the asset's folder "
    "(`../x.bin`) if the file is there. AssetCheck never reads outside "
    "the upload, so the resource is missing and the URI is a security "
    "finding.",
    "KTX2_*": "Khronos reads a KTX2 image's header and level index only, and does not check "
    "the rules of `KHR_texture_basisu`. AssetCheck parses the whole KTX2 structure "
    "(descriptor, key/value data, supercompression data, level lengths) and holds "
    "the image to the extension's MUSTs, because a file that breaks them fails or "
    "shows garbage in the engine (`KTX2_MIPMAPS_INCOMPLETE`, a SHOULD, is a "
    "warning).",
}
