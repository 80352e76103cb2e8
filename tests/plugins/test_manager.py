"""The plugin manager finds the hook implementations pluggy's own lookup finds, in the
built-in plugin modules and in a module holding every kind of value its shortcut passes over."""

import importlib
import types

import pluggy

from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.plugins.manager import DEFAULT_PLUGINS, PluginManager


def _odd_module() -> types.ModuleType:
    """A module with a hook, a function whose marker is no dict, a hook behind
    ``staticmethod``, a plain function, a class, a constant, and a hook its ``__getattr__``
    answers for."""
    module = types.ModuleType("odd_plugin")

    @hookimpl
    def register_checks() -> list:
        return []

    def not_a_hook() -> None:
        """A plain function."""

    def marked_with_text() -> None:
        """A function whose marker attribute is text."""

    vars(marked_with_text)["assetcheck_impl"] = "not options"

    @hookimpl
    def configure(settings: dict) -> None:
        """A hook given by ``__getattr__`` only."""

    vars(module).update(
        register_checks=register_checks,
        not_a_hook=not_a_hook,
        marked_with_text=marked_with_text,
        register_file_formats=staticmethod(hookimpl(lambda: [])),
        Plain=type("Plain", (), {}),
        LIMIT=3,
        __getattr__=lambda name: configure if name == "configure" else None,
        __dir__=lambda: [*vars(module), "configure"],
    )
    return module


def test_hook_implementations_found_are_those_pluggy_finds():
    ours, pluggys = PluginManager(), pluggy.PluginManager("assetcheck")
    modules = [importlib.import_module(name) for name in DEFAULT_PLUGINS.values()]
    for module in [*modules, _odd_module()]:
        for name in dir(module):
            assert ours.parse_hookimpl_opts(module, name) == pluggys.parse_hookimpl_opts(
                module, name
            ), f"{module.__name__}.{name}"


def test_a_modules_hooks_are_its_marked_functions_and_nothing_else_it_holds():
    module = _odd_module()
    found = {name for name in vars(module) if PluginManager().parse_hookimpl_opts(module, name)}
    assert found == {"register_checks", "register_file_formats"}
