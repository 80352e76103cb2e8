"""Write a ~50 MB binary FBX (one 1120 x 1120 quad grid), an input of bench/validate_speed.py.

Uses the FBX writer of the test suite (assetcheck/testing/fbx.py); run from the repository root.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.testing.fbx import Scene, binary_fbx, grid

if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "grid_50mb.fbx"
    path.write_bytes(binary_fbx(Scene(meshes=[grid("Grid", 1120, 1120)])))
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")
