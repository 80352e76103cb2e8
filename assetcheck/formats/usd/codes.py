"""Issue types of the USD reader: the layers, the USDZ package rules AR Quick Look relies on,
the paths a layer names, and Pixar's validators (``pxr.UsdValidation``) mapped to codes by
:mod:`assetcheck.formats.usd.validators`."""

from assetcheck.issues import IssueArea

declare = IssueArea("usd").declare

ISSUE_TYPES = [
    declare(
        "USD_PARSE_ERROR",
        "error",
        "{file} could not be read as USD: {reason}.",
        "Export the model again as USDZ (or .usda/.usdc) with a current USD exporter, and "
        "open it in usdview or Reality Converter to see that it loads.",
        title="USD file could not be read",
    ),
    declare(
        "USD_PARSER_CRASHED",
        "error",
        "The USD library crashed while reading {file}: {reason}. The file is damaged or "
        "crafted to break USD readers.",
        "Export the model again with a current USD exporter.",
        security_level="medium",
        title="USD reader crashed",
    ),
    declare(
        "USD_INVALID_GEOMETRY",
        "error",
        "Mesh {name} is damaged: {reason}; it was left out of the counts and checks.",
        "Export the mesh again: its face vertex counts and indices must agree with its points.",
        title="Damaged USD mesh",
    ),
    declare(
        "USDZ_COMPRESSED_MEMBER",
        "error",
        "Member {member} of the USDZ package is compressed; USD reads package members in "
        "place and cannot read compressed ones (AR Quick Look shows nothing).",
        "Make the package with `usdzip` or `UsdUtils.CreateNewUsdzPackage`, which store "
        "members uncompressed; a plain ZIP tool compresses them.",
        title="Compressed member in a USDZ",
    ),
    declare(
        "USDZ_UNALIGNED_MEMBER",
        "error",
        "The data of member {member} of the USDZ package starts at byte {start:,}, not at a "
        "multiple of 64; USD maps package members in place and AR Quick Look refuses the "
        "package.",
        "Make the package with `usdzip` or `UsdUtils.CreateNewUsdzPackage`, which pad every "
        "member to a 64-byte boundary.",
        title="Member not aligned to 64 bytes",
    ),
    declare(
        "USDZ_FILE_TYPE_NOT_ALLOWED",
        "error",
        "Member {member} of the USDZ package is of a type a USDZ may not hold (allowed: USD "
        "layers, PNG, JPEG and EXR images, M4A, MP3 and WAV sound).",
        "Convert the file to an allowed type, or leave it out of the package.",
        title="File type not allowed in a USDZ",
    ),
    declare(
        "USD_MISSING_DEFAULT_PRIM",
        "error",
        "{file} names no default prim, or one it does not define ({detail}): a stage that "
        "references it, and AR Quick Look, do not know what to show.",
        "Set the root layer's `defaultPrim` to the top prim of the model "
        "(`stage.SetDefaultPrim(...)`).",
        title="No default prim",
    ),
    declare(
        "USD_MISSING_STAGE_METADATA",
        "warning",
        "{file} does not say its units or up axis ({detail}); viewers guess, and the model "
        "appears at the wrong size or lying on its side.",
        "Set `metersPerUnit` and `upAxis` on the root layer "
        "(`UsdGeom.SetStageMetersPerUnit`, `UsdGeom.SetStageUpAxis`).",
        title="Units or up axis not set",
    ),
    declare(
        "USD_EXTERNAL_PATH",
        "error",
        "{file} names '{path}' (a {kind}), which points outside the package or upload (a "
        "scheme, a drive or an absolute path); it was not read.",
        "Package every layer and texture into the USDZ and name them by relative paths "
        "inside it (`UsdUtils.CreateNewUsdzPackage` does so).",
        security_level="high",
        title="USD names a file outside the package",
    ),
    declare(
        "USD_PATH_TRAVERSAL",
        "error",
        "{file} names '{path}' (a {kind}), which climbs out of the package with '..'; it was "
        "not read.",
        "Name layers and textures by paths inside the package, without '..' above its root.",
        security_level="critical",
        title="USD path climbs out of the package",
    ),
    declare(
        "USD_MISSING_DEPENDENCY",
        "error",
        "{file} names '{path}' (a {kind}), which the package or upload does not hold: viewers "
        "show the model without it.",
        "Package the missing layer or texture with the model (`UsdUtils.CreateNewUsdzPackage` "
        "gathers every dependency).",
        title="USD dependency missing",
    ),
    declare(
        "USD_LAYER_NOT_COMPOSED",
        "warning",
        "{file} names the layer '{path}' (a {kind}), which the upload holds but which was not "
        "composed: a layer on its own is read alone, so what that layer brings is not counted "
        "or checked.",
        "Package the asset as a USDZ (`usdzip`, `UsdUtils.CreateNewUsdzPackage`), so that it "
        "travels, and is validated, whole.",
        title="Layer not composed",
    ),
    declare(
        "USD_COMPOSITION_ERROR",
        "error",
        "Composing the stage of {file} failed at {site}: {detail}",
        "Fix the reference, payload, inherit or variant the message names, so that every "
        "arc points at a prim that exists.",
        title="USD composition error",
    ),
    declare(
        "USD_ATTRIBUTE_TYPE_MISMATCH",
        "error",
        "An attribute of {file} is not of the type its schema or shader defines ({site}): {detail}",
        "Author the attribute with the type its schema or shader declares.",
        title="Attribute of the wrong type",
    ),
    declare(
        "USD_MATERIAL_BINDING",
        "warning",
        "A material binding of {file} is not well formed ({site}): {detail}",
        "Apply MaterialBindingAPI to every prim with a `material:binding` relationship and "
        "give material subsets the `materialBind` family; renderers ignore other bindings.",
        title="Material binding not well formed",
    ),
    declare(
        "USD_SKEL_BINDING",
        "warning",
        "A skeleton binding of {file} is not well formed ({site}): {detail}",
        "Apply SkelBindingAPI to skinned prims and place them under a SkelRoot; otherwise "
        "the skin is not deformed.",
        title="Skeleton binding not well formed",
    ),
    declare(
        "USD_NORMAL_MAP",
        "warning",
        "A normal map of {file} is not read as one ({site}): {detail}",
        "On the UsdUVTexture feeding `inputs:normal`, set `inputs:scale` to (2, 2, 2, 1), "
        "`inputs:bias` to (-1, -1, -1, 0) and `inputs:sourceColorSpace` to `raw`, and point "
        "`inputs:file` at an image in the package.",
        title="Normal map set up wrongly",
    ),
    declare(
        "USD_ENCAPSULATION",
        "warning",
        "A prim of {file} is nested where its kind may not be ({site}): {detail}",
        "Move the prim: meshes never inside meshes or materials, shaders inside materials "
        "or node graphs only.",
        title="Prim nested where it may not be",
    ),
    declare(
        "USD_SCHEMA_RULE",
        "warning",
        "A prim of {file} breaks a rule of its schema ({site}): {detail}",
        "Fix the prim as the message says (physics bodies on transformable prims, joints "
        "between existing bodies, geometry subsets covering valid faces).",
        title="USD schema rule broken",
    ),
]
