"""``docs/issues.md``: every issue code of the registry, by area."""

from __future__ import annotations

from assetcheck.docgen.markdown import table_cell
from assetcheck.formats.gltf.codes import compression
from assetcheck.formats.gltf.codes import document as gltf
from assetcheck.issues import IssueRegistry
from assetcheck.reports.sarif import doc_anchor


def issues_markdown(registry: IssueRegistry) -> str:
    """``docs/issues.md``: every issue code, by area, with its title, severity, message and
    fix."""
    lines = [
        "# Issue codes",
        "",
        "Generated from the issue registry by `tools/generate_docs.py`; do not edit by hand.",
        "Severity is the default; engine profiles can ignore a code or change its severity.",
        "Codes with a security level also appear in `securityScan.warnings`.",
        "Each code's row is the anchor `#code_in_lower_case` (SARIF reports link to it).",
        "The title is what reports and the dashboard lead with; some count what the issue is",
        'about in the headline of each finding ("Broken normals or tangents on 8 vertices").',
    ]
    area = None
    for issue_type in registry:
        if issue_type.area != area:
            area = issue_type.area
            lines += [
                "",
                f"## {area}",
                "",
                "| Title | Code | Severity | Security | Message | How to fix |",
                "|---|---|---|---|---|---|",
            ]
        lines.append(
            f'| <a id="{doc_anchor(issue_type.code)}"></a>{table_cell(issue_type.title)} '
            f"| `{issue_type.code}` "
            f"| {issue_type.severity} | {issue_type.security_level or ''} "
            f"| {table_cell(issue_type.message)} | {table_cell(issue_type.fix)} |"
        )
    lines += [
        "",
        "## Stricter than Khronos",
        "",
        "AssetCheck aims at the verdicts of the Khronos glTF-Validator. These codes are "
        "the\nexceptions: they make a file invalid that Khronos would call valid, on "
        "purpose.",
        "",
    ]
    stricter = {**gltf.STRICTER_THAN_KHRONOS, **compression.STRICTER_THAN_KHRONOS}
    lines += [f"- `{code}`: {why}" for code, why in stricter.items()]
    return "\n".join(lines) + "\n"
