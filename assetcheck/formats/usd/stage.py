"""Reading a USD stage with Pixar's ``usd-core``: runs in the reader's child process only.

The root layer is opened alone first and every path it and its layers name is judged
(:mod:`~assetcheck.formats.usd.dependencies`); layers named by paths that leave the package
are muted, so USD never opens them (the stage is then composed on an in-memory root that
sublayers the file, with the file's stage metadata copied onto it). The stage gives the
statistics (``docs/statistics.md``), the meshes as polygon geometry, and Pixar's validators'
findings (:mod:`~assetcheck.formats.usd.validators`). USD runs single-threaded here: the
child is forked, and one core is what a job has.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assetcheck.asset import Animation, Asset, Material, MeshPart, Texture
from assetcheck.formats.fbx.model import FbxGeometry, FbxInstance, unpack_geometry
from assetcheck.formats.usd.dependencies import Dependencies, walk_dependencies
from assetcheck.formats.usd.meshes import MeshFault, mesh_geometry
from assetcheck.formats.usd.model import UsdMesh, UsdScene
from assetcheck.formats.usd.validators import run_validators
from assetcheck.issues.findings import Finding, Findings

#: Surface shaders that are physically based: UsdPreviewSurface and MaterialX's standard
#: surfaces (Autodesk Standard Surface, OpenPBR, glTF PBR), by shader id prefix.
PBR_SHADERS = ("UsdPreviewSurface", "ND_standard_surface", "ND_open_pbr_surface", "ND_gltf_pbr")
#: Shaders whose ``inputs:file`` is an image.
TEXTURE_SHADERS = ("UsdUVTexture", "ND_image_", "ND_tiledimage_", "ND_gltf_image")
#: The stage metadata copied onto the in-memory root of a stage with muted layers.
STAGE_METADATA = ("defaultPrim", "upAxis", "metersPerUnit", "timeCodesPerSecond")
#: The reason in each ``Error in 'function' at line N in file F : 'reason'`` of a Tf error.
_RAISED = re.compile(r" : '(.*?)'\s*(?:\n|$)", re.DOTALL)


class UsdParseError(Exception):
    """USD could not open the file: the message says why."""


@dataclass
class UsdRead:
    """What the child sends back: the asset (with its ``usd`` scene), the findings, and the
    relative paths a layer on its own names, as ``(kind, path)``, for the reader to look up."""

    asset: Asset
    findings: list[Finding] = field(default_factory=list)
    beside: list[tuple[str, str]] = field(default_factory=list)


RESULT_TYPES = (
    UsdRead,
    Asset,
    MeshPart,
    Material,
    Texture,
    Animation,
    UsdScene,
    UsdMesh,
    UsdParseError,
    Finding,
    FbxGeometry,
    FbxInstance,
    unpack_geometry,
)


def read_stage(path: str, name: str, encoding: str) -> UsdRead:
    """Open the USD file at ``path`` (a private copy named after its ``encoding``) and read
    it as the upload's file ``name``."""
    from pxr import Sdf, Tf, Work

    Work.SetConcurrencyLimit(1)
    _silence_diagnostics()
    try:
        root = Sdf.Layer.FindOrOpen(path)
    except Tf.ErrorException as error:
        raise UsdParseError(_clean(str(error).strip(), path)) from None
    if root is None:
        raise UsdParseError("USD found no layer in it")
    dependencies = walk_dependencies(root, packaged=encoding == "usdz")
    stage = _compose(root, dependencies)
    scene = UsdScene(encoding)
    findings = Findings(dependencies.findings)
    asset = _statistics(stage, name, scene, findings)
    private = (os.path.dirname(path) + os.sep, os.path.basename(path))
    findings.extend(run_validators(stage, dependencies.reported, private, os.path.basename(name)))
    return UsdRead(asset, list(findings), dependencies.beside)


def _silence_diagnostics() -> None:
    """USD writes its warnings to the standard error: the child's goes nowhere (they are
    reported through the validators)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)


def _compose(root: Any, dependencies: Dependencies) -> Any:
    from pxr import Tf, Usd

    try:
        if not dependencies.muted:
            return Usd.Stage.Open(root)
        stage = Usd.Stage.CreateInMemory()
        stage.MuteAndUnmuteLayers(dependencies.muted, [])
        top = stage.GetRootLayer()
        for key in STAGE_METADATA:
            if root.pseudoRoot.HasInfo(key):
                top.pseudoRoot.SetInfo(key, root.pseudoRoot.GetInfo(key))
        top.subLayerPaths.append(root.identifier)
        return stage
    except Tf.ErrorException as error:
        raise UsdParseError(_clean(str(error).strip(), root.identifier)) from None


def _statistics(stage: Any, name: str, scene: UsdScene, findings: Findings) -> Asset:
    from pxr import Usd, UsdGeom

    scene.up_axis = str(UsdGeom.GetStageUpAxis(stage))
    scene.meters_per_unit = float(UsdGeom.GetStageMetersPerUnit(stage))
    scene.default_prim = str(stage.GetRootLayer().defaultPrim)
    scene.time_codes_per_second = float(stage.GetTimeCodesPerSecond())
    time = Usd.TimeCode.EarliestTime()
    cache = UsdGeom.XformCache(time)
    meshes: dict[str, UsdMesh] = {}
    for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
        scene.prims += 1
        if not prim.IsA(UsdGeom.Mesh):
            continue
        source = prim.GetPrimInPrototype() if prim.IsInstanceProxy() else prim
        key = str(source.GetPath())
        mesh = meshes.get(key)
        if mesh is None:
            mesh = meshes[key] = _mesh(UsdGeom.Mesh(source), key, time, findings)
            mesh.materials = _bound_materials(prim)
        if UsdGeom.Imageable(prim).ComputeVisibility(time) != UsdGeom.Tokens.invisible:
            world = cache.GetLocalToWorldTransform(prim)
            mesh.instances.append(FbxInstance(str(prim.GetPath()), _matrix(world)))
    scene.meshes = list(meshes.values())
    materials, textures = _materials(stage, scene.meshes)
    animations = _animations(stage, scene.time_codes_per_second)
    return Asset(
        filename=name,
        format="usd",
        vertex_count=sum(mesh.vertices for mesh in scene.meshes),
        triangle_count=sum(mesh.triangles for mesh in scene.meshes),
        material_count=len(materials),
        animation_count=len(animations),
        uses_pbr=any(material.pbr for material in materials),
        parts=[
            MeshPart(mesh.name, mesh.vertices, mesh.triangles, len(mesh.materials))
            for mesh in scene.meshes
        ],
        materials=materials,
        textures=textures,
        animations=animations,
        details=scene.summary(),
        usd=scene,
    )


def _mesh(mesh: Any, key: str, time: Any, findings: Findings) -> UsdMesh:
    """The mesh's counts and geometry; a damaged one is reported and counted as empty."""
    try:
        geometry = mesh_geometry(mesh, time)
    except MeshFault as fault:
        findings.add("USD_INVALID_GEOMETRY", name=key, reason=str(fault))
        return UsdMesh(key, 0, 0, 0)
    sizes = geometry.polygon_sizes
    return UsdMesh(
        key,
        vertices=len(geometry.positions),
        triangles=int((sizes[sizes >= 3] - 2).sum()),
        faces=len(sizes),
        geometry=geometry if len(sizes) else None,
    )


def _matrix(world: Any) -> np.ndarray:
    """A ``Gf.Matrix4d`` (row vectors, translation in the last row) as the column-vector 4x4
    matrix ``FbxInstance`` holds."""
    return np.asarray(world, np.float64).reshape(4, 4).T


def _bound_materials(prim: Any) -> list[str]:
    """The paths of the materials bound to the mesh prim and to its material subsets."""
    from pxr import UsdShade

    binding = UsdShade.MaterialBindingAPI(prim)
    targets = [binding] + [
        UsdShade.MaterialBindingAPI(s.GetPrim()) for s in binding.GetMaterialBindSubsets()
    ]
    paths = []
    for target in targets:
        material, _ = target.ComputeBoundMaterial()
        if material:
            paths.append(str(material.GetPath()))
    return list(dict.fromkeys(paths))


def _materials(stage: Any, meshes: list[UsdMesh]) -> tuple[list[Material], list[Texture]]:
    """The bound materials, in order of first use, and the images their shaders name."""
    from pxr import Sdf, Usd, UsdShade

    materials: list[Material] = []
    textures: dict[str, Texture] = {}
    for path in dict.fromkeys(p for mesh in meshes for p in mesh.materials):
        material = UsdShade.Material(stage.GetPrimAtPath(Sdf.Path(path)))
        shading = _surface_id(material)
        images = []
        for prim in Usd.PrimRange(material.GetPrim()):
            shader = UsdShade.Shader(prim)
            if shader and str(shader.GetShaderId() or "").startswith(TEXTURE_SHADERS):
                file = shader.GetInput("file")
                value = file.Get() if file else None
                if value is not None and value.path:
                    images.append(value.path)
        for image in images:
            textures.setdefault(image, Texture(image.rsplit("/", 1)[-1], uri=image))
        materials.append(Material(path, shading, shading.startswith(PBR_SHADERS), len(images)))
    return materials, list(textures.values())


def _surface_id(material: Any) -> str:
    """The id of the material's surface shader (USD's, else MaterialX's), or ``unknown``."""
    for context in ("", "mtlx"):
        shader, _, _ = material.ComputeSurfaceSource(context)
        if shader and shader.GetShaderId():
            return str(shader.GetShaderId())
    return "unknown"


def _animations(stage: Any, time_codes_per_second: float) -> list[Animation]:
    """Each skeletal animation, and the stage's time-sampled transforms as one animation."""
    from pxr import Usd, UsdGeom, UsdSkel

    animations = []
    times: list[float] = []
    channels = 0
    rate = time_codes_per_second if time_codes_per_second > 0 else 24.0
    for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
        if prim.IsA(UsdSkel.Animation):
            skel = UsdSkel.Animation(prim)
            samples: set[float] = set()
            for attribute in (
                skel.GetTranslationsAttr(),
                skel.GetRotationsAttr(),
                skel.GetScalesAttr(),
            ):
                samples.update(attribute.GetTimeSamples())
            joints = skel.GetJointsAttr().Get() or []
            span = (max(samples) - min(samples)) / rate if samples else 0.0
            animations.append(Animation(str(prim.GetPath()), len(joints), span))
        elif prim.IsA(UsdGeom.Xformable):
            for op in UsdGeom.Xformable(prim).GetOrderedXformOps():
                samples_of_op = op.GetAttr().GetTimeSamples()
                if len(samples_of_op) > 1:
                    channels += 1
                    times.extend((samples_of_op[0], samples_of_op[-1]))
    if channels:
        animations.append(Animation("transforms", channels, (max(times) - min(times)) / rate))
    return animations


def _clean(message: str, path: str) -> str:
    """An error USD raised, without its source lines and the private ``path`` of the copy."""
    reasons = _RAISED.findall(message) or [message]
    return " ".join(" ".join(reasons).replace(path, "the file").split())
