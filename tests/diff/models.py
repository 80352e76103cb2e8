"""Versions of one model for comparisons: an original, a decimated copy, a re-textured copy, in
GLB, glTF and FBX, written with the ``assetcheck.testing`` builders."""

from __future__ import annotations

from pathlib import Path

from assetcheck.engine import validate
from assetcheck.reports import Report
from assetcheck.reports.document import build_report
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, binary_fbx, grid
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes


def gltf_builder(
    triangles: int = 200,
    texture_side: int = 64,
    materials: int = 1,
    texcoords: bool = True,
) -> GltfBuilder:
    """A mesh ``Body`` of ``triangles`` separate triangles, with UVs (unless not
    ``texcoords``), its first material textured by a ``texture_side`` PNG."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(texture_side, texture_side)))
    first = builder.add_material("Paint", base_color_texture=texture)
    for number in range(1, materials):
        builder.add_material(f"Extra{number}")
    body = Primitive(
        3 * triangles, 3 * triangles, normals=True, texcoords=texcoords, material=first
    )
    builder.add_node(builder.add_mesh([body], "Body"), "Body")
    return builder


def glb(path: Path, **version: int | bool) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return gltf_builder(**version).write_glb(path)  # type: ignore[arg-type]


def gltf(folder: Path, **version: int | bool) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return gltf_builder(**version).write_gltf(folder, "model")  # type: ignore[arg-type]


def fbx(path: Path, cells: int = 10, textures: int = 1) -> Path:
    """A grid of ``cells`` x ``cells`` quads with a material and ``textures`` embedded images."""
    videos = [
        VideoSpec(f"Texture{number}", f"texture{number}.png", png_bytes(8, 8))
        for number in range(textures)
    ]
    scene = Scene(
        meshes=[grid("Floor", cells, cells)], materials=[MaterialSpec("Paint")], videos=videos
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(binary_fbx(scene))
    return path


def report(path: Path, name: str | None = None, engine: str = "generic") -> Report:
    """The JSON report of ``path``, named ``name`` (default: the path)."""
    return build_report(validate(path, engine=engine, filename=name or path.as_posix()))
