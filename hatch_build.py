"""Compiles AssetCheck's Cython kernels (``assetcheck/mesh/_kernels.pyx``) while hatchling
builds a wheel: into the wheel for a regular build, next to the ``.pyx`` for an editable one
(where the checkout's own ``assetcheck`` package imports it). Why a hatchling hook rather than
meson-python or setuptools: docs/performance.md, "Compiled kernels"."""

from __future__ import annotations

import os
import shutil
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
            for built, name in _compile(root, Path(scratch)):
                relative = Path(*name.split(".")[:-1]) / built.name
                if version == "editable":
                    _replace(built, root / relative)
                else:
                    kept = Path(self.directory) / "kernels" / relative
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(built, kept)
                    build_data["force_include"][str(kept)] = str(relative)


def _replace(built: Path, target: Path) -> None:
    """Put ``built`` at ``target`` as a new file: a process that has the old library loaded
    keeps its copy (overwriting a mapped library in place crashes it), and the folder's
    modification time changes, which a running ``assetcheck daemon`` reads as changed code."""
    staged = target.with_name(f".{target.name}.new")
    shutil.copyfile(built, staged)
    os.replace(staged, target)


def _compile(root: Path, scratch: Path) -> list[tuple[Path, str]]:
    """Each extension compiled in ``scratch``: the shared library and its dotted name."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    sources = [
        Extension(
            name,
            [str(root / Path(*name.split(".")).with_suffix(".pyx"))],
            extra_compile_args=COMPILE_ARGS,
        )
        for name in EXTENSIONS
    ]
    extensions = cythonize(
        sources, build_dir=str(scratch / "c"), compiler_directives=DIRECTIVES, quiet=True
    )
    command = build_ext(Distribution({"ext_modules": extensions}))
    command.build_lib = str(scratch / "lib")
    command.build_temp = str(scratch / "temp")
    command.ensure_finalized()
    command.run()
    return [(Path(command.get_ext_fullpath(name)), name) for name in EXTENSIONS]
