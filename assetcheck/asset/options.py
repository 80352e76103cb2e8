"""Options of one validation run: the engine profile, the resource limits readers obey, and the
real product's dimensions when the model is to match them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from assetcheck.asset.dimensions import ProductDimensions
from assetcheck.issues import IssuePolicy

GIB = 1 << 30


@dataclass(frozen=True)
class Limits:
    """Resource limits for reading one upload. Defaults follow ``docs/security.md``.

    ``parse_timeout`` and ``memory_limit_mb`` bound each child process that parses an FBX, and
    the FBX walk that comes before it (its time, and the nodes it keeps for the parser).
    """

    max_uncompressed_bytes: int = GIB
    max_compression_ratio: float = 100.0
    max_archive_entries: int = 10_000
    max_archive_depth: int = 2
    parse_timeout: float = 60.0
    memory_limit_mb: int = 2048


@dataclass(frozen=True)
class ValidationOptions:
    """What ``validate`` is asked to do: for which engine, under which limits and issue policy.

    ``budget_overrides`` replaces some of the engine profile's budgets and mesh rules (from config).
    ``dimensions``, when given, are the real product's, which the model must match within the
    tolerance of ``docs/scale.md`` (``MODEL_DIMENSIONS_MISMATCH``).
    """

    engine: str = "generic"
    limits: Limits = field(default_factory=Limits)
    policy: IssuePolicy = field(default_factory=IssuePolicy)
    budget_overrides: Mapping[str, int | bool | float] = field(default_factory=dict)
    dimensions: ProductDimensions | None = None
