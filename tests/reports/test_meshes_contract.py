"""``result.meshes``: one entry per model file, and the docs list exactly the fields it has."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

from assetcheck.engine import validate
from assetcheck.testing.gltf import GltfBuilder, Primitive
from assetcheck.testing.zip import zip_of

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())


def documented_entry_fields() -> list[str]:
    """The fields of the first table of ``docs/statistics.md`` (the mesh entry's)."""
    text = (DOCS / "statistics.md").read_text()
    table = text[: text.index("## glTF and GLB")]
    return re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE)


def _glb(meshes: int) -> bytes:
    builder = GltfBuilder()
    for index in range(meshes):
        builder.add_node(builder.add_mesh([Primitive(3, normals=True)], f"Part{index}"))
    return builder.glb()


def test_mesh_entries_have_exactly_the_documented_fields(tmp_path: Path):
    path = tmp_path / "kit.glb"
    path.write_bytes(_glb(2))
    (entry,) = validate(path).to_dict()["meshes"]
    assert list(entry) == documented_entry_fields()
    assert set(entry) == set(SCHEMA["$defs"]["mesh"]["properties"])


def test_an_archive_gives_one_entry_per_model_file_with_its_meshes_as_parts(tmp_path: Path):
    path = tmp_path / "pack.zip"
    path.write_bytes(zip_of({"a.glb": _glb(1), "b/c.glb": _glb(3)}))
    meshes = validate(path).to_dict()["meshes"]
    assert [(m["filename"], len(m["parts"])) for m in meshes] == [("a.glb", 1), ("b/c.glb", 3)]
