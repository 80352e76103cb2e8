"""Building the plugin manager: built-in plugins, entry points and a folder of loose plugins."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pluggy

from assetcheck import hookspecs
from assetcheck.issues import IssueRegistry

ENTRY_POINT_GROUP = "assetcheck"


class _HasName(Protocol):
    name: str


Named = TypeVar("Named", bound=_HasName)

#: Built-in behaviour, registered under these names so config can block any of it.
DEFAULT_PLUGINS = (
    "assetcheck.codes",
    "assetcheck.profiles",
    "assetcheck.scoring",
    "assetcheck.formats.glb",
    "assetcheck.formats.gltf",
    "assetcheck.formats.fbx",
    "assetcheck.reports.builtin",
    "assetcheck.checks.budgets",
    "assetcheck.checks.geometry",
    "assetcheck.checks.materials",
    "assetcheck.checks.textures",
    "assetcheck.checks.transforms",
    "assetcheck.checks.animations",
    "assetcheck.checks.fbx",
    "assetcheck.checks.gltf_schema",
    "assetcheck.checks.gltf_references",
    "assetcheck.checks.gltf_buffers",
    "assetcheck.checks.gltf_accessors",
    "assetcheck.checks.gltf_meshes",
    "assetcheck.checks.gltf_vertex_data",
    "assetcheck.checks.gltf_nodes",
    "assetcheck.checks.gltf_skins",
    "assetcheck.checks.gltf_animations",
    "assetcheck.checks.gltf_cameras",
    "assetcheck.checks.gltf_materials",
    "assetcheck.checks.gltf_material_extensions",
    "assetcheck.checks.gltf_extension_objects",
    "assetcheck.checks.gltf_buffer_uris",
    "assetcheck.checks.gltf_images",
    "assetcheck.checks.gltf_extensions",
    "assetcheck.checks.gltf_unused",
)


@dataclass(frozen=True)
class PluginConfig:
    """The ``[plugins]`` config section: a folder of ``*.py`` plugins and names to block.

    ``settings`` is the whole configuration, handed to every plugin's ``configure`` hook;
    ``extra`` are plugin objects to register as they are (tests, embedding applications).
    """

    dir: Path | None = None
    disabled: tuple[str, ...] = ()
    entry_points: bool = True
    extra: tuple[object, ...] = field(default=(), compare=False)
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False)


def get_plugin_manager(config: PluginConfig | None = None) -> pluggy.PluginManager:
    """A new plugin manager with the built-ins, installed plugins and the plugins folder.

    Names in ``config.disabled`` are blocked before anything loads, so a blocked built-in or
    entry point never registers. ``check_pending`` fails on hooks no spec declares.
    """
    config = config or PluginConfig()
    pm = pluggy.PluginManager("assetcheck")
    pm.add_hookspecs(hookspecs)
    for name in config.disabled:
        pm.set_blocked(name)
    for name in DEFAULT_PLUGINS:
        if not pm.is_blocked(name):
            pm.register(importlib.import_module(name), name=name)
    if config.entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    if config.dir is not None:
        _register_folder(pm, config.dir)
    for plugin in config.extra:
        pm.register(plugin)
    pm.check_pending()
    pm.hook.configure(settings=config.settings)
    return pm


def build_registry(pm: pluggy.PluginManager) -> IssueRegistry:
    """The one issue registry: every plugin's ``register_issue_types`` results together."""
    registry = IssueRegistry()
    for types in pm.hook.register_issue_types():
        registry.add_all(types)
    return registry


def by_name(groups: Iterable[Iterable[Named]], kind: str) -> dict[str, Named]:
    """The objects a ``register_*`` hook returned (one list per plugin) by their ``name``; a
    name two plugins register is a ``ValueError`` naming the ``kind`` of object."""
    found: dict[str, Named] = {}
    for group in groups:
        for item in group:
            if item.name in found:
                raise ValueError(f"{kind} {item.name!r} is registered twice")
            found[item.name] = item
    return found


def call_each(hook: pluggy.HookCaller, **kwargs: Any) -> Iterator[tuple[str, Any]]:
    """Call each implementation of ``hook`` on its own, in pluggy's order, with its plugin name.

    Unlike calling the hook, this lets the caller tell whose result is whose.
    """
    for impl in reversed(hook.get_hookimpls()):
        yield impl.plugin_name, impl.function(**kwargs)


def _register_folder(pm: pluggy.PluginManager, folder: Path) -> None:
    for path in sorted(Path(folder).glob("*.py")):
        name = f"assetcheck_local_{path.stem}"
        if pm.is_blocked(path.stem) or pm.is_blocked(name):
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        pm.register(module, name=path.stem)

