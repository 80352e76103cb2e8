"""Reading the FBX scene without ufbx: what the walk's own nodes would give, and at what cost.

    python bench/fbx_scene_reader.py [--runs 3] [FOLDER ...]

The measurement behind ``docs/decisions.md`` (One FBX reading path). For every FBX file of the
folders (by default the shared ufbx corpus, the production corpus and Debian's
assimp-testmodels), the scene facts AssetCheck reports (counts, meshes, materials and their
shading, textures, animations, units, axes, frame rate, bones) are read two ways:

- **ufbx**, as the reader does: the walk keeps the geometry's nodes, ufbx reads the file and
  the geometry is decoded from the walk's nodes (``read_scene``, timed in this process and,
  with the child process the reader starts, as ``read_asset``);
- **walk**: the walk keeps every node and :func:`walk_facts` (a prototype written for this
  measurement, below) reads the same facts from them, the geometry decoded in this process.

Prints, per corpus, the median milliseconds per file of each, and on how many files the facts
are identical; then which facts differ, on how many files. Run from the repository root.
"""

from __future__ import annotations

import argparse
import base64
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.asset import Asset
from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.formats.fbx import reader, scene
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.tree import FbxNode, FbxTree, FbxTreeError
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.formats.source import SourceFile
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus"
FOLDERS = [SHARED / "fbx", SHARED / "fbx-production"]
#: FBX time units per second.
KTIME = 46_186_158_000
#: Frame rates of GlobalSettings' TimeMode, as the FBX SDK numbers them (14 is custom).
FRAME_RATES = {
    0: 30.0, 1: 120.0, 2: 100.0, 3: 60.0, 4: 50.0, 5: 48.0, 6: 30.0, 7: 30.0, 8: 29.97002997,
    9: 29.97002997, 10: 25.0, 11: 24.0, 12: 1000.0, 13: 23.976, 15: 96.0, 16: 72.0,
    17: 59.94, 18: 119.88,
}  # fmt: skip
AXES = ("+X", "-X", "+Y", "-Y", "+Z", "-Z")
ASCII_VERSION = re.compile(rb"; FBX (\d+)\.(\d)\.(\d+) project file")
BONE_CLASSES = frozenset({"LimbNode", "Limb", "Root"})


def keep_all(depth: int, parent: str, name: str) -> bool:
    """The keep rule of a scene reader: every node."""
    return True


def assimp_files() -> list[Path]:
    listing = subprocess.run(
        ["dpkg", "-L", "assimp-testmodels"], capture_output=True, text=True, check=False
    ).stdout
    return sorted(Path(line) for line in listing.split() if line.lower().endswith(".fbx"))


# -- the facts compared -----------------------------------------------------------------------


def ufbx_facts(asset: Asset) -> dict[str, Any]:
    """The facts of an asset the reader made (ufbx's scene, the walk's geometry)."""
    fbx = asset.fbx
    assert fbx is not None
    return {
        "counts": (asset.vertex_count, asset.triangle_count, asset.material_count),
        "summary": {k: _rounded(v) for k, v in fbx.summary().items()},
        "meshes": [
            (
                *(m.name, m.vertices, m.triangles, m.faces, m.quads, m.ngons, m.has_normals),
                *(m.has_uvs, tuple(m.materials), m.skinned, m.bones, m.blend_shapes, m.uv_sets),
            )
            for m in fbx.meshes
        ],
        "materials": [(m.name, m.shading, m.pbr, m.texture_count) for m in asset.materials],
        "textures": [
            (t.name, t.relative_filename, t.absolute_filename, t.embedded, t.byte_size)
            for t in fbx.textures
        ],
        "animations": [(a.name, round(a.duration, 6)) for a in asset.animations],
    }


def _rounded(value: object) -> object:
    return round(value, 6) if isinstance(value, float) else value


class _Scene:
    """The objects, connections and properties of a tree that kept every node."""

    def __init__(self, tree: FbxTree, version: int) -> None:
        self.top = {node.name: node for node in tree.top_level()}
        objects = self.top.get("Objects", FbxNode("Objects"))
        self.settings = self.top.get("GlobalSettings") or objects.child("GlobalSettings")
        self.legacy = not any(node.name == "Geometry" for node in objects.children)
        self.objects = objects.children + [n for n in tree.top_level() if n.name == "Model"]
        self.by_key = {self.key(node): node for node in self.objects}
        self.up: dict[Hashable, list[Hashable]] = defaultdict(list)
        self.down: dict[Hashable, list[Hashable]] = defaultdict(list)
        for link in self.top.get("Connections", FbxNode("")).children:
            if link.name in ("C", "Connect") and len(link.props) >= 3:
                child, parent = link.props[1], link.props[2]
                if isinstance(child, Hashable) and isinstance(parent, Hashable):
                    self.up[child].append(parent)
                    self.down[parent].append(child)
        header = self.top.get("FBXHeaderExtension", FbxNode(""))
        found = header.child("FBXVersion")
        stated = found.props[0] if found and found.props else None
        self.version = stated if isinstance(stated, int) else version
        creator = header.child("Creator") or self.top.get("Creator")
        self.creator = creator.text() if creator else ""

    def key(self, node: FbxNode) -> Hashable:
        return node.text(0) if self.legacy else node.props[0] if node.props else None

    def name(self, node: FbxNode) -> str:
        text = node.text(0 if self.legacy else 1)
        if "\x00\x01" in text:
            return text.split("\x00\x01", 1)[0]
        return text.split("::", 1)[1] if "::" in text else text

    def kind(self, node: FbxNode) -> str:
        return node.text(1 if self.legacy else 2)

    def parents(self, node: FbxNode, name: str) -> list[FbxNode]:
        """The objects ``node`` is connected to, called ``name``."""
        return self._named(self.up[self.key(node)], name)

    def children(self, node: FbxNode, name: str) -> list[FbxNode]:
        """The objects connected to ``node``, called ``name``."""
        return self._named(self.down[self.key(node)], name)

    def _named(self, keys: list[Hashable], name: str) -> list[FbxNode]:
        found = (self.by_key.get(key) for key in keys)
        return [node for node in found if node is not None and node.name == name]


def properties(node: FbxNode | None) -> dict[str, list[object]]:
    """A node's ``Properties70``/``Properties60`` values by name."""
    found: dict[str, list[object]] = {}
    for block, row, first in (("Properties70", "P", 4), ("Properties60", "Property", 3)):
        container = node.child(block) if node is not None else None
        for prop in container.children_named(row) if container else ():
            if prop.props and isinstance(prop.props[0], str):
                found[prop.props[0]] = list(prop.props[first:])
    return found


def _number(props: dict[str, list[object]], name: str, default: float) -> float:
    values = props.get(name) or [default]
    return float(values[0]) if isinstance(values[0], int | float) else default


def walk_facts(tree: FbxTree, data: bytes) -> dict[str, Any]:
    """The facts :func:`ufbx_facts` gives, read from the walk's nodes alone (a prototype)."""
    ascii = not data.startswith(b"Kaydara FBX Binary")
    stated = ASCII_VERSION.match(data) if ascii else None
    s = _Scene(tree, 0 if ascii else int.from_bytes(data[23:27], "little"))
    if stated:
        s.version = int(stated[1]) * 1000 + int(stated[2]) * 100 + int(stated[3])
    meshes = _walk_meshes(s, tree)
    materials = [_walk_material(s, node) for node in s.objects if node.name == "Material"]
    textures = [_walk_texture(s, node) for node in s.objects if node.name == "Texture"]
    return {
        "counts": (sum(m[1] for m in meshes), sum(m[2] for m in meshes), len(materials)),
        "summary": _walk_summary(s, ascii),
        "meshes": meshes,
        "materials": materials,
        "textures": textures,
        "animations": _walk_animations(s),
    }


def _walk_summary(s: _Scene, ascii: bool) -> dict[str, object]:
    settings = properties(s.settings)
    unit = _number(settings, "UnitScaleFactor", 1.0) / 100
    original = _number(settings, "OriginalUnitScaleFactor", unit * 100) / 100

    def axis(name: str, default: int) -> str:
        index, sign = int(_number(settings, name, default)), _number(settings, name + "Sign", 1)
        return AXES[index * 2 + (sign < 0)] if settings and 0 <= index < 3 else "unknown"

    mode = int(_number(settings, "TimeMode", 0))
    rate = _number(settings, "CustomFrameRate", 30.0) if mode == 14 else FRAME_RATES.get(mode, 30.0)
    bones = [
        node
        for node in s.objects
        if (node.name == "NodeAttribute" or (s.legacy and node.name == "Model"))
        and s.kind(node) in BONE_CLASSES
    ]
    return {
        "version": s.version,
        "ascii": ascii,
        "creator": s.creator,
        "unit_meters": _rounded(unit),
        "original_unit_meters": _rounded(original),
        "axes": {
            "right": axis("CoordAxis", 0),
            "up": axis("UpAxis", 1),
            "front": axis("FrontAxis", 2),
        },
        "original_up_axis": axis("OriginalUpAxis", -1),
        "frames_per_second": _rounded(rate),
        "bone_count": len(bones),
    }


def _walk_meshes(s: _Scene, tree: FbxTree) -> list[tuple[Any, ...]]:
    try:
        decoded = read_geometries(tree)
    except FbxTreeError:
        decoded = []
    nodes = [
        node
        for node in s.objects
        if (node.name == "Geometry" and s.kind(node) == "Mesh")
        or (s.legacy and node.name == "Model" and node.child("Vertices") is not None)
    ]
    meshes = []
    for node, found in zip(nodes, decoded, strict=False):
        models = [node] if s.legacy else s.parents(node, "Model")
        materials = [s.name(m) for m in s.children(models[0], "Material")] if models else []
        skins = [d for d in s.children(node, "Deformer") if s.kind(d) == "Skin"]
        blends = [d for d in s.children(node, "Deformer") if s.kind(d) == "BlendShape"]
        sizes = found.geometry.polygon_sizes if found.geometry is not None else np.empty(0)
        meshes.append(
            (
                s.name(node) or (s.name(models[0]) if models else ""),
                found.vertices,
                found.triangles,
                len(sizes),
                int(np.count_nonzero(sizes == 4)),
                int(np.count_nonzero(sizes > 4)),
                node.child("LayerElementNormal") is not None or node.child("Normals") is not None,
                node.child("LayerElementUV") is not None or node.child("TextureUV") is not None,
                tuple(materials),
                bool(skins),
                sum(len(s.children(skin, "Deformer")) for skin in skins),
                sum(len(s.children(blend, "Deformer")) for blend in blends),
                found.uv_sets,
            )
        )
    return meshes


SHADING = {"lambert": "lambert", "phong": "phong"}
#: Physically based materials told by their class: Maya's ``Maya|TypeId``, 3ds Max's
#: ``3dsMax|ClassIDa`` and ``ClassIDb`` (as signed 32-bit integers).
PBR_CLASSES = {
    ("Maya|TypeId", 1398031443): "standardSurface",
    ("Maya|TypeId", 1138001): "arnoldStandardSurface",
    ("3dsMax|ClassIDb", -1099438848): "metallicRoughness",
    ("3dsMax|ClassIDb", 31173939): "specularGlossiness",
    ("3dsMax|ClassIDb", -559037439): "physicalMaterial",
}


def _walk_material(s: _Scene, node: FbxNode) -> tuple[object, ...]:
    model = node.child("ShadingModel")
    shading = SHADING.get(model.text().lower() if model else "", "unknown")
    props = properties(node)
    for (name, value), pbr in PBR_CLASSES.items():
        if props.get(name, [None])[0] == value:
            return (s.name(node), pbr, True, _texture_count(s, node))
    return (s.name(node), shading, False, _texture_count(s, node))


def _texture_count(s: _Scene, node: FbxNode) -> int:
    return len(s.children(node, "Texture")) + len(s.children(node, "LayeredTexture"))


def _walk_texture(s: _Scene, node: FbxNode) -> tuple[object, ...]:
    videos = s.children(node, "Video")
    content = videos[0].child("Content") if videos else None
    size = None
    if content is not None and content.props:
        blob = content.props[0]
        if isinstance(blob, str):
            blob = base64.b64decode("".join(p for p in content.props if isinstance(p, str)))
        size = len(blob) if isinstance(blob, bytes) and blob else None
    relative, absolute = node.child("RelativeFilename"), node.child("FileName")
    return (
        s.name(node),
        relative.text() if relative else "",
        absolute.text() if absolute else "",
        size is not None,
        size,
    )


def _walk_animations(s: _Scene) -> list[tuple[str, float]]:
    stacks = [node for node in s.objects if node.name == "AnimationStack"]
    if stacks:
        result = []
        for stack in stacks:
            props = properties(stack)
            start, stop = _number(props, "LocalStart", 0), _number(props, "LocalStop", 0)
            result.append((s.name(stack), round((stop - start) / KTIME, 6)))
        return result
    takes = s.top.get("Takes", FbxNode(""))
    result = []
    for take in takes.children_named("Take"):
        local = take.child("LocalTime")
        times = [float(v) for v in local.props if isinstance(v, int | float)] if local else []
        times = times or [0.0]
        result.append((take.text(), round((times[-1] - times[0]) / KTIME, 6)))
    return result


# -- timing -----------------------------------------------------------------------------------


def median_ms(function: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def measure(path: Path, runs: int, registry: object) -> dict[str, Any]:
    data = path.read_bytes()

    def with_ufbx() -> Asset | None:
        tree = walk_fbx(data, Limits()).tree
        try:
            return scene.read_scene(str(path), path.name, tree)
        except scene.FbxParseError:
            return None

    def with_walk() -> dict[str, Any]:
        return walk_facts(walk_fbx(data, Limits(), keep_all).tree, data)

    def whole() -> None:
        issues = IssueCollector(registry).for_file(path.name)  # type: ignore[arg-type]
        source = SourceFile(path.name, data, "fbx", path=path)
        reader.read_asset(source=source, issues=issues, options=ValidationOptions())

    asset = with_ufbx()
    theirs = ufbx_facts(asset) if asset is not None else None
    try:
        ours: dict[str, Any] | str = with_walk()
    except (FbxTreeError, ValueError, IndexError) as error:
        ours = f"failed: {error}"
    differ = (
        ["parse"]
        if theirs is None or isinstance(ours, str)
        else [key for key in theirs if theirs[key] != ours[key]]
    )
    return {
        "ufbx": median_ms(with_ufbx, runs),
        "read_asset": median_ms(whole, runs),
        "walk": median_ms(with_walk, runs) if not isinstance(ours, str) else 0.0,
        "differ": differ,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args()
    corpora = {folder.name: sorted(folder.rglob("*.[fF][bB][xX]")) for folder in args.folders}
    if not corpora:
        corpora = {folder.name: sorted(folder.glob("*.fbx")) for folder in FOLDERS}
        corpora["assimp-testmodels"] = assimp_files()
    registry = build_registry(get_plugin_manager())
    print(
        f"{'corpus':<20}{'files':>6}{'ufbx ms':>9}{'read_asset ms':>15}{'walk ms':>9}"
        f"{'identical':>11}"
    )
    differences: Counter[str] = Counter()
    for name, files in corpora.items():
        rows = [measure(path, args.runs, registry) for path in files if path.is_file()]
        if not rows:
            continue
        same = sum(1 for row in rows if not row["differ"])
        for row in rows:
            differences.update(row["differ"])
        print(
            f"{name:<20}{len(rows):>6}{statistics.median(r['ufbx'] for r in rows):>9.2f}"
            f"{statistics.median(r['read_asset'] for r in rows):>15.2f}"
            f"{statistics.median(r['walk'] for r in rows):>9.2f}{same:>7} of {len(rows)}",
            flush=True,
        )
    print("facts that differ (files):", dict(differences.most_common()))


if __name__ == "__main__":
    main()
