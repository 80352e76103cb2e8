"""Baselines: the findings of an earlier run, to tell a run's new findings from known ones.

A baseline is what ``assetcheck validate`` wrote: a JSON report (or a list of them) or a SARIF
log. A finding is its file (as a SARIF artifact URI), its code and its fingerprint
(:mod:`assetcheck.reports.fingerprints`); :func:`compare` pairs the findings of a run with a
baseline's as multisets, so twins count. A code with more findings than a report lists (its
``count`` above its occurrences) has unlisted ones, known by file and code only: they pair with
the listed findings of their file and code the other side could not pair by fingerprint, then
with each other.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from assetcheck.reports import Report
from assetcheck.reports.fingerprints import Fingerprints
from assetcheck.reports.json_text import render_json_list
from assetcheck.reports.sarif import artifact_uri, issue_groups, render_sarif_combined

_UNFINGERPRINTED = Fingerprints(None)


class BaselineError(ValueError):
    """A baseline that is no JSON report, list of them or SARIF log AssetCheck wrote, or one
    that cannot be read or written; the message says which, for people."""


@dataclass(frozen=True)
class Known:
    """One finding: ``file`` (artifact URI), ``code`` and ``fingerprint`` identify it (an
    unlisted one has the empty fingerprint); the rest says what it is, for people. ``group`` is
    the issue group it belongs to in a run's report (None for a baseline's)."""

    file: str
    code: str
    fingerprint: str
    severity: str
    message: str = field(compare=False)
    where: str = field(compare=False, default="")
    occurrence: dict[str, Any] | None = field(compare=False, default=None, repr=False)
    group: dict[str, Any] | None = field(compare=False, default=None, repr=False)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.code, self.fingerprint)

    def describe(self) -> str:
        """One line for people: file, severity, code, message and where."""
        where = f"  [{self.where}]" if self.where else ""
        return f"{self.file}: {self.severity} {self.code}: {self.message}{where}"


@dataclass
class Comparison:
    """A run's findings against a baseline's: ``new`` (not in the baseline), ``unchanged`` (in
    both) and ``fixed`` (in the baseline, not in the run, for the files the run checked)."""

    new: list[Known]
    unchanged: list[Known]
    fixed: list[Known]

    def summary(self) -> str:
        return f"{len(self.new)} new, {len(self.unchanged)} unchanged, {len(self.fixed)} fixed"

    def new_at(self, severity: str) -> list[Known]:
        """The new findings of ``severity``."""
        return [known for known in self.new if known.severity == severity]


def read_baseline(text: str) -> tuple[list[Known], str]:
    """The findings of a baseline's ``text``, and its format (``json`` or ``sarif``)."""
    document = parse_report_text(text)
    if is_sarif(document):
        return list(sarif_findings(document)), "sarif"
    try:
        return report_findings(document if isinstance(document, list) else [document]), "json"
    except (KeyError, TypeError) as error:
        raise BaselineError(f"a report lacks {error}") from error


def parse_report_text(text: str) -> Any:
    """The JSON of ``text``, which AssetCheck wrote: a JSON report, a list of them, or a SARIF
    log (:func:`is_sarif`). Raises :class:`BaselineError` saying why it is not."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise BaselineError(f"not JSON ({error})") from error
    if is_sarif(document):
        return document
    reports = document if isinstance(document, list) else [document]
    if not all(isinstance(r, dict) and isinstance(r.get("filename"), str) for r in reports):
        raise BaselineError("neither an AssetCheck JSON report, a list of them, nor a SARIF log")
    return document


def is_sarif(document: Any) -> bool:
    """Whether parsed JSON is a SARIF log rather than AssetCheck's own reports."""
    return isinstance(document, dict) and isinstance(document.get("runs"), list)


def report_findings(reports: Iterable[Report]) -> list[Known]:
    """The findings of a run's ``reports``, each linked to its occurrence and group."""
    found: list[Known] = []
    for report in reports:
        uri = artifact_uri(report["filename"])
        for group in issue_groups(report):
            found += _group_findings(uri, group)
    return found


def compare(run: list[Known], baseline: list[Known]) -> Comparison:
    """Pair ``run``'s findings with ``baseline``'s (see the module's notes). A baseline's
    findings of a file the run did not check are left out: not checked is not fixed."""
    files = {known.file for known in run}
    baseline = [known for known in baseline if known.file in files]
    run_listed = [known for known in run if known.fingerprint]
    baseline_listed = [known for known in baseline if known.fingerprint]
    unchanged, run_listed, baseline_listed = pair(run_listed, baseline_listed, _key)
    # Then unlisted findings, known by file and code only, pair with the listed ones the other
    # side has left, and with each other last.
    run_unlisted = [known for known in run if not known.fingerprint]
    baseline_unlisted = [known for known in baseline if not known.fingerprint]
    paired, new, baseline_unlisted = pair(run_listed, baseline_unlisted, _kind)
    unchanged += paired
    paired, run_unlisted, fixed = pair(run_unlisted, baseline_listed, _kind)
    unchanged += paired
    paired, run_unlisted, baseline_unlisted = pair(run_unlisted, baseline_unlisted, _kind)
    unchanged += paired
    return Comparison(new + run_unlisted, unchanged, fixed + baseline_unlisted)


def mark(comparison: Comparison) -> None:
    """Write each finding's ``baselineState`` into the run's reports: on each listed occurrence
    (``new``, ``unchanged``) and on each issue group (``updated`` when only some are new)."""
    states: dict[int, set[str]] = defaultdict(set)
    groups = {}
    for state, findings in (("new", comparison.new), ("unchanged", comparison.unchanged)):
        for known in findings:
            if known.occurrence is not None:
                known.occurrence["baselineState"] = state
            if known.group is not None:
                states[id(known.group)].add(state)
                groups[id(known.group)] = known.group
    for key, group in groups.items():
        found = states[key]
        group["baselineState"] = found.pop() if len(found) == 1 else "updated"


def baseline_text(reports: list[Report], form: str) -> str:
    """A baseline of ``reports`` in ``form`` (``json``: a list of reports; ``sarif``: a log)."""
    return render_sarif_combined(reports) if form == "sarif" else render_json_list(reports)


def _group_findings(uri: str, group: dict[str, Any]) -> Iterator[Known]:
    """The findings of an issue group: its listed occurrences, then one unlisted finding for
    each occurrence its ``count`` has beyond them."""
    occurrences = group.get("occurrences") or []
    for occurrence in occurrences:
        member = occurrence.get("file")
        fingerprint = occurrence.get("fingerprint") or _UNFINGERPRINTED.of(
            occurrence["message"], occurrence.get("pointer"), member
        )
        path = unquote(uri).removeprefix("file://")
        shown_member = member if member not in (path, path.rpartition("/")[2]) else None
        where = " ".join(str(p) for p in (shown_member, occurrence.get("pointer")) if p)
        yield Known(
            uri,
            group["code"],
            fingerprint,
            group["severity"],
            occurrence["message"],
            where,
            occurrence,
            group,
        )
    for _ in range(int(group.get("count", len(occurrences))) - len(occurrences)):
        yield Known(uri, group["code"], "", group["severity"], "(not listed)", group=group)


def sarif_findings(log: dict[str, Any]) -> Iterator[Known]:
    """The findings of a SARIF log AssetCheck wrote: each result's occurrences (its
    ``properties``) in the file of its first location."""
    try:
        for run in log["runs"]:
            for result in run.get("results", []):
                uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                properties = result.get("properties", {})
                group = {
                    "code": result["ruleId"],
                    "severity": properties.get("severity", "error"),
                    "count": properties.get("count", 1),
                    "occurrences": properties.get("occurrences")
                    or [{"message": result["message"]["text"]}],
                }
                for known in _group_findings(uri, group):
                    yield replace(known, occurrence=None, group=None)
    except (KeyError, IndexError, TypeError) as error:
        raise BaselineError(f"a SARIF result lacks {error}") from error


def _key(known: Known) -> tuple[str, str, str]:
    return known.key


def _kind(known: Known) -> tuple[str, str]:
    return (known.file, known.code)


def pair(
    run: list[Known], baseline: list[Known], key: Callable[[Known], Hashable]
) -> tuple[list[Known], list[Known], list[Known]]:
    """Pair ``run``'s findings with ``baseline``'s of the same ``key``, each at most once: the
    paired ones of ``run``, then the unpaired of each side, in their order."""
    remaining = Counter(key(known) for known in baseline)
    paired, run_left = [], []
    for known in run:
        if remaining[key(known)] > 0:
            remaining[key(known)] -= 1
            paired.append(known)
        else:
            run_left.append(known)
    baseline_left = []
    for known in reversed(baseline):  # the last ones of a key are those left unpaired
        if remaining[key(known)] > 0:
            remaining[key(known)] -= 1
            baseline_left.append(known)
    return paired, run_left, baseline_left[::-1]
