"""The issue registry and the one place issues are added.

Every code AssetCheck can report is an :class:`IssueType` in an :class:`IssueRegistry`; the
built-in types and those of plugins arrive through the ``register_issue_types`` hook. Readers,
the scanner and checks report through :class:`IssueCollector.add`, which applies the profile's
ignore list and severity overrides and caps how many issues a result keeps. Every text field
of an issue (its file, pointer and the names its message quotes) is cut to 255 characters.

Every type has a ``title``: what an artist sees as the problem, in plain words ("Broken
normals"). Its optional ``count_phrase`` makes an issue's ``headline`` count what the issue is
about ("Broken normals" + "on {count:,} {count:vertex|vertices}" -> "Broken normals on 8
vertices"); in it, ``{field:one|many}`` writes ``one`` when the field is 1 and ``many``
otherwise. A type declared without a title gets one made from its code
(:func:`title_from_code`).
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from assetcheck.issues.names import cut_name
from assetcheck.issues.recording import code_recorder

SEVERITIES = ("error", "warning", "info", "hint")
SECURITY_LEVELS = ("critical", "high", "medium", "low")

#: How a security level shows up among the issues that feed ``valid`` and the score.
SECURITY_LEVEL_SEVERITY = {"critical": "error", "high": "error", "medium": "warning", "low": "info"}

DEFAULT_MAX_ISSUES = 1000
DEFAULT_MAX_PER_CODE = 100


@dataclass(frozen=True)
class IssueType:
    """A kind of issue: ``message`` and ``fix`` are templates with named ``{fields}``.

    ``security_level`` is set for findings of the security scan (``critical`` .. ``low``); such an
    issue also appears in ``securityScan.warnings`` and its severity follows from the level.
    """

    code: str
    severity: str
    message: str
    fix: str
    area: str
    security_level: str | None = None
    title: str = ""
    count_phrase: str = ""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", title_from_code(self.code))
        if self.security_level is not None:
            if self.security_level not in SECURITY_LEVELS:
                raise ValueError(f"{self.code}: unknown security level {self.security_level!r}")
            object.__setattr__(self, "severity", SECURITY_LEVEL_SEVERITY[self.security_level])
        if self.severity not in SEVERITIES:
            raise ValueError(f"{self.code}: unknown severity {self.severity!r}")
        if not self.code.isupper() or " " in self.code:
            raise ValueError(f"issue codes are UPPER_SNAKE: {self.code!r}")

    @property
    def fields(self) -> frozenset[str]:
        """The named fields that ``message``, ``fix`` and ``count_phrase`` expect."""
        names: set[str] = set()
        for template in (self.message, self.fix, self.count_phrase):
            names.update(n for _, n, _, _ in string.Formatter().parse(template) if n)
        return frozenset(names)

    def headline(self, fields: Mapping[str, Any]) -> str:
        """The title, followed by the count phrase filled from ``fields`` when there is one."""
        if not self.count_phrase:
            return self.title
        try:
            phrase = _FORMATTER.vformat(self.count_phrase, (), fields)
        except KeyError as missing:
            raise KeyError(f"{self.code}: the count phrase needs field {missing}") from None
        return f"{self.title} {phrase}"


def title_from_code(code: str) -> str:
    """The title of a type declared without one: its code as words
    (``MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL`` -> "Mesh primitive tangent without normal")."""
    return code.replace("_", " ").capitalize()


class _CountFormatter(string.Formatter):
    """``str.format`` plus ``{field:one|many}``: ``one`` when the field is 1, else ``many``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_FORMATTER = _CountFormatter()


class Issue(NamedTuple):
    """One finding and where: ``file`` in the upload, a JSON ``pointer``, a byte ``offset``.
    ``title`` is its type's; ``headline`` is the title with the type's count phrase filled in."""

    code: str
    severity: str
    message: str
    fix: str
    file: str | None = None
    pointer: str | None = None
    offset: int | None = None
    source: str | None = None
    security_level: str | None = None
    title: str = ""
    headline: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "title": self.title,
            "headline": self.headline,
            "message": self.message,
            "fix": self.fix,
        }
        for name in ("file", "pointer", "offset", "source"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data


class IssueArea(NamedTuple):
    """Declares the issue types of one area (``gltf``, ``fbx``, ``quality``, ...): every type
    of the area shares its name and, unless it gives its own, its ``fix``."""

    name: str
    fix: str = ""

    def declare(
        self,
        code: str,
        severity: str,
        message: str,
        fix: str | None = None,
        *,
        security_level: str | None = None,
        title: str = "",
        count_phrase: str = "",
    ) -> IssueType:
        """The issue type ``code`` of this area."""
        if fix is None and not self.fix:
            raise ValueError(f"{code}: no fix given and the {self.name} area has no default")
        return IssueType(
            code,
            severity,
            message,
            self.fix if fix is None else fix,
            self.name,
            security_level,
            title,
            count_phrase,
        )


class IssueRegistry:
    """Every known issue type, by code. A code is defined once; redefining it is an error."""

    def __init__(self, types: Iterable[IssueType] = ()) -> None:
        self._types: dict[str, IssueType] = {}
        self.add_all(types)

    def add(self, issue_type: IssueType) -> None:
        known = self._types.get(issue_type.code)
        if known is not None and known != issue_type:
            raise ValueError(f"issue code {issue_type.code} is defined twice, differently")
        self._types[issue_type.code] = issue_type

    def add_all(self, types: Iterable[IssueType]) -> None:
        for issue_type in types:
            self.add(issue_type)

    def __getitem__(self, code: str) -> IssueType:
        try:
            return self._types[code]
        except KeyError:
            raise KeyError(f"unknown issue code {code!r}: define it in the registry") from None

    def __contains__(self, code: object) -> bool:
        return code in self._types

    def __iter__(self) -> Iterator[IssueType]:
        return iter(sorted(self._types.values(), key=lambda t: (t.area, t.code)))

    def __len__(self) -> int:
        return len(self._types)


@dataclass
class IssuePolicy:
    """What a profile does to issues: codes to drop, severities to change, how many to keep."""

    ignore: frozenset[str] = frozenset()
    severity_overrides: Mapping[str, str] = field(default_factory=dict)
    max_issues: int = DEFAULT_MAX_ISSUES
    max_per_code: int = DEFAULT_MAX_PER_CODE


class IssueCollector:
    """The one ``add`` entry point: formats the message, applies the policy, counts and caps.

    ``counts`` holds every occurrence by code (after ``ignore``), including those beyond the cap;
    ``truncated`` is true when any occurrence was counted but not kept.
    """

    def __init__(self, registry: IssueRegistry, policy: IssuePolicy | None = None) -> None:
        self.registry = registry
        self.policy = policy or IssuePolicy()
        self.issues: list[Issue] = []
        self.counts: Counter[str] = Counter()
        self.truncated = False
        # None unless the test suite records the codes raised (assetcheck.issues.recording).
        self._record = code_recorder()

    def add(
        self,
        code: str,
        *,
        file: str | None = None,
        pointer: str | None = None,
        offset: int | None = None,
        source: str | None = None,
        **fields: Any,
    ) -> None:
        issue_type = self.registry[code]
        if self._record is not None:
            self._record(code)
        if code in self.policy.ignore:
            return
        # Names from the asset go into messages and locations cut (assetcheck.issues.names).
        file, pointer = _cut(file), _cut(pointer)
        fields = {name: _cut(value) for name, value in fields.items()}
        self.counts[code] += 1
        if (
            len(self.issues) >= self.policy.max_issues
            or self.counts[code] > self.policy.max_per_code
        ):
            self.truncated = True
            return
        values = {"file": file, **fields}
        self.issues.append(
            Issue(
                code=code,
                severity=self.severity_of(code),
                message=_fill(issue_type.message, values, code),
                fix=_fill(issue_type.fix, values, code),
                file=file,
                pointer=pointer,
                offset=offset,
                source=source,
                security_level=issue_type.security_level,
                title=issue_type.title,
                headline=issue_type.headline(values),
            )
        )

    def add_count(self, code: str, count: int) -> None:
        """Count ``count`` more occurrences of ``code`` without listing them: the counts and
        the score see them, and the result is marked truncated. For checks whose findings
        could grow faster than the file (every pair of ``n`` things)."""
        self.registry[code]  # an unknown code is an error here as in add()
        if count <= 0:
            return
        if self._record is not None:
            self._record(code)
        if code in self.policy.ignore:
            return
        self.counts[code] += count
        self.truncated = True

    def for_file(self, file: str, source: str | None = None) -> FileIssues:
        """A view of this collector that fills in ``file`` (and ``source``) on every issue."""
        return FileIssues(self, file, source)

    def severity_counts(self) -> dict[str, int]:
        """Occurrences per severity, counting those beyond the cap too."""
        totals = dict.fromkeys(SEVERITIES, 0)
        for code, count in self.counts.items():
            totals[self.severity_of(code)] += count
        return totals

    def severity_of(self, code: str) -> str:
        """The severity issues of ``code`` get under this collector's policy."""
        return self.policy.severity_overrides.get(code, self.registry[code].severity)


class FileIssues(NamedTuple):
    """Adds issues about one file of the upload."""

    collector: IssueCollector
    file: str
    source: str | None = None

    def add(self, code: str, **kwargs: Any) -> None:
        kwargs.setdefault("source", self.source)
        self.collector.add(code, file=self.file, **kwargs)

    def add_count(self, code: str, count: int) -> None:
        self.collector.add_count(code, count)


def _cut(value: Any) -> Any:
    """A text value cut to :data:`~assetcheck.issues.names.MAX_NAME_LENGTH`; anything else as it
    is."""
    return cut_name(value) if isinstance(value, str) else value


def _fill(template: str, fields: Mapping[str, Any], code: str) -> str:
    try:
        return template.format_map(fields)
    except KeyError as missing:
        raise KeyError(f"{code}: the template needs field {missing}") from None
