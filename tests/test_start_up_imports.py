"""Validating a file loads only what the file needs: a plain GLB never imports the FBX or ZIP
reader, the ZIP layout parser (no end record in the file), the KTX2 parser and header classes,
the image decoding (no texture), the animation key rules (no animation), the skin rules (no
skin), the FBX checks' rules, the Draco and meshopt codecs and their sandbox, orjson (text
output), the baseline comparison and the SARIF reader (no ``--baseline``), the TOML parser (no
configuration file), the job failures (no failed job), the closest-name search of plugin errors
(no mistake), ``logging`` (nothing logged), the service, the worker pool and its sockets
(``--jobs 1``), or threads (no terminal to show progress on)."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from assetcheck.testing.gltf import GltfBuilder, Primitive

#: Modules (and packages, with all below them) a plain GLB printed as text must not load.
NOT_FOR_A_PLAIN_GLB = (
    "assetcheck.formats.fbx.reader",
    "assetcheck.formats.fbx.model",
    "assetcheck.formats.fbx.walk",
    "assetcheck.formats.fbx.scene",
    "assetcheck.formats.obj.parse",
    "assetcheck.formats.obj.reader",
    "assetcheck.formats.obj.model",
    "assetcheck.formats.usd.reader",
    "assetcheck.formats.usd.stage",
    "assetcheck.formats.usd.model",
    "pxr",
    "assetcheck.formats.ktx2.parse",
    "assetcheck.formats.image_content",
    "assetcheck.animation.keys",
    "assetcheck.formats.gltf.skins",
    "assetcheck.formats.gltf.skin_binding",
    "assetcheck.formats.fbx.skin_faults",
    "assetcheck.formats.zip.reader",
    "assetcheck.formats.zip.layout",
    "assetcheck.formats.ktx2.fixed_part",
    "assetcheck.formats.ktx2.dfd",
    "assetcheck.formats.fbx.texture_faults",
    "assetcheck.formats.fbx.animation_faults",
    "assetcheck.formats.fbx.animation",
    "assetcheck.reports.failures",
    "difflib",
    "logging",
    "traceback",
    "assetcheck.formats.ktx2.basisu",
    "assetcheck.formats.gltf.draco",
    "assetcheck.formats.gltf.draco_decoder",
    "assetcheck.formats.gltf.meshopt",
    "assetcheck.sandbox.decoder",
    "assetcheck.sandbox.child",
    "assetcheck.service",
    "assetcheck.reports.baseline",
    "assetcheck.reports.sarif",
    "multiprocessing",
    "assetcheck.cli.worker_pool",
    "socket",
    "threading",
    "orjson",
    "tomllib",
    "ufbx",
    "DracoPy",
    "tornado",
    "peewee",
)

_LOADED_AFTER_VALIDATE = """
import json, sys
from assetcheck.cli import main
main(["validate", "--jobs", "1", *sys.argv[1:]])
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_after_validating(*arguments: str) -> set[str]:
    """The modules loaded once ``validate`` ran, in a folder with no configuration file and
    no ``ASSETCHECK_`` variable (each is read as TOML)."""
    no_config = Path(arguments[-1]).parent
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ASSETCHECK_")}
    environment["XDG_CONFIG_HOME"] = str(no_config)
    run = subprocess.run(
        [sys.executable, "-c", _LOADED_AFTER_VALIDATE, *arguments],
        cwd=no_config,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(run.stderr.splitlines()[-1]))


def unwanted(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules for n in names if m == n or m.startswith(n + "."))


def test_validating_a_plain_glb_loads_no_other_formats_decoders_or_service(tmp_path: Path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)]))
    glb = builder.write_glb(tmp_path / "triangle.glb")
    assert unwanted(loaded_after_validating(str(glb)), NOT_FOR_A_PLAIN_GLB) == []


def test_json_output_loads_orjson_and_a_ktx2_image_loads_the_ktx2_parser(tmp_path: Path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)]))
    builder.add_image(b"\xabKTX 20\xbb\r\n\x1a\n" + bytes(68))
    glb = builder.write_glb(tmp_path / "ktx2.glb")
    modules = loaded_after_validating("--format", "json", str(glb))
    assert {
        "orjson",
        "assetcheck.formats.ktx2.parse",
        "assetcheck.formats.ktx2.fixed_part",
    } <= modules


def test_a_glb_with_a_zip_appended_loads_the_zip_layout_parser(tmp_path: Path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)]))
    glb = builder.write_glb(tmp_path / "polyglot.glb")
    with zipfile.ZipFile(tmp_path / "hidden.zip", "w") as archive:
        archive.writestr("hidden.txt", "hidden")
    glb.write_bytes(glb.read_bytes() + (tmp_path / "hidden.zip").read_bytes())
    assert "assetcheck.formats.zip.layout" in loaded_after_validating(str(glb))
