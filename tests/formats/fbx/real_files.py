"""The real FBX files the reference tests read beside ufbx and assimp: the shared corpus, the
production corpus and Debian's assimp-testmodels, as pytest parameters."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.formats.fbx.test_fbx_corpus import ASSIMP_FBX, CORPUS
from tests.formats.fbx.test_fbx_production_corpus import PRODUCTION

FOLDERS = (CORPUS, PRODUCTION, ASSIMP_FBX)


def real_fbx_files(containing: bytes = b"") -> list:
    """One parameter per real FBX file whose bytes hold ``containing``, named after the file;
    a single skipped parameter when none of the folders is present."""
    files = [
        path
        for folder in FOLDERS
        if folder.is_dir()
        for path in sorted(folder.rglob("*"))
        if path.suffix.lower() == ".fbx" and (not containing or containing in path.read_bytes())
    ]
    if not files:
        reason = "none of the shared, production and assimp-testmodels FBX folders is present"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(path, id=path.name) for path in files]


def assert_known_files_found(params: list, known: dict[Path, set[str]]) -> None:
    """Each present folder's ``known`` files are among ``params``: a reference test whose
    files went missing would prove nothing."""
    found = {path.name for param in params for path in param.values if path}
    for folder, names in known.items():
        if folder.is_dir():
            assert names <= found, folder


@contextmanager
def ufbx_scene(path: Path) -> Iterator[Any]:
    """ufbx's scene of ``path``, closed on leaving the block; the test is skipped when ufbx
    cannot read the file."""
    import ufbx

    try:
        scene = ufbx.load_file(str(path))
    except ufbx.UfbxError:
        pytest.skip("ufbx cannot read this file")
    try:
        yield scene
    finally:
        scene.close()
