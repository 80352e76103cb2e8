"""The walk's result (the security scan's findings and the kept node tree), and the rules its
binary and ASCII walks share."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.formats.fbx.tree import FbxTree, TreeBuilder
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


def walk_result(scan: FbxScan, builder: TreeBuilder, limit_mb: int) -> FbxWalk:
    """What a walk gives. Kept nodes past the memory budget are ``RESOURCE_LIMIT``, as the
    parser's child ran out of memory; unless the file is rejected already, and never parsed."""
    if builder.over_budget and not scan.rejected:
        scan.findings.append(Finding("RESOURCE_LIMIT", limit_mb=limit_mb))
    return FbxWalk(scan, builder.tree())


def executable_finding(head: bytes, filename: str, offset: int) -> Finding | None:
    """An ``EXECUTABLE_CONTENT`` finding if embedded media is a program, else None."""
    kind = executable_kind(head, filename)
    return None if kind is None else Finding("EXECUTABLE_CONTENT", offset=offset, kind=kind)
