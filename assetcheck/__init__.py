"""AssetCheck: validate 3D assets (GLB, glTF, FBX, OBJ, USDZ and ZIP archives of them)."""

TYPE_CHECKING = False  # typing itself costs the daemon's client (docs/daemon.md) ~5 ms
if TYPE_CHECKING:
    from assetcheck.plugins.hookspecs import hookimpl

# The one place the version is written: pyproject.toml reads it from here at build time, and
# reading it here costs nothing at start-up (importlib.metadata would cost ~50 ms per command).
__version__ = "0.1.0"
#: Where the project's documentation (the ``docs/`` folder) is published: reports that link to
#: it (SARIF's ``helpUri``) need an absolute address.
DOCS_URL = "https://github.com/assetcheck/assetcheck/blob/main/docs"

__all__ = ["DOCS_URL", "__version__", "hookimpl"]


def __getattr__(name: str) -> object:
    """``hookimpl``, imported (with pluggy) only when asked for: ``assetcheck validate``
    handing its work to the daemon (``docs/daemon.md``) never needs it."""
    if name == "hookimpl":
        from assetcheck.plugins.hookspecs import hookimpl

        return hookimpl
    raise AttributeError(f"module 'assetcheck' has no attribute {name!r}")
