"""Write mutated variants of glTF files, to compare verdicts with bench/compare_khronos.py.

    python bench/mutate_gltf.py /usr/share/assimp/models/glTF2 /tmp/mutants --per-file 20
    python bench/compare_khronos.py /tmp/mutants

Each variant is a ``.gltf`` whose JSON has one random change: a property removed, a value
replaced by one of another type, an index pushed out of range, a number negated or scaled, an
array emptied or shortened. Buffers stay as they were (copied beside the variant, or embedded),
so data checks see real data under broken JSON. The seed makes a run reproducible.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import struct
from pathlib import Path
from typing import Any

REPLACEMENTS: list[Any] = [None, "x", -1, 0, 1.5, 1e9, True, [], {}, [0], {"a": 1}]


def paths(value: Any, at: tuple = ()) -> list[tuple]:
    """Every path to a value inside the JSON (``extras`` excluded)."""
    found = [at] if at else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "extras":
                found += paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*at, index))
    return found


def mutate(document: dict, rng: random.Random) -> dict:
    document = json.loads(json.dumps(document))
    path = rng.choice(paths(document))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key, value = path[-1], parent[path[-1]]
    kind = rng.choice(("remove", "replace", "number", "shrink"))
    if kind == "remove" and isinstance(parent, dict):
        del parent[key]
    elif kind == "number" and isinstance(value, int | float) and not isinstance(value, bool):
        parent[key] = rng.choice((-value, value + 1, value * 7, value + 1000, value // 2))
    elif kind == "shrink" and isinstance(value, list | dict) and value:
        parent[key] = value[: len(value) // 2] if isinstance(value, list) else {}
    else:
        parent[key] = rng.choice(REPLACEMENTS)
    return document


def load(path: Path) -> tuple[dict, bytes | None]:
    """The JSON of a .gltf or .glb, and a GLB's BIN chunk."""
    data = path.read_bytes()
    if path.suffix.lower() != ".glb":
        return json.loads(data), None
    length, _ = struct.unpack_from("<II", data, 12)
    document = json.loads(data[20 : 20 + length])
    rest = data[20 + length :]
    return document, rest[8 : 8 + struct.unpack_from("<I", rest, 0)[0]] if len(rest) >= 8 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--per-file", type=int, default=10)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    written = 0
    for path in sorted(args.source.rglob("*")):
        if path.suffix.lower() not in (".gltf", ".glb"):
            continue
        try:
            document, binary = load(path)
        except (ValueError, struct.error):
            continue
        if not isinstance(document, dict) or document.get("asset", {}).get("version") != "2.0":
            continue
        folder = args.output / f"{path.parent.name}-{path.stem}"
        shutil.copytree(
            path.parent,
            folder,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("*.gltf", "*.glb"),
        )
        if binary is not None:
            (folder / "glb.bin").write_bytes(binary)
            for buffer in document.get("buffers", [])[:1]:
                if isinstance(buffer, dict) and "uri" not in buffer:
                    buffer["uri"] = "glb.bin"
        for number in range(args.per_file):
            (folder / f"mutant{number:03}.gltf").write_text(json.dumps(mutate(document, rng)))
            written += 1
    print(f"wrote {written} variants to {args.output}")


if __name__ == "__main__":
    main()
