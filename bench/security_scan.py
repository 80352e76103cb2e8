"""Cost of scanning hostile uploads: whole `assetcheck validate` processes, time and memory.

    python bench/security_scan.py [--runs 3]

Builds each hostile file of issue 5 with the test suite's builders, validates it in a fresh
process, and prints the median wall time, the peak RSS and the extra memory over validating a
tiny clean GLB. Target (issue 5): every file under 2 s and under 100 MB of extra memory.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.testing.fbx_nodes import Array, Node, encode_binary, nested
from assetcheck.testing.zip import (
    Member,
    build_zip,
    elf_program,
    nested_bomb,
    overlapping_zip,
    tiny_glb,
    zip_of,
)
from bench.validate_speed import ASSETCHECK, run

SYMLINK = 0o120777 << 16


def gltf(uri: str, byte_length: int = 16) -> bytes:
    return json.dumps(
        {"asset": {"version": "2.0"}, "buffers": [{"uri": uri, "byteLength": byte_length}]}
    ).encode()


def fbx_zlib_bomb() -> bytes:
    array = Array(
        "d", [], compress=True, declared_count=150_000_000, payload=zlib.compress(bytes(4096))
    )
    geometry = Node("Geometry", [1, "Mesh\x00\x01Geometry", "Mesh"], [Node("Vertices", [array])])
    return encode_binary([Node("Objects", children=[geometry])])


def hostile_files() -> dict[str, bytes]:
    """File name -> content, one per hostile case of issue 5."""
    glb = tiny_glb()
    return {
        "clean.glb": glb,
        "nested-bomb-10gib.zip": nested_bomb(members=10, member_gib=1),
        "overlapping-bomb.zip": overlapping_zip(entries=1000, kernel_mib=16),
        "traversal.zip": zip_of({"../../etc/passwd": b"root:x:0:0", "m.glb": glb}),
        "symlink.zip": build_zip(
            [Member("m.glb", b"/etc/passwd", method=0, external_attr=SYMLINK)]
        ),
        "20000-entries.zip": zip_of({f"f{i}.txt": b"x" for i in range(20_000)}),
        "elf-inside.zip": zip_of({"tool": elf_program(), "m.glb": glb}),
        "file-uri.gltf": gltf("file:///etc/passwd"),
        "metadata-uri.gltf": gltf("http://127.0.0.1:9/latest/meta-data"),
        "escape.gltf": gltf("../../secret.bin"),
        "declares-2e53.gltf": gltf("data:application/octet-stream;base64,AAAA", 2**53),
        "zlib-bomb.fbx": fbx_zlib_bomb(),
        "nested-100.fbx": encode_binary([nested(100)]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'file':<26}{'KB':>9}{'seconds':>9}{'RSS MB':>8}{'extra MB':>10}  findings")
        baseline = None
        for name, content in hostile_files().items():
            path = Path(folder) / name
            path.write_bytes(content)
            seconds, rss, output = run(
                [str(ASSETCHECK), "validate", "--format", "json", str(path)], args.runs
            )
            baseline = rss if baseline is None else baseline
            warnings = json.loads(output)["result"]["securityScan"]["warnings"]
            found = ", ".join(sorted({w["code"] for w in warnings})) or "-"
            print(
                f"{name:<26}{len(content) / 1000:>9.1f}{seconds:>9.3f}{rss:>8.0f}"
                f"{rss - baseline:>10.0f}  {found}",
                flush=True,
            )


if __name__ == "__main__":
    main()
