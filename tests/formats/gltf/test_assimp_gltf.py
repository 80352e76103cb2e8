"""Our statistics equal Khronos glTF-Validator's on every glTF and GLB of assimp-testmodels.

``tests/assets/khronos_counts.json`` holds Khronos' counts and error codes for each file,
recorded with ``tools/record_khronos_counts.py`` (see its docstring to record them again).
"""

import json
from pathlib import Path

import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager

MODELS = Path("/usr/share/assimp/models")
RECORDED = json.loads((Path(__file__).parents[2] / "assets" / "khronos_counts.json").read_text())
FILES = RECORDED["files"]
UNREADABLE = sorted(name for name, khronos in FILES.items() if khronos["counts"] is None)

pytestmark = pytest.mark.skipif(
    not MODELS.is_dir(), reason="Debian package assimp-testmodels is not installed"
)


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def test_every_gltf_and_glb_of_the_package_is_recorded():
    installed = {
        p.relative_to(MODELS).as_posix()
        for p in MODELS.rglob("*")
        if p.suffix.lower() in (".gltf", ".glb")
    }
    assert installed == set(FILES), "run tools/record_khronos_counts.py to record them again"


@pytest.mark.parametrize("name", sorted(FILES))
def test_counts_equal_khronos(plugin_manager, name):
    result = validate(MODELS / name, plugin_manager=plugin_manager)
    [asset] = result.assets
    ours = {
        "totalVertexCount": asset.vertex_count,
        "totalTriangleCount": asset.triangle_count,
        "materialCount": asset.material_count,
        "animationCount": asset.animation_count,
    }
    assert ours == (FILES[name]["counts"] or dict.fromkeys(ours, 0))
    assert "READER_CRASHED" not in {issue.code for issue in result.issues}
    assert result.security.safe and result.security.warnings == []  # no false alarms


@pytest.mark.parametrize("name", UNREADABLE)
def test_files_khronos_cannot_read_report_its_reason(plugin_manager, name):
    result = validate(MODELS / name, plugin_manager=plugin_manager)
    assert set(FILES[name]["errors"]) <= {issue.code for issue in result.issues}
    assert not result.valid


@pytest.mark.parametrize("name", [name for name in UNREADABLE if name.startswith("glTF/")])
def test_gltf_1_files_say_that_they_are_gltf_1(plugin_manager, name):
    result = validate(MODELS / name, plugin_manager=plugin_manager)
    expected = "GLB_INVALID_VERSION" if name.endswith(".glb") else "UNKNOWN_ASSET_MAJOR_VERSION"
    assert expected in {issue.code for issue in result.issues}
