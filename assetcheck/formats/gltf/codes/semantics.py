"""Issue types of glTF objects' meaning and links: layouts, meshes, nodes, skins, animations...

Each keeps the code and default severity of the Khronos glTF-Validator issue of the same meaning
(its SemanticError and LinkError groups). Data errors found in accessor contents are in
:mod:`assetcheck.formats.gltf.codes.values`.
"""

from assetcheck.issues import IssueArea

_EXPORT = "Export the model again with an up-to-date glTF exporter, or fix the glTF JSON."
_LAYOUT = (
    "Lay the data out again so every accessor starts on a multiple of its component "
    "size; re-exporting usually does this."
)


declare = IssueArea("gltf", fix=_EXPORT).declare


ISSUE_TYPES = [
    # Buffer views and accessor layouts.
    declare(
        "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE",
        "error",
        "byteStride ({stride}) is greater than byteLength ({length}).",
    ),
    declare(
        "BUFFER_VIEW_INVALID_BYTE_STRIDE",
        "error",
        "Only buffer views with vertex data can have a byteStride.",
    ),
    declare(
        "BUFFER_VIEW_TARGET_OVERRIDE",
        "error",
        "The buffer view is used as {first} and also as {second}.",
        "Give each kind of data (vertices, indices, images...) its own buffer view.",
    ),
    declare(
        "BUFFER_VIEW_TARGET_MISSING",
        "hint",
        "bufferView.target should be set for vertex or index data ({usage}).",
        "Set target to 34962 (vertices) or 34963 (indices).",
    ),
    declare(
        "ACCESSOR_USAGE_OVERRIDE",
        "error",
        "The accessor is used as {first} and also as {second}.",
        "Give each use (vertex attribute, indices, animation data...) its own accessor.",
    ),
    declare(
        "ACCESSOR_SMALL_BYTESTRIDE",
        "error",
        "The buffer view's byteStride ({stride}) is less than the accessor's element length "
        "({length}).",
    ),
    declare(
        "ACCESSOR_OFFSET_ALIGNMENT",
        "error",
        "Offset {byte_offset} is not a multiple of the component size {size}.",
        _LAYOUT,
    ),
    declare(
        "ACCESSOR_TOTAL_OFFSET_ALIGNMENT",
        "error",
        "The accessor's total byte offset {byte_offset} is not a multiple of the component "
        "size {size}.",
        _LAYOUT,
    ),
    declare(
        "ACCESSOR_MATRIX_ALIGNMENT",
        "error",
        "Matrix accessors must start on a 4-byte boundary.",
        _LAYOUT,
    ),
    declare(
        "ACCESSOR_NORMALIZED_INVALID", "error", "Only byte and short accessors can be normalized."
    ),
    declare(
        "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE",
        "error",
        "The sparse accessor replaces more elements ({sparse}) than the accessor has ({count}).",
    ),
    # Meshes.
    declare(
        "MESH_PRIMITIVE_INVALID_ATTRIBUTE",
        "error",
        "'{semantic}' is not a valid attribute semantic.",
        "Use the glTF semantics (POSITION, NORMAL, TEXCOORD_n...) or prefix custom ones with _.",
    ),
    declare("MESH_PRIMITIVE_NO_POSITION", "warning", "The primitive has no POSITION attribute."),
    declare(
        "MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL",
        "warning",
        "The primitive has TANGENT but no NORMAL attribute.",
    ),
    declare(
        "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY",
        "error",
        "{semantic}_n attributes must start at 0 without gaps: {expected} expected, {found} found.",
    ),
    declare(
        "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
        "error",
        "The primitive has {joints} JOINTS_n but {weights} WEIGHTS_n attributes.",
    ),
    declare(
        "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
        "error",
        "The POSITION accessor must define min and max.",
        "Add the accessor's min and max (the bounding box of the positions).",
    ),
    declare(
        "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for this attribute (valid: {valid}).",
    ),
    declare(
        "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT",
        "error",
        "Vertex attributes cannot use the UNSIGNED_INT component type.",
    ),
    declare(
        "MESH_PRIMITIVE_ACCESSOR_UNALIGNED",
        "error",
        "Vertex attribute data must be aligned to 4-byte boundaries.",
        _LAYOUT,
    ),
    declare(
        "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT",
        "error",
        "All attribute accessors of a primitive must have the same count.",
    ),
    declare(
        "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE",
        "error",
        "Two or more vertex accessors share this buffer view, so it must define byteStride.",
    ),
    declare(
        "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "The indices' buffer view must not define byteStride.",
    ),
    declare(
        "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for indices (valid: {valid}).",
    ),
    declare(
        "MESH_PRIMITIVE_INCOMPATIBLE_MODE",
        "warning",
        "{count} vertices or indices do not fit drawing mode {mode}.",
    ),
    declare(
        "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
        "error",
        "The material's texture {texture} needs TEXCOORD_{texcoord}, which the primitive lacks.",
        "Add the texture coordinate set, or make the texture use one that exists.",
    ),
    declare(
        "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE",
        "warning",
        "The material needs tangents but the primitive has none: engines will generate "
        "them, perhaps differently.",
        "Export the mesh with tangents.",
    ),
    declare(
        "MESH_PRIMITIVE_NO_TANGENT_SPACE",
        "error",
        "The material needs tangents, the primitive has none and the material has no normal "
        "map to generate them from.",
        "Export the mesh with normals and tangents.",
    ),
    declare(
        "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR",
        "error",
        "The morph target has {semantic}, which the primitive itself does not define.",
    ),
    declare(
        "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT",
        "error",
        "The morph target accessor's count differs from the primitive attribute's.",
    ),
    declare(
        "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
        "error",
        "All primitives of a mesh must have the same number of morph targets.",
    ),
    declare(
        "MESH_INVALID_WEIGHTS_COUNT",
        "error",
        "The mesh has {weights} weights for {targets} morph targets.",
    ),
    declare(
        "UNUSED_MESH_TANGENT",
        "info",
        "Tangents are unused: the material has no normal texture.",
        "Drop the TANGENT attribute to save memory.",
    ),
    # Nodes and scenes.
    declare(
        "NODE_LOOP",
        "error",
        "The node is part of a node loop (it is its own ancestor).",
        "Fix the children arrays so the node hierarchy is a tree.",
    ),
    declare(
        "NODE_PARENT_OVERRIDE",
        "error",
        "Node {node} already has another parent.",
        "List each node as the child of one node only.",
    ),
    declare(
        "SCENE_NON_ROOT_NODE",
        "error",
        "Node {node} is not a root node, so it cannot be listed in a scene.",
        "List only root nodes in scene.nodes.",
    ),
    declare(
        "NODE_MATRIX_TRS", "error", "The node has both a matrix and translation/rotation/scale."
    ),
    declare(
        "NODE_MATRIX_DEFAULT",
        "info",
        "The node's matrix is the identity, the default.",
        "Remove the matrix.",
    ),
    declare(
        "NODE_MATRIX_NON_TRS",
        "error",
        "The node's matrix cannot be decomposed into translation, rotation and scale.",
    ),
    declare(
        "ROTATION_NON_UNIT",
        "error",
        "The rotation quaternion is not of unit length.",
        "Normalise the quaternion.",
    ),
    declare(
        "NODE_EMPTY",
        "info",
        "The node has no children, mesh, camera or joint role.",
        "Remove the node unless an application needs it.",
    ),
    declare(
        "NODE_SKINNED_MESH_WITHOUT_SKIN",
        "warning",
        "The node's mesh has joints and weights but the node has no skin.",
    ),
    declare(
        "NODE_SKIN_WITH_NON_SKINNED_MESH",
        "error",
        "The node has a skin but its mesh has no joints and weights.",
    ),
    declare(
        "NODE_WEIGHTS_INVALID",
        "error",
        "The node has {weights} weights for {targets} morph targets.",
    ),
    declare(
        "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
        "warning",
        "The node has a skinned mesh, so its own transform is ignored.",
    ),
    declare(
        "NODE_SKINNED_MESH_NON_ROOT",
        "warning",
        "The node with a skinned mesh is not a root node: parent transforms do not affect "
        "a skinned mesh.",
    ),
    declare(
        "NODE_SKIN_NO_SCENE",
        "error",
        "The node with a skinned mesh is in a scene that does not contain its joints.",
    ),
    # Skins.
    declare(
        "SKIN_NO_COMMON_ROOT",
        "error",
        "The skin's joints do not have a common root.",
        "Parent every bone of the skeleton under one root bone, then export again.",
    ),
    declare(
        "SKIN_SKELETON_INVALID", "error", "The skeleton node is not a common root of the joints."
    ),
    declare(
        "SKIN_IBM_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for inverse bind matrices (MAT4, FLOAT).",
    ),
    declare(
        "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "The inverse bind matrices' buffer view must not define byteStride.",
    ),
    declare(
        "INVALID_IBM_ACCESSOR_COUNT",
        "error",
        "The inverse bind matrices accessor has {count} elements for {joints} joints.",
    ),
    # Animations.
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_MATRIX",
        "error",
        "The channel animates translation, rotation or scale of a node that has a matrix.",
    ),
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
        "error",
        "The channel animates weights of a node whose mesh has no morph targets.",
    ),
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
        "warning",
        "Animated translation, rotation or scale does not affect a skinned mesh.",
    ),
    declare(
        "ANIMATION_DUPLICATE_TARGETS",
        "error",
        "The channel has the same target as channel {other}.",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for animation input (SCALAR, FLOAT).",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
        "error",
        "An animation input accessor must define min and max.",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
        "error",
        "A CUBICSPLINE sampler needs at least 2 keyframes; the input has {count}.",
    ),
    declare(
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for animating '{path}' (valid: {valid}).",
    ),
    declare(
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
        "error",
        "The animation output accessor should have {expected} elements; it has {count}.",
    ),
    declare(
        "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "Buffer views of animation sampler accessors must not define byteStride.",
    ),
    # Cameras and materials.
    declare("CAMERA_ZFAR_LEQUAL_ZNEAR", "error", "zfar must be greater than znear."),
    declare("CAMERA_XMAG_YMAG_ZERO", "error", "xmag and ymag must not be zero."),
    declare("CAMERA_XMAG_YMAG_NEGATIVE", "warning", "xmag and ymag should not be negative."),
    declare("CAMERA_YFOV_GEQUAL_PI", "warning", "yfov should be less than pi."),
    declare(
        "MATERIAL_ALPHA_CUTOFF_INVALID_MODE",
        "warning",
        "alphaCutoff only applies to the MASK alpha mode.",
        "Remove alphaCutoff.",
    ),
    declare(
        "MULTIPLE_EXTENSIONS",
        "warning",
        "This extension may be incompatible with the material's other extensions.",
        "Keep one shading-model extension (unlit or specular-glossiness) per material.",
    ),
    declare(
        "KHR_MATERIALS_VOLUME_NO_TRANSMISSION",
        "warning",
        "The volume extension needs an extension that lets light through the surface "
        "(KHR_materials_transmission).",
        "Add KHR_materials_transmission to the material, or remove the volume.",
    ),
    declare(
        "KHR_MATERIALS_VOLUME_DOUBLE_SIDED",
        "warning",
        "The volume extension should not be used with double-sided materials.",
        "Set doubleSided to false: a volume needs a closed, one-sided surface.",
    ),
    declare(
        "KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD",
        "warning",
        "The normal and anisotropy textures use different texture coordinates.",
        "Sample both textures with the same texCoord set: anisotropy directions are "
        "defined in the normal map's tangent space.",
    ),
    declare(
        "KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD",
        "warning",
        "The normal and clearcoat normal textures use different texture coordinates.",
        "Sample both normal maps with the same texCoord set.",
    ),
    declare(
        "KHR_MATERIALS_DISPERSION_NO_VOLUME",
        "warning",
        "The dispersion extension needs the volume extension (KHR_materials_volume) on "
        "the same material.",
        "Add KHR_materials_volume to the material, or remove the dispersion.",
    ),
    declare(
        "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR",
        "warning",
        "Emissive strength has no effect: the emissive factor is zero or undefined.",
        "Set the material's emissiveFactor, or remove KHR_materials_emissive_strength.",
    ),
    declare(
        "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE",
        "info",
        "iridescenceThicknessMinimum has no effect without an iridescence thickness texture.",
        "Remove iridescenceThicknessMinimum, or add iridescenceThicknessTexture.",
    ),
    declare(
        "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED",
        "info",
        "The iridescence thickness texture has no effect: the thickness minimum equals the "
        "maximum.",
        "Give the thickness a range, or remove iridescenceThicknessTexture.",
    ),
    declare(
        "TEXTURE_INVALID_IMAGE_MIME_TYPE",
        "error",
        "The texture's source image is {mime_type}; a texture source must be image/jpeg or "
        "image/png.",
        "Convert the image to PNG or JPEG, or move it to the extension that allows its "
        "format (EXT_texture_webp, KHR_texture_basisu) and give the texture a PNG or JPEG "
        "source as fallback.",
    ),
    # Images.
    declare(
        "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE",
        "error",
        "A buffer view holding image data must not define byteStride.",
    ),
    # Extensions.
    declare(
        "UNDECLARED_EXTENSION",
        "error",
        "Extension {name} is not listed in extensionsUsed.",
        "Add the extension to extensionsUsed.",
    ),
    declare(
        "UNUSED_EXTENSION_REQUIRED",
        "error",
        "Extension {name} is required but not listed in extensionsUsed.",
        "List the extension in extensionsUsed too, or remove it from extensionsRequired.",
    ),
    declare(
        "NON_REQUIRED_EXTENSION",
        "error",
        "Extension {name} must be listed in extensionsRequired.",
        "Add the extension to extensionsRequired.",
    ),
    declare(
        "INVALID_EXTENSION_NAME_FORMAT",
        "warning",
        "'{name}' is not a valid extension name (PREFIX_name).",
        "Rename the extension.",
    ),
    declare(
        "UNSUPPORTED_EXTENSION",
        "info",
        "Extension {name} is not validated: AssetCheck does not know it.",
        "Check the extension's data with a tool that supports it.",
    ),
    declare(
        "UNEXPECTED_EXTENSION_OBJECT",
        "error",
        "Extension {name} does not belong on this kind of object.",
    ),
    declare(
        "INCOMPLETE_EXTENSION_SUPPORT",
        "info",
        "Validation of extension {name} is incomplete; the asset may have issues that were "
        "not detected.",
        "Check the extension's data in the engines you target.",
    ),
    declare(
        "EXTRA_PROPERTY",
        "info",
        "Property '{name}' should not be defined: it is not used for this kind of light.",
        "Remove the property.",
    ),
    declare(
        "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES",
        "error",
        "outerConeAngle ({outer}) is less than or equal to innerConeAngle ({inner}).",
        "Make the spot light's outer cone angle greater than its inner cone angle.",
    ),
    declare(
        "KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT",
        "error",
        "Variant {index} is mapped more than once for this mesh primitive.",
        "Map each variant to one material per primitive.",
    ),
    declare(
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE",
        "error",
        "A channel target with KHR_animation_pointer must not define 'node'.",
        "Remove the target's node: the pointer names what is animated.",
    ),
    declare(
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH",
        "error",
        "A channel target with KHR_animation_pointer must have the path 'pointer', not {path}.",
        "Set the channel target's path to 'pointer'.",
    ),
    # Unused objects.
    declare(
        "UNUSED_OBJECT",
        "info",
        "This object may be unused.",
        "Remove it to make the file smaller, unless an application needs it.",
    ),
    declare(
        "UNUSED_MESH_WEIGHTS",
        "info",
        "The mesh's morph target weights are always overridden by the nodes using it.",
    ),
]
