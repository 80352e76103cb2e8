"""Issue types of skins beyond Khronos glTF-Validator: inverse bind matrices that cannot be
inverted or do not match the joints' pose, and joints that move no vertex (``docs/skins.md``
gives each rule's tolerance and source)."""

from assetcheck.issues import IssueArea

declare = IssueArea("gltf").declare

ISSUE_TYPES = [
    declare(
        "SKIN_IBM_NOT_INVERTIBLE",
        "warning",
        "{count} of the skin's inverse bind matrices cannot be inverted (they flatten space "
        "onto a plane, a line or a point); the first is joint {first}'s (node {node}).",
        "Export the skin again with the armature in its rest pose and no bone scaled to zero: "
        "every vertex such a joint moves collapses when the model is skinned.",
        title="Bind matrices that cannot be inverted",
        count_phrase="({count:,})",
    ),
    declare(
        "SKIN_IBM_BIND_POSE_MISMATCH",
        "info",
        "{count} of the skin's joints are not in their bind pose in the node hierarchy (the "
        "inverse bind matrix is not the inverse of the joint's world matrix); the first is "
        "joint {first} (node {node}), off by {error:.3g}.",
        "If the model should show its bind pose when not animated, apply the pose as the rest "
        "pose (or export from the rest pose); a viewer that plays no animation draws the "
        "skinned mesh in the nodes' pose.",
        title="Bones not in the bind pose",
        count_phrase="({count:,})",
    ),
    declare(
        "SKIN_JOINT_UNUSED",
        "info",
        "No vertex of the meshes the skin deforms is weighted to {count} of its {total} "
        "joints; the first is joint {first} (node {node}).",
        "Export deforming bones only (Blender: Deform Bones Only) or remove helper and end bones "
        "from the skin: each joint costs the engine a matrix every frame and counts against "
        "its bone budget.",
        title="Bones no vertex is weighted to",
        count_phrase="({count:,} of {total:,})",
    ),
]
