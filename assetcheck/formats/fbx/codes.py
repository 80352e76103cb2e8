"""Issue types of the FBX reader and of its bounded walk (the structural security scan)."""

from assetcheck.issues import IssueArea

declare = IssueArea("fbx").declare

ISSUE_TYPES = [
    declare(
        "FBX_MALFORMED",
        "error",
        "{file} is not a well-formed FBX file: {reason}. It was not parsed.",
        "Export the file again from the authoring tool. A file built like this one can make "
        "the tools that open it exhaust their memory or crash.",
        security_level="high",
        title="Broken FBX file",
    ),
    declare(
        "FBX_TRUNCATED",
        "error",
        "{file} ends before its content does ({reason}): it was cut short, so it was not parsed.",
        "Upload or copy the file again; if it is also cut short where it was saved, export it "
        "again from the authoring tool.",
        title="FBX file cut short",
    ),
    declare(
        "FBX_PARSE_ERROR",
        "error",
        "{file} could not be read as FBX: {reason}.",
        "Check that the file is a complete FBX export, not truncated or damaged in transfer, "
        "and export it again.",
        title="FBX file could not be read",
    ),
    declare(
        "FBX_PARSER_CRASHED",
        "error",
        "The FBX parser crashed on {file} ({reason}).",
        "Export the file again. A file that crashes a parser is damaged or crafted to attack "
        "the tools that open it.",
        security_level="high",
        title="FBX reader crashed on the file",
    ),
    declare(
        "FBX_UNSUPPORTED_VERSION",
        "error",
        "{file} is FBX version {version}, outside the supported versions {minimum} to "
        "{maximum}; what it holds was read on a best-effort basis.",
        "Export the file again as FBX 2014 or later (version 7400 to 7700).",
        title="Unsupported FBX version",
    ),
    declare(
        "FBX_INVALID_GEOMETRY",
        "error",
        "Mesh {name} of {file} has broken geometry: {reason}. Its geometry was not checked.",
        "Export the file again from the authoring tool; a file whose indices point outside "
        "its arrays is damaged or crafted, and importers read it differently or crash.",
        title="Broken mesh in the FBX",
    ),
    declare(
        "FBX_UNSET_LAYER_VALUES",
        "warning",
        "Mesh {name}: {count:,} of {total:,} {items} have no {layer} (the file writes index "
        "-1, meaning none). Importers fill the gap differently (ufbx repeats the last value, "
        "others use the first or zero), so these {items} can look different in each engine.",
        "Give every face its {layer} in the modelling tool (unwrap the faces left without UVs, "
        "assign a material to every polygon) and export again.",
        title="Gaps in the mesh's normals, UVs or colours",
        count_phrase="({count:,} of {total:,} {items} without {layer})",
    ),
]
