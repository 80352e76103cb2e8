"""Issue types of asset quality beyond what the formats require: geometry, materials, textures,
transforms and animations.

A meaning found in several formats has one code for all of them (``MESH_MISSING_NORMALS`` for
a glTF primitive and an FBX mesh alike). Severities follow what happens in an engine: warnings
for what looks wrong or costs performance, info for advice. Non-power-of-two textures reuse
Khronos' ``IMAGE_NPOT_DIMENSIONS`` (declared in :mod:`assetcheck.formats.gltf.codes.values`).
"""

from assetcheck.issues import IssueArea

declare = IssueArea("quality").declare


ISSUE_TYPES = [
    # Geometry.
    declare(
        "MESH_ZERO_AREA_TRIANGLES",
        "info",
        "Mesh {name}: {count:,} of {total:,} triangles have zero area (their corners "
        "coincide or lie on one line).",
        "Merge vertices by distance and dissolve degenerate faces in the modelling tool "
        "(Blender: Mesh > Clean Up > Degenerate Dissolve).",
        title="Zero-area triangles",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "MESH_DUPLICATE_TRIANGLES",
        "warning",
        "Mesh {name}: {count:,} of {total:,} triangles lie exactly on another triangle "
        "facing the same way, so they flicker (z-fighting) and are drawn for nothing.",
        "Delete the duplicated faces: merge vertices by distance, then remove the faces that "
        "overlap.",
        title="Duplicate triangles",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "MESH_UNUSED_VERTICES",
        "info",
        "Mesh {name}: {count:,} of {total:,} vertices belong to no triangle, line or point "
        "and only take memory.",
        "Delete loose vertices before export (Blender: Mesh > Clean Up > Delete Loose).",
        title="Loose vertices",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "MESH_MISSING_NORMALS",
        "warning",
        "Mesh {name} has no vertex normals, so the engine computes its own (glTF viewers "
        "shade it flat) and the shading will not match the modelling tool.",
        "Export with normals turned on, after setting the smoothing you want.",
        title="Missing normals",
    ),
    declare(
        "MESH_MISSING_UVS",
        "warning",
        "Mesh {name} has no UV coordinates, but its material {material} uses {textures} "
        "texture(s), which therefore cannot be mapped onto it.",
        "Unwrap the mesh (give it UVs) before export, or remove the textures from its material.",
        title="Textured mesh without UVs",
    ),
    # Topology (assetcheck/mesh/topology.py; vertices welded by position).
    declare(
        "MESH_NON_MANIFOLD_EDGES",
        "warning",
        "Mesh {name}: {count:,} of {edges:,} edges are shared by more than two triangles "
        "(non-manifold), which breaks normals, decimation, booleans and physics.",
        "Separate or delete the extra faces on those edges (Blender: Select > Select All "
        "by Trait > Non Manifold).",
        title="Non-manifold edges",
        count_phrase="({count:,} of {edges:,})",
    ),
    declare(
        "MESH_INCONSISTENT_WINDING",
        "warning",
        "Mesh {name}: across {count:,} of {edges:,} edges the two triangles face opposite "
        "ways, so back-face culling shows holes where a face is flipped.",
        "Recalculate the normals outside (Blender: Mesh > Normals > Recalculate Outside) "
        "so that neighbouring faces wind the same way.",
        title="Flipped faces",
        count_phrase="along {count:,} {count:edge|edges}",
    ),
    declare(
        "MESH_OPEN_BOUNDARY",
        "warning",
        "Mesh {name} is not closed: {count:,} of {edges:,} edges belong to one triangle "
        "only, but the {engine} profile expects closed (watertight) meshes.",
        "Fill the holes (Blender: select the boundary and Face > Fill) or merge the "
        "vertices along the seams by distance.",
        title="Holes in a mesh that should be closed",
        count_phrase="({count:,} open {count:edge|edges})",
    ),
    declare(
        "MESH_INSIDE_OUT",
        "warning",
        "Mesh {name} is inside out: on {count:,} of {total:,} sampled triangles the vertex "
        "normals point against the winding, so engines cull the side that should show.",
        "Flip the faces, or recalculate the normals outside, so that normals and winding agree.",
        title="Mesh is inside out",
    ),
    declare(
        "MESH_SEPARATE_PIECES",
        "info",
        "Mesh {name} consists of {count:,} separate pieces (sets of connected triangles).",
        "Nothing to do if the pieces belong together; otherwise split them into meshes of "
        "their own (Blender: Mesh > Separate > By Loose Parts).",
        title="Mesh made of separate pieces",
        count_phrase="({count:,} {count:piece|pieces})",
    ),
    # Texture coordinates (assetcheck/mesh/uvs.py).
    declare(
        "MESH_UV_NOT_FINITE",
        "warning",
        "Mesh {name}: {count:,} of {total:,} UV coordinates of set {uv_set} are not finite "
        "numbers (NaN or infinite), so the texture samples garbage there.",
        "Re-unwrap the affected faces or clean the UVs in the modelling tool, and export again.",
        title="UV coordinates that are not numbers",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "MESH_UV_ZERO_AREA",
        "info",
        "Mesh {name}: {count:,} of {total:,} triangles have surface area but zero UV area in "
        "set {uv_set}, so their texture is one line of texels smeared across them.",
        "Unwrap those faces again (their UVs were collapsed to a line or a point).",
        title="Smeared texture (UVs with no area)",
        count_phrase="on {count:,} {count:triangle|triangles}",
    ),
    declare(
        "MESH_LIGHTMAP_UV_OVERLAP",
        "info",
        "Mesh {name}: about {percent}% of its lightmap UVs (set {uv_set}) overlap, so "
        "baked lighting bleeds between the overlapping faces.",
        "Generate a lightmap UV set with unique, non-overlapping islands (Unreal: "
        "Generate Lightmap UVs; Unity: Generate Lightmap UVs in the model importer).",
        title="Overlapping lightmap UVs",
        count_phrase="(about {percent}%)",
    ),
    declare(
        "MESH_LIGHTMAP_UV_OUTSIDE",
        "info",
        "Mesh {name}: {count:,} of {total:,} triangles have lightmap UVs (set {uv_set}) "
        "outside the unit square, where lightmaps repeat or clamp.",
        "Pack the lightmap UV islands inside 0..1.",
        title="Lightmap UVs outside the 0 to 1 square",
        count_phrase="on {count:,} {count:triangle|triangles}",
    ),
    declare(
        "MESH_TEXEL_DENSITY_SPREAD",
        "info",
        "Texel density varies {spread}x across the model's textured surface (from the "
        "least to the most detailed {percentile}% of its area), more than the {engine} "
        "profile's {limit}x: some parts will look blurry next to sharp ones.",
        "Scale the UV islands so that texels per metre are about even (Blender: UV > "
        "Average Islands Scale), or give the detailed parts a texture of their own.",
        title="Uneven texture sharpness",
        count_phrase="(texel density varies {spread}x)",
    ),
    # Materials.
    declare(
        "MATERIAL_NOT_PBR",
        "info",
        "Material {name} uses the legacy {shading} shading model: engines convert it to "
        "their physically based material, and it will look different there.",
        "Use a PBR material in the modelling tool (Maya Standard Surface, 3ds Max Physical "
        "Material, Blender Principled BSDF) and export again.",
        title="Old-style material (not PBR)",
    ),
    declare(
        "MATERIAL_SPECULAR_GLOSSINESS",
        "info",
        "Material {name} uses the specular-glossiness workflow, which Unreal and current "
        "web viewers (three.js) no longer support.",
        "Convert the material to metallic-roughness (gltf-transform metalrough, or "
        "re-author it in the modelling tool).",
        title="Specular-glossiness material (not supported everywhere)",
    ),
    # Textures.
    declare(
        "TEXTURE_GPU_MEMORY",
        "info",
        "The textures take about {megabytes:,} MB of GPU memory ({images} images, decoded "
        "with mipmaps), more than a full PBR set of four {size} px textures, the largest "
        "the {engine} profile allows ({limit:,} MB).",
        "Lower the resolution of textures that do not need it, share textures between "
        "materials, or ship KTX2 textures, which stay compressed on the GPU.",
        title="Textures use too much GPU memory",
        count_phrase="(about {megabytes:,} MB)",
    ),
    # Transforms.
    declare(
        "NODE_NEGATIVE_SCALE",
        "warning",
        "Node {name} draws its mesh mirrored (its transform has a negative scale): engines "
        "must flip the triangles' winding, mirrored normal maps light wrongly, and some "
        "engines will not batch or collide it.",
        "Apply the transform in the modelling tool (Blender: Apply Scale; 3ds Max: Reset "
        "XForm; Maya: Freeze Transformations) so the node's scale is positive.",
        title="Mirrored object (negative scale)",
    ),
    # Scale and placement (assetcheck/checks/scale.py, docs/scale.md).
    declare(
        "MODEL_EXTREMELY_LARGE",
        "warning",
        "The model is {size} across, more than {limit}, the largest plausible for the "
        "{engine} profile: {likely}.",
        "Set the scene unit or the exporter's scale so that the model has its real size "
        "in metres, and export again.",
        title="Model far too large, probably the wrong unit",
        count_phrase="({size} across)",
    ),
    declare(
        "MODEL_EXTREMELY_SMALL",
        "warning",
        "The model is {size} across, less than {limit}, the smallest plausible for the "
        "{engine} profile: {likely}; cameras will clip it.",
        "Set the scene unit or the exporter's scale so that the model has its real size "
        "in metres, and export again.",
        title="Model far too small, probably the wrong unit",
        count_phrase="({size} across)",
    ),
    declare(
        "MODEL_PIVOT_FAR_FROM_BASE",
        "info",
        "The model's origin, where engines and AR viewers place and turn it, is {distance} "
        "from the centre of its base, more than the model's own size ({size}): placed on a "
        "floor it floats or sinks out of view, and it swings around a distant point.",
        "Move the origin (pivot) to the bottom centre of the model, or move the model so that "
        "its base sits on the origin, and apply the transform before export.",
        title="Origin far from the model",
        count_phrase="({distance} away)",
    ),
    declare(
        "MODEL_DIMENSIONS_MISMATCH",
        "warning",
        "The model measures {model} (width x height x depth), the product {product}: {sides} "
        "more than the {tolerance} tolerance{hint}.",
        "Model the product at its real size in metres (check the scene unit and the "
        "exporter's scale), with Y up and the front facing +Z, or correct the dimensions "
        "given.",
        title="Model does not match the product's dimensions",
        count_phrase="({sides})",
    ),
    # Animations.
    declare(
        "ANIMATION_TOO_LONG",
        "warning",
        "Animation {name} lasts {duration}, more than {limit}: its time range is probably "
        "wrong (frames read as seconds, or a timeline left far longer than the action).",
        "Set the animation's start and end to the action's real range and export again.",
        title="Animation far too long",
        count_phrase="({duration})",
    ),
    declare(
        "ANIMATION_TOO_MANY_KEYFRAMES",
        "warning",
        "Animation {name} stores {keyframes:,} keyframes ({megabytes:,} MB) in {channels} "
        "channels, more than {limit:,}: it costs memory and load time for motion that "
        "needs far fewer keys.",
        "Resample to 30 fps, let the exporter reduce keyframes, and drop channels that "
        "never change.",
        title="Too many keyframes",
        count_phrase="({keyframes:,})",
    ),
    declare(
        "ANIMATION_CHANNEL_CONSTANT",
        "info",
        "The {path} channel of node {node} holds the same value at all {keys:,} keys: it "
        "moves nothing and stores {bytes:,} bytes of values.",
        "Remove the channel and give the node that {path} instead, or let the exporter drop "
        "channels that do not change (an option such as 'optimise animation size').",
        title="Animation track that never changes",
        count_phrase="({keys:,} keys)",
    ),
    declare(
        "ANIMATION_REDUNDANT_KEYS",
        "info",
        "The {path} channel of node {node}: {count:,} of its {keys:,} keys hold the value "
        "interpolation between their neighbours already gives (the first is key {first}); "
        "removing them saves {bytes:,} bytes of values.",
        "Let the exporter simplify the curves (remove redundant keyframes), or resample the "
        "animation with a tool such as glTF-Transform's resample.",
        title="Keyframes that change nothing",
        count_phrase="({count:,} keys)",
    ),
    declare(
        "ANIMATION_ROTATION_HEMISPHERE_FLIP",
        "info",
        "The rotation channel of node {node}: {count:,} of its {keys:,} keys store their "
        "quaternion on the far side from the key before (q and -q are the same turn; the first "
        "is key {first}). Players that follow the glTF specification take the short way, but "
        "tools that interpolate the stored values or turn them into curves spin the long way.",
        "Negate those keys' quaternions so that each has a positive dot product with the key "
        "before (exporters call this making quaternions continuous), and export again.",
        title="Rotation keys that flip to the far side",
        count_phrase="({count:,} keys)",
    ),
    declare(
        "ANIMATION_ZERO_LENGTH",
        "info",
        "Animation {name} lasts no time: each of its samplers has a single key (the first at "
        "{time:g} s), so it sets a pose rather than playing motion.",
        "If a pose is meant, nothing needs fixing; otherwise export the action's whole frame "
        "range.",
        title="Animation of no length",
    ),
    declare(
        "ANIMATION_TARGET_NOT_IN_SCENE",
        "info",
        "An animation channel moves node {node}, which no scene shows: its keys are loaded "
        "and never seen.",
        "Add the node to the scene, or remove the channel (and the node) before exporting.",
        title="Animation of a node no scene shows",
    ),
]
