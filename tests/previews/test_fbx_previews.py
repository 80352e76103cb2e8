"""Every real FBX file the reader can read gets a preview picture: the shared corpus and
Debian's assimp-testmodels (each skips, saying so, where absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.drawing import preview_path
from tests.formats.fbx.test_fbx_corpus import ASSIMP_FBX, CORPUS, CORRUPT_ASSIMP_MODEL
from tests.previews import draw_previews


def real_fbx_files() -> list:
    """The corpus's files and assimp's readable ones, or one skipped parameter per absent
    source."""
    found = []
    for folder, what in (
        (CORPUS, "the shared FBX corpus"),
        (ASSIMP_FBX, "Debian's assimp-testmodels package"),
    ):
        if not folder.is_dir():
            found.append(pytest.param(None, marks=pytest.mark.skip(reason=f"{what} is absent")))
            continue
        found += [
            pytest.param(path, id=path.name)
            for path in sorted(folder.rglob("*"))
            if path.suffix.lower() == ".fbx" and path.name != CORRUPT_ASSIMP_MODEL
        ]
    return found


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


@pytest.mark.parametrize("path", real_fbx_files())
def test_a_real_fbx_file_gets_a_preview_picture(tmp_path, plugin_manager, path: Path):
    upload = tmp_path / "upload"
    upload.write_bytes(path.read_bytes())
    assert draw_previews(upload, path.name, plugin_manager) == 1
    assert preview_path(tmp_path, path.name).stat().st_size > 0
