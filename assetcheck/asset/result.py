"""The :class:`Result` that ``validate`` returns: the assets read, the security scan, the
issues found, the score, and which checks ran."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from assetcheck.asset import Asset
from assetcheck.issues import Issue

if TYPE_CHECKING:
    from assetcheck.scoring.profiles import EngineProfile


class SecurityWarning(NamedTuple):
    """One element of ``securityScan.warnings``."""

    code: str
    severity: str
    message: str
    file: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
        }


@dataclass
class SecurityScan:
    """``result.securityScan``: ``safe`` is false when any warning is critical or high."""

    scanned_files: int = 0
    warnings: list[SecurityWarning] = field(default_factory=list)

    @property
    def safe(self) -> bool:
        return not any(w.severity in ("critical", "high") for w in self.warnings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "safe": self.safe,
            "scannedFiles": self.scanned_files,
            "warnings": [w.to_dict() for w in self.warnings],
        }

    @classmethod
    def from_issues(cls, scanned_files: int, issues: list[Issue]) -> SecurityScan:
        """The scan's warnings are the issues whose type carries a security level."""
        warnings = [
            SecurityWarning(i.code, i.security_level, i.message, i.file)
            for i in issues
            if i.security_level is not None
        ]
        return cls(scanned_files=scanned_files, warnings=warnings)


@dataclass
class CheckRun:
    """A check that ran, the plugin that provided it, and whether it crashed on any file.

    ``version`` is the plugin's: AssetCheck's own for built-ins, the distribution's for an
    installed plugin, None for a loose file of the plugins folder.
    """

    name: str
    plugin: str
    crashed: bool = False
    version: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "plugin": self.plugin,
            "version": self.version,
            "crashed": self.crashed,
        }


@dataclass
class Result:
    """Everything ``validate`` found about one upload.

    ``to_dict`` is the interface's ``result`` object; the full report, with the issues, is built
    from it by :func:`assetcheck.reports.document.build_report`.
    """

    filename: str
    profile: EngineProfile
    assets: list[Asset]
    security: SecurityScan
    issues: list[Issue]
    issue_counts: dict[str, int]
    severity_counts: dict[str, int]
    truncated: bool
    health_score: int
    grade: str
    checks: list[CheckRun] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def engine(self) -> str:
        return self.profile.name

    @property
    def valid(self) -> bool:
        """No error-severity issue, and the security scan is safe."""
        return self.severity_counts.get("error", 0) == 0 and self.security.safe

    def to_dict(self) -> dict[str, Any]:
        """The interface's ``result`` object: ``meshes`` and ``securityScan``."""
        return {
            "meshes": [asset.to_dict() for asset in self.assets],
            "securityScan": self.security.to_dict(),
        }
