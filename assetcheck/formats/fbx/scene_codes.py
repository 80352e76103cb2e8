"""Issue types of the FBX checks: faces, versions, texture references, units and axes.

Mesh facts FBX shares with glTF (missing normals, missing UVs) use the codes of
:mod:`assetcheck.issues.quality_codes`; these are the ones only FBX files can have.
"""

from assetcheck.issues import IssueArea

_EXPORT_UNITS = (
    "Export in centimetres or metres with Y or Z up (the exporter's defaults), or "
    "turn on unit and axis conversion when importing."
)


declare = IssueArea("fbx").declare


ISSUE_TYPES = [
    declare(
        "FBX_NGONS",
        "warning",
        "Mesh {name} has {count:,} n-gons (faces with more than four corners): engines "
        "triangulate them on import, often not the way the modelling tool did, which breaks "
        "shading and baked normal maps.",
        "Triangulate the n-gons, or the whole mesh, before export (most exporters have a "
        "Triangulate option).",
        title="Faces with more than four corners",
        count_phrase="({count:,} {count:n-gon|n-gons})",
    ),
    declare(
        "FBX_NOT_TRIANGULATED",
        "info",
        "Mesh {name} is not triangulated ({count:,} quads): the engine picks each quad's "
        "diagonal, which may differ from the one its normal maps were baked on.",
        "Triangulate on export, or before baking, so the engine draws the triangles the bake used.",
        title="Mesh not triangulated",
        count_phrase="({count:,} {count:quad|quads})",
    ),
    declare(
        "FBX_OLD_VERSION",
        "warning",
        "The file is FBX {version}, older than FBX 2011 (7100): current tools such as "
        "Blender refuse to import it, and others read it only partly.",
        "Open it in the authoring tool or Autodesk FBX Converter and save it as FBX 2014 "
        "or later (version 7400 or above).",
        title="FBX version too old for current tools",
    ),
    declare(
        "FBX_EXTERNAL_TEXTURE",
        "info",
        "Texture {name} is not embedded: the file refers to {path}, which must be shipped "
        "beside it.",
        "Ship the image with the FBX (in the same ZIP, at that relative path), or turn on "
        "Embed Media when exporting.",
        title="Texture not embedded",
    ),
    declare(
        "FBX_ABSOLUTE_TEXTURE_PATH",
        "warning",
        "Texture {name} is found only through the absolute path {path}, which exists on "
        "the machine that made the file and nowhere else.",
        "Keep textures in a folder beside the FBX so the exporter records a relative path, "
        "or turn on Embed Media.",
        title="Texture found only on the author's computer",
    ),
    declare(
        "FBX_PATH_REVEALS_USER",
        "info",
        "Texture paths in the file name a user folder of the machine it was made on ({path}).",
        "Keep textures in the project folder, or embed them, so that no personal path is "
        "recorded in files you share.",
        title="Texture path reveals a user folder",
    ),
    declare(
        "FBX_EMBEDDED_MEDIA_TOO_LARGE",
        "warning",
        "Embedded file {name} is {megabytes:,.1f} MB, more than an image of the {engine} "
        "profile's largest texture size takes ({limit:,.0f} MB): it is an oversized image, "
        "a layered source file or a video.",
        "Embed a PNG or JPEG at the size the engine needs, or keep the file beside the FBX "
        "instead of inside it.",
        title="Oversized embedded file",
        count_phrase="({megabytes:,.1f} MB)",
    ),
    declare(
        "FBX_UNUSUAL_UNIT",
        "info",
        "The file measures in {unit}, not in centimetres or metres: an engine that ignores "
        "the file's unit imports the model at the wrong size.",
        _EXPORT_UNITS,
        title="Unusual unit of measure",
    ),
    declare(
        "FBX_UNUSUAL_AXES",
        "info",
        "The file's axis system is {system} (right {right}, up {up}, front {front}): an "
        "importer that ignores it shows the model rotated or mirrored.",
        _EXPORT_UNITS,
        title="Unusual axis orientation",
    ),
    declare(
        "FBX_Z_UP",
        "info",
        "The file is Z up (right {right}, up {up}, front {front}), as 3ds Max and Blender "
        "work: its axes were not converted to Y up, so engines and formats that are Y up "
        "(Unity, Godot, glTF) must turn it on import, Unity with a -90° rotation about X on "
        "each root object.",
        "Export with Y up (Blender: Up Y, Forward -Z; 3ds Max: Up Axis Y-up in the FBX "
        "exporter's Axis Conversion), or let the importer bake the conversion (Unity: Bake "
        "Axis Conversion). Unreal is Z up itself and needs nothing.",
        title="Z-up file, axes not converted",
    ),
    declare(
        "FBX_CONVERSION_ON_NODES",
        "info",
        "Every node drawing a mesh ({count}, {name} among them) carries {conversion}: the "
        "exporter converted the axes or unit on the nodes instead of in the geometry, so "
        "engines show each object with that rotation or scale on it (Unity: rotation -90 on "
        "X, scale 100), which animation, physics and further edits inherit.",
        "Export with the conversion applied to the geometry (Blender: Apply Scalings 'FBX "
        "Units Scale' and Apply Transform; 3ds Max and Maya: reset or freeze the transforms), "
        "or let the importer bake it (Unity: Bake Axis Conversion).",
        title="Unit or axis conversion left on the nodes",
        count_phrase="({count} {count:node|nodes})",
    ),
    declare(
        "FBX_NON_UNIT_NORMALS",
        "warning",
        "Mesh {name}: {count:,} of {total:,} normals are not of unit length; the first, "
        "number {first}, has length {length}. Shading that assumes unit normals comes out "
        "too dark or too bright.",
        "Recompute or normalise the normals in the modelling tool before export.",
        title="Broken normals",
        count_phrase="({count:,} of {total:,})",
    ),
]
