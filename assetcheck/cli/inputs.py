"""The files ``assetcheck validate`` is given: files as named, folders searched recursively.

A folder yields the files under it with the extension of a registered file format (``.glb``,
``.gltf``, ``.fbx``, ``.obj``, ``.usdz``, ``.usd``, ``.usda``, ``.usdc``, ``.zip`` and those of
plugins: ``formats.registry``), in sorted
order, skipping hidden folders (``.git``...) and never following symbolic links to folders.
``--include`` and ``--exclude`` glob patterns filter what a folder yields: a pattern without
``/`` matches the file name (``*_lod?.glb``), one with ``/`` the path relative to the folder
(``raw/*``, where ``*`` also crosses ``/``; ``raw/`` means ``raw/*``). A file named on the
command line is always validated. Each file is validated once, in the order first met.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Sequence
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from assetcheck.formats.registry import FormatRegistry


def add_selection_options(parser: argparse.ArgumentParser, verb: str) -> None:
    """``--include`` and ``--exclude``, the folder filters of :func:`select_files`, worded
    for the command's ``verb`` ("validate", "submit")."""
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help=f"in folders, {verb} only files matching GLOB (a name, or a path relative to the "
        "folder when it has a /); repeatable",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="in folders, skip files matching GLOB; repeatable",
    )


class Selection(NamedTuple):
    """The files to validate, and one message per path that gave none."""

    files: list[Path]
    problems: list[str]


def select_files(
    paths: Sequence[Path],
    formats: FormatRegistry,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> Selection:
    """The files ``paths`` name or hold, those in folders of the ``formats`` and filtered by the
    glob patterns (see the module)."""
    selection = Selection([], [])
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = [
                file
                for file in _folder_files(path, formats.extensions)
                if _wanted(file.relative_to(path), include, exclude)
            ]
            if not found:
                selection.problems.append(
                    f"{path}: no {formats.titles()} files"
                    + (" match the patterns" if include or exclude else "")
                )
        elif path.is_file():
            found = [path]
        else:
            selection.problems.append(f"{path}: not a readable file or folder")
            continue
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                selection.files.append(file)
    return selection


def _folder_files(folder: Path, extensions: frozenset[str]) -> Iterator[Path]:
    for parent, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if PurePosixPath(name).suffix.lower() in extensions:
                yield Path(parent, name)


def _wanted(relative: Path, include: Sequence[str], exclude: Sequence[str]) -> bool:
    path = relative.as_posix()
    if include and not any(_matches(path, pattern) for pattern in include):
        return False
    return not any(_matches(path, pattern) for pattern in exclude)


def _matches(path: str, pattern: str) -> bool:
    if "/" in pattern:
        return fnmatchcase(path, pattern.lstrip("/") + ("*" if pattern.endswith("/") else ""))
    return fnmatchcase(path.rsplit("/", 1)[-1], pattern)
