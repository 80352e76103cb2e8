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
        title="Vertex spacing larger than its data block",
    ),
    declare(
        "BUFFER_VIEW_INVALID_BYTE_STRIDE",
        "error",
        "Only buffer views with vertex data can have a byteStride.",
        title="Vertex spacing set on data that is not vertices",
    ),
    declare(
        "BUFFER_VIEW_TARGET_OVERRIDE",
        "error",
        "The buffer view is used as {first} and also as {second}.",
        "Give each kind of data (vertices, indices, images...) its own buffer view.",
        title="Data block used for two different purposes",
    ),
    declare(
        "BUFFER_VIEW_TARGET_MISSING",
        "hint",
        "bufferView.target should be set for vertex or index data ({usage}).",
        "Set target to 34962 (vertices) or 34963 (indices).",
        title="Data block does not say what it holds",
    ),
    declare(
        "ACCESSOR_USAGE_OVERRIDE",
        "error",
        "The accessor is used as {first} and also as {second}.",
        "Give each use (vertex attribute, indices, animation data...) its own accessor.",
        title="Data used for two different purposes",
    ),
    declare(
        "ACCESSOR_SMALL_BYTESTRIDE",
        "error",
        "The buffer view's byteStride ({stride}) is less than the accessor's element length "
        "({length}).",
        title="Vertex spacing smaller than one vertex",
    ),
    declare(
        "ACCESSOR_OFFSET_ALIGNMENT",
        "error",
        "Offset {byte_offset} is not a multiple of the component size {size}.",
        _LAYOUT,
        title="Misaligned data",
    ),
    declare(
        "ACCESSOR_TOTAL_OFFSET_ALIGNMENT",
        "error",
        "The accessor's total byte offset {byte_offset} is not a multiple of the component "
        "size {size}.",
        _LAYOUT,
        title="Misaligned data (total offset)",
    ),
    declare(
        "ACCESSOR_MATRIX_ALIGNMENT",
        "error",
        "Matrix accessors must start on a 4-byte boundary.",
        _LAYOUT,
        title="Misaligned matrix data",
    ),
    declare(
        "ACCESSOR_NORMALIZED_INVALID",
        "error",
        "Only byte and short accessors can be normalized.",
        title="Normalized flag on data that cannot be normalized",
    ),
    declare(
        "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE",
        "error",
        "The sparse accessor replaces more elements ({sparse}) than the accessor has ({count}).",
        title="Sparse data replaces more values than exist",
    ),
    # Meshes.
    declare(
        "MESH_PRIMITIVE_INVALID_ATTRIBUTE",
        "error",
        "'{semantic}' is not a valid attribute semantic.",
        "Use the glTF semantics (POSITION, NORMAL, TEXCOORD_n...) or prefix custom ones with _.",
        title="Unknown vertex attribute",
    ),
    declare(
        "MESH_PRIMITIVE_NO_POSITION",
        "warning",
        "The primitive has no POSITION attribute.",
        title="Mesh part without vertex positions",
    ),
    declare(
        "MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL",
        "warning",
        "The primitive has TANGENT but no NORMAL attribute.",
        title="Tangents without normals",
    ),
    declare(
        "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY",
        "error",
        "{semantic}_n attributes must start at 0 without gaps: {expected} expected, {found} found.",
        title="Gap in numbered vertex attributes (UV sets, colours, bones)",
    ),
    declare(
        "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
        "error",
        "The primitive has {joints} JOINTS_n but {weights} WEIGHTS_n attributes.",
        title="Bone indices and skin weights do not pair up",
    ),
    declare(
        "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
        "error",
        "The POSITION accessor must define min and max.",
        "Add the accessor's min and max (the bounding box of the positions).",
        title="Mesh without a bounding box",
    ),
    declare(
        "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for this attribute (valid: {valid}).",
        title="Vertex attribute in the wrong number format",
    ),
    declare(
        "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT",
        "error",
        "Vertex attributes cannot use the UNSIGNED_INT component type.",
        title="Vertex attribute stored as 32-bit integers",
    ),
    declare(
        "MESH_PRIMITIVE_ACCESSOR_UNALIGNED",
        "error",
        "Vertex attribute data must be aligned to 4-byte boundaries.",
        _LAYOUT,
        title="Misaligned vertex data",
    ),
    declare(
        "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT",
        "error",
        "All attribute accessors of a primitive must have the same count.",
        title="Vertex attributes of different lengths",
    ),
    declare(
        "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE",
        "error",
        "Two or more vertex accessors share this buffer view, so it must define byteStride.",
        title="Interleaved vertex data without a vertex spacing",
    ),
    declare(
        "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "The indices' buffer view must not define byteStride.",
        title="Spacing set on triangle indices",
    ),
    declare(
        "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for indices (valid: {valid}).",
        title="Triangle indices in the wrong number format",
    ),
    declare(
        "MESH_PRIMITIVE_INCOMPATIBLE_MODE",
        "warning",
        "{count} vertices or indices do not fit drawing mode {mode}.",
        title="Leftover vertices that form no whole triangle or line",
    ),
    declare(
        "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
        "error",
        "The material's texture {texture} needs TEXCOORD_{texcoord}, which the primitive lacks.",
        "Add the texture coordinate set, or make the texture use one that exists.",
        title="Texture needs a UV set the mesh lacks",
    ),
    declare(
        "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE",
        "warning",
        "The material needs tangents but the primitive has none: engines will generate "
        "them, perhaps differently.",
        "Export the mesh with tangents.",
        title="Missing tangents for the normal map",
    ),
    declare(
        "MESH_PRIMITIVE_NO_TANGENT_SPACE",
        "error",
        "The material needs tangents, the primitive has none and the material has no normal "
        "map to generate them from.",
        "Export the mesh with normals and tangents.",
        title="Material needs tangents the mesh cannot get",
    ),
    declare(
        "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR",
        "error",
        "The morph target has {semantic}, which the primitive itself does not define.",
        title="Blend shape changes an attribute the mesh lacks",
    ),
    declare(
        "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT",
        "error",
        "The morph target accessor's count differs from the primitive attribute's.",
        title="Blend shape with a different vertex count",
    ),
    declare(
        "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
        "error",
        "All primitives of a mesh must have the same number of morph targets.",
        title="Mesh parts with different numbers of blend shapes",
    ),
    declare(
        "MESH_INVALID_WEIGHTS_COUNT",
        "error",
        "The mesh has {weights} weights for {targets} morph targets.",
        title="Mesh's blend shape weights do not match its blend shapes",
    ),
    declare(
        "UNUSED_MESH_TANGENT",
        "info",
        "Tangents are unused: the material has no normal texture.",
        "Drop the TANGENT attribute to save memory.",
        title="Unused tangents (no normal map)",
    ),
    # Nodes and scenes.
    declare(
        "NODE_LOOP",
        "error",
        "The node is part of a node loop (it is its own ancestor).",
        "Fix the children arrays so the node hierarchy is a tree.",
        title="Object is its own ancestor (hierarchy loop)",
    ),
    declare(
        "NODE_PARENT_OVERRIDE",
        "error",
        "Node {node} already has another parent.",
        "List each node as the child of one node only.",
        title="Object with two parents",
    ),
    declare(
        "SCENE_NON_ROOT_NODE",
        "error",
        "Node {node} is not a root node, so it cannot be listed in a scene.",
        "List only root nodes in scene.nodes.",
        title="Child object listed as a scene root",
    ),
    declare(
        "NODE_MATRIX_TRS",
        "error",
        "The node has both a matrix and translation/rotation/scale.",
        title="Object transform given twice",
    ),
    declare(
        "NODE_MATRIX_DEFAULT",
        "info",
        "The node's matrix is the identity, the default.",
        "Remove the matrix.",
        title="Object stores the default transform",
    ),
    declare(
        "NODE_MATRIX_NON_TRS",
        "error",
        "The node's matrix cannot be decomposed into translation, rotation and scale.",
        title="Skewed object transform",
    ),
    declare(
        "ROTATION_NON_UNIT",
        "error",
        "The rotation quaternion is not of unit length.",
        "Normalise the quaternion.",
        title="Broken object rotation",
    ),
    declare(
        "NODE_EMPTY",
        "info",
        "The node has no children, mesh, camera or joint role.",
        "Remove the node unless an application needs it.",
        title="Empty object",
    ),
    declare(
        "NODE_SKINNED_MESH_WITHOUT_SKIN",
        "warning",
        "The node's mesh has joints and weights but the node has no skin.",
        title="Skinned mesh without a skeleton",
    ),
    declare(
        "NODE_SKIN_WITH_NON_SKINNED_MESH",
        "error",
        "The node has a skin but its mesh has no joints and weights.",
        title="Skeleton on a mesh without skin weights",
    ),
    declare(
        "NODE_WEIGHTS_INVALID",
        "error",
        "The node has {weights} weights for {targets} morph targets.",
        title="Object's blend shape weights do not match the blend shapes",
    ),
    declare(
        "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
        "warning",
        "The node has a skinned mesh, so its own transform is ignored.",
        title="Transform of a skinned mesh is ignored",
    ),
    declare(
        "NODE_SKINNED_MESH_NON_ROOT",
        "warning",
        "The node with a skinned mesh is not a root node: parent transforms do not affect "
        "a skinned mesh.",
        title="Skinned mesh placed under a parent",
    ),
    declare(
        "NODE_SKIN_NO_SCENE",
        "error",
        "The node with a skinned mesh is in a scene that does not contain its joints.",
        title="Skinned mesh's bones are not in its scene",
    ),
    # Skins.
    declare(
        "SKIN_NO_COMMON_ROOT",
        "error",
        "The skin's joints do not have a common root.",
        "Parent every bone of the skeleton under one root bone, then export again.",
        title="Skeleton's bones have no common root",
    ),
    declare(
        "SKIN_SKELETON_INVALID",
        "error",
        "The skeleton node is not a common root of the joints.",
        title="Wrong skeleton root",
    ),
    declare(
        "SKIN_IBM_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for inverse bind matrices (MAT4, FLOAT).",
        title="Bind pose stored in the wrong format",
    ),
    declare(
        "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "The inverse bind matrices' buffer view must not define byteStride.",
        title="Spacing set on bind pose data",
    ),
    declare(
        "INVALID_IBM_ACCESSOR_COUNT",
        "error",
        "The inverse bind matrices accessor has {count} elements for {joints} joints.",
        title="Bind pose count does not match the bones",
    ),
    # Animations.
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_MATRIX",
        "error",
        "The channel animates translation, rotation or scale of a node that has a matrix.",
        title="Animation moves an object with a fixed matrix",
    ),
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
        "error",
        "The channel animates weights of a node whose mesh has no morph targets.",
        title="Blend shape animation on a mesh without blend shapes",
    ),
    declare(
        "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
        "warning",
        "Animated translation, rotation or scale does not affect a skinned mesh.",
        title="Animation of a skinned mesh's object has no effect",
    ),
    declare(
        "ANIMATION_DUPLICATE_TARGETS",
        "error",
        "The channel has the same target as channel {other}.",
        title="Two animation channels drive the same thing",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for animation input (SCALAR, FLOAT).",
        title="Keyframe times stored in the wrong format",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
        "error",
        "An animation input accessor must define min and max.",
        title="Animation without start and end times",
    ),
    declare(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
        "error",
        "A CUBICSPLINE sampler needs at least 2 keyframes; the input has {count}.",
        title="Curved (cubic spline) animation with too few keyframes",
    ),
    declare(
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
        "error",
        "Accessor format {format} is not valid for animating '{path}' (valid: {valid}).",
        title="Keyframe values stored in the wrong format",
    ),
    declare(
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
        "error",
        "The animation output accessor should have {expected} elements; it has {count}.",
        title="Keyframe values do not match the keyframe times",
    ),
    declare(
        "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
        "error",
        "Buffer views of animation sampler accessors must not define byteStride.",
        title="Spacing set on animation data",
    ),
    # Cameras and materials.
    declare(
        "CAMERA_ZFAR_LEQUAL_ZNEAR",
        "error",
        "zfar must be greater than znear.",
        title="Camera's far clip not beyond its near clip",
    ),
    declare(
        "CAMERA_XMAG_YMAG_ZERO",
        "error",
        "xmag and ymag must not be zero.",
        title="Orthographic camera of zero size",
    ),
    declare(
        "CAMERA_XMAG_YMAG_NEGATIVE",
        "warning",
        "xmag and ymag should not be negative.",
        title="Orthographic camera of negative size",
    ),
    declare(
        "CAMERA_YFOV_GEQUAL_PI",
        "warning",
        "yfov should be less than pi.",
        title="Camera field of view of 180 degrees or more",
    ),
    declare(
        "MATERIAL_ALPHA_CUTOFF_INVALID_MODE",
        "warning",
        "alphaCutoff only applies to the MASK alpha mode.",
        "Remove alphaCutoff.",
        title="Alpha cutoff set without the cutout (mask) mode",
    ),
    declare(
        "MULTIPLE_EXTENSIONS",
        "warning",
        "This extension may be incompatible with the material's other extensions.",
        "Keep one shading-model extension (unlit or specular-glossiness) per material.",
        title="Material effects that may not combine",
    ),
    declare(
        "KHR_MATERIALS_VOLUME_NO_TRANSMISSION",
        "warning",
        "The volume extension needs an extension that lets light through the surface "
        "(KHR_materials_transmission).",
        "Add KHR_materials_transmission to the material, or remove the volume.",
        title="Volume material that lets no light through",
    ),
    declare(
        "KHR_MATERIALS_VOLUME_DOUBLE_SIDED",
        "warning",
        "The volume extension should not be used with double-sided materials.",
        "Set doubleSided to false: a volume needs a closed, one-sided surface.",
        title="Volume material set double-sided",
    ),
    declare(
        "KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD",
        "warning",
        "The normal and anisotropy textures use different texture coordinates.",
        "Sample both textures with the same texCoord set: anisotropy directions are "
        "defined in the normal map's tangent space.",
        title="Anisotropy and normal maps use different UV sets",
    ),
    declare(
        "KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD",
        "warning",
        "The normal and clearcoat normal textures use different texture coordinates.",
        "Sample both normal maps with the same texCoord set.",
        title="Clearcoat and normal maps use different UV sets",
    ),
    declare(
        "KHR_MATERIALS_DISPERSION_NO_VOLUME",
        "warning",
        "The dispersion extension needs the volume extension (KHR_materials_volume) on "
        "the same material.",
        "Add KHR_materials_volume to the material, or remove the dispersion.",
        title="Dispersion without volume",
    ),
    declare(
        "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR",
        "warning",
        "Emissive strength has no effect: the emissive factor is zero or undefined.",
        "Set the material's emissiveFactor, or remove KHR_materials_emissive_strength.",
        title="Emission strength with no emission colour",
    ),
    declare(
        "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE",
        "info",
        "iridescenceThicknessMinimum has no effect without an iridescence thickness texture.",
        "Remove iridescenceThicknessMinimum, or add iridescenceThicknessTexture.",
        title="Iridescence thickness range without a texture",
    ),
    declare(
        "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED",
        "info",
        "The iridescence thickness texture has no effect: the thickness minimum equals the "
        "maximum.",
        "Give the thickness a range, or remove iridescenceThicknessTexture.",
        title="Iridescence thickness texture has no effect",
    ),
    declare(
        "TEXTURE_INVALID_IMAGE_MIME_TYPE",
        "error",
        "The texture's source image is {mime_type}; a texture source must be image/jpeg or "
        "image/png.",
        "Convert the image to PNG or JPEG, or move it to the extension that allows its "
        "format (EXT_texture_webp, KHR_texture_basisu) and give the texture a PNG or JPEG "
        "source as fallback.",
        title="Texture image is not JPEG or PNG",
    ),
    # Images.
    declare(
        "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE",
        "error",
        "A buffer view holding image data must not define byteStride.",
        title="Spacing set on image data",
    ),
    # Extensions.
    declare(
        "UNDECLARED_EXTENSION",
        "error",
        "Extension {name} is not listed in extensionsUsed.",
        "Add the extension to extensionsUsed.",
        title="Extension used but not declared",
    ),
    declare(
        "UNUSED_EXTENSION_REQUIRED",
        "error",
        "Extension {name} is required but not listed in extensionsUsed.",
        "List the extension in extensionsUsed too, or remove it from extensionsRequired.",
        title="Extension required but not declared as used",
    ),
    declare(
        "NON_REQUIRED_EXTENSION",
        "error",
        "Extension {name} must be listed in extensionsRequired.",
        "Add the extension to extensionsRequired.",
        title="Extension must be marked as required",
    ),
    declare(
        "INVALID_EXTENSION_NAME_FORMAT",
        "warning",
        "'{name}' is not a valid extension name (PREFIX_name).",
        "Rename the extension.",
        title="Badly named extension",
    ),
    declare(
        "UNSUPPORTED_EXTENSION",
        "info",
        "Extension {name} is not validated: AssetCheck does not know it.",
        "Check the extension's data with a tool that supports it.",
        title="Unknown extension, not checked",
    ),
    declare(
        "UNEXPECTED_EXTENSION_OBJECT",
        "error",
        "Extension {name} does not belong on this kind of object.",
        title="Extension in the wrong place",
    ),
    declare(
        "INCOMPLETE_EXTENSION_SUPPORT",
        "info",
        "Validation of extension {name} is incomplete; the asset may have issues that were "
        "not detected.",
        "Check the extension's data in the engines you target.",
        title="Extension only partly checked",
    ),
    declare(
        "EXTRA_PROPERTY",
        "info",
        "Property '{name}' should not be defined: it is not used for this kind of light.",
        "Remove the property.",
        title="Light setting this type of light ignores",
    ),
    declare(
        "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES",
        "error",
        "outerConeAngle ({outer}) is less than or equal to innerConeAngle ({inner}).",
        "Make the spot light's outer cone angle greater than its inner cone angle.",
        title="Spotlight's outer cone not wider than its inner cone",
    ),
    declare(
        "KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT",
        "error",
        "Variant {index} is mapped more than once for this mesh primitive.",
        "Map each variant to one material per primitive.",
        title="Material variant assigned twice",
    ),
    declare(
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE",
        "error",
        "A channel target with KHR_animation_pointer must not define 'node'.",
        "Remove the target's node: the pointer names what is animated.",
        title="Pointer animation also names an object",
    ),
    declare(
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH",
        "error",
        "A channel target with KHR_animation_pointer must have the path 'pointer', not {path}.",
        "Set the channel target's path to 'pointer'.",
        title="Pointer animation with the wrong path",
    ),
    # Unused objects.
    declare(
        "UNUSED_OBJECT",
        "info",
        "This object may be unused.",
        "Remove it to make the file smaller, unless an application needs it.",
        title="Unused data",
    ),
    declare(
        "UNUSED_MESH_WEIGHTS",
        "info",
        "The mesh's morph target weights are always overridden by the nodes using it.",
        title="Mesh's default blend shape weights are never used",
    ),
]
