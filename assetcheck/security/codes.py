"""Issue types of the security scan that are not tied to one container format."""

from assetcheck.issues import IssueArea

declare = IssueArea("security").declare

ISSUE_TYPES = [
    declare(
        "EXECUTABLE_CONTENT",
        "error",
        "{file} contains a program or script ({kind}).",
        "Remove programs and scripts from the asset; ship only models, textures and buffers.",
        security_level="critical",
        title="Program or script inside the file",
    ),
    declare(
        "POLYGLOT_FILE",
        "error",
        "{file} also holds a ZIP archive of {entries} entries, from byte {start}: viewers "
        "ignore it, unzip tools open it, and it was not scanned.",
        "Export the model again: a model file has no reason to carry an archive inside it.",
        security_level="high",
        title="ZIP archive hidden in the file",
    ),
]
