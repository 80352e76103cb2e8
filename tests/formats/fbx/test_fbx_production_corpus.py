"""The FBX reader on production files: models of Kenney's and Quaternius' asset packs, as Asset
Forge, Kenney's ASCII writer and Blender exported them, which every engine loads.

None may carry an error, and each must count the triangles its ``expected.tsv`` row gives (as
ufbx reads them). The folder is optional on a developer machine: its tests skip, saying so.
"""

from __future__ import annotations

import csv

import pytest

from assetcheck.engine import validate
from assetcheck.issues.texture_codes import ISSUE_TYPES as TEXTURE_ISSUE_TYPES
from tests.formats.fbx.test_fbx_corpus import CORPUS, error_codes

PRODUCTION = CORPUS.parent / "fbx-production"
TEXTURE_CODES = frozenset(issue_type.code for issue_type in TEXTURE_ISSUE_TYPES)


def _rows() -> list:
    expected = PRODUCTION / "expected.tsv"
    if not expected.is_file():
        reason = f"the production FBX corpus is absent (looked in {PRODUCTION})"
        return [pytest.param(None, 0, marks=pytest.mark.skip(reason=reason))]
    with expected.open(newline="") as table:
        return [
            pytest.param(row["file"], int(row["triangles"]), id=row["file"])
            for row in csv.DictReader(table, delimiter="\t")
        ]


@pytest.mark.parametrize(("name", "triangles"), _rows())
def test_production_file_reads_without_error_and_with_its_expected_triangles(name, triangles):
    result = validate(PRODUCTION / name)

    (asset,) = result.assets
    assert error_codes(result) == []
    assert asset.triangle_count == triangles
    assert result.security.safe
    assert [mesh.geometry_fault for mesh in asset.fbx.meshes] == [None] * len(asset.parts)
    assert all(part.name for part in asset.parts)


@pytest.mark.parametrize("engine", ["generic", "web", "unity", "unreal", "godot", "mobile"])
def test_no_skin_or_texture_finding_is_an_error_on_production_files_under_any_profile(engine):
    if not PRODUCTION.is_dir():
        pytest.skip(f"the production FBX corpus is absent (looked in {PRODUCTION})")
    found = {
        (path.name, issue.code, issue.severity)
        for path in sorted(PRODUCTION.glob("*.fbx"))
        for issue in validate(path, engine=engine).issues
        if issue.code.startswith("FBX_SKIN_") or issue.code in TEXTURE_CODES
    }
    assert {finding for finding in found if finding[2] == "error"} == set()
    # The check ran: the animated woman's skin lists seven end bones no vertex is weighted to.
    woman = "Characters-and-Animals_Animated-Woman_smooth.fbx"
    assert any(name == woman and code == "FBX_SKIN_BONE_UNUSED" for name, code, _ in found)
