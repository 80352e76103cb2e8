"""Building the JSON report: the one document every other format is rendered from.

A completed validation's report (:func:`build_report`) and a failed job's
(:func:`build_failure_report`) have one shape, described by ``report.schema.json``: a failed
job's has ``grade`` null, ``job.error`` saying why, ``result`` null and empty issue lists, so a
renderer tells them apart with :func:`failure` and nothing else.

Both hold only storable text: a name a reader took from a file's JSON may be a NUL or a lone
surrogate (``"\\u0000"``, ``"\\ud800"``), which neither UTF-8 nor PostgreSQL's ``jsonb`` can carry,
so each becomes U+FFFD. And only bounded text: every name is cut to 255 characters and every
sentence (a message, a fix) to :data:`MAX_SENTENCE_LENGTH`, each marked as cut
(:mod:`assetcheck.issues.names`), and ``summary.namesCut`` counts them. :func:`cap_report` then
bounds the whole report, for the service to store.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from assetcheck import __version__
from assetcheck.asset import Asset
from assetcheck.asset.result import CheckRun, Result
from assetcheck.formats.texture_memory import texture_memory
from assetcheck.issues import SEVERITIES
from assetcheck.issues.names import MAX_NAME_LENGTH, cut_name, was_cut
from assetcheck.reports import Report
from assetcheck.reports.fingerprints import Fingerprints
from assetcheck.scoring.profiles import EngineProfile

REPORT_VERSION = 1
#: Texts longer than names: messages quote names (each cut already), fixes, advice.
MAX_SENTENCE_LENGTH = 2000
_SENTENCE_KEYS = frozenset({"message", "fix", "advice"})

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
#: The types of values stored as they are.
_SCALARS = frozenset({int, float, bool, type(None)})
#: The types of a plain record's values: :data:`_SCALARS`, and text when plain.
_RECORD_VALUE_TYPES = _SCALARS | {str}
#: Sections that are lists of flat records (the check runs, the plugins that ran): kept as
#: they are when every key and value is one the walk keeps (:func:`_plain_records`).
_RECORD_SECTIONS = ("checks", "plugins")


def build_report(result: Result, *, job: Mapping[str, Any] | None = None) -> Report:
    """The full JSON report of ``result``; ``job`` adds the service's job fields when there is one.

    Issues are grouped by code and ordered by severity, each group with its count (occurrences
    beyond the cap included), its fix and the locations kept.
    """
    return _storable(
        {
            **_header(result.filename, _engine(result.profile), job),
            "health_score": result.health_score,
            "grade": result.grade,
            "valid": result.valid,
            "summary": {
                "files": len(result.assets),
                "severityCounts": result.severity_counts,
                "truncated": result.truncated,
            },
            "files": file_metadata(result),
            "result": result.to_dict(),
            "budgetUse": budget_use(result),
            "issues": group_issues(result),
            "checks": [run.to_dict() for run in result.checks],
            "plugins": plugins_that_ran(result.checks),
            "timings": result.timings,
        }
    )


def build_failure_report(
    filename: str,
    engine: EngineProfile | str,
    error: Mapping[str, str],
    *,
    job: Mapping[str, Any] | None = None,
) -> Report:
    """The report of a job the service could not validate: no grade, and ``job.error``.

    ``engine`` is the job's profile, or only its name when that profile is not installed;
    ``error`` is the job's ``{code, message}``, to which the report adds ``advice``.
    """
    from assetcheck.reports.failures import failure_advice  # a service's failed jobs only

    code = error["code"]
    advice = failure_advice(code)
    job_fields = {
        **(job or {}),
        "error": {"code": code, "message": error["message"], "advice": advice},
    }
    return _storable(
        {
            **_header(filename, _engine(engine), job_fields),
            "health_score": None,
            "grade": None,
            "valid": False,
            "summary": {
                "files": 0,
                "severityCounts": dict.fromkeys(SEVERITIES, 0),
                "truncated": False,
            },
            "files": [],
            "result": None,
            "budgetUse": [],
            "issues": [],
            "checks": [],
            "plugins": [],
            "timings": {},
        }
    )


def failure(report: Report) -> dict[str, str] | None:
    """``job.error`` (code, message, advice) of a failed job's report; None for a validation."""
    if report.get("grade") is not None:
        return None
    return (report.get("job") or {}).get("error")


def _storable(report: Report) -> Report:
    """``report`` with storable, bounded text (see the module's notes), and
    ``summary.namesCut`` when any text is cut. A section of :data:`_RECORD_SECTIONS` that
    :func:`_plain_records` finds plain is kept without a walk (the walk would keep it as is)."""
    cut: list[str] = []
    plain = {name for name in _RECORD_SECTIONS if _plain_records(report.get(name))}
    stored = {
        name: section if name in plain else _storable_value(section, name, cut)
        for name, section in report.items()
    }
    if cut:
        stored["summary"]["namesCut"] = len(cut)
    return stored


def _plain_records(records: Any) -> bool:
    """Whether :func:`_storable_value` keeps ``records`` as it is: a list of dicts (no
    subclass) whose keys are plain text and whose values are numbers, flags, None or plain
    text: a ``str`` (no subclass) in ASCII (so no lone surrogate and no cut mark), without a
    NUL, at most a name long. Answered with a few passes of C code over all of them."""
    if type(records) is not list or not all(type(record) is dict for record in records):
        return False
    keys = [key for record in records for key in record]
    values = [value for record in records for value in record.values()]
    if not (set(map(type, keys)) <= {str} and set(map(type, values)) <= _RECORD_VALUE_TYPES):
        return False
    texts = keys + [value for value in values if type(value) is str]
    joined = "".join(texts)
    return (
        joined.isascii()
        and "\x00" not in joined
        and max(map(len, texts), default=0) <= MAX_NAME_LENGTH
    )


def _storable_value(value: Any, key: str, cut: list[str]) -> Any:
    """``value`` with U+FFFD for each NUL and lone surrogate in its strings, keys included, and
    each string value cut: a sentence (under a key of :data:`_SENTENCE_KEYS`) to
    :data:`MAX_SENTENCE_LENGTH`, any other text to a name's length. Each string value that is
    (or quotes) a cut name is appended to ``cut``, so one walk both cleans and counts."""
    kind = type(value)
    if kind is str:
        return _storable_text(value, key, cut)
    if kind is dict or isinstance(value, dict):
        return _storable_dict(value, cut)
    if kind is list or isinstance(value, list):
        return [
            _storable_dict(item, cut) if type(item) is dict else _storable_value(item, key, cut)
            for item in value
        ]
    if isinstance(value, str):  # a str subclass: made a plain string like any other
        return _storable_text(str(value), key, cut)
    return value


def _storable_dict(value: dict[Any, Any], cut: list[str]) -> dict[str, Any]:
    """:func:`_storable_value` of a dict. Its numbers, flags, None and plain strings (most of a
    report) are kept without a call."""
    stored = {}
    for name, item in value.items():
        kind = type(item)
        if kind is str:
            # Plain: no NUL, no surrogate (not ASCII), too short to cut at any limit, and no
            # CUT_MARK (whose ellipsis is not ASCII either).
            if not (item.isascii() and len(item) <= MAX_NAME_LENGTH and "\x00" not in item):
                item = _storable_text(item, name, cut)
        elif kind not in _SCALARS:
            item = _storable_value(item, name, cut)
        if type(name) is not str or not (name.isascii() and "\x00" not in name):
            name = _UNSTORABLE.sub("\ufffd", name)
        stored[name] = item
    return stored


def _storable_text(text: str, key: str, cut: list[str]) -> str:
    limit = MAX_SENTENCE_LENGTH if key in _SENTENCE_KEYS else MAX_NAME_LENGTH
    if len(text) > limit or _UNSTORABLE.search(text):
        text = cut_name(_UNSTORABLE.sub("\ufffd", text), limit)
    if was_cut(text):
        cut.append(text)
    return text


def cap_report(report: Report, max_bytes: int) -> Report:
    """``report``, or a copy trimmed to at most ``max_bytes`` of JSON (UTF-8), still valid
    against the schema, with ``summary.truncated`` true and ``summary.capped`` saying what was
    left out. Trimmed in this order, each step only while the report is still too large: the
    meshes' ``parts``, the issue occurrences after each code's first, the files' ``details``,
    then the entries of ``files``, ``result.meshes`` and ``budgetUse`` after the first ones
    that fit (``summary.files`` still counts them all). Counts and the grade never change.
    """
    if json_size(report) <= max_bytes or report.get("result") is None:
        return report
    capped = copy.deepcopy(report)
    omitted: list[str] = []
    for trim in _TRIMS:
        if json_size(capped) <= max_bytes:
            break
        omitted += trim(capped, max_bytes)
    capped["summary"]["truncated"] = True
    capped["summary"]["capped"] = {"maxBytes": max_bytes, "omitted": omitted}
    return capped


def _drop_parts(report: Report, max_bytes: int) -> list[str]:
    for mesh in report["result"]["meshes"]:
        mesh["parts"] = []
    return ["result.meshes[].parts"]


def _first_occurrences(report: Report, max_bytes: int) -> list[str]:
    for group in report["issues"]:
        group["occurrences"] = group["occurrences"][:1]
    return ["issues[].occurrences"]


def _drop_details(report: Report, max_bytes: int) -> list[str]:
    for entry in report["files"]:
        entry["details"] = {}
        if entry.get("gpuMemory"):
            entry["gpuMemory"]["textures"] = []
        if entry.get("byteUsage"):
            entry["byteUsage"]["largest"] = []
    return ["files[].details", "files[].gpuMemory.textures", "files[].byteUsage.largest"]


def _first_files(report: Report, max_bytes: int) -> list[str]:
    """Keep the most model files whose entries fit (halving until they do)."""
    lists = {
        "files": report["files"],
        "result.meshes": report["result"]["meshes"],
        "budgetUse": report["budgetUse"],
    }
    keep = max(len(entries) for entries in lists.values())
    while keep and json_size(report) > max_bytes:
        keep //= 2
        report["files"], report["budgetUse"] = lists["files"][:keep], lists["budgetUse"][:keep]
        report["result"]["meshes"] = lists["result.meshes"][:keep]
    return [f"{name}[{keep}:]" for name in lists]


_TRIMS = (_drop_parts, _first_occurrences, _drop_details, _first_files)


def json_size(report: Report) -> int:
    """The bytes of ``report`` as JSON (UTF-8), as the service stores and counts it."""
    return len(json.dumps(report, ensure_ascii=False, separators=(",", ":")).encode())


def _header(filename: str, engine: dict[str, Any], job: Mapping[str, Any] | None) -> Report:
    return {
        "reportVersion": REPORT_VERSION,
        "assetcheck": {"version": __version__},
        "job": dict(job) if job else None,
        "filename": filename,
        "engine": engine,
    }


def _engine(profile: EngineProfile | str) -> dict[str, Any]:
    if isinstance(profile, str):  # a profile that is no longer installed: only its name is known
        return {"name": profile, "title": profile, "budgets": {}}
    return {"name": profile.name, "title": profile.title, "budgets": profile.budgets.to_dict()}


def group_issues(result: Result) -> list[dict[str, Any]]:
    """One entry per code, ordered by severity then code, with the kept occurrences' locations.

    A group's ``title`` is its code's plain title; an occurrence carries its ``headline`` (the
    title counting what it is about) when its code has a count phrase. A group's ``fix`` is its
    first occurrence's; an occurrence whose fix reads differently (the fix names the thing to
    change) carries its own. Each occurrence carries its ``fingerprint``
    (:mod:`assetcheck.reports.fingerprints`).
    """
    order = {severity: rank for rank, severity in enumerate(SEVERITIES)}
    groups: dict[str, dict[str, Any]] = {}
    by_file = {asset.filename: Fingerprints(asset.document) for asset in result.assets}
    # A finding without a file is about the upload: its one model file's, when it has one.
    upload = next(iter(by_file.values())) if len(by_file) == 1 else Fingerprints(None)
    for issue in result.issues:
        group = groups.get(issue.code)
        if group is None:
            group = groups[issue.code] = {
                "code": issue.code,
                "title": issue.title,
                "severity": issue.severity,
                "count": result.issue_counts.get(issue.code, 0),
                "fix": issue.fix,
                "occurrences": [],
            }
            if issue.security_level is not None:
                group["securityLevel"] = issue.security_level
        occurrence = issue.to_dict()
        for shared in ("code", "severity", "title"):
            occurrence.pop(shared)
        if occurrence["headline"] == group["title"]:
            del occurrence["headline"]
        if occurrence["fix"] == group["fix"]:
            del occurrence["fix"]
        fingerprints = by_file.get(issue.file or "", upload)
        occurrence["fingerprint"] = fingerprints.of(issue.message, issue.pointer, issue.file)
        group["occurrences"].append(occurrence)
    return sorted(groups.values(), key=lambda g: (order[g["severity"]], g["code"]))


def budget_use(result: Result) -> list[dict[str, Any]]:
    """Per model file its reader could read, what it uses of each budget of the profile:
    ``used``, ``limit``, ``over``. A file that could not be read at all has no entry: what it
    uses is unknown, not zero.

    For ``index_32bit`` the values are booleans: whether the file uses 32-bit indices, and
    whether the profile allows them.
    """
    budgets = result.profile.budgets.to_dict()
    files = []
    for asset in result.assets:
        if not asset.parsed:
            continue
        usage = []
        for name, limit in budgets.items():
            used = asset.metrics.get(name)
            if used is None:
                continue
            over = (used and not limit) if isinstance(limit, bool) else used > limit
            usage.append({"budget": name, "used": used, "limit": limit, "over": bool(over)})
        files.append({"file": asset.filename, "usage": usage})
    return files


def file_metadata(result: Result) -> list[dict[str, Any]]:
    """Per model file: its format, its size, how many textures it has, what its reader
    learned about it, where its bytes go (``byteUsage``, null when its reader does not break
    its format down) and the GPU memory of its textures (``gpuMemory``), as
    ``docs/statistics.md`` defines them.

    Only the reader's scalar facts are kept (version, generator, units...): its per-mesh and
    per-texture lists are for checks, and the meshes are already in ``result.meshes``.
    """
    return [
        {
            "filename": asset.filename,
            "format": asset.format,
            "byteSize": asset.byte_size,
            "textureCount": len(asset.textures),
            "details": {k: v for k, v in asset.details.items() if not isinstance(v, list)},
            "byteUsage": asset.byte_usage.to_dict() if asset.byte_usage is not None else None,
            "gpuMemory": gpu_memory(asset),
        }
        for asset in result.assets
    ]


def gpu_memory(asset: Asset) -> dict[str, Any]:
    """``totalBytes`` of GPU memory the textures of ``asset`` take, and each one's."""
    textures = texture_memory(asset)
    return {
        "totalBytes": sum(texture.memory.bytes for texture in textures),
        "textures": [texture.to_dict() for texture in textures],
    }


def plugins_that_ran(checks: Iterable[CheckRun]) -> list[dict[str, Any]]:
    """Each plugin that provided a check, once, with its version, in the order they ran."""
    versions = {run.plugin: run.version for run in checks}
    return [{"name": name, "version": version} for name, version in versions.items()]
