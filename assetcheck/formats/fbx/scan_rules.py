"""The pre-scan's result, and the rules its binary and ASCII walks share."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.issues.findings import Finding
from assetcheck.security.content import executable_kind

#: Deepest node nesting accepted (``docs/security.md``, FBX).
MAX_NESTING = 64

#: How much embedded content the executable check looks at.
CONTENT_HEAD_BYTES = 4096


@dataclass
class FbxScan:
    """What the pre-scan learned: its findings (each at the byte offset it concerns, when
    known) and the UV sets of each mesh, in file order."""

    findings: list[Finding] = field(default_factory=list)
    uv_sets_per_mesh: list[int] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        """True when the file must not reach the parser: its structure is malformed, or it
        could not be checked within the time limit."""
        return any(f.code in _REJECTING for f in self.findings)


_REJECTING = frozenset({"FBX_MALFORMED", "FBX_TRUNCATED", "VALIDATION_TIMEOUT"})

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


def executable_finding(head: bytes, filename: str, offset: int) -> Finding | None:
    """An ``EXECUTABLE_CONTENT`` finding if embedded media is a program, else None."""
    kind = executable_kind(head, filename)
    return None if kind is None else Finding("EXECUTABLE_CONTENT", offset=offset, kind=kind)


def is_mesh(node_name: str, mesh_geometry: bool, has_vertices: bool) -> bool:
    """Whether a node becomes a mesh: FBX 7 writes ``Geometry`` nodes of class ``Mesh``,
    FBX 6 and older a ``Model`` node that holds the ``Vertices`` itself."""
    return mesh_geometry or (node_name == "Model" and has_vertices)
