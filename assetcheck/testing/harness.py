"""Validating with plugins under test, exactly as ``assetcheck validate`` does.

:func:`plugin_manager` builds the plugin manager from config text, the way the command line
builds it from the config file (so a plugin's ``configure`` hook sees its table, and a bad
setting raises the same :class:`~assetcheck.plugins.errors.PluginError`); :func:`issue_codes`
and :func:`validate_bytes` run the real engine on model bytes.
"""

from __future__ import annotations

import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from assetcheck.asset.options import ValidationOptions
from assetcheck.asset.result import Result
from assetcheck.config.loading import config_from, load_config
from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginManager, get_plugin_manager


def plugin_manager(
    config: str | Path = "",
    *plugins: object,
    entry_points: bool = True,
    environ: Mapping[str, str] | None = None,
) -> PluginManager:
    """A plugin manager with the built-ins, the installed plugins (unless ``entry_points`` is
    false) and ``plugins`` (objects or modules with ``@hookimpl`` functions, for a plugin not
    installed yet), configured by ``config``: TOML text, or the path of a config file.

    ``ASSETCHECK_*`` variables are ignored unless ``environ`` is given, so a test does not
    depend on the machine. Raises ``ConfigError`` for unusable config text and
    ``PluginError`` for a plugin that fails to load or rejects its settings.
    """
    if isinstance(config, Path):
        loaded = load_config(config, environ=environ or {})
    else:
        loaded = config_from(tomllib.loads(config), environ=environ or {})
    return get_plugin_manager(
        replace(loaded.plugin_config(), extra=plugins, entry_points=entry_points)
    )


def validate_bytes(
    model: bytes,
    filename: str = "model.glb",
    *,
    engine: str = "generic",
    plugin_manager: PluginManager | None = None,
    options: ValidationOptions | None = None,
) -> Result:
    """Validate ``model`` as an upload called ``filename`` (whose extension matters as it does
    for an upload), with ``plugin_manager`` (default: built-ins and installed plugins)."""
    with tempfile.TemporaryDirectory(prefix="assetcheck-") as folder:
        path = Path(folder) / filename
        path.write_bytes(model)
        return validate(path, engine=engine, options=options, plugin_manager=plugin_manager)


def issue_codes(
    model: bytes | Path,
    filename: str = "model.glb",
    *,
    engine: str = "generic",
    plugin_manager: PluginManager | None = None,
    options: ValidationOptions | None = None,
) -> list[str]:
    """The distinct issue codes found in ``model`` (bytes, or the path of a model file), sorted.

    Every occurrence counts, including those beyond the report's caps.
    """
    if isinstance(model, Path):
        result = validate(model, engine=engine, options=options, plugin_manager=plugin_manager)
    else:
        result = validate_bytes(
            model, filename, engine=engine, options=options, plugin_manager=plugin_manager
        )
    return sorted(result.issue_counts)
