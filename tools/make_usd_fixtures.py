"""Make the USD test packages in ``tests/assets/usd`` with usd-core's own tools.

``cube.usdz`` is made as an exporter makes one: a stage written with ``Usd.Stage.CreateNew``
and packaged by ``UsdUtils.CreateNewUsdzPackage``. The hostile packages are written byte by
byte with ``zipfile``, since USD's tools refuse to make them. Run it again after changing it:

    .venv/bin/python tools/make_usd_fixtures.py
"""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade, UsdSkel, UsdUtils, Vt

from assetcheck.previews.png import encode_png

OUT = Path(__file__).resolve().parent.parent / "tests" / "assets" / "usd"

#: A unit cube: 8 points, 6 quads (12 triangles).
POINTS = [(x, y, z) for z in (0, 1) for y in (0, 1) for x in (0, 1)]
QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]

LAYER = """#usda 1.0
(
    defaultPrim = "Root"
    metersPerUnit = 1
    upAxis = "Y"
)
def Xform "Root"
{
    def Mesh "Tri" %s
    {
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        normal3f[] normals = [(0, 0, 1), (0, 0, 1), (0, 0, 1)]
        uniform token subdivisionScheme = "none"
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
    }
}
"""


def cube_stage(path: Path, texture: str) -> None:
    """A textured, animated cube with a skeleton animation, as an exporter writes it."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetTimeCodesPerSecond(24)
    root = UsdGeom.Xform.Define(stage, "/Root")
    stage.SetDefaultPrim(root.GetPrim())
    mesh = UsdGeom.Mesh.Define(stage, "/Root/Cube")
    mesh.CreatePointsAttr(Vt.Vec3fArray([Gf.Vec3f(*p) for p in POINTS]))
    mesh.CreateFaceVertexCountsAttr([4] * len(QUADS))
    mesh.CreateFaceVertexIndicesAttr([i for quad in QUADS for i in quad])
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    normals = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar(
        "normals", Sdf.ValueTypeNames.Normal3fArray, UsdGeom.Tokens.uniform
    )
    normals.Set([(0, 0, -1), (0, 0, 1), (0, -1, 0), (0, 1, 0), (-1, 0, 0), (1, 0, 0)])
    uvs = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar(
        "st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.faceVarying
    )
    uvs.Set([(0, 0), (1, 0), (1, 1), (0, 1)] * len(QUADS))
    material = UsdShade.Material.Define(stage, "/Root/Paint")
    surface = UsdShade.Shader.Define(stage, "/Root/Paint/Surface")
    surface.CreateIdAttr("UsdPreviewSurface")
    image = UsdShade.Shader.Define(stage, "/Root/Paint/Image")
    image.CreateIdAttr("UsdUVTexture")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(texture)
    surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(
        image.ConnectableAPI(), "rgb"
    )
    material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(material)
    spin = root.AddRotateYOp()
    spin.Set(0.0, 1)
    spin.Set(90.0, 25)
    animation = UsdSkel.Animation.Define(stage, "/Root/Wave")
    animation.CreateJointsAttr(["arm", "arm/hand"])
    animation.CreateTranslationsAttr().Set([(0, 0, 0), (0, 1, 0)], 1)
    animation.CreateTranslationsAttr().Set([(0, 0, 0), (0, 2, 0)], 49)
    stage.GetRootLayer().Save()


def stored(
    path: Path, members: list[tuple[str, bytes]], *, aligned: bool = True, compressed: str = ""
) -> None:
    """A package of stored members, each padded to 64 bytes as usdzip does (unless not
    ``aligned``), through the local header's extra field; the member named ``compressed`` is
    deflated instead."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as package:
        for name, data in members:
            info = zipfile.ZipInfo(name)
            if name == compressed:
                info.compress_type = zipfile.ZIP_DEFLATED
            header_end = package.fp.tell() + 30 + len(name.encode())  # type: ignore[union-attr]
            if aligned and header_end % 64:
                info.extra = b"\x00\x00" + (-(header_end + 4) % 64).to_bytes(2, "little")
                info.extra += bytes(-(header_end + 4) % 64)
            elif not aligned and header_end % 64 == 0:
                info.extra = b"\x00\x00\x01\x00\x00"
            package.writestr(info, data)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    png = encode_png(np.full((4, 4, 4), 200, np.uint8))
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "paint.png").write_bytes(png)
        cube_stage(Path(folder) / "cube.usda", "paint.png")
        assert UsdUtils.CreateNewUsdzPackage(
            str(Path(folder) / "cube.usda"), str(OUT / "cube.usdz")
        )
    stored(
        OUT / "leaving.usdz",
        [("root.usda", (LAYER % "(references = @../../outside.usda@</Tri>)").encode())],
    )
    stored(
        OUT / "absolute.usdz",
        [("root.usda", (LAYER % "(references = @/etc/model.usda@</Tri>)").encode())],
    )
    stored(
        OUT / "misaligned.usdz",
        [("root.usda", (LAYER % "").encode()), ("paint.png", png)],
        aligned=False,
    )
    layer = (LAYER % "").encode()
    stored(
        OUT / "compressed.usdz",
        [("root.usda", layer), ("paint.png", png * 40)],
        compressed="paint.png",
    )
    stored(
        OUT / "bomb.usdz",
        [("root.usda", layer), ("zeros.png", bytes(20 << 20))],
        compressed="zeros.png",
    )


if __name__ == "__main__":
    main()
