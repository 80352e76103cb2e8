"""``[validation]`` and ``[engines.<name>]``: the limits every validation runs under, and each
engine profile's issue policy and budget overrides (``docs/profiles.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from assetcheck.config.values import Table

#: The default of :class:`EngineSettings`' tables: empty, and shared, so never to be changed.
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class ValidationSettings(NamedTuple):
    """``[validation]``: how far an archive is opened before it is a bomb, how many issues a
    result keeps, and how large a stored report may be."""

    max_uncompressed_mb: int
    max_compression_ratio: float
    max_archive_entries: int
    max_archive_depth: int
    max_issues: int
    max_issues_per_code: int
    max_report_mb: int

    @classmethod
    def read(cls, table: Table) -> ValidationSettings:
        return cls(
            max_uncompressed_mb=table.whole("max_uncompressed_mb"),
            max_compression_ratio=table.positive("max_compression_ratio"),
            max_archive_entries=table.whole("max_archive_entries"),
            max_archive_depth=table.whole("max_archive_depth"),
            max_issues=table.whole("max_issues"),
            max_issues_per_code=table.whole("max_issues_per_code"),
            max_report_mb=table.whole("max_report_mb"),
        )


class EngineSettings(NamedTuple):
    """``[engines.<name>]``: issue codes the engine does not report (``ignore``), severity
    overrides by code (``[engines.<name>.severity]``), and every other key as a budget or mesh
    rule override, which the engine checks against the profile (``scoring.profiles``)."""

    ignore: frozenset[str] = frozenset()
    severity: Mapping[str, str] = _EMPTY
    budgets: Mapping[str, Any] = _EMPTY

    @classmethod
    def read(cls, table: Table) -> EngineSettings:
        budgets = dict(table.values)
        ignore = budgets.pop("ignore", [])
        if not isinstance(ignore, list) or not all(isinstance(code, str) for code in ignore):
            table.refuse("ignore", "must be a list of issue codes")
        severity = budgets.pop("severity", {})
        if not isinstance(severity, Mapping) or not all(
            isinstance(level, str) for level in severity.values()
        ):
            table.refuse("severity", "must be a table of issue codes and severities")
        return cls(ignore=frozenset(ignore), severity=dict(severity), budgets=budgets)


def read_engines(engines: Table) -> dict[str, EngineSettings]:
    """Every ``[engines.<name>]`` table, by engine name."""
    return {name: EngineSettings.read(engine) for name, engine in engines.tables().items()}
