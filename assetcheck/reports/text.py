"""The plain-text report ``assetcheck validate`` prints by default: a table, then the issues."""

from __future__ import annotations

from assetcheck.reports import Report, group_headline, titles_by_code, visible
from assetcheck.reports.comparison import comparison_heading, comparison_lines
from assetcheck.reports.costs import SECTION_TITLE, file_costs, plain_lines
from assetcheck.reports.document import failure

COLUMNS = (
    ("FILE", "filename"),
    ("VERTICES", "vertexCount"),
    ("TRIANGLES", "triangleCount"),
    ("MATERIALS", "materialCount"),
    ("PBR", "usesPBR"),
    ("ANIMATIONS", "animationCount"),
)


def render_text(report: Report) -> str:
    """A terminal-friendly summary: verdict line, statistics table, security findings, issues,
    then where the bytes go and the textures' GPU memory, and the comparison with the job's
    baseline job when it has one.

    Each finding leads with its plain title; its code follows for engineers.

    A failed job's report is its error and what to do about it.
    """
    error = failure(report)
    if error is not None:
        lines = [
            f"{report['filename']}: validation FAILED ({error['code']}): {error['message']}",
            f"  {error.get('advice', '')}",
        ]
        return "\n".join(map(visible, lines)) + "\n"
    scan = report["result"]["securityScan"]
    lines = [
        f"{report['filename']}: {report['grade']} ({report['health_score']}/100), "
        f"{'valid' if report['valid'] else 'NOT valid'}, "
        f"security scan {'safe' if scan['safe'] else 'UNSAFE'} "
        f"({scan['scannedFiles']} file{'s' if scan['scannedFiles'] != 1 else ''} scanned), "
        f"engine {report['engine']['name']}",
    ]
    meshes = report["result"]["meshes"]
    if meshes:
        lines += ["", *_table(meshes)]
    titles = titles_by_code(report)
    for warning in scan["warnings"]:
        title = titles.get(warning["code"], warning["code"])
        found = f"{title}: {warning['message']}  {warning['code']}"
        lines.append(f"  security {warning['severity']:<8} {found}")
    counts = report["summary"]["severityCounts"]
    lines += ["", _count_line(counts)]
    for group in report["issues"]:
        lines.append(
            f"  {group['severity']:<8} {group_headline(group)} (x{group['count']})  {group['code']}"
        )
        lines += _occurrences(group)
    if report["summary"]["truncated"]:
        lines.append("  (more issues were found than a report keeps; counts include them all)")
    costs = [file for file in file_costs(report.get("files", [])) if not file.empty]
    if costs:
        lines += ["", f"{SECTION_TITLE} (~ marks estimates):"]
        lines += [f"  {line}" for file in costs for line in plain_lines(file)]
    heading = comparison_heading(report)
    if heading is not None:
        lines += ["", heading, *(f"  {line}" for line in comparison_lines(report))]
    return "\n".join(map(visible, lines)) + "\n"


def _occurrences(group: dict) -> list[str]:
    """The first five occurrences, then the fix: once for the group when every occurrence
    shares it, else under each occurrence (one with its own ``fix`` differs from the group's)."""
    shown = group["occurrences"][:5]
    own_fixes = any("fix" in occurrence for occurrence in group["occurrences"])
    lines = []
    for occurrence in shown:
        lines.append(f"           {occurrence['message']}{_where(occurrence)}")
        if own_fixes:
            lines.append(f"             fix: {occurrence.get('fix', group['fix'])}")
    if group["count"] > len(shown):
        lines.append(f"           ... and {group['count'] - len(shown)} more")
    if not own_fixes:
        lines.append(f"           fix: {group['fix']}")
    return lines


def _table(meshes: list[dict]) -> list[str]:
    rows = [[_cell(mesh[key]) for _, key in COLUMNS] for mesh in meshes]
    widths = [
        max(len(header), *(len(row[i]) for row in rows)) for i, (header, _) in enumerate(COLUMNS)
    ]

    def line(cells: list[str]) -> str:
        first, *rest = cells
        return (
            "  "
            + first.ljust(widths[0])
            + "".join(
                "  " + cell.rjust(width) for cell, width in zip(rest, widths[1:], strict=True)
            )
        )

    return [line([header for header, _ in COLUMNS]), *(line(row) for row in rows)]


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _count_line(counts: dict[str, int]) -> str:
    if not any(counts.values()):
        return "No issues found."
    parts = [
        f"{n} {severity}{'s' if n != 1 and severity != 'info' else ''}"
        for severity, n in counts.items()
        if n
    ]
    return "Issues: " + ", ".join(parts)


def _where(occurrence: dict) -> str:
    places = [occurrence.get("file")]
    if "pointer" in occurrence:
        places.append(occurrence["pointer"])
    if "offset" in occurrence:
        places.append(f"byte {occurrence['offset']}")
    shown = " ".join(str(p) for p in places if p)
    return f"  [{shown}]" if shown else ""
