"""Findings: issues found but not reported yet.

Code that must stay a pure function of its input (a parser, a rule, a measure whose result is
reported at several places) returns :class:`Finding` values instead of adding issues; its
caller places them (:meth:`Finding.at`) and reports them (:meth:`Finding.report_to`). A finding
takes exactly the arguments of :meth:`assetcheck.issues.IssueCollector.add`, so it becomes the
issue it would have been had it been added at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class IssueSink(Protocol):
    """Where issues go: an ``IssueCollector``, a ``FileIssues``, or :class:`Findings`."""

    def add(self, code: str, **fields: Any) -> None: ...


@dataclass(frozen=True, init=False)
class Finding:
    """An issue of ``code`` (a registered code) with the ``fields`` its message names, and
    where it applies as far as its producer knows: a ``file`` of the upload (a member's name
    inside its archive, for the archive's rules), a JSON ``pointer``, a byte ``offset``."""

    code: str
    fields: Mapping[str, Any] = field(hash=False)
    file: str | None = None
    pointer: str | None = None
    offset: int | None = None

    def __init__(
        self,
        code: str,
        *,
        file: str | None = None,
        pointer: str | None = None,
        offset: int | None = None,
        **fields: Any,
    ) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "pointer", pointer)
        object.__setattr__(self, "offset", offset)

    def at(
        self, *, file: str | None = None, pointer: str | None = None, offset: int | None = None
    ) -> Finding:
        """This finding placed where its reporter knows it applies: each part given replaces
        that part of its location, the others are kept."""
        return Finding(
            self.code,
            file=self.file if file is None else file,
            pointer=self.pointer if pointer is None else pointer,
            offset=self.offset if offset is None else offset,
            **self.fields,
        )

    def report_to(self, issues: IssueSink) -> None:
        """Add this finding to ``issues``, with the parts of its location it has (a
        ``FileIssues`` fills in the file itself)."""
        location = {"file": self.file, "pointer": self.pointer, "offset": self.offset}
        issues.add(self.code, **{k: v for k, v in location.items() if v is not None}, **self.fields)


class Findings(list[Finding]):
    """Findings in the order they were found. ``add`` takes the arguments of ``issues.add``,
    so a pure producer records here what it would otherwise report."""

    def add(self, code: str, **fields: Any) -> None:
        self.append(Finding(code, **fields))
