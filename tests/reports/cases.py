"""What the report tests render: crafted uploads built byte by byte (:data:`UPLOADS`, each
with its file name and the engine profile it is checked against), a report built by hand around
hostile names, and a failed job's report.

``HOSTILE`` is a name that tries every trick on a renderer: HTML, a table pipe, code spans,
emphasis, a link, a terminal escape sequence, a right-to-left override, a NUL and a lone
surrogate (the last two valid in glTF JSON as escapes, but storable neither in UTF-8 nor in
PostgreSQL). ``STORED_HOSTILE`` is what a report keeps of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from assetcheck.asset import Asset, MeshPart
from assetcheck.asset.result import Result, SecurityScan
from assetcheck.issues import IssueCollector, IssueRegistry, IssueType
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_failure_report, build_report
from assetcheck.scoring.profiles import BUILTIN_PROFILES
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, binary_fbx, cube
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from assetcheck.testing.zip import elf_program, zip_of
from tests.formats.gltf.texture_cases import OBJECT_SPACE, channels, encoded, ramp

HOSTILE = "<script>alert(1)</script>|`x`*y*_z_[a](b)\x1b[31m\u202eevil\x00\ud800"
STORED_HOSTILE = HOSTILE.replace("\x00", "\ufffd").replace("\ud800", "\ufffd")
NAMED = IssueType("NAMED_THING", "warning", "Mesh {name} is odd.", "Rename {name}.", "test")
BROKEN = IssueType("NAMED_ERROR", "error", "Mesh {name} is broken.", "Rebuild {name}.", "test")


@dataclass(frozen=True)
class Upload:
    filename: str
    content: bytes
    engine: str = "generic"


def clean_glb() -> bytes:
    """A textured quad with normals and texture coordinates: nothing to report."""
    builder = GltfBuilder()
    material = builder.add_material(
        "M_Rock", base_color_texture=builder.add_texture(builder.add_image(png_bytes(64, 64)))
    )
    builder.add_node(
        builder.add_mesh(
            [Primitive(4, index_count=6, material=material, normals=True, texcoords=True)],
            "SM_Rock",
        )
    )
    return builder.glb()


def flawed_glb() -> bytes:
    """Nine materials (over the mobile budget of 8), seven meshes without normals (enough to
    fold their locations), an image of an odd size and an unused material."""
    builder = GltfBuilder()
    image = builder.add_texture(builder.add_image(png_bytes(100, 60)))
    materials = [builder.add_material(f"M_Crate_{i}", base_color_texture=image) for i in range(9)]
    builder.add_material("M_Unused")
    for index in range(7):
        primitives = [
            Primitive(4, index_count=6, material=m, texcoords=True) for m in materials[index::7]
        ]
        builder.add_node(builder.add_mesh(primitives, f"SM_Crate_{index}"), f"Crate_{index}")
    return builder.glb()


def hostile_glb() -> bytes:
    """Mesh, node and material names that are all :data:`HOSTILE`."""
    builder = GltfBuilder(generator=HOSTILE)
    material = builder.add_material(HOSTILE)
    for _ in range(2):
        mesh = builder.add_mesh([Primitive(3, material=material)], HOSTILE)
        builder.add_node(mesh, HOSTILE)
    return builder.glb()


def cube_fbx() -> bytes:
    return binary_fbx(Scene(meshes=[cube("Box")]))


def textured_fbx() -> bytes:
    """A cube whose material embeds an object-space normal map, a base colour with
    transparent texels though the material is opaque, and a one-colour specular map."""
    base = encoded(channels(ramp(60, 200), 100, 100, ramp(0, 255)))
    return binary_fbx(
        Scene(
            meshes=[cube("Box", ["Wood"])],
            materials=[MaterialSpec("Wood")],
            videos=[
                VideoSpec("bumps", "bumps.png", encoded(OBJECT_SPACE), [("Wood", "NormalMap")]),
                VideoSpec("wood", "wood.png", base, [("Wood", "DiffuseColor")]),
                VideoSpec(
                    "shine", "shine.png", encoded(channels(90, 90, 90)), [("Wood", "SpecularColor")]
                ),
            ],
        )
    )


def hostile_zip() -> bytes:
    """A model beside an entry that climbs out of the archive and an executable whose name is
    :data:`HOSTILE`."""
    return zip_of(
        {
            "models/rock.glb": clean_glb(),
            "../../etc/passwd": b"root:x:0:0",
            "bin/run|`x`<b>.sh": elf_program(),
        }
    )


def truncated_glb() -> bytes:
    """:func:`clean_glb` cut off inside its BIN chunk: nothing of it can be read."""
    data = clean_glb()
    return data[: len(data) - 40]


UPLOADS = {
    "clean_glb": Upload("rock.glb", clean_glb()),
    "flawed_glb": Upload("crates.glb", flawed_glb(), engine="mobile"),
    "hostile_glb": Upload(f"{HOSTILE}.glb", hostile_glb()),
    "cube_fbx": Upload("box.fbx", cube_fbx(), engine="unity"),
    "textured_fbx": Upload("wood.fbx", textured_fbx(), engine="web"),
    "hostile_zip": Upload("pack|`<i>`.zip", hostile_zip(), engine="web"),
    "truncated_glb": Upload("rock.glb", truncated_glb()),
}


def hostile_report(
    occurrences: int = 1, issue_type: IssueType = NAMED, name: str = HOSTILE
) -> dict:
    """A stored report whose file, mesh and message texts all carry ``name`` (by default
    :data:`HOSTILE`), with ``occurrences`` issues of ``issue_type`` reported by the check
    ``studio:names``."""
    issues = IssueCollector(IssueRegistry([issue_type]))
    for index in range(occurrences):
        issues.add(
            issue_type.code,
            file=f"{name}.glb",
            pointer=f"/meshes/{index}",
            source="studio:names",
            name=f"{name}{index}",
        )
    asset = Asset(f"{name}.glb", "glb", 3, 1, 1, 0, True, parts=[MeshPart(name, 3, 1, 1)])
    result = Result(
        filename=f"{name}.zip",
        profile=BUILTIN_PROFILES["generic"],
        assets=[asset],
        security=SecurityScan(scanned_files=2),
        issues=issues.issues,
        issue_counts=dict(issues.counts),
        severity_counts=issues.severity_counts(),
        truncated=issues.truncated,
        health_score=97,
        grade="excellent",
    )
    return json.loads(render_json(build_report(result)))  # as the service stores it


def failed_report() -> dict:
    """The report of a job that timed out, for an upload named :data:`HOSTILE`."""
    return build_failure_report(
        f"{HOSTILE}.fbx",
        BUILTIN_PROFILES["web"],
        {"code": "VALIDATION_TIMEOUT", "message": "the validation took longer than 300 s"},
        job={
            "job_id": "val_abc",
            "created_at": "2025-01-31T12:00:00Z",
            "failed_at": "2025-01-31T12:05:00Z",
        },
    )
