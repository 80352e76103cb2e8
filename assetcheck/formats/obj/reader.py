"""The OBJ reader: the file's statements (:mod:`~assetcheck.formats.obj.parse`), its meshes,
its material libraries and their images, into the asset model.

Counts (``docs/statistics.md``): a mesh's triangles are its faces fan-triangulated (a face of
``n`` corners gives ``n - 2``); its vertices are the distinct positions its faces, lines and
points use, compared as 32-bit floats (what engines store). The file's vertices are the
distinct positions of the whole file, so a position two meshes share counts once: the file
total can be less than the sum of its meshes. That is what assimp's OBJ import and export
make of the file (``tests/formats/obj/test_obj_assimp.py``).

Paths the file names (``mtllib``, and the images of its materials) are looked up only inside
the upload, beside the file or in its ZIP; backslashes are read as slashes, as Windows
exporters mean them. A path outside the upload is a security finding and is never read.
"""

from __future__ import annotations

import posixpath

import numpy as np

from assetcheck.asset import Asset, Material, MeshPart, Texture
from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.fbx.model import FbxGeometry, FbxLayer
from assetcheck.formats.images import image_info
from assetcheck.formats.obj.model import ObjMesh, ObjScene
from assetcheck.formats.obj.mtl import MtlMaterial, read_mtl
from assetcheck.formats.obj.parse import Element, ObjText, StopReading, Tally, read_obj_text
from assetcheck.formats.obj.plugin import OBJ
from assetcheck.formats.registry import SNIFF_BYTES
from assetcheck.formats.source import SourceFile
from assetcheck.issues import FileIssues


def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset:
    """The asset in an OBJ file; an unread asset (after saying why) when the file is not
    OBJ text, has nothing to draw or was stopped by a limit."""
    if b"\x00" in bytes(source.data[:SNIFF_BYTES]):
        issues.add(
            "OBJ_PARSE_ERROR",
            offset=0,
            reason="it is not text in UTF-8 or ASCII (it holds NUL bytes, as binary files "
            "and UTF-16 text do)",
        )
        return Asset.unread(source.name, OBJ.name)
    text = read_obj_text(source.data, options.limits)
    if text.stop is not None:
        issues.add(text.stop.code, **text.stop.fields)
        return Asset.unread(source.name, OBJ.name)
    _report_text(text, issues)
    if not len(text.element_kinds):
        issues.add("OBJ_NO_GEOMETRY")
        return Asset.unread(source.name, OBJ.name)
    meshes = [_mesh(text, part) for part in range(len(text.parts))]
    libraries, complete = _libraries(source, text.libraries, issues)
    materials, textures = _materials(source, meshes, libraries, complete, issues)
    scene = ObjScene(meshes, [path for path, _ in text.libraries])
    return Asset(
        filename=source.name,
        format=OBJ.name,
        vertex_count=_distinct_positions(text.positions, text.corners[:, 0]),
        triangle_count=sum(mesh.triangles for mesh in meshes),
        material_count=len(materials),
        uses_pbr=any(material.pbr for material in materials),
        parts=[
            MeshPart(mesh.name, mesh.vertices, mesh.triangles, len(mesh.materials))
            for mesh in meshes
        ],
        materials=materials,
        textures=textures,
        details=scene.summary(),
        obj=scene,
    )


def _report_text(text: ObjText, issues: FileIssues) -> None:
    reported: list[tuple[str, Tally]] = [
        ("OBJ_SYNTAX_ERROR", text.syntax_errors),
        ("OBJ_INDEX_OUT_OF_RANGE", text.out_of_range),
        ("OBJ_LOOSE_NUMBERS", text.loose_numbers),
        ("OBJ_UNKNOWN_STATEMENT", text.unknown_statements),
    ]
    for code, tally in reported:
        if tally.count:
            issues.add(code, count=tally.count, line=tally.line, statement=tally.example)


def _mesh(text: ObjText, part: int) -> ObjMesh:
    """The mesh of ``text.parts[part]``: its counts, and its faces as polygon geometry."""
    group, material = text.parts[part]
    sizes = text.element_sizes
    chosen = text.element_parts == part
    corner_chosen = np.repeat(chosen, sizes)
    kinds = text.element_kinds[chosen]
    faces = kinds == Element.FACE
    face_sizes = sizes[chosen][faces]
    name = group if material is None else f"{group} ({material})"
    mesh = ObjMesh(
        name=name,
        material=material,
        vertices=_distinct_positions(text.positions, text.corners[corner_chosen, 0]),
        triangles=int(np.maximum(face_sizes - 2, 0).sum()),
        faces=int(np.count_nonzero(faces)),
        lines=int(np.count_nonzero(kinds == Element.LINE)),
        points=int(np.count_nonzero(kinds == Element.POINT)),
    )
    if mesh.faces:
        face_corners = np.repeat(chosen & (text.element_kinds == Element.FACE), sizes)
        mesh.geometry = _geometry(text, text.corners[face_corners], face_sizes)
    return mesh


def _geometry(text: ObjText, corners: np.ndarray, sizes: np.ndarray) -> FbxGeometry:
    """Faces as polygon geometry: the positions they use, and normals and UVs as layers
    when every corner has one."""
    used, positions = np.unique(corners[:, 0], return_inverse=True)
    starts = (np.cumsum(sizes) - sizes).astype(np.int32)
    return FbxGeometry(
        text.positions[used],
        positions.astype(np.int32).reshape(-1),
        starts,
        normals=_layer(text.normals, corners[:, 2]),
        uvs=_layer(text.texcoords, corners[:, 1]),
    )


def _layer(values: np.ndarray, rows: np.ndarray) -> FbxLayer | None:
    if not len(rows) or int(rows.min()) < 0:
        return None
    return FbxLayer(values, rows.astype(np.int32))


def _distinct_positions(positions: np.ndarray, rows: np.ndarray) -> int:
    """How many different positions the ``rows`` of ``positions`` hold, as 32-bit floats
    (-0 and 0 are one value)."""
    if not len(rows):
        return 0
    values = np.ascontiguousarray(positions[np.unique(rows)].astype(np.float32) + np.float32(0))
    return len(np.unique(values.view(np.dtype((np.void, 12)))))


def _safe_path(source: SourceFile, path: str, issues: FileIssues) -> str | None:
    """The upload path ``path`` names (backslashes read as slashes), or None after reporting
    a path that leaves the upload."""
    written = path.replace("\\", "/")
    resolved = source.resolve(written)
    if resolved is not None:
        return resolved
    relative = not written.startswith("/") and ":" not in written.split("/", 1)[0]
    if relative and posixpath.normpath(posixpath.join(source.base, written)).startswith(".."):
        issues.add("OBJ_PATH_TRAVERSAL", path=path)
    else:
        issues.add("OBJ_EXTERNAL_PATH", path=path)
    return None


def _libraries(
    source: SourceFile, named: list[tuple[str, int]], issues: FileIssues
) -> tuple[dict[str, MtlMaterial], bool]:
    """The materials of every material library the file names, by name (a later library's
    definition of a name wins, as in OBJ importers), and whether every library was read."""
    materials: dict[str, MtlMaterial] = {}
    complete = True
    for path, _ in dict.fromkeys(named):
        resolved = _safe_path(source, path, issues)
        data = None if resolved is None else source.resources.read(resolved)
        if data is None:
            if resolved is not None:
                issues.add("OBJ_MISSING_MTL", path=path)
            complete = False
            continue
        try:
            materials.update(read_mtl(data))
        except StopReading as stopped:
            issues.add(
                "OBJ_BAD_MTL",
                path=path,
                reason=f"a line is longer than the {stopped.stop.fields['limit']:,} bytes allowed",
            )
            complete = False
    return materials, complete


def _materials(
    source: SourceFile,
    meshes: list[ObjMesh],
    libraries: dict[str, MtlMaterial],
    complete: bool,
    issues: FileIssues,
) -> tuple[list[Material], list[Texture]]:
    """The materials the meshes use (``usemtl`` names, in order of first use) and the images
    they name (each path once). A name no library defines is reported only when every
    library was read (a missing library is reported once, not once per material)."""
    materials: list[Material] = []
    textures: dict[str, Texture] = {}
    for name in dict.fromkeys(mesh.material for mesh in meshes if mesh.material is not None):
        found = libraries.get(name)
        if found is None:
            if complete:
                issues.add("OBJ_UNDEFINED_MATERIAL", material=name)
            materials.append(Material(name, "unknown", pbr=False))
            continue
        for _, path in found.images:
            if path not in textures:
                textures[path] = _texture(source, name, path, issues)
        shading = "pbr" if found.pbr else "phong"
        materials.append(Material(name, shading, found.pbr, len(found.images)))
    return materials, list(textures.values())


def _texture(source: SourceFile, material: str, path: str, issues: FileIssues) -> Texture:
    """The image at ``path``, sized from its header when the upload holds it."""
    texture = Texture(posixpath.basename(path.replace("\\", "/")), uri=path)
    resolved = _safe_path(source, path, issues)
    if resolved is None:
        return texture
    data = source.resources.read(resolved)
    if data is None:
        issues.add("OBJ_MISSING_TEXTURE", material=material, path=path)
        return texture
    texture.byte_size = len(data)
    info = image_info(data)
    if info is not None:
        texture.mime_type, texture.width, texture.height = info.mime_type, info.width, info.height
    return texture
