"""Tests of the format readers, on real bytes written to a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pluggy

from assetcheck.asset.result import Result
from assetcheck.engine import validate
from assetcheck.issues import Issue


def validate_bytes(
    folder: Path,
    name: str,
    data: bytes,
    plugin_manager: pluggy.PluginManager | None = None,
) -> Result:
    """Write ``data`` as ``folder/name`` and validate it the way the CLI and the service do."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return validate(path, plugin_manager=plugin_manager)


def only_issue(result: Result, code: str) -> Issue:
    """The one issue of ``result`` with ``code``."""
    found = [issue for issue in result.issues if issue.code == code]
    assert len(found) == 1, f"expected one {code}, got {[i.code for i in result.issues]}"
    return found[0]


def codes(result: Result) -> list[str]:
    return [issue.code for issue in result.issues]


def reader_codes(result: Result) -> list[str]:
    """The codes the readers and the security scan reported, leaving out those of checks
    (whose ``source`` is ``plugin:check``)."""
    return [issue.code for issue in result.issues if ":" not in (issue.source or "")]
