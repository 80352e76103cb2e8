"""What the texture content and texel density checks cost: validation with and without them.

    python bench/texture_content.py [--rounds 5]

Files built here (``bench/grid_glb.py``'s grids, with a full PBR set of textures in their
binary chunk, encoded by Pillow; the pixels are a smooth pattern with noise, as photographs
and bakes are, so the PNGs compress like real ones):

- **textured 25 MB**: a 500 x 500 grid (14 MB of geometry) with a 2048 px base colour, normal
  map and metallic-roughness texture (PNG), about 25 MB in all;
- **textured 100 MB**: the 100 MB grid (1340 x 1340) with the same three textures at 4096 px
  (the base colour a JPEG, decoded at a reduced scale);
- **grid 100 MB**: the 100 MB grid with its 64 px texture and lightmap (``grid_100mb_textured``
  of ``bench/validate_speed.py``).

Each round validates each file with every built-in check and with ``gltf-texture-content`` and
``gltf-texel-density`` disabled, one after the other; the medians of the wall times and of the
CPU times (this process and the decoding child it waited for) are printed with their ratio.
Budget (issue 29): the new checks add at most 15% on each file.
"""

from __future__ import annotations

import argparse
import io
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_glb import grid_glb

from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager

CHECKS = ("assetcheck.checks.gltf_texture_content", "assetcheck.checks.gltf_texel_density")


def pattern(side: int, seed: int) -> np.ndarray:
    """``(side, side, 3)`` uint8: soft stripes plus noise of a few levels."""
    rng = np.random.default_rng(seed)
    axis = np.linspace(0, 12 * np.pi, side, dtype=np.float32)
    wave = (np.sin(axis)[:, None] + np.cos(axis * 0.7)[None, :]) * 40 + 128
    planes = [wave + rng.normal(0, 6, (side, side)).astype(np.float32) for _ in range(3)]
    return np.clip(np.stack(planes, axis=-1), 0, 255).astype(np.uint8)


def normal_map(side: int) -> np.ndarray:
    """A unit tangent-space normal map of gentle bumps."""
    axis = np.linspace(0, 16 * np.pi, side, dtype=np.float32)
    x = np.sin(axis)[None, :].repeat(side, 0) * 0.3
    y = np.cos(axis)[:, None].repeat(side, 1) * 0.3
    z = np.sqrt(1 - x * x - y * y)
    return np.round((np.stack([x, y, z], axis=-1) + 1) * 127.5).astype(np.uint8)


def encoded(pixels: np.ndarray, kind: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, kind, **({"quality": 90} if kind == "JPEG" else {}))
    return out.getvalue()


def pbr_set(side: int, base_kind: str) -> list[tuple[str, bytes]]:
    return [
        ("baseColorTexture", encoded(pattern(side, 1), base_kind)),
        ("normalTexture", encoded(normal_map(side))),
        ("metallicRoughnessTexture", encoded(pattern(side, 2))),
    ]


FILES: dict[str, Callable[[], bytes]] = {
    "textured 25 MB": lambda: grid_glb(500, material_images=pbr_set(2048, "PNG")),
    "textured 100 MB": lambda: grid_glb(1340, material_images=pbr_set(4096, "JPEG")),
    "grid 100 MB": lambda: grid_glb(1340, textured=True),
}


def seconds(path: Path, plugin_manager) -> tuple[float, float]:
    """Wall and CPU seconds of one validation (the decoding child's CPU time included)."""
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    validate(path, plugin_manager=plugin_manager)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(
        (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)
        for start, end in zip(before, after, strict=True)
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with_checks = get_plugin_manager()
    without = get_plugin_manager(PluginConfig(disabled=CHECKS))
    folder = Path(tempfile.mkdtemp())
    print(
        f"{'file':<17}{'MB':>6}{'with s':>9}{'without s':>11}{'added':>8}"
        f"{'cpu with':>10}{'cpu without':>13}{'added':>8}"
    )
    for name, build in FILES.items():
        path = folder / f"{name.replace(' ', '_')}.glb"
        path.write_bytes(build())
        seconds(path, with_checks)  # warm: imports, page cache
        runs: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
        for _ in range(args.rounds):
            runs["with"].append(seconds(path, with_checks))
            runs["without"].append(seconds(path, without))
        (wall_on, cpu_on), (wall_off, cpu_off) = (
            (statistics.median(w for w, _ in runs[key]), statistics.median(c for _, c in runs[key]))
            for key in ("with", "without")
        )
        size = path.stat().st_size / 1e6
        print(
            f"{name:<17}{size:>6.1f}{wall_on:>9.2f}{wall_off:>11.2f}{wall_on / wall_off - 1:>8.0%}"
            f"{cpu_on:>10.2f}{cpu_off:>13.2f}{cpu_on / cpu_off - 1:>8.0%}"
        )
        path.unlink()


if __name__ == "__main__":
    main()
