"""Configuration: built-in defaults, a TOML file, then ``ASSETCHECK_<SECTION>_<KEY>`` variables.

Every key is documented in ``config.example.toml``. An environment variable can set any key that
the defaults or the file define; its text is parsed as TOML (``9000``, ``true``, ``[0, 60]``)
and read as a plain string when that fails.
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assetcheck.issues import IssuePolicy
from assetcheck.options import Limits, ValidationOptions
from assetcheck.plugins import PluginConfig
from assetcheck.webhooks.schedule import check_retry_delays
from assetcheck.webhooks.urls import parse_allowed_cidrs

ENV_PREFIX = "ASSETCHECK_"

DEFAULTS: dict[str, Any] = {
    "server": {"host": "127.0.0.1", "port": 8080, "secret_key": "", "secure_cookies": False,
               "trust_forwarded_headers": False},
    "storage": {"data_dir": "./data"},
    "database": {"url": ""},
    "workers": {"processes": 2, "job_timeout": 300, "memory_limit_mb": 2048, "lease_seconds": 60,
                "shutdown_grace": 30},
    "webhooks": {"retry_delays": [0, 60, 300, 1800, 7200], "timeout": 10, "allowed_cidrs": [],
                 "poll_interval": 1},
    "plans": {
        "free": {"max_upload_mb": 50, "requests_per_minute": 30},
        "starter": {"max_upload_mb": 100, "requests_per_minute": 60},
        "pro": {"max_upload_mb": 500, "requests_per_minute": 300},
        "enterprise": {"max_upload_mb": 2048, "requests_per_minute": 1200},
    },
    "plugins": {"dir": "", "disabled": []},
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
}


class ConfigError(ValueError):
    """The configuration file or an override is unusable; the message says which key."""


@dataclass(frozen=True)
class Config:
    """The merged configuration, as nested plain data, with typed views for each consumer."""

    data: Mapping[str, Any]

    def __getitem__(self, section: str) -> Any:
        return self.data[section]

    def plugin_config(self) -> PluginConfig:
        plugins = self.data["plugins"]
        folder = plugins.get("dir") or None
        return PluginConfig(dir=Path(folder) if folder else None,
                            disabled=tuple(plugins.get("disabled", ())), settings=self.data)

    def validation_options(self, engine: str = "generic") -> ValidationOptions:
        """Limits from ``[validation]`` and ``[workers]``; from ``[engines.<engine>]`` the issue
        policy (``ignore``, ``severity``) and, for every other key, a budget override."""
        limits = self.data["validation"]
        workers = self.data["workers"]
        profile = dict(self.data["engines"].get(engine, {}))
        ignore = profile.pop("ignore", ())
        severity = profile.pop("severity", {})
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


def load_config(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Defaults, overlaid by the TOML file at ``path`` (if any), overlaid by the environment."""
    data = copy.deepcopy(DEFAULTS)
    if path is not None:
        try:
            with open(path, "rb") as handle:
                _merge(data, tomllib.load(handle))
        except OSError as error:
            raise ConfigError(f"cannot read config file {path}: {error.strerror}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"config file {path} is not valid TOML: {error}") from None
    _apply_environment(data, os.environ if environ is None else environ)
    _check_webhooks(data["webhooks"])
    return Config(data)


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
        raise ConfigError("config key webhooks.retry_delays must start with 0: the first "
                          "attempt is immediate")
    for key in ("timeout", "poll_interval"):
        value = webhooks[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ConfigError(f"config key webhooks.{key} must be a number of seconds over 0")


def _merge(base: dict[str, Any], overlay: Mapping[str, Any], where: str = "") -> None:
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, f"{where}{key}.")
        elif isinstance(base.get(key), dict):
            raise ConfigError(f"config key {where}{key} must be a table")
        else:
            base[key] = copy.deepcopy(value)


def _apply_environment(data: dict[str, Any], environ: Mapping[str, str]) -> None:
    for name, table, key in _leaf_keys(data):
        value = environ.get(ENV_PREFIX + name.upper())
        if value is not None:
            table[key] = _parse_env_value(value)


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
