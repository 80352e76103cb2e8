"""Loading the configuration: the built-in defaults (``config.defaults``), overlaid by a TOML
file, overlaid by ``ASSETCHECK_<SECTION>_<KEY>`` variables, then read once into typed settings
(``config.settings.Config``).

The file is found as other tools find theirs (:func:`find_config_file`): ``--config``, then
``$ASSETCHECK_CONFIG``, then ``./assetcheck.toml``, then the user's
``$XDG_CONFIG_HOME/assetcheck/assetcheck.toml``; without one, the built-in defaults apply.
Relative paths in a file (``[storage] data_dir``, ``[plugins] dir``, a ``sqlite:///`` database
URL) are read from the file's folder, so every command finds the same data wherever it runs.

Every key is documented in ``config.example.toml``. An environment variable can set any key that
the defaults or the file define, and any key of a plugin's table (a section that is not built in)
even when the file lacks it: its section is the longest such table the file has, else the part
before ``__`` (``ASSETCHECK_STUDIO_RULES__MAX_SIZE``), else the first word. Its text is parsed as
TOML (``9000``, ``true``, ``[0, 60]``) and read as a plain string when that fails. The TOML
parser is imported only when there is TOML to read: most runs have no file
(``docs/performance.md``).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assetcheck.config.defaults import DEFAULTS
from assetcheck.config.settings import Config
from assetcheck.config.values import ConfigError

ENV_PREFIX = "ASSETCHECK_"
CONFIG_VARIABLE = "ASSETCHECK_CONFIG"
CONFIG_FILENAME = "assetcheck.toml"
#: ``ASSETCHECK_`` variables that are not configuration keys: where the file is, what
#: ``assetcheck submit`` reads (a key must never land in the settings plugins see), and the
#: switch that keeps ``validate`` off the daemon (``daemon.location``, which the daemon's
#: client imports without the configuration: ``docs/daemon.md``).
NOT_CONFIG_VARIABLES = frozenset(
    {CONFIG_VARIABLE, "ASSETCHECK_API_KEY", "ASSETCHECK_URL", "ASSETCHECK_NO_DAEMON"}
)


def find_config_file(
    explicit: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    folder: Path | None = None,
) -> Path | None:
    """The configuration file a command uses: ``explicit`` (``--config``), else
    ``$ASSETCHECK_CONFIG``, else ``assetcheck.toml`` in ``folder`` (default: the current
    one), else ``assetcheck/assetcheck.toml`` in the user's configuration folder
    (``$XDG_CONFIG_HOME``, by default ``~/.config``); None when there is none. A file named
    by ``--config`` or the variable is returned even if missing: reading it says so."""
    environ = os.environ if environ is None else environ
    named = explicit or environ.get(CONFIG_VARIABLE)
    if named:
        return Path(named)
    user_folder = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    for candidate in (
        (folder or Path.cwd()) / CONFIG_FILENAME,
        Path(user_folder) / "assetcheck" / CONFIG_FILENAME,
    ):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Defaults, overlaid by the TOML file at ``path`` (if any), overlaid by the environment.

    Relative paths in the file are read from the file's folder.
    """
    if path is None:
        return config_from({}, environ=environ)
    import tomllib

    try:
        with open(path, "rb") as handle:
            table = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"cannot read config file {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {path} is not valid TOML: {error}") from None
    source = Path(path).resolve()
    return config_from(table, environ=environ, folder=source.parent, source=source)


def config_from(
    table: Mapping[str, Any],
    *,
    environ: Mapping[str, str] | None = None,
    folder: Path | None = None,
    source: Path | None = None,
) -> Config:
    """Defaults, overlaid by ``table`` (a parsed TOML document), overlaid by the environment
    (``os.environ`` when ``environ`` is None). Relative paths of ``table`` are read from
    ``folder`` (default: the current folder); ``source`` is the file ``table`` came from."""
    data = copy.deepcopy(DEFAULTS)
    _merge(data, table)
    if folder is not None:
        _anchor_paths(data, table, folder)
    _apply_environment(data, os.environ if environ is None else environ)
    return Config.read(data, source)


def _anchor_paths(data: dict[str, Any], table: Mapping[str, Any], folder: Path) -> None:
    """Read the relative paths the file sets from ``folder``; absolute ones stay as they are,
    and so do values the file does not set (a default ``./data`` is the current folder's)."""
    for section, key in (("storage", "data_dir"), ("plugins", "dir")):
        values = table.get(section)
        value = values.get(key) if isinstance(values, Mapping) else None
        if isinstance(value, str) and value:
            data[section][key] = str(folder / value)
    url = data["database"]["url"]
    if isinstance(url, str) and url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        path = url.removeprefix("sqlite:///")
        data["database"]["url"] = "sqlite:///" + str(folder / path)


def _merge(base: dict[str, Any], overlay: Mapping[str, Any], where: str = "") -> None:
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, f"{where}{key}.")
        elif isinstance(base.get(key), dict):
            raise ConfigError(f"config key {where}{key} must be a table")
        else:
            base[key] = copy.deepcopy(value)


def _apply_environment(data: dict[str, Any], environ: Mapping[str, str]) -> None:
    used = set()
    for name, table, key in _leaf_keys(data):
        variable = ENV_PREFIX + name.upper()
        if variable in environ:
            table[key] = _parse_env_value(environ[variable])
            used.add(variable)
    for variable, value in environ.items():
        if (
            variable.startswith(ENV_PREFIX)
            and variable not in used
            and variable not in NOT_CONFIG_VARIABLES
        ):
            place = _plugin_key(data, variable[len(ENV_PREFIX) :].lower())
            if place is not None:
                table, key = place
                table[key] = _parse_env_value(value)


def _plugin_key(data: dict[str, Any], name: str) -> tuple[dict[str, Any], str] | None:
    """The plugin table and key an ``ASSETCHECK_`` variable ``name`` (lowercased, prefix
    removed) sets; ``None`` when it names a built-in section or no key."""
    tables = [s for s, v in data.items() if s not in DEFAULTS and isinstance(v, dict)]
    section = max((s for s in tables if name.startswith(s + "_")), key=len, default=None)
    if section is not None:
        key = name[len(section) + 1 :].lstrip("_")
        return (data[section], key) if key else None
    section, separator, key = name.partition("__" if "__" in name else "_")
    if not separator or not section or not key or section in DEFAULTS:
        return None
    table = data.setdefault(section, {})
    return (table, key) if isinstance(table, dict) else None


def _leaf_keys(table: dict[str, Any], prefix: str = ""):
    for key, value in list(table.items()):
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _leaf_keys(value, name + "_")
        else:
            yield name, table, key


def _parse_env_value(text: str) -> Any:
    import tomllib

    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
