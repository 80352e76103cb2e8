"""Issue types for engine budgets: a model file uses more than its engine profile allows.

They are errors by default: choosing an engine profile asks "does this fit?", and a file that
does not fit fails that question. The ``generic`` profile, used when nobody chose an engine,
makes them warnings: there a budget is advice and never makes a file invalid. Configuration can
change any of them in ``[engines.<name>.severity]``.
"""

from assetcheck.issues import IssueType


def _budget(code: str, message: str, fix: str) -> IssueType:
    return IssueType(code, "error", message, fix, "budget")


ISSUE_TYPES = [
    _budget("BUDGET_TRIANGLES_PER_FILE",
            "{used:,} triangles exceed the {engine} budget of {limit:,} per file.",
            "Reduce the polygon count (decimate, remove hidden faces) or split the model."),
    _budget("BUDGET_TRIANGLES_PER_MESH",
            "Mesh {name} has {used:,} triangles, over the {engine} budget of {limit:,} per mesh.",
            "Decimate the mesh or split it into several meshes."),
    _budget("BUDGET_MATERIALS",
            "{used} materials exceed the {engine} budget of {limit}.",
            "Merge materials that differ little, or bake them into a texture atlas."),
    _budget("BUDGET_DRAW_CALLS",
            "About {used} draw calls exceed the {engine} budget of {limit}.",
            "Merge meshes that share a material and reduce the materials per mesh."),
    _budget("BUDGET_TEXTURE_SIZE",
            "A {used} px texture side exceeds the {engine} budget of {limit} px.",
            "Resize the largest textures to at most {limit} px per side."),
    _budget("BUDGET_BONES",
            "A skin with {used} bones exceeds the {engine} budget of {limit}.",
            "Remove helper bones or split the character into several skinned meshes."),
    _budget("BUDGET_INFLUENCES",
            "Up to {used} bone influences per vertex exceed the {engine} budget of {limit}.",
            "Limit the influences per vertex to {limit} when exporting (prune small weights)."),
    _budget("BUDGET_UV_SETS",
            "{used} UV sets exceed the {engine} budget of {limit}.",
            "Remove unused UV sets before exporting."),
    _budget("BUDGET_32BIT_INDICES",
            "The file uses 32-bit vertex indices, which the {engine} profile does not allow.",
            "Split meshes so that each has at most 65,535 vertices and export 16-bit indices."),
    _budget("BUDGET_FILE_SIZE",
            "The file is {used:.1f} MB, over the {engine} budget of {limit} MB.",
            "Compress textures (KTX2, WebP) and geometry (Draco, meshopt), or split the file."),
]
