"""The Markdown report: what a lead artist reads in a pull request (GitHub-flavoured Markdown).

Every text that comes from the asset (file, mesh and material names, messages quoting them) goes
through :func:`escape`, so a name can never inject markup, break a table or open a code span.
"""

from __future__ import annotations

import re

from assetcheck.profiles import BUDGET_LABELS
from assetcheck.reports import Report

GRADE_MARKS = {"excellent": "🟢", "good": "🟢", "fair": "🟡", "poor": "🟠", "critical": "🔴"}
SEVERITY_TITLES = {"error": "Errors", "warning": "Warnings", "info": "Info", "hint": "Hints"}
FOLD_AFTER = 5

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def escape(text: object) -> str:
    """``text`` as inert Markdown: HTML characters as entities, Markdown punctuation escaped."""
    value = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("\r", " ").replace("\n", " ")
    return _MARKDOWN_SPECIALS.sub(r"\\\1", value)


def render_markdown(report: Report) -> str:
    """The whole report: title, summary, files table, security findings, then issues."""
    scan = report["result"]["securityScan"]
    sections = [
        f"# {GRADE_MARKS.get(report['grade'], '')} {escape(report['filename'])}: "
        f"{report['grade']} ({report['health_score']}/100)",
        _summary(report),
        _files(report["result"]["meshes"]),
        _budgets(report),
        _security(scan),
        _issues(report),
        f"<sub>AssetCheck {escape(report['assetcheck']['version'])}, "
        f"engine profile {escape(report['engine']['name'])}</sub>",
    ]
    return "\n\n".join(section for section in sections if section) + "\n"


def _summary(report: Report) -> str:
    counts = report["summary"]["severityCounts"]
    scan = report["result"]["securityScan"]
    verdict = "**Valid**" if report["valid"] else "**Not valid**"
    found = ", ".join(f"{n} {severity}" for severity, n in counts.items() if n) or "no issues"
    safety = "safe" if scan["safe"] else "**unsafe**"
    return (f"{verdict}: {found}. Security scan {safety} ({scan['scannedFiles']} files scanned). "
            f"Checked for {escape(report['engine']['title'])}.")


def _files(meshes: list[dict]) -> str:
    if not meshes:
        return "No model files were read."
    rows = [
        "| File | Vertices | Triangles | Materials | PBR | Animations |",
        "|---|---:|---:|---:|:---:|---:|",
    ]
    for mesh in meshes:
        rows.append(
            f"| {escape(mesh['filename'])} | {mesh['vertexCount']:,} | {mesh['triangleCount']:,} "
            f"| {mesh['materialCount']} | {'yes' if mesh['usesPBR'] else 'no'} "
            f"| {mesh['animationCount']} |"
        )
    return "## Files\n\n" + "\n".join(rows)


def _budgets(report: Report) -> str:
    files = [entry for entry in report.get("budgetUse", []) if entry["usage"]]
    if not files:
        return ""
    engine = escape(report["engine"]["name"])
    parts = [f"## Budget use ({engine})"]
    for entry in files:
        rows = ["| Budget | Used | Limit | |", "|---|---:|---:|:---:|"]
        for use in entry["usage"]:
            mark = "over" if use["over"] else "ok"
            rows.append(f"| {BUDGET_LABELS.get(use['budget'], use['budget'])} "
                        f"| {_amount(use['used'])} | {_amount(use['limit'])} | {mark} |")
        title = f"**{escape(entry['file'])}**\n\n" if len(files) > 1 else ""
        parts.append(title + "\n".join(rows))
    return "\n\n".join(parts)


def _amount(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _security(scan: dict) -> str:
    if not scan["warnings"]:
        return ""
    rows = ["## Security findings", "", "| Severity | Code | File | Finding |", "|---|---|---|---|"]
    for warning in scan["warnings"]:
        rows.append(f"| {warning['severity']} | `{warning['code']}` "
                    f"| {escape(warning['file'] or '')} | {escape(warning['message'])} |")
    return "\n".join(rows)


def _issues(report: Report) -> str:
    groups = report["issues"]
    if not groups:
        return "## Issues\n\nNo issues found."
    parts = ["## Issues"]
    for severity, title in SEVERITY_TITLES.items():
        chosen = [g for g in groups if g["severity"] == severity]
        if not chosen:
            continue
        parts.append(f"### {title} ({sum(g['count'] for g in chosen)})")
        parts.extend(_issue_group(group) for group in chosen)
    if report["summary"]["truncated"]:
        parts.append("_More issues were found than a report keeps; the counts include them all._")
    return "\n\n".join(parts)


def _issue_group(group: dict) -> str:
    occurrences = group["occurrences"]
    lines = [f"- **`{group['code']}`** (x{group['count']}): {escape(occurrences[0]['message'])}",
             f"  - Fix: {escape(group['fix'])}"]
    places = [_location(o) for o in occurrences]
    if len(places) <= FOLD_AFTER:
        lines.extend(f"  - {place}" for place in places)
    else:
        items = "".join(f"<li>{place}</li>" for place in places)
        lines.append(f"  <details><summary>{len(places)} locations</summary><ul>{items}</ul>"
                     "</details>")
    return "\n".join(lines)


def _location(occurrence: dict) -> str:
    where = [escape(occurrence.get("file") or "")]
    if "pointer" in occurrence:
        where.append(escape(occurrence["pointer"]))
    if "offset" in occurrence:
        where.append(f"byte {occurrence['offset']}")
    return " ".join(w for w in where if w) + f": {escape(occurrence['message'])}"
