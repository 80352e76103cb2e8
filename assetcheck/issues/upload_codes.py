"""Issue types about the upload as a whole and about reading it.

The formats these messages name are the registered ones (``formats.registry``), filled in as
the fields ``formats``, ``model_formats`` and ``container_formats``
(``FormatRegistry.message_fields``): ``GLB, glTF, FBX, OBJ, USD or ZIP`` with the built-in
formats alone.
"""

from assetcheck.issues import IssueArea

declare = IssueArea("core").declare

ISSUE_TYPES = [
    declare(
        "UNSUPPORTED_FILE_TYPE",
        "error",
        "{file} is not a {formats} file (its content matches none of them).",
        "Export the model as {model_formats}, or pack such files in a {container_formats}.",
        title="File type not supported",
    ),
    declare(
        "EMPTY_FILE",
        "error",
        "{file} is empty: it has no bytes to read.",
        "Export the model again, or copy the complete file: it was cut short while being saved "
        "or copied.",
        title="File is empty",
    ),
    declare(
        "FILE_TYPE_MISMATCH",
        "warning",
        "{file} is named like a {claimed} file but its content is {actual}.",
        "Rename the file with the extension of its real format ({extension}).",
        security_level="medium",
        title="File extension does not match the content",
    ),
    declare(
        "NO_MODEL_FILES",
        "error",
        "The upload holds no {model_formats} file.",
        "Upload a model file, or a {container_formats} that contains one.",
        title="No 3D model in the upload",
    ),
    declare(
        "READER_CRASHED",
        "error",
        "The {plugin} reader failed on {file}: {error}.",
        "This is a bug in the reader, not in your file: report it with the file attached.",
        title="The file could not be read",
    ),
    declare(
        "VALIDATION_TIMEOUT",
        "error",
        "Parsing {file} took longer than the {seconds:g} s limit and was stopped.",
        "Simplify or split the model; a file this slow to parse will also be slow in an engine.",
        title="File took too long to check",
    ),
    declare(
        "RESOURCE_LIMIT",
        "error",
        "Parsing {file} needed more than the {limit_mb} MB memory limit and was stopped.",
        "Check the file for corrupt or absurd declared sizes, or split it into smaller files.",
        title="File needs too much memory to check",
    ),
    declare(
        "CHECK_CRASHED",
        "warning",
        "The {check} check of plugin {plugin} failed on this file: {error}.",
        "This is a bug in the check, not necessarily in your file: report it to the plugin's "
        "authors. Every other check still ran.",
        title="A check could not finish",
    ),
]
