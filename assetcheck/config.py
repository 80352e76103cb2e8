"""Configuration: built-in defaults, a TOML file, then ``ASSETCHECK_<SECTION>_<KEY>`` variables.

The file is found as other tools find theirs (:func:`find_config_file`): ``--config``, then
``$ASSETCHECK_CONFIG``, then ``./assetcheck.toml``, then the user's
``$XDG_CONFIG_HOME/assetcheck/assetcheck.toml``; without one, the built-in defaults apply.
Relative paths in a file (``[storage] data_dir``, ``[plugins] dir``, a ``sqlite:///`` database
URL) are read from the file's folder, so every command finds the same data wherever it runs.

Every key is documented in ``config.example.toml``. An environment variable can set any key that
the defaults or the file define, and any key of a plugin's table (a section that is not built in)
even when the file lacks it: its section is the longest such table the file has, else the part
before ``__`` (``ASSETCHECK_STUDIO_RULES__MAX_SIZE``), else the first word. Its text is parsed as
TOML (``9000``, ``true``, ``[0, 60]``) and read as a plain string when that fails.
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.issues import IssuePolicy
from assetcheck.plugins.manager import PluginConfig
from assetcheck.service.webhooks.schedule import check_retry_delays
from assetcheck.service.webhooks.urls import parse_allowed_cidrs

ENV_PREFIX = "ASSETCHECK_"
CONFIG_VARIABLE = "ASSETCHECK_CONFIG"
CONFIG_FILENAME = "assetcheck.toml"
#: ``ASSETCHECK_`` variables that are not configuration keys: where the file is, and what
#: ``assetcheck submit`` reads (a key must never land in the settings plugins see).
NOT_CONFIG_VARIABLES = frozenset({CONFIG_VARIABLE, "ASSETCHECK_API_KEY", "ASSETCHECK_URL"})

DEFAULTS: dict[str, Any] = {
    "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "secret_key": "",
        "max_body_kb": 1024,
        "header_timeout": 20,
        "body_timeout": 60,
        "idle_timeout": 30,
        "upload_timeout": 3600,
        "secure_cookies": False,
        "trust_forwarded_headers": False,
    },
    "storage": {
        "data_dir": "./data",
        "backend": "local",
        "bucket": "",
        "prefix": "",
        "endpoint_url": "",
        "region": "",
        "max_derived_ratio": 16,
        "derived_allowance_mb": 8,
    },
    "database": {"url": ""},
    "workers": {
        "processes": 2,
        "job_timeout": 300,
        "memory_limit_mb": 2048,
        "lease_seconds": 60,
        "shutdown_grace": 30,
    },
    "webhooks": {
        "retry_delays": [0, 60, 300, 1800, 7200],
        "timeout": 10,
        "allowed_cidrs": [],
        "poll_interval": 1,
        "keep_deliveries_days": 30,
        "max_sending_per_account": 2,
        "max_pending_per_account": 100,
    },
    "plans": {
        "free": {
            "max_upload_mb": 50,
            "requests_per_minute": 30,
            "max_processing_jobs": 1,
            "max_queued_jobs": 10,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 20,
        },
        "starter": {
            "max_upload_mb": 100,
            "requests_per_minute": 60,
            "max_processing_jobs": 2,
            "max_queued_jobs": 50,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 30,
        },
        "pro": {
            "max_upload_mb": 500,
            "requests_per_minute": 300,
            "max_processing_jobs": 4,
            "max_queued_jobs": 200,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 60,
        },
        "enterprise": {
            "max_upload_mb": 2048,
            "requests_per_minute": 1200,
            "max_processing_jobs": 8,
            "max_queued_jobs": 1000,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 120,
        },
    },
    "accounts": {"max_active_keys": 20, "login_first_delay": 1, "login_max_delay": 900},
    "plugins": {"dir": "", "disabled": [], "crash": "warning"},
    "validation": {
        "max_uncompressed_mb": 1024,
        "max_compression_ratio": 100,
        "max_archive_entries": 10_000,
        "max_archive_depth": 2,
        "max_issues": 1000,
        "max_issues_per_code": 100,
        "max_report_mb": 8,
    },
    "engines": {},
    "metrics": {"enabled": False, "token": "", "host": "127.0.0.1", "port": 9464},
    "logging": {"format": "text"},
}


#: ``[plugins] crash`` -> the severity overrides it implies for every engine.
CRASH_SEVERITY: dict[str, dict[str, str]] = {"warning": {}, "error": {"CHECK_CRASHED": "error"}}


class ConfigError(ValueError):
    """The configuration file or an override is unusable; the message says which key."""


@dataclass(frozen=True)
class Config:
    """The merged configuration, as nested plain data, with typed views for each consumer."""

    data: Mapping[str, Any]
    #: The file it was read from; None when only defaults and the environment apply.
    source: Path | None = None

    def __getitem__(self, section: str) -> Any:
        return self.data[section]

    def plugin_config(self) -> PluginConfig:
        plugins = self.data["plugins"]
        folder = plugins.get("dir") or None
        return PluginConfig(
            dir=Path(folder) if folder else None,
            disabled=tuple(plugins.get("disabled", ())),
            settings=self.data,
        )

    def validation_options(self, engine: str = "generic") -> ValidationOptions:
        """Limits from ``[validation]`` and ``[workers]``; from ``[engines.<engine>]`` the issue
        policy (``ignore``, ``severity``) and, for every other key, a budget override.
        ``[plugins] crash = "error"`` makes ``CHECK_CRASHED`` an error unless the engine's own
        ``severity`` table says otherwise."""
        limits = self.data["validation"]
        workers = self.data["workers"]
        profile = dict(self.data["engines"].get(engine, {}))
        ignore = profile.pop("ignore", ())
        crash = CRASH_SEVERITY[self.data["plugins"].get("crash", "warning")]
        severity = {**crash, **profile.pop("severity", {})}
        return ValidationOptions(
            engine=engine,
            limits=Limits(
                max_uncompressed_bytes=int(limits["max_uncompressed_mb"]) << 20,
                max_compression_ratio=float(limits["max_compression_ratio"]),
                max_archive_entries=int(limits["max_archive_entries"]),
                max_archive_depth=int(limits["max_archive_depth"]),
                parse_timeout=float(workers["job_timeout"]),
                memory_limit_mb=int(workers["memory_limit_mb"]),
            ),
            policy=IssuePolicy(
                ignore=frozenset(ignore),
                severity_overrides=dict(severity),
                max_issues=int(limits["max_issues"]),
                max_per_code=int(limits["max_issues_per_code"]),
            ),
            budget_overrides=profile,
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
    _check_webhooks(data["webhooks"])
    _check_server(data["server"])
    _check_storage(data["storage"])
    _check_accounts(data["accounts"])
    _check_plugins(data["plugins"])
    _check_metrics(data["metrics"])
    _check_logging(data["logging"])
    return Config(data, source)


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


#: Shortest ``[metrics] token``: a bearer token is a password, not a label.
MIN_METRICS_TOKEN = 16
#: ``[logging] format`` values (``observability.log_format``).
LOG_FORMATS = ("text", "json")


def _check_metrics(metrics: Mapping[str, Any]) -> None:
    """Refuse a ``[metrics]`` table the endpoint cannot use: a token that is not a string of
    at least :data:`MIN_METRICS_TOKEN` characters (or empty: no token), a port that is not one."""
    if not isinstance(metrics["enabled"], bool):
        raise ConfigError("config key metrics.enabled must be true or false")
    token = metrics["token"]
    if not isinstance(token, str) or 0 < len(token) < MIN_METRICS_TOKEN:
        raise ConfigError(
            f"config key metrics.token must be empty or a string of at least "
            f"{MIN_METRICS_TOKEN} characters"
        )
    port = metrics["port"]
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError("config key metrics.port must be a port number (0: a free one)")


def _check_logging(table: Mapping[str, Any]) -> None:
    if table["format"] not in LOG_FORMATS:
        raise ConfigError(
            f"config key logging.format must be one of {', '.join(map(repr, LOG_FORMATS))}"
        )


#: ``[server]`` keys that are numbers of seconds over 0.
SERVER_TIMEOUTS = ("header_timeout", "body_timeout", "idle_timeout", "upload_timeout")


def _check_server(server: Mapping[str, Any]) -> None:
    """Refuse ``[server]`` limits the HTTP server cannot use: a body limit that is not a whole
    number of KiB over 0, or a timeout that is not a number of seconds over 0."""
    size = server["max_body_kb"]
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ConfigError("config key server.max_body_kb must be a whole number of KiB over 0")
    for key in SERVER_TIMEOUTS:
        value = server[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ConfigError(f"config key server.{key} must be a number of seconds over 0")


#: ``[storage]`` keys that bound what a job stores beside its upload: numbers of 0 or more.
DERIVED_BOUNDS = ("max_derived_ratio", "derived_allowance_mb")


def _check_storage(storage: Mapping[str, Any]) -> None:
    """Refuse a bound on what jobs store beside their uploads that is not a number of 0 or
    more (``docs/operations.md``, Retention, quotas and deletion)."""
    for key in DERIVED_BOUNDS:
        value = storage[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
            raise ConfigError(f"config key storage.{key} must be a number of 0 or more")


#: Longest ``[accounts] login_max_delay``: a log-in count starts over after an hour's quiet.
MAX_LOGIN_DELAY = 3600


def _check_accounts(accounts: Mapping[str, Any]) -> None:
    """Refuse log-in delays the throttle cannot use (``docs/security.md``, Log-in delays)."""
    first, longest = accounts["login_first_delay"], accounts["login_max_delay"]
    if (
        any(isinstance(v, bool) or not isinstance(v, int | float) for v in (first, longest))
        or not 0 < first <= longest <= MAX_LOGIN_DELAY
    ):
        raise ConfigError(
            f"config keys accounts.login_first_delay and login_max_delay must be "
            f"seconds with 0 < first <= max <= {MAX_LOGIN_DELAY}"
        )


def _check_plugins(plugins: Mapping[str, Any]) -> None:
    """Refuse a ``[plugins]`` table the plugin manager cannot use."""
    disabled = plugins["disabled"]
    if not isinstance(disabled, list) or not all(isinstance(n, str) for n in disabled):
        raise ConfigError("config key plugins.disabled must be a list of plugin or check names")
    if not isinstance(plugins["dir"], str):
        raise ConfigError("config key plugins.dir must be a folder path (a string)")
    if plugins["crash"] not in CRASH_SEVERITY:
        raise ConfigError(
            f"config key plugins.crash must be one of {', '.join(map(repr, CRASH_SEVERITY))}"
        )


def _check_webhooks(webhooks: Mapping[str, Any]) -> None:
    """Refuse a ``[webhooks]`` table the delivery schedule or the address guard cannot use."""
    delays, cidrs = webhooks["retry_delays"], webhooks["allowed_cidrs"]
    if not isinstance(delays, list) or not isinstance(cidrs, list):
        raise ConfigError("config keys webhooks.retry_delays and allowed_cidrs must be lists")
    try:
        check_retry_delays(delays)
    except ValueError as error:
        raise ConfigError(f"config key {error}") from None
    try:
        parse_allowed_cidrs(cidrs)
    except (TypeError, ValueError) as error:
        raise ConfigError(f"config key webhooks.allowed_cidrs: {error}") from None
    if delays[0] != 0:
        raise ConfigError(
            "config key webhooks.retry_delays must start with 0: the first attempt is immediate"
        )
    for key in ("timeout", "poll_interval"):
        value = webhooks[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ConfigError(f"config key webhooks.{key} must be a number of seconds over 0")
    for key in ("max_sending_per_account", "max_pending_per_account"):
        value = webhooks[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"config key webhooks.{key} must be a whole number, 1 or more")


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
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
