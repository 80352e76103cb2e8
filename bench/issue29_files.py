"""Write the files issue 29's time budget is measured on, besides the grids of
``bench/grid_glb.py``: ``bench/validate_speed.py`` reads them from ``FOLDER/issue29``.

    python bench/issue29_files.py bench/out     # writes bench/out/issue29/*

- ``textured_25mb.glb`` and ``textured_100mb.glb``: the 500 x 500 and 1340 x 1340 grids with
  a full PBR set of textures in their binary chunk (``bench/texture_content.py``: three 2048 px
  PNGs; three 4096 px textures, the base colour a JPEG);
- ``skinned_animated.glb``: the rig of ``bench/animation_content.py`` (a triangle skinned to a
  chain of 60 joints, 400 keys on each joint's translation, rotation and scale), about 1 MB;
- ``skinned_animated.fbx``: the rig of ``bench/fbx_animation_content.py`` (60 bones, 540
  linear curves of 200 keys) with a 40 x 40 quad grid skinned to 60 bones in its cube's place,
  about 1.5 MB. The builder makes the skin's bones apart from the animated models of the same
  names, so the skin check and the animation check each have their whole work.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench.animation_content import rig
from bench.fbx_animation_content import rig as fbx_rig
from bench.texture_content import FILES as TEXTURED

#: File name -> builder.
FILES: dict[str, Callable[[], bytes]] = {
    "textured_25mb.glb": TEXTURED["textured 25 MB"],
    "textured_100mb.glb": TEXTURED["textured 100 MB"],
    "skinned_animated.glb": rig,
    "skinned_animated.fbx": lambda: fbx_rig(skinned=True),
}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out") / "issue29"
    out.mkdir(parents=True, exist_ok=True)
    for name, build in FILES.items():
        path = out / name
        path.write_bytes(build())
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
