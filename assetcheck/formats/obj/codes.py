"""Issue types of the OBJ reader: the text, its indices, its material libraries and textures,
the paths it names, and faces engines triangulate differently."""

from assetcheck.issues import IssueArea

declare = IssueArea("obj").declare

ISSUE_TYPES = [
    declare(
        "OBJ_PARSE_ERROR",
        "error",
        "{file} could not be read as OBJ: {reason}.",
        "Export the model again as OBJ (text in UTF-8 or ASCII, one statement per line).",
        title="OBJ file could not be read",
    ),
    declare(
        "OBJ_LINE_TOO_LONG",
        "error",
        "A line of {file} is longer than the {limit:,} bytes allowed (the issue's offset is "
        "where it starts); the file was read no further.",
        "Export the model again: no OBJ exporter writes lines this long, and a file that "
        "never ends a line is built to exhaust the memory of the tools that open it.",
        security_level="medium",
        title="Endless line in the OBJ",
    ),
    declare(
        "OBJ_NO_GEOMETRY",
        "error",
        "{file} has no faces, lines or points: there is nothing to draw.",
        "Export the meshes themselves (`f` statements), not only their vertices.",
        title="OBJ file with nothing to draw",
    ),
    declare(
        "OBJ_INDEX_OUT_OF_RANGE",
        "error",
        "{count:,} faces, lines or points of {file} refer to a vertex, texture coordinate or "
        "normal the file does not have (the first on line {line}); they were left out.",
        "Export the model again; a file whose indices point past its data is damaged or "
        "crafted, and importers read it differently or crash.",
        title="Faces refer to vertices the OBJ lacks",
        count_phrase="({count:,} {count:element|elements})",
    ),
    declare(
        "OBJ_SYNTAX_ERROR",
        "error",
        "{count:,} statements of {file} could not be read (the first, line {line}, is a "
        "`{statement}` statement with missing or malformed values): faces, lines and points "
        "were left out, missing or malformed numbers read as 0, as assimp reads them.",
        "Export the model again; write `v X Y Z`, `vt U V`, `vn X Y Z` and faces as "
        "`f V/VT/VN ...` with whole-number indices.",
        title="Unreadable OBJ statements",
        count_phrase="({count:,} {count:line|lines})",
    ),
    declare(
        "OBJ_LOOSE_NUMBERS",
        "warning",
        "{count:,} statements of {file} hold numbers that are not well formed, such as "
        "`3.1+e2` (the first on line {line}); they were read up to where they stop being a "
        "number, as assimp does, but other importers refuse them or read them differently.",
        "Export the model again with a tool that writes plain decimal numbers.",
        title="Malformed numbers in the OBJ",
        count_phrase="({count:,} {count:line|lines})",
    ),
    declare(
        "OBJ_UNKNOWN_STATEMENT",
        "warning",
        "{count:,} lines of {file} hold statements OBJ does not have (the first, line "
        "{line}: `{statement}`); they were skipped.",
        "Remove the lines, or export the model again with a standard OBJ exporter.",
        title="Unknown statements in the OBJ",
        count_phrase="({count:,} {count:line|lines})",
    ),
    declare(
        "OBJ_EXTERNAL_PATH",
        "error",
        "{file} names '{path}', which points outside the upload (a scheme, a drive or an "
        "absolute path); it was not read.",
        "Ship the material library and textures with the model and name them by relative "
        "paths below its folder.",
        security_level="high",
        title="OBJ names a file outside the upload",
    ),
    declare(
        "OBJ_PATH_TRAVERSAL",
        "error",
        "{file} names '{path}', which climbs out of the model's folder; it was not read.",
        "Name the material library and textures by paths inside the model's own folder, "
        "without '..' above it.",
        security_level="critical",
        title="OBJ path climbs out of the model's folder",
    ),
    declare(
        "OBJ_MISSING_MTL",
        "error",
        "{file} uses the material library {path}, which the upload does not hold: its "
        "materials and textures are unknown, and engines draw the model untextured.",
        "Upload the model as a ZIP with its .mtl file and textures, at the paths the OBJ names.",
        title="Material library missing",
    ),
    declare(
        "OBJ_BAD_MTL",
        "error",
        "The material library {path} of {file} could not be read: {reason}.",
        "Export the material library again with the model.",
        title="Material library could not be read",
    ),
    declare(
        "OBJ_MISSING_TEXTURE",
        "error",
        "Material {material} uses the image {path}, which the upload does not hold.",
        "Upload the model as a ZIP with its textures, at the paths the .mtl file names.",
        title="Texture missing",
    ),
    declare(
        "OBJ_UNDEFINED_MATERIAL",
        "warning",
        "{file} uses the material {material}, which none of its material libraries defines; "
        "engines draw those faces with a default material.",
        "Export the material library again with the model, or fix the material's name.",
        title="Material not defined",
    ),
    declare(
        "OBJ_NONPLANAR_FACES",
        "warning",
        "Mesh {name} has faces of four or more corners that are not flat ({count:,} in all): "
        "each importer splits them into triangles its own way, so the surface and its shading "
        "differ between engines.",
        "Triangulate the mesh before export (most exporters have a Triangulate Faces option).",
        title="Faces that are not flat",
        count_phrase="({count:,} {count:face|faces})",
    ),
    declare(
        "OBJ_CONCAVE_FACES",
        "warning",
        "Mesh {name} has concave faces ({count:,} in all): importers that split faces as fans "
        "make triangles outside them, so holes and overlaps appear.",
        "Triangulate the mesh before export (most exporters have a Triangulate Faces option).",
        title="Concave faces",
        count_phrase="({count:,} {count:face|faces})",
    ),
]
