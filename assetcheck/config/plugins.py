"""``[plugins]``: where loose plugins are, which plugins and checks are off, and what a check
that raises is (``docs/plugins.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from assetcheck.config.values import Table

#: ``[plugins] crash`` -> the severity overrides it implies for every engine.
CRASH_SEVERITY: dict[str, dict[str, str]] = {"warning": {}, "error": {"CHECK_CRASHED": "error"}}


class PluginSettings(NamedTuple):
    """``[plugins]``: a folder of loose ``*.py`` plugins (None: none), plugin or check names
    to turn off, and the severity of ``CHECK_CRASHED`` (a key of :data:`CRASH_SEVERITY`)."""

    dir: Path | None
    disabled: tuple[str, ...]
    crash: str

    @classmethod
    def read(cls, table: Table) -> PluginSettings:
        return cls(
            disabled=table.texts("disabled", "must be a list of plugin or check names"),
            dir=table.path("dir"),
            crash=table.choice("crash", CRASH_SEVERITY),
        )
