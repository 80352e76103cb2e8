"""The configuration as typed settings: one frozen section per built-in table, read and checked
once as the configuration loads (``config.loading``). Consumers take the section they need
(``config.server``, ``config.plans["pro"]``); those that need keys of several tables take the
whole :class:`Config`. Plugins' tables stay plain data, for plugins alone.

The sections and :class:`Config` are named tuples rather than frozen dataclasses: every command
creates all of their classes as it starts, and a named tuple's class costs a fifth of a frozen
dataclass's (``docs/performance.md``). Change one with ``_replace``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.config.accounts import AccountSettings, PlanSettings, read_plans
from assetcheck.config.plugins import CRASH_SEVERITY, PluginSettings
from assetcheck.config.server import LoggingSettings, MetricsSettings, ServerSettings
from assetcheck.config.storage import DatabaseSettings, StorageSettings
from assetcheck.config.validation import EngineSettings, ValidationSettings, read_engines
from assetcheck.config.values import Table
from assetcheck.config.webhooks import WebhookSettings
from assetcheck.config.workers import WorkerSettings
from assetcheck.issues import IssuePolicy
from assetcheck.plugins.manager import PluginConfig


class Config(NamedTuple):
    """Every built-in table, typed, in the order of ``config.defaults``; the plain tables
    plugins are handed; and the file they came from (None: defaults and the environment)."""

    server: ServerSettings
    storage: StorageSettings
    database: DatabaseSettings
    workers: WorkerSettings
    webhooks: WebhookSettings
    plans: Mapping[str, PlanSettings]
    accounts: AccountSettings
    plugins: PluginSettings
    validation: ValidationSettings
    engines: Mapping[str, EngineSettings]
    metrics: MetricsSettings
    logging: LoggingSettings
    #: Every table as nested plain data, plugins' own included: what each plugin's
    #: ``configure`` hook receives (``docs/hooks.md``). AssetCheck itself reads the sections.
    tables: Mapping[str, Any]
    source: Path | None = None

    @classmethod
    def read(cls, tables: Mapping[str, Any], source: Path | None = None) -> Config:
        """The settings of ``tables`` (the defaults, the file and the environment merged);
        :class:`~assetcheck.config.values.ConfigError` names the first unusable key."""

        def table(name: str) -> Table:
            return Table(name, tables[name])

        return cls(
            server=ServerSettings.read(table("server")),
            storage=StorageSettings.read(table("storage")),
            database=DatabaseSettings.read(table("database")),
            workers=WorkerSettings.read(table("workers")),
            webhooks=WebhookSettings.read(table("webhooks")),
            plans=read_plans(table("plans")),
            accounts=AccountSettings.read(table("accounts")),
            plugins=PluginSettings.read(table("plugins")),
            validation=ValidationSettings.read(table("validation")),
            engines=read_engines(table("engines")),
            metrics=MetricsSettings.read(table("metrics")),
            logging=LoggingSettings.read(table("logging")),
            tables=tables,
            source=source,
        )

    def plugin_config(self) -> PluginConfig:
        """``[plugins]`` for the plugin manager, which hands :attr:`tables` to every plugin."""
        return PluginConfig(
            dir=self.plugins.dir, disabled=self.plugins.disabled, settings=self.tables
        )

    def validation_options(self, engine: str = "generic") -> ValidationOptions:
        """Limits from ``[validation]`` and ``[workers]``; from ``[engines.<engine>]`` the issue
        policy (``ignore``, ``severity``) and the budget overrides. ``[plugins] crash =
        "error"`` makes ``CHECK_CRASHED`` an error unless the engine's own ``severity`` table
        says otherwise."""
        validation, workers = self.validation, self.workers
        profile = self.engines.get(engine) or EngineSettings()
        return ValidationOptions(
            engine=engine,
            limits=Limits(
                max_uncompressed_bytes=validation.max_uncompressed_mb << 20,
                max_compression_ratio=validation.max_compression_ratio,
                max_archive_entries=validation.max_archive_entries,
                max_archive_depth=validation.max_archive_depth,
                parse_timeout=workers.job_timeout,
                memory_limit_mb=workers.memory_limit_mb,
            ),
            policy=IssuePolicy(
                ignore=profile.ignore,
                severity_overrides={**CRASH_SEVERITY[self.plugins.crash], **profile.severity},
                max_issues=validation.max_issues,
                max_per_code=validation.max_issues_per_code,
            ),
            budget_overrides=dict(profile.budgets),
        )
