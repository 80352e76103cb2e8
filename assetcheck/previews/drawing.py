"""Preview pictures of the model files of an upload, drawn on the server on the CPU (no GPU).

The worker draws them as the validation ends, in the same child process (so under the same time
and memory limits), into the job's working folder beside the upload; the job's storage keeps
them with the job (:meth:`~assetcheck.service.jobs.storage.JobStorage.keep_previews`) and removes
them
with it. ``validate()`` hands each asset it read to a :class:`PreviewWriter` once its checks
are done (``on_checked``), so nothing is read or decoded twice. glTF triangles come from the
document model the checks read (``asset.gltf``: :mod:`assetcheck.formats.gltf.model`), placed
in the scene by the node transforms; FBX triangles from the FBX reader's decoded geometry,
placed by the node transforms (geometric pivots included) and turned into metres with +Y up
by the file's unit and axis system. From the same reading, each model file drawn also gets
the 3D viewer's files (:mod:`assetcheck.previews.viewer_files`).

What a job may store beside its upload is bounded (a :class:`~assetcheck.previews.budget.
ByteBudget` the service sets): a file that would pass the bound is not written, and the
writer lists it with the reason, for the report.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from assetcheck.asset import Asset
from assetcheck.formats.fbx.model import PolygonScene, transform_points
from assetcheck.formats.gltf.links import index_of
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.node_transforms import world_matrices
from assetcheck.formats.source import SourceFile
from assetcheck.previews.budget import ByteBudget, OverBudget
from assetcheck.previews.job_files import model_file_path, write_whole
from assetcheck.previews.png import encode_png
from assetcheck.previews.raster import render_clay
from assetcheck.previews.viewer_files import write_viewer_files

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 480, 360
DRAWN_FORMATS = frozenset({"glb", "gltf", "fbx", "obj", "usd"})
#: More triangles than this are thinned evenly: a preview needs the silhouette, not every face.
MAX_TRIANGLES = 400_000
#: What the report calls the picture when it is not kept.
PICTURE = "The preview picture"


def preview_path(job_folder: Path, model_filename: str) -> Path:
    """Where the picture of ``model_filename`` is drawn in the job's working folder."""
    return model_file_path(job_folder, "preview", model_filename)


class PreviewWriter:
    """Draws each glTF, GLB and FBX model file ``validate`` hands over (pass the writer as its
    ``on_checked``) into ``job_folder``: the picture and the 3D viewer's files. ``written``
    counts the pictures.

    A preview is an extra: a model file that cannot be drawn is logged and skipped, none is
    started once ``time.monotonic()`` passes ``until``, and drawing never raises. Files that
    would take the job past its ``budget`` are not written: ``withheld`` lists them, one
    ``{"file", "reason"}`` per model file, the reason a sentence for people.
    """

    def __init__(
        self, job_folder: Path, *, until: float | None = None, budget: ByteBudget | None = None
    ) -> None:
        self.job_folder = job_folder
        self.until = until
        self.budget = budget or ByteBudget()
        self.written = 0
        self.withheld: list[dict[str, str]] = []

    def report_fields(self) -> dict[str, list[dict[str, str]]]:
        """What the report's ``job`` says of the previews: ``previews_withheld`` when a file
        was not kept, nothing otherwise."""
        return {"previews_withheld": list(self.withheld)} if self.withheld else {}

    def __call__(self, asset: Asset, source: SourceFile) -> None:
        if self.until is not None and time.monotonic() > self.until:
            log.info("no preview of %s: out of time", source.name)
            return
        try:
            if _draw_picture(asset, source, self.job_folder, self.budget):
                self.written += 1
                write_viewer_files(asset, source, self.job_folder, self.budget)
        except OverBudget as over:
            log.info("previews of %s not kept: %s", source.name, over)
            self.withheld.append({"file": source.name, "reason": str(over)})
        except Exception as error:  # a drawing bug must never cost the job its report
            log.warning("no preview of %s: %s: %s", source.name, type(error).__name__, error)


def scene_triangles(asset: Asset) -> np.ndarray:
    """The triangles the asset's scene draws, in world space (metres, +Y up): shape
    ``(n, 3, 3)`` float32. Beyond :data:`MAX_TRIANGLES` they are thinned evenly."""
    placed: list[tuple[np.ndarray, np.ndarray]] = []
    if asset.polygon_scene is not None:
        placed = list(_polygon_instances(asset.polygon_scene))
    elif asset.gltf is not None:
        placed = list(_gltf_instances(asset.gltf))
    total = sum(len(triangles) for _, triangles in placed)
    if not total:
        return np.zeros((0, 3, 3), np.float32)
    step = math.ceil(total / MAX_TRIANGLES)
    return np.concatenate([positions[triangles[::step]] for positions, triangles in placed])


def _gltf_instances(document: GltfDocument) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(world positions, triangles)`` of each triangle primitive each node instances, placed
    by the node's world transform; when no node uses a mesh, every mesh where it is.
    Triangles with an index past the vertex data are left out."""
    links = document.links
    nodes, meshes = links.items("nodes"), links.items("meshes")
    placed = [
        (matrix, mesh)
        for index, matrix in sorted(world_matrices(links).items())
        if (mesh := index_of(nodes[index], "mesh")) is not None and mesh < len(meshes)
    ]
    if not placed:
        placed = [(np.eye(4), mesh) for mesh in range(len(meshes))]
    geometry = {mesh: list(_mesh_geometry(document, mesh)) for _, mesh in placed}
    for matrix, mesh in placed:
        for positions, triangles in geometry[mesh]:
            yield transform_points(matrix, positions), triangles


def _polygon_instances(scene: PolygonScene) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(world positions, triangles)`` of each mesh instance of the FBX or OBJ scene, with
    the file's unit and axis system applied, so the model stands upright at its real size."""
    for _, positions, triangles in scene.world_triangles():
        yield positions, triangles


def _mesh_geometry(document: GltfDocument, mesh: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(positions, triangles)`` of each triangle primitive of ``mesh``: float vertex
    positions and the ``(n, 3)`` vertex indices of the triangles that stay within them."""
    for primitive in document.links.mesh_primitives(mesh):
        position = primitive.attributes.get("POSITION")
        positions = None if position is None else document.reader.normalized(position, np.float64)
        triangles = document.mesh(primitive).triangles
        if positions is None or positions.shape[1] != 3 or triangles is None:
            continue
        triangles = triangles[(triangles < len(positions)).all(axis=1)]
        if len(triangles):
            yield positions, triangles


def _draw_picture(asset: Asset, source: SourceFile, job_folder: Path, budget: ByteBudget) -> bool:
    """Draw the picture of a model file; False when it has nothing to draw."""
    if source.kind not in DRAWN_FORMATS or (asset.gltf is None and asset.polygon_scene is None):
        return False
    triangles = scene_triangles(asset)
    if not len(triangles):
        return False
    picture = encode_png(render_clay(triangles, WIDTH, HEIGHT))
    budget.take(len(picture), PICTURE)
    write_whole(preview_path(job_folder, source.name), picture)
    return True
