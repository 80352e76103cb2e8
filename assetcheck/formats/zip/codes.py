"""Issue types about ZIP archives: their structure and the archive security scan.

``file`` is always the member concerned, named by its path inside the upload's archive (through
nested archives: ``packs/trees.zip/oak.glb``), or the archive itself for archive-wide findings.
"""

from assetcheck.issues import IssueArea

declare = IssueArea("zip").declare

ISSUE_TYPES = [
    declare(
        "ZIP_CORRUPT",
        "error",
        "{file} is damaged: {reason}.",
        "Pack the files again with a standard ZIP tool and upload the new archive.",
        title="Damaged ZIP archive",
    ),
    declare(
        "ZIP_UNSUPPORTED_COMPRESSION",
        "warning",
        "{file} is compressed with {method}, which AssetCheck cannot read, so it was not scanned.",
        "Pack the archive again with the usual Deflate compression (or none).",
        security_level="medium",
        title="ZIP entry packed in a way AssetCheck cannot read",
    ),
    declare(
        "ZIP_BOMB",
        "error",
        "{file} is a decompression bomb: {reason}. Reading the archive stopped there.",
        "Pack the original files again; split content that really is this large or repetitive.",
        security_level="critical",
        title="ZIP bomb (unpacks to a huge size)",
    ),
    declare(
        "ZIP_OVERLAPPING_ENTRIES",
        "error",
        "{file} shares its bytes with {other}: {count} entries of the archive overlap, the "
        "construction of an overlapping zip bomb.",
        "Pack the original files again with a standard ZIP tool; never upload this archive.",
        security_level="critical",
        title="ZIP bomb (overlapping entries)",
    ),
    declare(
        "ZIP_PATH_TRAVERSAL",
        "error",
        "{file} would be extracted outside the target folder: {reason}.",
        "Give every member a relative path inside the archive, without '..', '/' or a drive.",
        security_level="critical",
        title="ZIP entry would unpack outside its folder",
    ),
    declare(
        "ZIP_SYMLINK",
        "error",
        "{file} is a symbolic link; extracted, it could point anywhere on the disk.",
        "Put the file itself in the archive instead of a link to it.",
        security_level="high",
        title="Shortcut (symbolic link) in the ZIP",
    ),
    declare(
        "ZIP_ENCRYPTED",
        "warning",
        "{file} is encrypted, so its content could not be scanned.",
        "Upload the archive without a password.",
        security_level="medium",
        title="Password-protected file in the ZIP",
    ),
    declare(
        "ZIP_TOO_MANY_ENTRIES",
        "error",
        "{file} holds more entries than the {limit} scanned per upload (members of archives "
        "inside it included); the rest were not scanned.",
        "Upload fewer files at once, or split the archive.",
        security_level="high",
        title="Too many files in the ZIP",
    ),
    declare(
        "ZIP_NESTED_ARCHIVE",
        "warning",
        "{file} is an archive inside the archive (nesting depth {depth}).",
        "Put the model files in the archive directly instead of in an archive inside it.",
        security_level="medium",
        title="Archive inside the archive",
    ),
    declare(
        "ZIP_NESTING_TOO_DEEP",
        "error",
        "{file} is an archive nested {depth} levels deep, past the limit of {limit}: its "
        "content was not scanned.",
        "Put the model files in the archive directly instead of in archives inside archives.",
        security_level="high",
        title="Archives nested too deep",
    ),
]
