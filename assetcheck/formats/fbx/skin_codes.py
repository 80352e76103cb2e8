"""Issue types of FBX skins (clusters): the rules of glTF skins, on the clusters' weights and
bind matrices (``docs/skins.md`` gives each rule's tolerance and source)."""

from assetcheck.issues import IssueArea

declare = IssueArea("fbx").declare

ISSUE_TYPES = [
    declare(
        "FBX_SKIN_UNREADABLE",
        "warning",
        "Mesh {name}: its skin cannot be read ({reason}), so its weights were not checked.",
        "Export the skin again from the authoring tool.",
        title="Skin clusters that cannot be read",
    ),
    declare(
        "FBX_SKIN_WEIGHTS_NOT_NORMALIZED",
        "warning",
        "Mesh {name}: the bone weights of {count:,} of its {total:,} weighted control points "
        "do not sum to 1; the first, control point {first}, sums to {sum:.6g}. Engines that "
        "normalise on import and those that do not deform the mesh differently.",
        "Normalise the weights before export (Blender: Weights > Normalize All; Maya: Skin > "
        "Normalize Weights; 3ds Max: Skin > Normalize).",
        title="Bone weights that do not sum to 1",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "FBX_SKIN_WEIGHTS_NEGATIVE",
        "warning",
        "Mesh {name}: {count:,} bone weights are negative; the first weighs control point "
        "{first} on bone {bone} by {weight:.6g}.",
        "Clamp the weights to zero in the authoring tool and normalise them again.",
        title="Negative bone weights",
        count_phrase="({count:,})",
    ),
    declare(
        "FBX_SKIN_INDEX_OUT_OF_RANGE",
        "warning",
        "Mesh {name}: {count:,} weights of its skin name control points the mesh does not "
        "have (it has {total:,}); the first is {first}, on bone {bone}. Importers skip them or "
        "refuse the file.",
        "Export the skin again after the last change to the mesh (the clusters were made for "
        "other geometry).",
        title="Weights on control points that do not exist",
        count_phrase="({count:,})",
    ),
    declare(
        "FBX_SKIN_CLUSTER_WITHOUT_BONE",
        "warning",
        "Mesh {name}: {count:,} of its skin's {total:,} clusters weigh vertices but are linked "
        "to no bone; the first is {bone}. Their weights move nothing (ufbx and the FBX SDK "
        "drop such clusters), so the vertices' other weights no longer sum to 1.",
        "Export the skin with every influencing bone, or remove the influence in the authoring "
        "tool before export.",
        title="Weights on no bone",
        count_phrase="({count:,} of {total:,})",
    ),
    declare(
        "FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE",
        "warning",
        "Mesh {name}: {count:,} of its bones have a bind matrix (TransformLink) that cannot be "
        "inverted (it flattens space onto a plane, a line or a point); the first is {bone}.",
        "Export the skin again with the armature in its rest pose and no bone scaled to zero: "
        "every vertex such a bone moves collapses when the model is skinned.",
        title="Cluster bind matrices that cannot be inverted",
        count_phrase="({count:,})",
    ),
    declare(
        "FBX_SKIN_BIND_POSE_MISMATCH",
        "info",
        "Mesh {name}: {count:,} of its bones are not in their bind pose in the scene (the "
        "bone's world matrix is not its TransformLink); the first is {bone}, off by "
        "{error:.3g}.",
        "If the model should show its bind pose when not animated, apply the pose as the rest "
        "pose (or export from the rest pose); a viewer that plays no animation draws the "
        "skinned mesh in the bones' pose.",
        title="Cluster bones not in the bind pose",
        count_phrase="({count:,})",
    ),
    declare(
        "FBX_SKIN_BONE_UNUSED",
        "info",
        "Mesh {name}: no control point is weighted to {count:,} of its skin's {total:,} "
        "bones; the first is {bone}.",
        "Export deforming bones only (Blender: Deform Bones Only) or remove helper and end "
        "bones from the skin: each bone costs the engine a matrix every frame and counts "
        "against its bone budget.",
        title="Clusters no vertex is weighted to",
        count_phrase="({count:,} of {total:,})",
    ),
]
