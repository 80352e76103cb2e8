"""The build hook compiles a kernel only when the checkout holds none up to date."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("hatchling", reason="the build hook runs under hatchling (test extras)")

import hatch_build

NAME = hatch_build.EXTENSIONS[0]


def checkout(root: Path, *, compiled: bool) -> tuple[Path, Path]:
    """``root`` holding the kernel's source and, when ``compiled``, its library (newer)."""
    source = root / Path(*NAME.split(".")).with_suffix(".pyx")
    source.parent.mkdir(parents=True)
    source.write_text("# source\n")
    library = root / hatch_build._library(NAME)
    if compiled:
        library.write_bytes(b"\x7fELF")
        newer = max(source.stat().st_mtime, Path(hatch_build.__file__).stat().st_mtime) + 10
        os.utime(library, (newer, newer))
    return source, library


def test_a_library_newer_than_its_source_and_the_hook_is_used_as_it_is(tmp_path: Path):
    checkout(tmp_path, compiled=True)
    assert hatch_build._up_to_date(tmp_path, NAME)


def test_a_checkout_without_the_library_compiles_it(tmp_path: Path):
    checkout(tmp_path, compiled=False)
    assert not hatch_build._up_to_date(tmp_path, NAME)


def test_a_source_changed_after_the_library_was_compiled_compiles_it_again(tmp_path: Path):
    source, library = checkout(tmp_path, compiled=True)
    later = library.stat().st_mtime + 10
    os.utime(source, (later, later))
    assert not hatch_build._up_to_date(tmp_path, NAME)


def test_a_library_older_than_the_hook_its_flags_are_in_is_compiled_again(tmp_path: Path):
    _, library = checkout(tmp_path, compiled=True)
    older = Path(hatch_build.__file__).stat().st_mtime - 10
    os.utime(library, (older, older))
    assert not hatch_build._up_to_date(tmp_path, NAME)
