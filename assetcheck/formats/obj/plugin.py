"""The OBJ plugin: the OBJ format, its faces check, and a ``read_asset`` hook that loads the
reader for OBJ files.

OBJ has no magic: content is OBJ when every complete line of its first ``SNIFF_BYTES`` is a
comment or one of the :data:`STATEMENTS` of the OBJ specification, and it holds no NUL byte. A
GLB, ZIP or binary FBX is matched by its magic before this test is asked; glTF JSON starts with
``{`` and ASCII FBX with ``;`` or a ``Name:`` node, neither of which is an OBJ statement, and an
MTL file starts with ``newmtl``. A file named ``.obj`` whose content is not recognised is still
read as OBJ, so its reader says what is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.formats.registry import SNIFF_BYTES, FileFormat, leading_text
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.asset import Asset
    from assetcheck.asset.options import ValidationOptions
    from assetcheck.checks import Check
    from assetcheck.formats.source import SourceFile
    from assetcheck.issues import FileIssues


#: The statements of the OBJ specification that are not read.
SKIPPED_STATEMENTS = frozenset(
    b"vp s mg usemap maplib cstype deg bmat step curv curv2 surf parm trim hole scrv sp end "
    b"con lod bevel c_interp d_interp shadow_obj trace_obj ctech stech call csh".split()
)
#: Every statement a file of the format may hold (content sniffing accepts only these).
STATEMENTS = SKIPPED_STATEMENTS | frozenset(b"v vt vn f fo l p g o usemtl mtllib".split())


def _obj_statements(head: bytes) -> bool:
    if b"\x00" in head:
        return False
    lines = leading_text(head).split(b"\n")
    if len(head) >= SNIFF_BYTES and len(lines) > 1:
        lines.pop()  # cut off by the sniffing window
    statements = [line.split()[0] for line in lines if line.strip() and line.lstrip()[:1] != b"#"]
    return bool(statements) and all(word in STATEMENTS for word in statements)


#: Recognised by its statements (see the module).
OBJ = FileFormat("obj", "OBJ", (".obj",), recognise=_obj_statements)


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [OBJ]


@hookimpl
def register_checks() -> list[Check]:
    from assetcheck.formats.obj.faces import faces_check

    return [faces_check(OBJ.name)]


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """The asset in an OBJ file (:func:`assetcheck.formats.obj.reader.read_asset`); None for
    other formats."""
    if source.kind != OBJ.name:
        return None
    from assetcheck.formats.obj import reader

    return reader.read_asset(source, issues, options)
