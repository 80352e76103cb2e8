"""The FBX reader on real files: the shared corpus (exact counts) and Debian's assimp models.

Both sources are optional on a developer machine: their tests skip, saying what is missing.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from assetcheck.engine import validate

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "fbx"
ASSIMP_FBX = Path("/usr/share/assimp/models/FBX")
#: Files of the corpus whose version no FBX SDK writes (2000 and 8000).
UNSUPPORTED_PREFIX = "synthetic_unsupported_"
#: An FBX whose binary header was damaged by a text-mode transfer, on purpose.
CORRUPT_ASSIMP_MODEL = "transparentTest.fbx"


def _corpus_rows() -> list:
    expected = CORPUS / "expected.tsv"
    if not expected.is_file():
        reason = f"the shared FBX corpus is absent (looked in {CORPUS})"
        return [pytest.param(None, 0, 0, marks=pytest.mark.skip(reason=reason))]
    with expected.open(newline="") as table:
        return [
            pytest.param(
                row["file"], int(row["control_points"]), int(row["triangles"]), id=row["file"]
            )
            for row in csv.DictReader(table, delimiter="\t")
        ]


def _assimp_models() -> list:
    if not ASSIMP_FBX.is_dir():
        reason = "Debian's assimp-testmodels package is not installed"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    models = sorted(p for p in ASSIMP_FBX.rglob("*") if p.is_file() and p.suffix.lower() == ".fbx")
    return [pytest.param(path, id=str(path.relative_to(ASSIMP_FBX))) for path in models]


def error_codes(result) -> list[str]:
    return [issue.code for issue in result.issues if issue.severity == "error"]


@pytest.mark.parametrize(("name", "control_points", "triangles"), _corpus_rows())
def test_corpus_file_matches_its_expected_counts(name, control_points, triangles):
    result = validate(CORPUS / name)

    (asset,) = result.assets
    assert (asset.vertex_count, asset.triangle_count) == (control_points, triangles)
    if name.startswith(UNSUPPORTED_PREFIX):
        assert error_codes(result) == ["FBX_UNSUPPORTED_VERSION"]
    else:
        assert error_codes(result) == []
        assert result.security.safe


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared FBX corpus is absent ({CORPUS})")
def test_expected_counts_cover_every_corpus_file():
    with (CORPUS / "expected.tsv").open(newline="") as table:
        listed = {row["file"] for row in csv.DictReader(table, delimiter="\t")}

    assert listed == {path.name for path in CORPUS.glob("*.fbx")}


@pytest.mark.parametrize("path", _assimp_models())
def test_assimp_model_loads_with_plausible_counts(path):
    result = validate(path)

    if path.name == CORRUPT_ASSIMP_MODEL:  # its damaged header is no format's, as the service says
        assert error_codes(result) == ["UNSUPPORTED_FILE_TYPE"] and result.assets == []
        return
    (asset,) = result.assets
    assert error_codes(result) == []
    assert asset.parts, "every FBX model of the package holds meshes"
    assert asset.vertex_count > 0 and asset.triangle_count > 0
    assert all(part.vertex_count > 0 for part in asset.parts)
