"""``assetcheck plugins new NAME``: a ready plugin package, from the files of ``template/``.

The package has a pyproject with the ``assetcheck`` entry point, a texture size check with a
config option, a README and tests that pass once it is installed next to AssetCheck. Template
files end in ``.tmpl`` and use :class:`string.Template` placeholders (``$module``); the folder
``package`` becomes the package's import name.
"""

from __future__ import annotations

import re
import string
from dataclasses import asdict, dataclass
from pathlib import Path

from assetcheck import __version__

TEMPLATE = Path(__file__).resolve().parent / "template"

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*")


@dataclass(frozen=True)
class PluginNames:
    """Every name the package needs, from the one the author chose.

    ``assetcheck plugins new studio-textures`` makes the distribution ``studio-textures``, the
    import package ``studio_textures``, the plugin (entry point) and config table
    ``studio_textures`` and the issue code prefix ``STUDIO_TEXTURES``. A leading
    ``assetcheck-`` is left out of the plugin, table and code names.
    """

    distribution: str
    module: str
    plugin: str
    table: str
    prefix: str
    env_variable: str
    assetcheck_version: str

    @classmethod
    def from_name(cls, name: str) -> PluginNames:
        """The names for ``name``; a ``ValueError`` when it cannot name a Python package."""
        if not _NAME.fullmatch(name):
            raise ValueError(
                f"{name!r} cannot name a plugin package: use letters and digits, "
                f"words joined by - or _, starting with a letter"
            )
        module = name.replace("-", "_").lower()
        plugin = module.removeprefix("assetcheck_") or module
        separator = "__" if "_" in plugin else "_"
        return cls(
            distribution=name.lower(),
            module=module,
            plugin=plugin,
            table=plugin,
            prefix=plugin.upper(),
            env_variable=f"ASSETCHECK_{plugin.upper()}{separator}MAX_TEXTURE_SIZE",
            assetcheck_version=__version__,
        )


def new_plugin(name: str, parent: Path) -> Path:
    """Write the package for ``name`` into ``parent/<distribution>`` and return that folder.

    Raises ``ValueError`` for a name that cannot name a package and ``FileExistsError`` when
    the folder exists: nothing is ever overwritten.
    """
    names = PluginNames.from_name(name)
    root = parent / names.distribution
    root.mkdir(parents=True, exist_ok=False)
    values = asdict(names)
    for source in sorted(TEMPLATE.rglob("*.tmpl")):
        relative = source.relative_to(TEMPLATE).with_suffix("")
        parts = [names.module if part == "package" else part for part in relative.parts]
        target = root.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(string.Template(source.read_text()).substitute(values))
    return root
