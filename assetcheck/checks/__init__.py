"""Checks: rules run on each model file after it was read. Built-in ones are default plugins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assetcheck.asset import Asset
from assetcheck.asset.options import ValidationOptions
from assetcheck.issues import FileIssues
from assetcheck.scoring.profiles import EngineProfile


@dataclass(frozen=True)
class CheckContext:
    """What a check may use: where its issues go, the engine profile, the run's options."""

    #: ``issues.add(code, pointer=None, offset=None, **fields)`` reports an issue of ``code``
    #: (a registered code) on this file; ``fields`` fill its message and fix templates.
    issues: FileIssues
    #: The engine profile of the run, its budgets as configured: ``profile.budgets.bones``.
    profile: EngineProfile
    #: The run's options: ``options.limits``, ``options.policy``, ``options.engine``.
    options: ValidationOptions
    #: What the check's ``start`` returned for this asset (None without one).
    started: Any = None


@dataclass(frozen=True)
class Check:
    """A named rule: ``run(asset, context)`` reports what it finds through ``context.issues``.

    ``codes`` lists the issue codes it may report (for ``assetcheck plugins`` and the docs);
    ``formats`` the asset formats it applies to.
    """

    #: Unique within its plugin; ``[plugins] disabled`` accepts it (or ``plugin:name``).
    name: str
    #: One line for ``assetcheck plugins``.
    description: str
    #: ``run(asset, context)``: reports through ``context.issues``; whatever it raises becomes
    #: ``CHECK_CRASHED``.
    run: Callable[[Asset, CheckContext], None]
    #: The codes it may report.
    codes: tuple[str, ...] = ()
    #: The ``Asset.format`` values it runs on; None (the default): every model format,
    #: registered plugin formats included.
    formats: frozenset[str] | None = None
    #: ``start(asset, options)``, optional: called for each asset of its formats once the
    #: upload is read, before any check runs, to begin work ``run`` collects (a decoder sent
    #: to its child process, to work on another core while the other checks run). What it
    #: returns is ``context.started`` in ``run``; its ``close()``, when it returns something, is
    #: called once every check has run, whatever happened, so that nothing it began outlives
    #: the file. What it raises is logged, and ``run`` gets None.
    start: Callable[[Asset, ValidationOptions], Any] | None = None

    def runs_on(self, file_format: str) -> bool:
        """Whether it runs on assets of the format named ``file_format``."""
        return self.formats is None or file_format in self.formats
