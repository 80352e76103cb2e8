"""Building the plugin manager: built-in plugins, entry points and a folder of loose plugins.

Whatever stops a plugin from loading or configuring itself is a
:class:`~assetcheck.plugins.errors.PluginError`, one line naming the plugin and the fix.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import pluggy

from assetcheck import __version__
from assetcheck.issues import IssueRegistry
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins import hookspecs
from assetcheck.plugins.disabled_names import disabled_warnings, normalized
from assetcheck.plugins.entry_points import PluginEntryPoint, entry_points
from assetcheck.plugins.errors import (
    PluginError,
    bad_hook_arguments,
    hook_failed,
    import_failed,
    missing_folder,
    not_blockable,
    unanswered_hook,
    unknown_hook,
)

if TYPE_CHECKING:
    import logging

    from assetcheck.checks import Check
else:
    logging = lazy_module("logging")

__all__ = ["DEFAULT_PLUGINS", "PluginConfig", "PluginError", "PluginManager", "get_plugin_manager"]

ENTRY_POINT_GROUP = "assetcheck"


def _log() -> logging.Logger:
    """The ``assetcheck.plugins`` logger. ``logging`` is imported by the first message: most runs
    log none (``docs/performance.md``)."""
    return logging.getLogger("assetcheck.plugins")


class _HasName(Protocol):
    name: str


Named = TypeVar("Named", bound=_HasName)
Built = TypeVar("Built")

#: Built-in behaviour: each plugin's name (what `[plugins] disabled`, `assetcheck plugins` and a
#: finding's ``source`` show) and the module that implements it. The names are stable: they
#: stay when a module moves (``docs/architecture.md``).
DEFAULT_PLUGINS: Mapping[str, str] = {
    "assetcheck.codes": "assetcheck.plugins.builtin_codes",
    "assetcheck.profiles": "assetcheck.scoring.profiles",
    "assetcheck.profiles.stores": "assetcheck.scoring.store_profiles",
    "assetcheck.scoring": "assetcheck.scoring.score",
    "assetcheck.formats.glb": "assetcheck.formats.gltf.glb",
    "assetcheck.formats.gltf": "assetcheck.formats.gltf.reader",
    "assetcheck.formats.fbx": "assetcheck.formats.fbx.plugin",
    "assetcheck.formats.obj": "assetcheck.formats.obj.plugin",
    "assetcheck.formats.usd": "assetcheck.formats.usd.plugin",
    "assetcheck.formats.zip": "assetcheck.formats.zip.plugin",
    "assetcheck.reports.builtin": "assetcheck.reports.builtin",
    "assetcheck.checks.budgets": "assetcheck.checks.budgets",
    "assetcheck.checks.geometry": "assetcheck.checks.geometry",
    "assetcheck.checks.topology": "assetcheck.checks.topology",
    "assetcheck.checks.materials": "assetcheck.checks.materials",
    "assetcheck.checks.textures": "assetcheck.checks.textures",
    "assetcheck.checks.transforms": "assetcheck.checks.transforms",
    "assetcheck.checks.scale": "assetcheck.checks.scale",
    "assetcheck.checks.animations": "assetcheck.checks.animations",
    "assetcheck.checks.fbx": "assetcheck.checks.fbx",
    "assetcheck.checks.fbx_texture_content": "assetcheck.checks.fbx_texture_content",
    "assetcheck.checks.fbx_texel_density": "assetcheck.checks.fbx_texel_density",
    "assetcheck.checks.fbx_skins": "assetcheck.checks.fbx_skins",
    "assetcheck.checks.fbx_animation_content": "assetcheck.checks.fbx_animation_content",
    "assetcheck.checks.gltf_schema": "assetcheck.checks.gltf_schema",
    "assetcheck.checks.gltf_references": "assetcheck.checks.gltf_references",
    "assetcheck.checks.gltf_buffers": "assetcheck.checks.gltf_buffers",
    "assetcheck.checks.gltf_accessors": "assetcheck.checks.gltf_accessors",
    "assetcheck.checks.gltf_meshes": "assetcheck.checks.gltf_meshes",
    "assetcheck.checks.gltf_vertex_data": "assetcheck.checks.gltf_vertex_data",
    "assetcheck.checks.gltf_nodes": "assetcheck.checks.gltf_nodes",
    "assetcheck.checks.gltf_skins": "assetcheck.checks.gltf_skins",
    "assetcheck.checks.gltf_skin_binding": "assetcheck.checks.gltf_skin_binding",
    "assetcheck.checks.gltf_animations": "assetcheck.checks.gltf_animations",
    "assetcheck.checks.gltf_animation_content": "assetcheck.checks.gltf_animation_content",
    "assetcheck.checks.gltf_texture_content": "assetcheck.checks.gltf_texture_content",
    "assetcheck.checks.gltf_texel_density": "assetcheck.checks.gltf_texel_density",
    "assetcheck.checks.gltf_cameras": "assetcheck.checks.gltf_cameras",
    "assetcheck.checks.gltf_materials": "assetcheck.checks.gltf_materials",
    "assetcheck.checks.gltf_material_extensions": "assetcheck.checks.gltf_material_extensions",
    "assetcheck.checks.gltf_extension_objects": "assetcheck.checks.gltf_extension_objects",
    "assetcheck.checks.gltf_buffer_uris": "assetcheck.checks.gltf_buffer_uris",
    "assetcheck.checks.gltf_images": "assetcheck.checks.gltf_images",
    "assetcheck.checks.gltf_ktx2": "assetcheck.checks.gltf_ktx2",
    "assetcheck.checks.gltf_extensions": "assetcheck.checks.gltf_extensions",
    "assetcheck.checks.gltf_unused": "assetcheck.checks.gltf_unused",
}


#: Built-in plugins that cannot be blocked, and why.
REQUIRED_PLUGINS = {
    "assetcheck.codes": "the engine and the built-in checks report its issue codes (to stop "
    "reporting a code, use [engines.<name>] ignore)",
}

#: Hooks some plugin must implement, and the built-in that does unless it is disabled.
REQUIRED_HOOKS = {"compute_health_score": "assetcheck.scoring"}


@dataclass(frozen=True)
class PluginConfig:
    """The ``[plugins]`` config section: a folder of ``*.py`` plugins and names to block.

    ``disabled`` names plugins (blocked before they load) or checks (``name`` or
    ``plugin:name``, skipped when validating). ``settings`` is the whole configuration, handed
    to every plugin's ``configure`` hook; ``extra`` are plugin objects to register as they are
    (tests, embedding applications).
    """

    dir: Path | None = None
    disabled: tuple[str, ...] = ()
    entry_points: bool = True
    extra: tuple[object, ...] = field(default=(), compare=False)
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False)


#: What pluggy can take a hook implementation from (see ``PluginManager.parse_hookimpl_opts``).
_HOOKABLE = (types.FunctionType, staticmethod, classmethod, types.MethodType)
#: A name a module does not hold (its ``__getattr__`` may still answer for it).
_ABSENT = object()


class PluginManager(pluggy.PluginManager):
    """Pluggy's plugin manager with AssetCheck's hooks, where each plugin came from
    (``origins``: ``built-in``, a package, a file), each plugin's ``versions`` (AssetCheck's
    for built-ins, the distribution's for packages) and the checks that are disabled."""

    def __init__(self) -> None:
        super().__init__("assetcheck")
        self._marker = f"{self.project_name}_impl"
        self.add_hookspecs(hookspecs)
        self.origins: dict[str, str] = {}
        self.versions: dict[str, str | None] = {}
        self.disabled_checks: frozenset[str] = frozenset()

    def parse_hookimpl_opts(self, plugin: object, name: str) -> pluggy.HookimplOpts | None:
        """Pluggy's answer, found without its descriptor-safe lookup for what a module plainly
        holds: a function's own hook marker (its options when they are a dict, as pluggy reads
        them), and none for a value pluggy takes no hook from (:data:`_HOOKABLE`). Static,
        class and bound methods, and names only the module's ``__getattr__`` answers, go to
        pluggy. That lookup is most of the time registering the built-in modules takes (~30 ms
        a plugin manager, ``docs/performance.md``)."""
        if isinstance(plugin, types.ModuleType):
            value = vars(plugin).get(name, _ABSENT)
            if isinstance(value, types.FunctionType):
                options = getattr(value, self._marker, None)
                return cast(pluggy.HookimplOpts, options) if isinstance(options, dict) else None
            if value is not _ABSENT and not isinstance(value, _HOOKABLE):
                return None
        return super().parse_hookimpl_opts(plugin, name)

    def get_canonical_name(self, plugin: object) -> str:
        """A module's name, or an object's class name (with its id when that is taken), so
        errors and ``assetcheck plugins`` show a readable name for plugins given without one."""
        name = getattr(plugin, "__name__", None) or type(plugin).__name__
        return f"{name}-{id(plugin)}" if self.has_plugin(name) else name


def get_plugin_manager(config: PluginConfig | None = None) -> PluginManager:
    """A new plugin manager with the built-ins, installed plugins and the plugins folder.

    Names in ``config.disabled`` are blocked before anything loads, so a blocked built-in or
    entry point never registers; a disabled name that is neither a plugin nor a check is logged
    as a warning. Every plugin's ``configure`` hook then receives ``config.settings``. Raises
    :class:`~assetcheck.plugins.errors.PluginError` for a plugin that fails to import, implements
    a hook no spec declares, or rejects its settings, for a missing plugins folder, for a
    built-in that cannot be blocked and for a disabled built-in nothing replaces.
    """
    config = config or PluginConfig()
    pm = PluginManager()
    for name in config.disabled:
        if name in REQUIRED_PLUGINS:
            raise not_blockable(name, REQUIRED_PLUGINS[name])
        pm.set_blocked(name)
    for name in DEFAULT_PLUGINS:
        if not pm.is_blocked(name):
            _register(pm, importlib.import_module(DEFAULT_PLUGINS[name]), name, "built-in")
            pm.versions[name] = __version__
    entry_points = _entry_points() if config.entry_points else []
    for entry_point in entry_points:
        _load_entry_point(pm, entry_point)
    files = _folder_files(Path(config.dir)) if config.dir is not None else []
    for path in files:
        _load_file(pm, path)
    for plugin in config.extra:
        if not pm.is_registered(plugin):
            _register(pm, plugin, None, "registered in code")
    _check_hooks(pm)
    for hook, builtin in REQUIRED_HOOKS.items():
        if not getattr(pm.hook, hook).get_hookimpls():
            raise unanswered_hook(hook, builtin)
    _call_at_start_up(pm, "configure", settings=config.settings)
    checks = {
        name
        for plugin, group in _call_at_start_up(pm, "register_checks")
        for check in group
        for name in (check.name, f"{plugin}:{check.name}")
    }
    pm.disabled_checks = frozenset(config.disabled) & checks
    known = {
        *DEFAULT_PLUGINS,
        *pm.origins,
        *(e.name for e in entry_points),
        *(path.stem for path in files),
    }
    for warning in disabled_warnings(
        config.disabled, plugins=known, checks=checks, distributions=_distributions(entry_points)
    ):
        _log().warning("%s", warning)
    return pm


def registered_checks(pm: pluggy.PluginManager) -> tuple[tuple[str, Check], ...]:
    """Every check to run, with the name of the plugin that registered it, in pluggy's order;
    checks disabled in ``[plugins] disabled`` (by ``name`` or ``plugin:name``) are left out.

    The ``register_checks`` answers are collected once per plugin manager and again when a
    plugin is registered or unregistered (:func:`built_once`), not for every file validated."""
    checks = built_once(pm, "register_checks", _all_checks)
    disabled = pm.disabled_checks if isinstance(pm, PluginManager) else frozenset()
    if not disabled:
        return checks
    return tuple(
        (plugin, check)
        for plugin, check in checks
        if check.name not in disabled and f"{plugin}:{check.name}" not in disabled
    )


def build_registry(pm: pluggy.PluginManager) -> IssueRegistry:
    """The one issue registry: every plugin's ``register_issue_types`` results together."""
    return built_once(pm, "register_issue_types", _issue_registry)


def _issue_registry(hook: pluggy.HookCaller) -> IssueRegistry:
    registry = IssueRegistry()
    for plugin_types in hook():
        registry.add_all(plugin_types)
    return registry


def built_once(
    pm: pluggy.PluginManager, hook: str, build: Callable[[pluggy.HookCaller], Built]
) -> Built:
    """``build(caller)`` of ``pm``'s hook named ``hook``, made once per plugin manager (a
    ``register_*`` hook is called once, its contract) and again only if the implementations
    of the hook change, so validating many files does not rebuild it for each."""
    caller = getattr(pm.hook, hook)
    implementations = tuple(caller.get_hookimpls())
    built = _BUILT.get(pm)
    if built is None:
        built = _BUILT[pm] = {}
    cached = built.get(hook)
    if cached is None or cached[0] != implementations:
        cached = built[hook] = (implementations, build(caller))
    return cast(Built, cached[1])


_BUILT: weakref.WeakKeyDictionary[pluggy.PluginManager, dict[str, tuple[tuple, object]]] = (
    weakref.WeakKeyDictionary()
)


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

    Unlike calling the hook, this lets the caller tell whose result is whose. Each
    implementation gets the arguments it names, as pluggy gives them.
    """
    for impl in reversed(hook.get_hookimpls()):
        yield impl.plugin_name, impl.function(*(kwargs[name] for name in impl.argnames))


def _all_checks(hook: pluggy.HookCaller) -> tuple[tuple[str, Check], ...]:
    return tuple((plugin, check) for plugin, checks in call_each(hook) for check in checks)


def _call_at_start_up(pm: PluginManager, hook: str, **kwargs: Any) -> list[tuple[str, Any]]:
    """:func:`call_each` to the end; an implementation that raises is a ``PluginError``
    naming its plugin."""
    results = []
    for impl in reversed(getattr(pm.hook, hook).get_hookimpls()):
        try:
            results.append((impl.plugin_name, impl.function(*(kwargs[n] for n in impl.argnames))))
        except Exception as error:
            raise hook_failed(impl.plugin_name, hook, error) from error
    return results


def _register(pm: PluginManager, plugin: object, name: str | None, origin: str) -> None:
    try:
        registered = pm.register(plugin, name=name)
    except pluggy.PluginValidationError as error:
        raise bad_hook_arguments(name or repr(plugin), error) from error
    if registered is not None:
        pm.origins[registered] = origin


def _check_hooks(pm: PluginManager) -> None:
    """pluggy's ``check_pending``, with an error that names the plugin and the hooks."""
    callers = {name: caller for name, caller in vars(pm.hook).items() if not name.startswith("_")}
    hooks = [name for name, caller in callers.items() if caller.has_spec()]
    for name, caller in callers.items():
        if caller.has_spec():
            continue
        for impl in caller.get_hookimpls():
            if not impl.optionalhook:
                raise unknown_hook(impl.plugin_name, name, hooks)


def _entry_points() -> list[PluginEntryPoint]:
    return entry_points(ENTRY_POINT_GROUP)


def _distributions(entry_points: Iterable[PluginEntryPoint]) -> dict[str, list[str]]:
    """The plugin names each distribution provides, by normalized distribution name."""
    provided: dict[str, list[str]] = {}
    for entry_point in entry_points:
        provided.setdefault(normalized(entry_point.distribution), []).append(entry_point.name)
    return provided


def _load_entry_point(pm: PluginManager, entry_point: PluginEntryPoint) -> None:
    name = entry_point.name
    if pm.has_plugin(name) or pm.is_blocked(name):
        return
    origin = " ".join(filter(None, ("package", entry_point.distribution, entry_point.version)))
    try:
        plugin = entry_point.load()
    except Exception as error:
        raise import_failed(name, origin, error) from error
    _register(pm, plugin, name, origin)
    pm.versions[name] = entry_point.version


def _folder_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise missing_folder(folder)
    return sorted(folder.glob("*.py"))


def _load_file(pm: PluginManager, path: Path) -> None:
    """Import the loose plugin at ``path`` as module ``assetcheck_local_<stem>`` and register
    it as ``<stem>``, unless either name is blocked."""
    name = f"assetcheck_local_{path.stem}"
    if pm.is_blocked(path.stem) or pm.is_blocked(name):
        return
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise import_failed(path.stem, f"file {path}", error) from error
    _register(pm, module, path.stem, f"file {path}")
