"""What the FBX texture checks cost (content and texel density): validation with and without
them, and what reading the materials' texture slots adds to the reader (which runs whether
the checks do or not).

    python bench/fbx_texture_content.py [--rounds 5]

Files: the three largest of the production corpus (``../shared/corpus/fbx-production``: their
textures are image files beside the model, not embedded, so the check decodes nothing), the
largest embedded texture of Debian's assimp-testmodels (a 1.3 MB ASCII FBX whose 968 KB PNG
is base64 in two strings, on two material properties), and one built here: a 200 x 200 grid
with ``bench/texture_content.py``'s 2048 px PBR set embedded as PNGs (base colour, normal map,
specular), binary FBX 7.4. Medians of wall and CPU time (the decoding child's included), the
contenders in turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.materials import read_materials
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, binary_fbx, grid
from bench.texture_content import pbr_set, seconds

CHECKS = ("assetcheck.checks.fbx_texture_content", "assetcheck.checks.fbx_texel_density")
PRODUCTION = Path(__file__).resolve().parent.parent.parent / "shared/corpus/fbx-production"
EMBEDDED = Path("/usr/share/assimp/models/FBX/embedded_ascii/box_embedded_texture_fragmented.fbx")


#: The slots the built file's three images feed, in :func:`pbr_set`'s order.
SLOTS = ("DiffuseColor", "NormalMap", "SpecularColor")


def files(folder: Path) -> list[Path]:
    largest = sorted(PRODUCTION.glob("*.fbx"), key=lambda p: p.stat().st_size)[-3:]
    built = folder / "textured_grid_2048.fbx"
    mesh = grid("Grid", 200, 200)
    mesh.materials = ["Ground"]
    videos = [
        VideoSpec(f"map{number}", f"map{number}.png", data, [("Ground", slot)])
        for number, ((_, data), slot) in enumerate(zip(pbr_set(2048, "PNG"), SLOTS, strict=True))
    ]
    built.write_bytes(
        binary_fbx(Scene(meshes=[mesh], materials=[MaterialSpec("Ground")], videos=videos))
    )
    return [*reversed(largest), *([EMBEDDED] if EMBEDDED.is_file() else []), built]


def slot_reading(path: Path, rounds: int) -> float:
    """Median seconds of reading the texture slots from the walked tree."""
    objects = FbxObjects.of(walk_fbx(path.read_bytes(), Limits()).tree)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        read_materials(objects)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with_check = get_plugin_manager()
    without = get_plugin_manager(PluginConfig(disabled=CHECKS))
    print(f"{'file':<48}{'MB':>6}{'wall with/without':>20}{'cpu with/without':>19}{'slots ms':>10}")
    for path in files(Path(tempfile.mkdtemp())):
        seconds(path, with_check)  # warm: imports, page cache
        runs: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
        for _ in range(args.rounds):
            runs["with"].append(seconds(path, with_check))
            runs["without"].append(seconds(path, without))
        (wall_on, cpu_on), (wall_off, cpu_off) = (
            (statistics.median(w for w, _ in runs[key]), statistics.median(c for _, c in runs[key]))
            for key in ("with", "without")
        )
        print(
            f"{path.name:<48}{path.stat().st_size / 1e6:>6.2f}"
            f"{f'{wall_on:.2f} / {wall_off:.2f}':>20}{f'{cpu_on:.2f} / {cpu_off:.2f}':>19}"
            f"{slot_reading(path, args.rounds) * 1000:>10.2f}"
        )


if __name__ == "__main__":
    main()
