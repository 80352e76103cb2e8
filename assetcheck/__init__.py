"""AssetCheck: validate 3D assets (GLB, glTF, FBX and ZIP archives of them)."""

from assetcheck.hookspecs import hookimpl

# The one place the version is written: pyproject.toml reads it from here at build time, and
# reading it here costs nothing at start-up (importlib.metadata would cost ~50 ms per command).
__version__ = "0.1.0"

__all__ = ["__version__", "hookimpl"]
