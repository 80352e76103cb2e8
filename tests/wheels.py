"""AssetCheck as users get it: the wheel built offline, installed where the checkout is unseen.

:func:`build_wheel` builds the project with the installed hatchling and no index.
:class:`IsolatedPython` is a virtual environment that sees the test environment's third-party
packages (pytest, numpy, pluggy, hatchling, pip...) but no AssetCheck, no example plugin and no
checkout: whatever AssetCheck it imports is the one installed into it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Entries of the test environment's site-packages an isolated Python must not see: AssetCheck,
#: the example plugins (their dist-info and editable hooks) and every ``.pth`` file.
HIDDEN_PREFIXES = ("assetcheck", "_assetcheck", "_editable_impl_", "__editable__")

QUIET_PIP = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}


def build_wheel(folder: Path) -> Path:
    """The project built into a wheel in ``folder``, offline: hatchling as installed, no index."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "--wheel-dir",
            str(folder),
        ],
        check=True,
        env={**os.environ, **QUIET_PIP},
    )
    return next(folder.glob("assetcheck-*.whl"))


class IsolatedPython:
    """A virtual environment in ``folder`` without pip of its own; the test environment's
    third-party packages are reached through links in ``folder/shared``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        subprocess.run(
            [sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True
        )
        self.python = folder / "venv" / "bin" / "python"
        shared = folder / "shared"
        shared.mkdir()
        site = Path(sysconfig.get_path("purelib"))
        for entry in site.iterdir():
            if not entry.name.startswith(HIDDEN_PREFIXES) and entry.suffix != ".pth":
                (shared / entry.name).symlink_to(entry)
        (self.site_packages() / "shared.pth").write_text(f"{shared}\n")

    def site_packages(self) -> Path:
        found = self.run("-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
        return Path(found.stdout.strip())

    def install(self, *targets: Path) -> None:
        """pip-install wheels or project folders, offline, with the shared build backend."""
        self.run(
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            *map(str, targets),
        )

    def run(
        self, *args: str, cwd: Path | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run this Python with ``args``, out of the checkout and with no ``PYTHONPATH``."""
        env = {
            key: value
            for key, value in os.environ.items()
            if key != "PYTHONPATH" and not key.startswith("ASSETCHECK_")
        }
        return subprocess.run(
            [str(self.python), *args],
            cwd=cwd or self.folder,
            env={**env, **QUIET_PIP},
            capture_output=True,
            text=True,
            check=check,
        )
