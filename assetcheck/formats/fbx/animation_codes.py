"""Issue types of FBX animation curves: the rules of glTF animation keys, on the curves of the
animation stacks (``docs/animations.md`` gives each rule, its tolerance and source)."""

from assetcheck.issues import IssueArea

declare = IssueArea("fbx").declare

ISSUE_TYPES = [
    declare(
        "FBX_ANIMATION_KEY_TIMES_NOT_INCREASING",
        "warning",
        "Animation stack {stack}: the key times of {target} {property} do not increase: key "
        "{first} of its {component} curve, at {time:g} s, is not after the key before. "
        "Importers sort such keys, drop them or refuse the curve, each differently.",
        "Export the animation again with one key per frame time (bake it), or delete the "
        "duplicated keys in the graph editor.",
        title="Animation key times that do not increase",
    ),
    declare(
        "FBX_ANIMATION_VALUE_NOT_FINITE",
        "warning",
        "Animation stack {stack}: {count:,} keys of {target} {property} hold a value or time "
        "that is not a number or is infinite (the first is key {first} of its {component} "
        "curve). Engines play such keys as garbage or drop the curve.",
        "Find the broken keys in the graph editor (often from a division by zero in a "
        "constraint or expression), fix or bake the animation, and export again.",
        title="Animation keys that are not finite",
        count_phrase="({count:,} keys)",
    ),
    declare(
        "FBX_ANIMATION_ZERO_LENGTH",
        "info",
        "Animation stack {stack} lasts no time: {reason}. It sets a pose, or nothing, rather "
        "than playing motion.",
        "If a pose is meant, nothing needs fixing; otherwise export the action's whole frame "
        "range, or do not export empty takes.",
        title="Animation stack of no length",
    ),
    declare(
        "FBX_ANIMATION_CURVE_CONSTANT",
        "info",
        "Animation stack {stack}: the {components} curves of {target} {property} hold the "
        "same value at all their keys ({keys:,} keys): they move nothing and store about "
        "{bytes:,} bytes of keys.",
        "Let the exporter drop curves that do not change (an option such as 'optimise "
        "animation size' or 'simplify'), or delete the static channels before export; the "
        "property's own value holds the pose.",
        title="Animation curves that never change",
        count_phrase="({keys:,} keys)",
    ),
    declare(
        "FBX_ANIMATION_REDUNDANT_KEYS",
        "info",
        "Animation stack {stack}: {count:,} of the {keys:,} keys of {target} {property} hold "
        "the value interpolation between their neighbours already gives (the first is key "
        "{first} of its {component} curve); removing them saves about {bytes:,} bytes.",
        "Let the exporter simplify the curves (remove redundant keyframes, 'key reduction'), "
        "or simplify them in the graph editor before export.",
        title="Animation keys that change nothing",
        count_phrase="({count:,} keys)",
    ),
    declare(
        "FBX_ANIMATION_ROTATION_JUMP",
        "info",
        "Animation stack {stack}: {count:,} keys of {target} {property} turn more than 180 "
        "degrees from the key before (the first is key {first} of its {component} curve, by "
        "{degrees:g} degrees). Euler curves interpolate the angles as stored, so the node "
        "spins the long way round; importers that turn the keys into quaternions take the "
        "short way, so engines and the authoring tool play different motion.",
        "Apply an Euler filter to the rotation curves (Maya: Curves > Euler Filter; Blender: "
        "Channel > Discontinuity (Euler) Filter; MotionBuilder: Unroll Rotations) and export "
        "again.",
        title="Rotation keys that jump by more than half a turn",
        count_phrase="({count:,} keys)",
    ),
    declare(
        "FBX_ANIMATION_TARGET_NOT_IN_SCENE",
        "info",
        "Animation stack {stack}: {count:,} curves animate model {target}, which is not "
        "connected to the scene: their keys are loaded and never seen.",
        "Parent the model into the scene, or delete its animation (and the model) before export.",
        title="Animation of a model not in the scene",
        count_phrase="({count:,} curves)",
    ),
]
