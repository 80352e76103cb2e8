"""The file formats of the built-in plugins, for tests that sniff or expand without the engine."""

from __future__ import annotations

from functools import cache

from assetcheck.formats.registry import FormatRegistry, format_registry
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager


@cache
def builtin_formats() -> FormatRegistry:
    """What the built-in plugins register: GLB, glTF, FBX, OBJ, USD and ZIP."""
    return format_registry(get_plugin_manager(PluginConfig(entry_points=False)))
