"""Checks: rules run on each model file after it was read. Built-in ones are default plugins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from assetcheck.asset import Asset
from assetcheck.formats.sniff import MODEL_KINDS
from assetcheck.issues import FileIssues
from assetcheck.options import ValidationOptions
from assetcheck.profiles import EngineProfile


@dataclass(frozen=True)
class CheckContext:
    """What a check may use: where its issues go, the engine profile, the run's options."""

    issues: FileIssues
    profile: EngineProfile
    options: ValidationOptions


@dataclass(frozen=True)
class Check:
    """A named rule: ``run(asset, context)`` reports what it finds through ``context.issues``.

    ``codes`` lists the issue codes it may report (for ``assetcheck plugins`` and the docs);
    ``formats`` the asset formats it applies to.
    """

    name: str
    description: str
    run: Callable[[Asset, CheckContext], None]
    codes: tuple[str, ...] = ()
    formats: frozenset[str] = frozenset(MODEL_KINDS)
