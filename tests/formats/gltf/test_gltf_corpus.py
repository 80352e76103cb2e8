"""The glTF checks on the shared corpus of public glTF/GLB files, against what the Khronos
glTF-Validator reports for each (``expected.tsv``): the same verdict, the same four counts, every
Khronos error code found, and no error of ours on a file Khronos calls valid unless
``docs/issues.md`` says why AssetCheck is stricter there. Files whose meshopt fallback buffer has
data are not compared on verdicts: Khronos checks the fallback copy, AssetCheck the decoded data.

The corpus is optional on a developer machine: without it these tests skip, saying so.
"""

from __future__ import annotations

import csv
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from assetcheck.asset.result import Result
from assetcheck.engine import validate
from assetcheck.issues.texture_codes import ISSUE_TYPES as TEXTURE_ISSUE_TYPES
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.scoring.profiles import engine_profiles

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "gltf"
DOCS = Path(__file__).resolve().parents[3] / "docs"

#: AssetCheck's code -> the Khronos error codes it stands for (AssetCheck refuses some URIs
#: with its own security codes).
EQUIVALENT = {
    "GLTF_EXTERNAL_URI": frozenset({"NON_RELATIVE_URI", "IO_ERROR", "INVALID_URI"}),
    "GLTF_PATH_TRAVERSAL": frozenset({"IO_ERROR"}),
    "GLTF_DATA_URI_MISMATCH": frozenset({"INVALID_URI"}),
}


@dataclass(frozen=True)
class Expected:
    """One row of ``expected.tsv``: Khronos' error count, its four totals (None when it gives
    no statistics) and its error codes."""

    errors: int
    counts: tuple[int, int, int, int] | None
    codes: frozenset[str]


def _rows() -> list:
    table = CORPUS / "expected.tsv"
    if not table.is_file():
        reason = f"the shared glTF corpus is absent (looked in {CORPUS})"
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=reason))]
    with table.open(newline="") as rows:
        return [
            pytest.param(row["file"], _expected(row), id=row["file"])
            for row in csv.DictReader(rows, delimiter="\t")
        ]


def _expected(row: dict[str, str]) -> Expected:
    keys = ("vertices", "triangles", "materials", "animations")
    counts = None if row["vertices"] == "" else tuple(int(row[key]) for key in keys)
    codes = frozenset(code for code in row["error_codes"].split(",") if code)
    return Expected(int(row["khronos_errors"]), counts, codes)  # type: ignore[arg-type]


def stricter_codes() -> frozenset[str]:
    """The codes ``docs/issues.md`` lists where AssetCheck is deliberately stricter."""
    text = (DOCS / "issues.md").read_text()
    section = text.split("## Stricter than Khronos", 1)[1].split("\n## ", 1)[0]
    return frozenset(re.findall(r"`([A-Z][A-Z0-9_]+)`", section))


def error_codes(result: Result) -> frozenset[str]:
    return frozenset(issue.code for issue in result.issues if issue.severity == "error")


@functools.cache
def _result(name: str) -> Result:
    """The corpus file's result, validated once for all the tests of this module."""
    return validate(CORPUS / name)


def reads_meshopt_fallback_data(name: str) -> bool:
    """Whether Khronos read a meshopt fallback buffer's data where AssetCheck reads the decoded
    views (a fallback buffer with a uri; see docs/compression.md)."""
    path = CORPUS / name
    if path.suffix != ".gltf":
        return False
    buffers = json.loads(path.read_text(encoding="utf-8")).get("buffers") or []
    return any(
        "uri" in buffer
        and any(
            (buffer.get("extensions") or {}).get(extension, {}).get("fallback") is True
            for extension in ("EXT_meshopt_compression", "KHR_meshopt_compression")
        )
        for buffer in buffers
        if isinstance(buffer, dict)
    )


def skip_fallback_data(name: str) -> None:
    if reads_meshopt_fallback_data(name):
        pytest.skip("Khronos checks the meshopt fallback data, AssetCheck the decoded data")


@pytest.mark.parametrize(("name", "expected"), _rows())
def test_corpus_verdict_agrees_with_khronos(name, expected):
    skip_fallback_data(name)
    ours = error_codes(_result(name))
    assert bool(ours) == (expected.errors > 0), f"Khronos {sorted(expected.codes)}, ours {ours}"


@pytest.mark.parametrize(("name", "expected"), _rows())
def test_corpus_counts_match_khronos(name, expected):
    if expected.counts is None:
        pytest.skip("Khronos gives no statistics for this file")
    (asset,) = _result(name).assets
    assert (
        asset.vertex_count,
        asset.triangle_count,
        asset.material_count,
        asset.animation_count,
    ) == expected.counts


@pytest.mark.parametrize(("name", "expected"), _rows())
def test_corpus_reports_every_khronos_error_code(name, expected):
    skip_fallback_data(name)
    ours = error_codes(_result(name))
    covered = ours | {code for own in ours for code in EQUIVALENT.get(own, ())}
    assert expected.codes <= covered


@pytest.mark.parametrize(("name", "expected"), _rows())
def test_no_error_on_a_khronos_valid_file_unless_documented_as_stricter(name, expected):
    if expected.errors:
        pytest.skip("Khronos calls this file invalid")
    assert error_codes(_result(name)) <= stricter_codes()


def test_texture_content_findings_are_never_errors_on_the_corpus():
    """The texture content and texel density rules read every image of the corpus a material
    samples, and none of what they find is an error, under any profile: a finding's severity
    is its code's in the profile (``docs/textures.md``)."""
    rows = [param.values[0] for param in _rows() if param.values[0] is not None]
    if not rows:
        pytest.skip(f"the shared glTF corpus is absent (looked in {CORPUS})")
    texture_codes = {issue_type.code for issue_type in TEXTURE_ISSUE_TYPES}
    found = [
        (name, issue.code, issue.severity)
        for name in rows
        for issue in _result(name).issues
        if issue.code in texture_codes
    ]
    assert [finding for finding in found if finding[2] == "error"] == []
    # The rules ran: the Khronos sample's textured box has a fully opaque alpha channel.
    box = "gltftransform/packages/core/test/in/BoxTextured_glTF/BoxTextured.gltf"
    assert (box, "TEXTURE_ALPHA_OPAQUE", "info") in found
    pm = get_plugin_manager()
    registry = build_registry(pm)
    for profile in engine_profiles(pm).values():
        severities = {profile.severity.get(code, registry[code].severity) for code in texture_codes}
        assert "error" not in severities, profile.name
