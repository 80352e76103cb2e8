"""What the daemon does once before it listens: load and run everything ``validate`` uses.

Importing is most of what a small file costs (``docs/performance.md``), and several modules are
imported only when a file needs them (FBX, ZIP, the image readers and decoders, the animation
key rules, the skin rules). Validating a few small files
of every built-in format and rendering their reports in every built-in report format imports
them all, and builds the caches the checks fill on first use, in the daemon itself: every child
it forks starts with them (but the decoder helper, stopped once the samples are done: it
would hold the pipes of the command that started the daemon). Installed plugins are left out
(``entry_points=False``): a child loads those afresh with the caller's configuration, so none
runs from a copy loaded earlier. Everything then alive is frozen
(:func:`~assetcheck.start_up.freeze_before_forking`), so a child's collections never walk it.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports import report_formats
from assetcheck.reports.document import build_report
from assetcheck.sandbox.helper import stop_helper
from assetcheck.start_up import freeze_before_forking
from assetcheck.testing import GltfBuilder, Primitive, Scene, binary_fbx, cube, zip_of
from assetcheck.testing.fbx import ClusterSpec
from assetcheck.testing.gltf import png_bytes

_OBJ_TRIANGLE = b"mtllib look.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl grey\nf 1/1 2/1 3/1\n"
_MTL = b"newmtl grey\nKd 0.5 0.5 0.5\n"


def warm_up() -> None:
    """Validate :func:`samples` with the built-in plugins, render every report format and
    freeze what is then alive."""
    pm = get_plugin_manager(PluginConfig(entry_points=False))
    formats = report_formats(pm).values()
    with tempfile.TemporaryDirectory(prefix="assetcheck-warm-") as folder:
        files = samples()
        for name, content in files.items():
            Path(folder, name).write_bytes(content)
        reports = [
            build_report(validate(Path(folder, name), plugin_manager=pm))
            for name in files
            if not name.endswith(".mtl")  # read with its OBJ
        ]
    for report_format in formats:
        for report in reports:
            report_format.render(report)
        if report_format.combine is not None:
            report_format.combine(reports)
    stop_helper()  # the samples' decoder helper: each child forks its own when it needs one
    freeze_before_forking()


def samples() -> dict[str, bytes]:
    """Small files of every built-in format (the glTF textured, animated and skinned, the FBX
    skinned), and an OBJ's material library (name -> content)."""
    gltf = GltfBuilder()
    image = gltf.add_image(png_bytes(4, 4))
    material = gltf.add_material("look", base_color_texture=gltf.add_texture(image))
    mesh = gltf.add_mesh([Primitive(4, 6, material=material, normals=True, texcoords=True)])
    gltf.add_node(mesh, "quad")
    gltf.add_animation("sway")
    gltf.add_skinned_triangle([gltf.add_node(name="bone")])
    skinned = replace(cube(), skin=[ClusterSpec("Bone", range(8), [1.0] * 8)])
    fbx = binary_fbx(Scene(meshes=[skinned]))
    obj = {"triangle.obj": _OBJ_TRIANGLE, "look.mtl": _MTL}
    return {
        "quad.glb": gltf.glb(),
        "quad.gltf": gltf.embedded_gltf(),
        "cube.fbx": fbx,
        **obj,
        "all.zip": zip_of({"quad.glb": gltf.glb(), "cube.fbx": fbx, **obj}),
    }
