"""AssetCheck: validate 3D assets (GLB, glTF, FBX, OBJ, USDZ and ZIP archives of them)."""

from assetcheck.plugins.hookspecs import hookimpl

# The one place the version is written: pyproject.toml reads it from here at build time, and
# reading it here costs nothing at start-up (importlib.metadata would cost ~50 ms per command).
__version__ = "0.1.0"
#: Where the project's documentation (the ``docs/`` folder) is published: reports that link to
#: it (SARIF's ``helpUri``) need an absolute address.
DOCS_URL = "https://github.com/assetcheck/assetcheck/blob/main/docs"

__all__ = ["DOCS_URL", "__version__", "hookimpl"]
