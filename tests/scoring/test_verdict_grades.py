"""Uploads graded end to end: the grade never says more than the verdict allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.engine import validate
from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.testing.gltf import GltfBuilder, Primitive
from assetcheck.testing.zip import zip_of


def _clean_glb() -> bytes:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(4, index_count=6, normals=True)], "Quad"))
    return builder.glb()


def _truncated_glb() -> bytes:
    data = _clean_glb()
    return data[: len(data) - 16]


UNREADABLE = {
    "truncated.glb": _truncated_glb,
    "five_bytes.glb": lambda: b"glTF\x02",
    "notes.glb": lambda: b"These are meeting notes, not a model.\n" * 4,
    "empty.glb": lambda: b"",
    "empty.gltf": lambda: b"",
    "empty.zip": lambda: zip_of({}),
    "readme_only.zip": lambda: zip_of({"README.txt": b"no model here"}),
    "truncated_member.zip": lambda: zip_of({"models/rock.glb": _truncated_glb()}),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_an_upload_with_no_readable_model_grades_critical(tmp_path: Path, name: str):
    path = tmp_path / name
    path.write_bytes(UNREADABLE[name]())
    result = validate(path)
    assert not result.valid
    assert result.health_score <= 24
    assert result.grade == "critical"


def test_one_readable_model_beside_an_unreadable_one_grades_by_its_errors(tmp_path: Path):
    path = tmp_path / "pair.zip"
    path.write_bytes(zip_of({"a.glb": _clean_glb(), "b.glb": _truncated_glb()}))
    result = validate(path)
    assert result.grade == "fair"


def test_a_single_error_grades_at_best_fair(tmp_path: Path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(4, index_count=6, normals=True)], "Quad"))
    builder.document["asset"]["minVersion"] = "2.1"
    path = builder.write_glb(tmp_path / "future.glb")
    result = validate(path)
    assert result.severity_counts["error"] >= 1
    assert result.grade == "fair"


def test_a_clean_model_still_grades_excellent(tmp_path: Path):
    path = tmp_path / "clean.glb"
    path.write_bytes(_clean_glb())
    assert validate(path).grade == "excellent"


class _GenerousScore:
    """A scoring plugin that calls everything perfect."""

    @hookimpl(tryfirst=True)
    def compute_health_score(self, counts, severities, security_levels) -> int:
        return 100


def test_a_plugin_formula_cannot_lift_an_unreadable_upload_above_critical(tmp_path: Path):
    pm = get_plugin_manager()
    pm.register(_GenerousScore(), name="generous-score")
    path = tmp_path / "truncated.glb"
    path.write_bytes(_truncated_glb())
    assert validate(path, plugin_manager=pm).grade == "critical"
