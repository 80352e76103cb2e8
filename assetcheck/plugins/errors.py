"""Plugin load and configuration errors, each one line: which plugin, what went wrong, the fix.

The command line prints ``str(error)`` of a :class:`PluginError` and exits 2, the status of a
usage error: a plugin that cannot load is never mistaken for errors found in an asset.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: The page that lists every hook, where a misspelled hook's author is sent.
HOOKS_PAGE = "docs/hooks.md"


class PluginError(ValueError):
    """A plugin that cannot be loaded or configured.

    ``str(error)`` is one line that names the plugin and says how to fix it; ``plugin`` is the
    plugin's name (``None`` when the error is in the ``[plugins]`` table itself).
    """

    def __init__(self, message: str, plugin: str | None = None) -> None:
        super().__init__(" ".join(message.split()))
        self.plugin = plugin


def describe(error: BaseException) -> str:
    """``Type: message`` of ``error`` on one line."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``candidates``, or nothing."""
    import difflib  # only a mistake needs it: most runs never do

    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_hook(plugin: str, hook: str, hooks: Iterable[str]) -> PluginError:
    return PluginError(
        f"plugin {plugin!r} implements {hook!r}, which is not an AssetCheck hook"
        f"{did_you_mean(hook, hooks)}: rename the function to a hook of {HOOKS_PAGE}",
        plugin,
    )


def bad_hook_arguments(plugin: str, error: BaseException) -> PluginError:
    return PluginError(
        f"plugin {plugin!r} does not match its hook's specification: {describe(error)}; "
        f"use the argument names of {HOOKS_PAGE}",
        plugin,
    )


def import_failed(plugin: str, origin: str, error: BaseException) -> PluginError:
    return _failed(plugin, f"({origin}) failed to load", error, "fix it")


def hook_failed(plugin: str, hook: str, error: BaseException) -> PluginError:
    """A plugin that raised in ``hook`` at start-up: its settings when the hook is
    ``configure``, its own code otherwise."""
    if hook == "configure":
        return _failed(
            plugin, "rejected its settings", error, "fix the plugin's table in the config file"
        )
    return _failed(plugin, f"raised in {hook}", error, "fix the plugin")


def _failed(plugin: str, what: str, error: BaseException, fix: str) -> PluginError:
    """``plugin 'name' <what>: <error>; <fix>, or block it with [plugins] disabled = ['name']``:
    blocking a plugin is the way out of any failure of its own."""
    return PluginError(
        f"plugin {plugin!r} {what}: {describe(error)}; {fix}, or block it with "
        f"[plugins] disabled = [{plugin!r}]",
        plugin,
    )


def not_blockable(plugin: str, why: str) -> PluginError:
    return PluginError(
        f"plugin {plugin!r} cannot be disabled: {why}; remove it from [plugins] disabled", plugin
    )


def unanswered_hook(hook: str, builtin: str) -> PluginError:
    return PluginError(
        f"no plugin implements {hook}: plugin {builtin!r} is disabled and nothing replaces it; "
        f"remove it from [plugins] disabled, or install a plugin that implements {hook}",
        builtin,
    )


def missing_folder(folder: Path) -> PluginError:
    return PluginError(
        f"[plugins] dir {str(folder)!r} is not a folder: create it, or correct the path (a "
        f"relative path is read from the config file's folder)"
    )
