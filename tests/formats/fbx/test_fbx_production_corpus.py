"""The FBX reader on production files: models of Kenney's and Quaternius' asset packs, as Asset
Forge, Kenney's ASCII writer and Blender exported them, which every engine loads.

None may carry an error, and each must count the triangles its ``expected.tsv`` row gives (as
ufbx reads them). The folder is optional on a developer machine: its tests skip, saying so.
"""

from __future__ import annotations

import csv

import pytest

from assetcheck.engine import validate
from tests.formats.fbx.test_fbx_corpus import CORPUS, error_codes

PRODUCTION = CORPUS.parent / "fbx-production"


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
