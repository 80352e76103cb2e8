"""Numbers too large for a double read as infinite, as in Khronos: out of range everywhere."""

from __future__ import annotations

from pathlib import Path

from assetcheck.engine import validate

CAMERA = (
    '{"asset": {"version": "2.0"}, "cameras": [{"type": "perspective", "perspective": '
    '{"yfov": 1, "znear": %s, "zfar": %s}}], "nodes": [{"camera": 0}], '
    '"scenes": [{"nodes": [0]}], "scene": 0}'
)


def _findings(tmp_path: Path, znear: str, zfar: str) -> set[tuple[str, str]]:
    path = tmp_path / "camera.gltf"
    path.write_text(CAMERA % (znear, zfar))
    return {
        (issue.code, issue.pointer) for issue in validate(path).issues if issue.severity == "error"
    }


def test_an_infinite_znear_is_out_of_range_not_a_clipping_order_error(tmp_path: Path):
    assert _findings(tmp_path, "1e400", "1e401") == {
        ("VALUE_NOT_IN_RANGE", "/cameras/0/perspective/znear"),
        ("VALUE_NOT_IN_RANGE", "/cameras/0/perspective/zfar"),
    }


def test_finite_clipping_planes_in_order_are_valid(tmp_path: Path):
    assert _findings(tmp_path, "0.1", "100") == set()
