"""AssetCheck: validate 3D assets (GLB, glTF, FBX and ZIP archives of them)."""

from importlib.metadata import PackageNotFoundError, version

from assetcheck.hookspecs import hookimpl

try:
    __version__ = version("assetcheck")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__", "hookimpl"]
