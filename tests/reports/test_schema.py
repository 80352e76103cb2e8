"""Every JSON report AssetCheck writes follows the JSON Schema shipped in the package."""

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from assetcheck.engine import validate
from assetcheck.reports.document import build_report
from tests.builders.fbx import Scene, binary_fbx, cube
from tests.builders.gltf import GltfBuilder, Primitive, png_bytes
from tests.builders.zip import zip_of

SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())


def clean_glb(folder: Path) -> Path:
    builder = GltfBuilder()
    material = builder.add_material("M_Rock", base_color_texture=builder.add_texture(
        builder.add_image(png_bytes(64, 64))))
    builder.add_node(builder.add_mesh([Primitive(4, index_count=6, material=material,
                                                 normals=True, texcoords=True)], "SM_Rock"))
    return builder.write_glb(folder / "rock.glb")


def uploads(folder: Path) -> dict[str, Path]:
    glb = clean_glb(folder)
    broken = folder / "broken.glb"
    broken.write_bytes(glb.read_bytes()[:-7])
    fbx = folder / "cube.fbx"
    fbx.write_bytes(binary_fbx(Scene(meshes=[cube("Box")])))
    archive = folder / "pack.zip"
    archive.write_bytes(zip_of({"models/rock.glb": glb.read_bytes(),
                                "../../etc/passwd": b"root:x:0:0"}))
    noise = folder / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    return {"glb": glb, "broken": broken, "fbx": fbx, "zip": archive, "unsupported": noise}


@pytest.mark.parametrize("case", ["glb", "broken", "fbx", "zip", "unsupported"])
def test_report_follows_the_schema(tmp_path, case):
    report = build_report(validate(uploads(tmp_path)[case]))
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(json.dumps(report)))


def test_schema_itself_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
