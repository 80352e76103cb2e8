"""Issue types for engine budgets: a model file uses more than its engine profile allows.

They are errors by default: choosing an engine profile asks "does this fit?", and a file that
does not fit fails that question. The ``generic`` profile, used when nobody chose an engine,
makes them warnings: there a budget is advice and never makes a file invalid. Configuration can
change any of them in ``[engines.<name>.severity]``.
"""

from assetcheck.issues import IssueArea

declare = IssueArea("budget").declare

ISSUE_TYPES = [
    declare(
        "BUDGET_TRIANGLES_PER_FILE",
        "error",
        "{used:,} triangles exceed the {engine} budget of {limit:,} per file.",
        "Reduce the polygon count (decimate, remove hidden faces) or split the model.",
        title="Too many triangles",
        count_phrase="({used:,}, limit {limit:,})",
    ),
    declare(
        "BUDGET_TRIANGLES_PER_MESH",
        "error",
        "Mesh {name} has {used:,} triangles, over the {engine} budget of {limit:,} per mesh.",
        "Decimate the mesh or split it into several meshes.",
        title="Too many triangles in one mesh",
        count_phrase="({used:,}, limit {limit:,})",
    ),
    declare(
        "BUDGET_MATERIALS",
        "error",
        "{used} materials exceed the {engine} budget of {limit}.",
        "Merge materials that differ little, or bake them into a texture atlas.",
        title="Too many materials",
        count_phrase="({used}, limit {limit})",
    ),
    declare(
        "BUDGET_DRAW_CALLS",
        "error",
        "About {used} draw calls exceed the {engine} budget of {limit}.",
        "Merge meshes that share a material and reduce the materials per mesh.",
        title="Too many draw calls",
        count_phrase="(about {used}, limit {limit})",
    ),
    declare(
        "BUDGET_TEXTURE_SIZE",
        "error",
        "A {used} px texture side exceeds the {engine} budget of {limit} px.",
        "Resize the largest textures to at most {limit} px per side.",
        title="Texture too large",
        count_phrase="({used} px, limit {limit} px)",
    ),
    declare(
        "BUDGET_BONES",
        "error",
        "A skin with {used} bones exceeds the {engine} budget of {limit}.",
        "Remove helper bones or split the character into several skinned meshes.",
        title="Too many bones in one skeleton",
        count_phrase="({used}, limit {limit})",
    ),
    declare(
        "BUDGET_INFLUENCES",
        "error",
        "{count:,} vertices have more bone influences than the {engine} budget of {limit} "
        "(up to {used}); the first is vertex {first}.",
        "Limit the influences per vertex to {limit} when exporting (Blender: Limit Total; "
        "Maya: Max Influences), which drops the smallest weights and normalises the rest.",
        title="Too many bones per vertex",
        count_phrase="on {count:,} {count:vertex|vertices} (up to {used}, limit {limit})",
    ),
    declare(
        "BUDGET_UV_SETS",
        "error",
        "{used} UV sets exceed the {engine} budget of {limit}.",
        "Remove unused UV sets before exporting.",
        title="Too many UV sets",
        count_phrase="({used}, limit {limit})",
    ),
    declare(
        "BUDGET_32BIT_INDICES",
        "error",
        "The file uses 32-bit vertex indices, which the {engine} profile does not allow.",
        "Split meshes so that each has at most 65,535 vertices and export 16-bit indices.",
        title="32-bit vertex indices not allowed",
    ),
    declare(
        "BUDGET_FILE_SIZE",
        "error",
        "The file is {used:.1f} MB, over the {engine} budget of {limit} MB.",
        "Compress textures (KTX2, WebP) and geometry (Draco, meshopt), or split the file.",
        title="File too large",
        count_phrase="({used:.1f} MB, limit {limit} MB)",
    ),
]
