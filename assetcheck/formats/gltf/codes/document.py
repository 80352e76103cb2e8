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
        title="Broken glTF file (invalid JSON)",
    ),
    declare(
        "TYPE_MISMATCH",
        "error",
        "{value} is not {expected}.",
        _FIX_SCHEMA,
        title="Wrong kind of value in the glTF",
    ),
    declare(
        "ARRAY_TYPE_MISMATCH",
        "error",
        "Element {value} of this array is not {expected}, so the array is ignored.",
        _FIX_SCHEMA,
        title="Wrong kind of value in a glTF list",
    ),
    declare(
        "UNDEFINED_PROPERTY",
        "error",
        "Property '{name}' must be defined.",
        _FIX_SCHEMA,
        title="Required glTF property missing",
    ),
    declare(
        "INVALID_INDEX",
        "error",
        "{value} is not a valid index: indices are non-negative integers.",
        _FIX_SCHEMA,
        title="Invalid reference number in the glTF",
    ),
    declare(
        "VALUE_NOT_IN_RANGE",
        "error",
        "Value {value} is out of range.",
        _FIX_SCHEMA,
        title="Value out of range",
    ),
    declare(
        "PATTERN_MISMATCH",
        "error",
        "Value '{value}' does not match the pattern '{pattern}'.",
        _FIX_SCHEMA,
        title="Text value in the wrong form",
    ),
    declare(
        "UNRESOLVED_REFERENCE",
        "error",
        "Index {index} refers to no element of '{collection}'.",
        "Point the reference at an existing element, or remove it.",
        title="Reference to something that does not exist",
    ),
    declare(
        "UNKNOWN_ASSET_MAJOR_VERSION",
        "error",
        "glTF version {version} is not supported: only glTF 2.x is read, so no statistics were "
        "computed.",
        "Convert the model to glTF 2.0 (for example with Blender or the Khronos glTF 1.0 to 2.0 "
        "converter) and upload it again.",
        title="Unsupported glTF version",
    ),
    declare(
        "UNKNOWN_ASSET_MINOR_VERSION",
        "warning",
        "glTF minor version {version} is newer than this validator knows; it was read as 2.0.",
        "Export as glTF 2.0 if your engine does not support the newer version.",
        title="Newer glTF version than AssetCheck knows",
    ),
    declare(
        "IO_ERROR",
        "error",
        "The resource '{uri}' could not be loaded: {reason}.",
        "Upload the file together with the resources it refers to (for example as a ZIP), "
        "or embed them by exporting as GLB.",
        title="Linked file could not be loaded",
    ),
    declare(
        "INVALID_URI",
        "error",
        "The URI '{uri}' is not valid: {reason}.",
        "Use a relative path inside the asset's folder or a well-formed base64 data: URI.",
        title="Invalid file link",
    ),
    declare(
        "BUFFER_DATA_URI_MIME_TYPE_INVALID",
        "error",
        "A buffer's data: URI has media type '{mime_type}'; it must be "
        "'application/octet-stream' or 'application/gltf-buffer'.",
        "Set the buffer's data: URI media type to application/octet-stream.",
        title="Embedded geometry data has the wrong type",
    ),
    declare(
        "BUFFER_BYTE_LENGTH_MISMATCH",
        "error",
        "The buffer holds {actual} bytes, less than its declared byteLength ({declared}).",
        "Correct the buffer's byteLength, or supply the complete .bin file.",
        title="Geometry data file too short",
    ),
    declare(
        "BUFFER_GLB_CHUNK_TOO_BIG",
        "warning",
        "The GLB BIN chunk holds {extra} bytes more than buffer 0 declares (padding is at most 3).",
        "Make buffer 0's byteLength match the BIN chunk, or remove the unused bytes.",
        title="Extra bytes in the GLB's binary data",
    ),
    declare(
        "BUFFER_MISSING_GLB_DATA",
        "error",
        "Buffer 0 has no URI, so its data should be the GLB BIN chunk, but the file has none.",
        _FIX_SCHEMA,
        title="Geometry data missing from the GLB",
    ),
    declare(
        "BUFFER_VIEW_TOO_LONG",
        "error",
        "The buffer view does not fit in buffer {buffer} (byteLength {byte_length}).",
        _FIX_SCHEMA,
        title="Data block runs past the end of its buffer",
    ),
    declare(
        "ACCESSOR_TOO_LONG",
        "error",
        "The accessor (offset {byte_offset}, length {length}) does not fit in buffer view "
        "{buffer_view} (length {view_length}).",
        _FIX_SCHEMA,
        title="Data runs past the end of its block",
    ),
    declare(
        "UNEXPECTED_PROPERTY",
        "warning",
        "Property '{name}' is not defined for this object by the glTF 2.0 schema.",
        "Remove the property, or move application data into 'extras'.",
        title="Unknown glTF property",
    ),
    declare(
        "VALUE_NOT_IN_LIST",
        "warning",
        "Value {value} is not one of the allowed values ({allowed}).",
        _FIX_SCHEMA,
        title="Value not one of the allowed ones",
    ),
    declare(
        "EMPTY_ENTITY",
        "error",
        "This array or object must not be empty.",
        "Remove the empty property, or give it at least one element.",
        title="Empty list or object in the glTF",
    ),
    declare(
        "DUPLICATE_ELEMENTS",
        "error",
        "Element {value} appears more than once in this array.",
        "Remove the repeated element.",
        title="Repeated entry in a glTF list",
    ),
    declare(
        "ARRAY_LENGTH_NOT_IN_LIST",
        "error",
        "The array has {length} elements; it must have {allowed}.",
        _FIX_SCHEMA,
        title="List of the wrong length",
    ),
    declare(
        "UNSATISFIED_DEPENDENCY",
        "error",
        "'{name}' is defined, so '{dependency}' must be defined too.",
        _FIX_SCHEMA,
        title="Property missing its companion",
    ),
    declare(
        "ONE_OF_MISMATCH",
        "error",
        "Exactly one of {names} must be defined.",
        _FIX_SCHEMA,
        title="Conflicting or missing glTF properties",
    ),
    declare(
        "VALUE_MULTIPLE_OF",
        "error",
        "Value {value} is not a multiple of {divisor}.",
        _FIX_SCHEMA,
        title="Value not a required multiple",
    ),
    declare(
        "EXTENSION_SCHEMA_MISMATCH",
        "warning",
        "This {extension} property breaks the extension's JSON schema ({rule}). Khronos "
        "glTF-Validator does not check this extension; loaders that decode it may reject the "
        "asset.",
        "Fix the extension object, or export the model again with an up-to-date exporter.",
        title="Extension data in the wrong form",
    ),
    declare(
        "NON_OBJECT_EXTRAS",
        "info",
        "'extras' is {value}; glTF recommends a JSON object there.",
        "Wrap the application data in a JSON object.",
        title="Custom data (extras) is not an object",
    ),
    declare(
        "INVALID_GL_VALUE",
        "error",
        "Value {value} does not fit the component type {component_type}.",
        "Store minimum and maximum values in the accessor's own component type.",
        title="Value too large for its number type",
    ),
    declare(
        "ASSET_MIN_VERSION_GREATER_THAN_VERSION",
        "error",
        "asset.minVersion '{min_version}' is greater than asset.version '{version}'.",
        "Set minVersion to a version no greater than the asset's version, or remove it.",
        title="Minimum glTF version above the file's version",
    ),
    declare(
        "URI_GLB",
        "info",
        "A buffer or image in a GLB refers to its data by URI instead of the binary chunk.",
        "Embed the data in the GLB binary chunk so the asset is one self-contained file.",
        title="GLB links to data outside itself",
    ),
    declare(
        "DATA_URI_GLB",
        "warning",
        "A data: URI is used inside a GLB, where the binary chunk would hold the bytes "
        "without base64 overhead.",
        "Store the data in the GLB binary chunk instead.",
        title="Text-encoded data inside a GLB",
    ),
    declare(
        "GLTF_EXTERNAL_URI",
        "error",
        "The URI '{uri}' points outside the upload (a scheme, a host or an absolute path); it "
        "was not fetched.",
        "Ship every buffer and image with the asset under a relative path, or embed them "
        "(GLB or data: URIs).",
        security_level="high",
        title="Link to a file outside the upload",
    ),
    declare(
        "GLTF_PATH_TRAVERSAL",
        "error",
        "The URI '{uri}' climbs out of the asset's folder; it was not read.",
        "Refer to resources by paths inside the asset's own folder, without '..' above it.",
        security_level="critical",
        title="Link climbs out of the model's folder",
    ),
    declare(
        "GLTF_DATA_URI_MISMATCH",
        "warning",
        "The data: URI declares '{declared}' but its content is {actual}.",
        "Embed the image with its real media type, or convert it to the declared format.",
        security_level="medium",
        title="Embedded data is not the type it claims",
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
