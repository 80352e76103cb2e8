"""What the job page shows, read from the stored JSON report: nothing is recomputed.

The report's shape is ``assetcheck.reports.document.build_report``; the functions here only
pick from it and phrase it for people (the verdict sentence, budget bars, issue groups).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from assetcheck.issues import IssueRegistry
from assetcheck.reports import Report
from assetcheck.scoring.profiles import BUDGET_LABELS

SEVERITIES = ("error", "warning", "info", "hint")
SEVERITY_TITLES = {"error": "Errors", "warning": "Warnings", "info": "Information", "hint": "Hints"}
SECURITY_LEVELS = ("critical", "high", "medium", "low")
#: Model files up to this size load in the 3D viewer with the page; larger ones on demand,
#: behind a button, with progress.
VIEWER_AUTOLOAD_BYTES = 16 * 1024 * 1024
#: Report pointers the 3D viewer can show on the model: accessors and buffer views through the
#: mesh primitives and images they feed (the overlays' ``uses``).
MODEL_POINTER = re.compile(
    r"^/(meshes|nodes|materials|images|textures|accessors|bufferViews|skins)/\d+(/|$)"
)
#: How the message template of a finding about one mesh begins: FBX findings have no pointer,
#: their mesh is the ``name`` their message quotes.
MESH_MESSAGE = "Mesh {name}"
#: Formats whose mesh findings name their mesh (``Mesh {name} ...``) rather than point at it.
MESH_NAMED_FORMATS = frozenset({"fbx", "obj", "usd"})
#: How the message template of a texture finding begins: FBX ones name the image (and the
#: material property using it, ``{material}``) in their message, which the overlays of the
#: file's viewer model list (``assetcheck.previews.fbx_materials``).
TEXTURE_MESSAGE = "Image {image}"
#: Formats whose texture findings name their image and material rather than point at them.
TEXTURE_NAMED_FORMATS = frozenset({"fbx"})
#: What a number formatted by a message template looks like (``1,200``, ``-0.5``, ``1e-07``).
NUMBER_TEXT = r"[-+0-9.,eE]+?"
#: A budget used beyond this share is shown as close to its limit.
NEAR_LIMIT = 0.8
#: Model files shown at a time (pictures, statistics, budgets): a ZIP of thousands of members
#: gets a page of a bounded size, and links to the next files.
FILES_SHOWN = 24
#: Occurrences shown per issue code until the reader asks for all of that code's.
OCCURRENCES_SHOWN = 20
#: No upload has more model files than this (``[validation] max_archive_entries`` is smaller).
MAX_FILE_INDEX = 10**9
#: What an issue code looks like (``MESH_ZERO_AREA_TRIANGLES``): the only ``?code=`` a page
#: expands.
ISSUE_CODE = re.compile(r"[A-Z][A-Z0-9_]{0,63}")


@dataclass(frozen=True)
class JobView:
    """Which part of a large report the page shows: the model files from ``first_file`` on,
    and all kept occurrences of the issue code ``expanded`` (the others collapsed)."""

    first_file: int = 0
    expanded: str | None = None

    def files(self, items: list[Any]) -> list[Any]:
        """The model files (or their statistics, budgets) this view shows."""
        return items[self.first_file : self.first_file + FILES_SHOWN]

    def occurrences(self, group: dict[str, Any]) -> list[dict[str, Any]]:
        """The occurrences of an issue group this view shows."""
        kept = group["occurrences"]
        return kept if group["code"] == self.expanded else kept[:OCCURRENCES_SHOWN]

    def query(self, *, first_file: int | None = None, expanded: str | None = None) -> str:
        """The query string of this view with ``first_file`` or ``expanded`` changed."""
        files = self.first_file if first_file is None else first_file
        code = expanded or self.expanded
        return "?" + urlencode(
            {**({"files": files} if files else {}), **({"code": code} if code else {})}
        )

    def key(self) -> str:
        """What tells this view's page from the other views' of the same report."""
        return f"{self.first_file}:{self.expanded or ''}"


@dataclass(frozen=True)
class BudgetBar:
    """One engine limit of one model file. ``share`` is used/limit capped at 1 (None for a
    yes/no budget); ``state`` is ``ok``, ``near`` or ``over``."""

    label: str
    used: str
    limit: str
    share: float | None
    state: str


def verdict(report: Report) -> str:
    """The report in one sentence: can the upload be used on its engine, and if not, why."""
    engine = report["engine"]["title"]
    counts = report["summary"]["severityCounts"]
    scan = report["result"]["securityScan"]
    dangerous = [w for w in scan["warnings"] if w["severity"] in ("critical", "high")]
    if not scan["safe"]:
        found = _count(len(dangerous), "serious problem")
        return f"Do not use this upload: the security scan found {found}, listed under Security."
    if counts.get("error"):
        return (
            f"Not ready: {_count(counts['error'], 'error')} to fix before it passes the "
            f"{engine} profile."
        )
    if counts.get("warning"):
        return (
            f"Ready: it passes the {engine} profile, with "
            f"{_count(counts['warning'], 'warning')} worth a look."
        )
    return f"Ready: it passes the {engine} profile with no errors and no warnings."


def budget_bars(usage: list[dict[str, Any]]) -> list[BudgetBar]:
    """The bars of one entry of the report's ``budgetUse``."""
    bars = []
    for entry in usage:
        used, limit, over = entry["used"], entry["limit"], entry["over"]
        label = BUDGET_LABELS.get(entry["budget"], entry["budget"].replace("_", " "))
        if isinstance(limit, bool):
            use = ("used, " + ("allowed" if limit else "not allowed")) if used else "not used"
            bars.append(BudgetBar(label, use, "", None, "over" if over else "ok"))
            continue
        share = min(used / limit, 1.0) if limit else 1.0
        state = "over" if over else "near" if share >= NEAR_LIMIT else "ok"
        bars.append(BudgetBar(label, _number(used), _number(limit), share, state))
    return bars


def issues_by_severity(report: Report) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """``(severity, title, groups)`` for each severity that has issues, errors first; each
    group is the report's entry for one code (count, fix, the kept occurrences)."""
    groups = report["issues"]
    return [
        (severity, SEVERITY_TITLES[severity], found)
        for severity in SEVERITIES
        if (found := [g for g in groups if g["severity"] == severity])
    ]


def security_warnings(report: Report) -> list[dict[str, Any]]:
    """The security scan's warnings, the most serious first."""
    warnings = report["result"]["securityScan"]["warnings"]
    return sorted(warnings, key=lambda w: SECURITY_LEVELS.index(w["severity"]))


def file_formats(report: Report) -> dict[str, str]:
    """Each model file's format (``glb``, ``gltf``, ``fbx``, ``obj``) by its name in the
    upload."""
    return {entry["filename"]: entry["format"] for entry in report.get("files", [])}


def location(occurrence: dict[str, Any]) -> str:
    """Where an issue is: the file, then a JSON pointer or a byte offset when there is one."""
    parts = [occurrence.get("file") or ""]
    if "pointer" in occurrence:
        parts.append(occurrence["pointer"] or "/")
    elif "offset" in occurrence:
        parts.append(f"byte {occurrence['offset']:,}")
    return " ".join(part for part in parts if part)


def model_target(
    registry: IssueRegistry, code: str, occurrence: dict[str, Any], file_format: str
) -> dict[str, str] | None:
    """What the 3D viewer needs to show an occurrence of ``code`` in a file of
    ``file_format`` on the model, or None when it cannot: ``{"pointer": ...}`` when its glTF
    pointer names a mesh, primitive, node, material, image, texture, accessor, buffer view or
    skin; ``{"mesh": name}`` for an FBX or OBJ mesh finding, which has no pointer and names
    its mesh only in its message (read back through its code's template); ``{"image": name}``
    for an FBX texture finding, with ``"material"`` (``Wood (slot NormalMap)``) when it names
    the material property too. Every severity alike."""
    if file_format not in MESH_NAMED_FORMATS:
        pointer = occurrence.get("pointer") or ""
        return {"pointer": pointer} if MODEL_POINTER.match(pointer) else None
    template = registry[code].message if code in registry else ""
    if template.startswith(MESH_MESSAGE):
        fields = message_fields(template, occurrence["message"])
        return {"mesh": fields["name"]} if fields and fields.get("name") else None
    if template.startswith(TEXTURE_MESSAGE) and file_format in TEXTURE_NAMED_FORMATS:
        fields = message_fields(template, occurrence["message"])
        if fields and fields.get("image"):
            return {key: fields[key] for key in ("image", "material") if fields.get(key)}
    return None


def message_fields(template: str, message: str) -> dict[str, str] | None:
    """The text each named field of ``template`` became in ``message``, or None when
    ``message`` was not made from ``template``. A field with a format spec (``{count:,}``)
    is a number; each field takes the shortest text that lets the rest of the message match."""
    pattern, named = "", set()
    for literal, name, spec, _ in string.Formatter().parse(template):
        pattern += re.escape(literal)
        if name is None:
            continue
        text = NUMBER_TEXT if spec else ".*?"
        if name.isidentifier() and name not in named:
            pattern += f"(?P<{name}>{text})"
            named.add(name)
        else:  # a field used twice, or an attribute or index of one
            pattern += text
    found = re.fullmatch(pattern, message, re.DOTALL)
    return None if found is None else found.groupdict()


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _number(value: int | float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}".rstrip("0").rstrip(".")
