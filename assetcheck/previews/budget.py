"""The bytes a job may store beside its upload (preview pictures, viewer models, overlays),
counted as they are made, so a file that would pass the limit is never written.

The service sets the limit (``docs/operations.md``, Retention, quotas and deletion); without
one (the CLI, tests) everything is kept.
"""

from __future__ import annotations

from dataclasses import dataclass


class OverBudget(Exception):
    """Storing a file would take the job past its byte budget. The message is a plain
    sentence for the report and the job page: what was not kept, and why."""


@dataclass
class ByteBudget:
    """``limit`` bytes (None: no limit), ``used`` so far. ``reason`` says in words where the
    limit comes from ("16 times the upload's size plus 8 MB")."""

    limit: int | None = None
    reason: str = ""
    used: int = 0

    @property
    def remaining(self) -> int | None:
        return None if self.limit is None else max(0, self.limit - self.used)

    def check(self, size: int, what: str) -> None:
        """Raise :class:`OverBudget` when ``size`` more bytes of ``what`` would not fit."""
        remaining = self.remaining
        if remaining is None or size <= remaining:
            return
        left = f"{readable_size(remaining)} left of the " if self.used else ""
        raise OverBudget(
            f"{what} was not kept: it needs more than the {left}"
            f"{readable_size(self.limit or 0)} this job may store beside its upload "
            f"({self.reason})."
        )

    def take(self, size: int, what: str) -> None:
        """Count ``size`` more bytes of ``what``, or raise :class:`OverBudget` (counting
        nothing) when they do not fit."""
        self.check(size, what)
        self.used += size


def readable_size(size: int) -> str:
    """``size`` bytes in words for people: ``"1.4 MB"``, ``"377 KB"``, ``"12 bytes"``."""
    if size >= 1 << 20:
        return f"{size / (1 << 20):.1f} MB"
    if size >= 1 << 10:
        return f"{size / (1 << 10):.0f} KB"
    return f"{size} bytes"
