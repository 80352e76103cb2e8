"""The walk's result (the security scan's findings and the kept node tree), and what its
binary and ASCII walkers share: the rules, and :class:`FbxWalker`, the state both keep."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.tree import FbxSource, FbxTree, KeepRule, TreeBuilder
from assetcheck.issues.findings import Finding
from assetcheck.security.content import executable_kind

#: Deepest node nesting accepted (``docs/security.md``, FBX).
MAX_NESTING = 64

#: How much embedded content the executable check looks at.
CONTENT_HEAD_BYTES = 4096


@dataclass
class FbxScan:
    """What the security scan found."""

    findings: list[Finding] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        """True when the file must not reach the parser: its structure is malformed, or it
        could not be checked within the time limit, or its node tree not kept within the
        memory limit."""
        return any(f.code in _REJECTING for f in self.findings)


_REJECTING = frozenset({"FBX_MALFORMED", "FBX_TRUNCATED", "VALIDATION_TIMEOUT", "RESOURCE_LIMIT"})


@dataclass
class FbxWalk:
    """What one walk of a file gives: the security scan, and the nodes kept for the reader."""

    scan: FbxScan
    tree: FbxTree


#: How many nodes or tokens a walk handles between two looks at the clock.
CLOCK_INTERVAL = 4096


def malformed(reason: str, offset: int | None) -> Finding:
    """An ``FBX_MALFORMED`` finding."""
    return Finding("FBX_MALFORMED", offset=offset, reason=reason)


def truncated(reason: str, offset: int) -> Finding:
    """An ``FBX_TRUNCATED`` finding: the file ends early, which is damage, not an attack."""
    return Finding("FBX_TRUNCATED", offset=offset, reason=reason)


def out_of_time(seconds: float, offset: int) -> Finding:
    """A ``VALIDATION_TIMEOUT`` finding: the walk stopped at ``offset``."""
    return Finding("VALIDATION_TIMEOUT", offset=offset, seconds=seconds)


class FbxWalker:
    """What a walk of one file keeps as it goes, in either encoding: the security scan, the
    nodes kept for the reader (charged to the parser's memory limit), and the bytes the
    file's arrays declare. A walker subclasses it and adds ``run()``."""

    def __init__(self, limits: Limits, keep: KeepRule, source: FbxSource) -> None:
        self.limits = limits
        self.scan = FbxScan()
        self.builder = TreeBuilder(keep, source, limits.memory_limit_mb << 20)
        self._declared_bytes = 0

    def declare_array(self, size: int) -> str | None:
        """Count ``size`` bytes an array declares; once the file's arrays declare more than
        the uncompressed-size limit, the reason the file is malformed, else None."""
        self._declared_bytes += size
        if self._declared_bytes > self.limits.max_uncompressed_bytes:
            return (
                f"its arrays declare {self._declared_bytes} bytes, over the limit of "
                f"{self.limits.max_uncompressed_bytes}"
            )
        return None

    def check_content(self, head: bytes, filename: str, offset: int) -> None:
        """Report ``EXECUTABLE_CONTENT`` if embedded media, starting with ``head``, is a
        program (``filename``: the file name its node gives, '' when none)."""
        kind = executable_kind(head, filename)
        if kind is not None:
            self.scan.findings.append(Finding("EXECUTABLE_CONTENT", offset=offset, kind=kind))

    def result(self) -> FbxWalk:
        """What the walk gives. Kept nodes past the memory budget are ``RESOURCE_LIMIT``, as
        the parser's child running out of memory would be; unless the file is rejected
        already, and never parsed."""
        if self.builder.over_budget and not self.scan.rejected:
            self.scan.findings.append(
                Finding("RESOURCE_LIMIT", limit_mb=self.limits.memory_limit_mb)
            )
        return FbxWalk(self.scan, self.builder.tree())
