"""Issue types of the security scan that are not tied to one container format."""

from assetcheck.issues import IssueType

ISSUE_TYPES = [
    IssueType(
        "EXECUTABLE_CONTENT", "error",
        "{file} contains a program or script ({kind}).",
        "Remove programs and scripts from the asset; ship only models, textures and buffers.",
        "security", security_level="critical",
    ),
]
