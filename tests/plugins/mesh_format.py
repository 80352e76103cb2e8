"""A made-up file format, MESH1, added as a plugin through the public hooks alone.

A MESH1 file is text: the line ``MESH1``, then one statement per line: ``v X Y Z`` (a vertex),
``f A B C`` (a triangle, by 0-based vertex numbers) or ``include PATH`` (another file of the
upload); ``#`` starts a comment. The plugin registers the format, reads it, scans it (an
``include`` that leaves the upload is a security finding), checks its triangles and declares
its issue codes. Tests register this module as it is, or copy it into a plugins folder.
"""

from __future__ import annotations

from assetcheck import hookimpl
from assetcheck.asset import Asset, MeshPart
from assetcheck.asset.options import ValidationOptions
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.registry import FileFormat
from assetcheck.formats.source import SourceFile
from assetcheck.issues import FileIssues, IssueArea, IssueType

MESH1 = FileFormat("mesh", "MESH1", (".mesh",), magic=(b"MESH1",))

declare = IssueArea("mesh").declare

ISSUE_TYPES = [
    declare(
        "MESH_SYNTAX_ERROR",
        "error",
        "Line {line} of {file} is not a vertex, a triangle or an include.",
        "Write each line as `v X Y Z`, `f A B C` or `include PATH`.",
    ),
    declare(
        "MESH_UNSAFE_INCLUDE",
        "error",
        "{file} includes {path}, which is outside the upload.",
        "Include only files that travel with the model, by a relative path below it.",
        security_level="high",
    ),
    declare(
        "MESH_DEGENERATE_TRIANGLE",
        "warning",
        "Triangle {index} uses a vertex more than once.",
        "Remove the triangle: it has no area.",
    ),
    declare(
        "MESH_MISSING_VERTEX",
        "error",
        "Triangle {index} names vertex {vertex}, but the file has {count} vertices.",
        "Number the vertices from 0, in the order the file lists them.",
    ),
]


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [MESH1]


@hookimpl
def register_issue_types() -> list[IssueType]:
    return ISSUE_TYPES


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """The asset of a MESH1 file; the triangles go to the check in ``details``."""
    if source.kind != MESH1.name:
        return None
    lines = bytes(source.data).decode("utf-8", "replace").splitlines()
    if not lines or lines[0] != "MESH1":
        issues.add("MESH_SYNTAX_ERROR", line=1)
        return Asset.unread(source.name, MESH1.name)
    vertices: list[tuple[float, ...]] = []
    triangles: list[tuple[int, ...]] = []
    for number, line in enumerate(lines[1:], start=2):
        statement, *values = line.split("#", 1)[0].split() or [""]
        if statement == "include" and len(values) == 1:
            if source.resolve(values[0]) is None:
                issues.add("MESH_UNSAFE_INCLUDE", path=values[0])
        elif statement == "v" and len(values) == 3 and _all_numbers(values, float):
            vertices.append(tuple(float(value) for value in values))
        elif statement == "f" and len(values) == 3 and _all_numbers(values, int):
            triangles.append(tuple(int(value) for value in values))
        elif statement:
            issues.add("MESH_SYNTAX_ERROR", line=number)
    return Asset(
        source.name,
        MESH1.name,
        vertex_count=len(vertices),
        triangle_count=len(triangles),
        parts=[MeshPart("mesh", len(vertices), len(triangles), 0)],
        details={"version": 1, "triangles": triangles},
    )


def _all_numbers(values: list[str], kind: type) -> bool:
    try:
        for value in values:
            kind(value)
    except ValueError:
        return False
    return True


def check_triangles(asset: Asset, context: CheckContext) -> None:
    """Every triangle names three different vertices of the file."""
    for index, triangle in enumerate(asset.details["triangles"]):
        pointer = f"/triangles/{index}"
        for vertex in triangle:
            if not 0 <= vertex < asset.vertex_count:
                context.issues.add(
                    "MESH_MISSING_VERTEX",
                    pointer=pointer,
                    index=index,
                    vertex=vertex,
                    count=asset.vertex_count,
                )
        if len(set(triangle)) < 3:
            context.issues.add("MESH_DEGENERATE_TRIANGLE", pointer=pointer, index=index)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "mesh-triangles",
            "MESH1 triangles name three different vertices of the file.",
            check_triangles,
            ("MESH_MISSING_VERTEX", "MESH_DEGENERATE_TRIANGLE"),
            frozenset({MESH1.name}),
        )
    ]
