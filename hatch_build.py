"""Compiles AssetCheck's Cython kernels (``assetcheck/mesh/_kernels.pyx``) while hatchling
builds a wheel: into the wheel for a regular build, next to the ``.pyx`` for an editable one
(where the checkout's own ``assetcheck`` package imports it). A kernel already compiled next
to its ``.pyx`` for this Python, and newer than the ``.pyx`` and this file (the compiler flags),
is used as it is, as ``make`` would: compiling one takes about a minute of CPU. Why a hatchling
hook rather than meson-python or setuptools: docs/performance.md, "Compiled kernels"."""

from __future__ import annotations

import os
import shutil
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The extension modules, by dotted name, each from the ``.pyx`` of the same path.
EXTENSIONS = ("assetcheck.mesh._kernels",)
#: Bit-for-bit the arithmetic of the numpy code the kernels replaced: no fused multiply-add.
COMPILE_ARGS = ["-O3", "-ffp-contract=off"]
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
}


class KernelsBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        root = Path(self.root)
        with tempfile.TemporaryDirectory() as scratch:
            stale = [name for name in EXTENSIONS if not _up_to_date(root, name)]
            built = dict(_compile(root, Path(scratch), stale)) if stale else {}
            for name in EXTENSIONS:
                relative = _library(name)
                library = built.get(name, root / relative)
                if version == "editable":
                    if name in built:
                        _replace(library, root / relative)
                else:
                    kept = Path(self.directory) / "kernels" / relative
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(library, kept)
                    build_data["force_include"][str(kept)] = str(relative)


def _source(name: str) -> Path:
    """The ``.pyx`` of the extension ``name``, relative to the project root."""
    return Path(*name.split(".")).with_suffix(".pyx")


def _library(name: str) -> Path:
    """Where the extension ``name`` lives in the package, for this Python (its ABI suffix)."""
    return Path(*name.split(".")).with_suffix(sysconfig.get_config_var("EXT_SUFFIX"))


def _up_to_date(root: Path, name: str) -> bool:
    """Whether the checkout holds ``name`` compiled after its source and this file changed."""
    library = root / _library(name)
    sources = (root / _source(name), Path(__file__))
    return library.is_file() and all(
        library.stat().st_mtime > source.stat().st_mtime for source in sources
    )


def _replace(built: Path, target: Path) -> None:
    """Put ``built`` at ``target`` as a new file: a process that has the old library loaded
    keeps its copy (overwriting a mapped library in place crashes it), and the folder's
    modification time changes, which a running ``assetcheck daemon`` reads as changed code."""
    staged = target.with_name(f".{target.name}.new")
    shutil.copyfile(built, staged)
    os.replace(staged, target)


def _compile(root: Path, scratch: Path, names: list[str]) -> list[tuple[str, Path]]:
    """Each extension of ``names`` compiled in ``scratch``: its dotted name and library."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    sources = [
        Extension(
            name,
            [str(root / _source(name))],
            extra_compile_args=COMPILE_ARGS,
        )
        for name in names
    ]
    extensions = cythonize(
        sources, build_dir=str(scratch / "c"), compiler_directives=DIRECTIVES, quiet=True
    )
    command = build_ext(Distribution({"ext_modules": extensions}))
    command.build_lib = str(scratch / "lib")
    command.build_temp = str(scratch / "temp")
    command.ensure_finalized()
    command.run()
    return [(name, Path(command.get_ext_fullpath(name))) for name in names]
