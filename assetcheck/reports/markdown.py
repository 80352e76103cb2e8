"""The Markdown report: what a lead artist reads in a pull request (GitHub-flavoured Markdown).

The verdict comes first (title, summary line), then security findings, what to fix first, the
model files, budget use, where the bytes go and the GPU memory, and every issue by severity.
Long lists fold into ``<details>``. Every finding leads with its plain title; its code follows,
small, for engineers.

Every text that comes from the asset (file, mesh and material names, messages quoting them,
JSON pointers) goes through :func:`escape`, so a name can never inject markup, break a table,
open a code span, ping someone or become a link. Asset text is never put in a code span, where
escapes do not apply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from assetcheck.issues import SECURITY_LEVELS, SEVERITIES
from assetcheck.reports import Report, group_headline, titles_by_code, visible
from assetcheck.reports.comparison import comparison_heading, comparison_lines
from assetcheck.reports.costs import (
    ESTIMATES_NOTE,
    SECTION_TITLE,
    file_costs,
    format_size,
    saving_text,
    saving_title,
)
from assetcheck.reports.document import failure
from assetcheck.scoring.profiles import BUDGET_LABELS

GRADE_MARKS = {"excellent": "🟢", "good": "🟢", "fair": "🟡", "poor": "🟠", "critical": "🔴"}
FAILED_MARK = "⚪"
SEVERITY_HEADINGS = {
    "error": "❌ Errors",
    "warning": "⚠️ Warnings",
    "info": "\N{INFORMATION SOURCE}\N{VARIATION SELECTOR-16} Info",
    "hint": "💡 Hints",
}
SEVERITY_NOUNS = {
    "error": ("error", "errors"),
    "warning": ("warning", "warnings"),
    "info": ("info", "info"),
    "hint": ("hint", "hints"),
}
SECURITY_MARKS = {"critical": "🔴", "high": "🟠", "medium": "🟡", "low": "⚪"}
TIMES = "\N{MULTIPLICATION SIGN}"

#: Locations of one issue code shown before the rest fold away.
FOLD_AFTER = 5
#: Table rows shown before the rest fold away.
FOLD_ROWS = 10
#: Issue codes in "What to fix first".
FIX_FIRST = 3

# Punctuation that starts markup mid-line: emphasis, code, links and images (through ``[``),
# table cells, strikethrough, heading closers and GitHub's math. ``<`` and ``&`` become entities.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]|~#$])")


# What GitHub links after the Markdown is parsed, whatever its escapes: ``@`` mentions (and
# email addresses), bare URLs (``scheme://``, ``www.``) and ``#123`` references. A word joiner
# (U+2060, invisible and unbreakable) after the ``@``, ``#`` or ``www`` and before the ``://``
# leaves the text reading as it did but matches none of them. ``<`` autolinks are entities.
_LIVE_TEXT = re.compile(r"(?<=[@#])|(?<=\bwww)(?=\.)|(?=://)", re.IGNORECASE)
WORD_JOINER = "\N{WORD JOINER}"


def escape(text: object) -> str:
    """``text`` as inert Markdown on one line: HTML characters as entities, Markdown punctuation
    escaped, line breaks as spaces and other invisible characters made visible, and nothing
    GitHub would turn into a mention, a link or a reference."""
    value = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = visible(value.replace("\r", " ").replace("\n", " "))
    value = _LIVE_TEXT.sub(WORD_JOINER, value)
    return _MARKDOWN_SPECIALS.sub(r"\\\1", value)


def render_markdown(report: Report) -> str:
    """The whole report as one Markdown document; a failed job's explains the failure."""
    error = failure(report)
    if error is not None:
        sections = [
            f"# {FAILED_MARK} {escape(report['filename'])}: not validated",
            f"**The validation failed:** {escape(error['message'])} (`{error['code']}`).",
            f"**What to do:** {escape(error.get('advice', ''))}",
            "The file has no grade: a failed job says nothing about the file's quality.",
        ]
    else:
        sections = [
            f"# {GRADE_MARKS.get(report['grade'], '')} {escape(report['filename'])}: "
            f"{report['grade']} ({report['health_score']}/100)",
            _summary(report),
            _security(report["result"]["securityScan"]["warnings"], titles_by_code(report)),
            _fix_first(report["issues"]),
            _files(report),
            _budgets(report),
            _costs(report),
            _issues(report),
            _comparison(report),
        ]
    return "\n\n".join(section for section in [*sections, _footer(report)] if section) + "\n"


def _summary(report: Report) -> str:
    counts = report["summary"]["severityCounts"]
    scan = report["result"]["securityScan"]
    verdict = "**Valid**" if report["valid"] else "**Not valid**"
    found = ", ".join(_counted(n, *SEVERITY_NOUNS[s]) for s in SEVERITIES if (n := counts[s]))
    safety = "safe" if scan["safe"] else "**unsafe**"
    return (
        f"{verdict}: {found or 'no issues'}. Security scan {safety} "
        f"({_counted(scan['scannedFiles'], 'file', 'files')} scanned). "
        f"Checked for {escape(report['engine']['title'])}."
    )


def _security(warnings: list[dict], titles: dict[str, str]) -> str:
    if not warnings:
        return ""
    rows = [
        [
            f"{SECURITY_MARKS[w['severity']]} {w['severity']}",
            f"**{escape(titles.get(w['code'], w['code']))}**: {escape(w['message'])}",
            escape(w["file"] or ""),
            _code(w["code"]),
        ]
        for w in warnings
    ]
    table = gfm_table(["Level", "Finding", "File", "Code"], "----", rows)
    return f"## 🛡️ Security findings ({len(warnings)})\n\n{table}"


def _fix_first(groups: list[dict]) -> str:
    """The few codes that matter most: security findings by level, then errors, then warnings,
    the most frequent first."""
    urgent = [g for g in groups if g["severity"] in ("error", "warning") or "securityLevel" in g]
    if not urgent:
        return ""
    levels = [*SECURITY_LEVELS, None]
    urgent.sort(
        key=lambda g: (
            levels.index(g.get("securityLevel")),
            SEVERITIES.index(g["severity"]),
            -g["count"],
        )
    )
    lines = ["## What to fix first", ""]
    for rank, group in enumerate(urgent[:FIX_FIRST], start=1):
        kind = (
            f"security, {group['securityLevel']}" if "securityLevel" in group else group["severity"]
        )
        lines.append(
            f"{rank}. **{escape(group_headline(group))}** ({kind}, {TIMES}{group['count']}): "
            f"{escape(group['fix'])} {_code(group['code'])}"
        )
    return "\n".join(lines)


def _files(report: Report) -> str:
    meshes = report["result"]["meshes"]
    if not meshes:
        return "## Model files\n\nNo model files were read."
    formats = {entry["filename"]: entry["format"] for entry in report.get("files", [])}
    rows = [
        [
            escape(mesh["filename"]),
            formats.get(mesh["filename"], "").upper(),
            _amount(mesh["vertexCount"]),
            _amount(mesh["triangleCount"]),
            _amount(mesh["materialCount"]),
            _amount(mesh["usesPBR"]),
            _amount(mesh["animationCount"]),
        ]
        for mesh in meshes
    ]
    table = gfm_table(
        ["File", "Format", "Vertices", "Triangles", "Materials", "PBR", "Animations"],
        "--rrrcr",
        rows,
    )
    return f"## Model files ({len(meshes)})\n\n{table}" + _parts(meshes)


def _parts(meshes: list[dict]) -> str:
    """Every mesh of every file, folded: the rows to look at when a file is over budget."""
    several = len(meshes) > 1
    rows = [
        ([escape(mesh["filename"])] if several else [])
        + [
            escape(part["name"]),
            _amount(part["vertexCount"]),
            _amount(part["triangleCount"]),
            _amount(part["materialCount"]),
        ]
        for mesh in meshes
        for part in mesh["parts"]
    ]
    if not rows:
        return ""
    headers = [*(["File"] if several else []), "Mesh", "Vertices", "Triangles", "Materials"]
    aligns = ("-" if several else "") + "-rrr"
    return "\n\n" + folded(f"Meshes ({len(rows)})", gfm_table(headers, aligns, rows, fold=False))


def _budgets(report: Report) -> str:
    files = [entry for entry in report.get("budgetUse", []) if entry["usage"]]
    if not files:
        return ""
    parts = [f"## Budget use: {escape(report['engine']['title'])}"]
    for entry in files:
        rows = [
            [
                BUDGET_LABELS.get(use["budget"], escape(use["budget"])),
                _amount(use["used"]),
                _amount(use["limit"]),
                "❌ over" if use["over"] else "✅",
            ]
            for use in entry["usage"]
        ]
        table = gfm_table(["Budget", "Used", "Limit", ""], "-rrc", rows, fold=False)
        if not any(use["over"] for use in entry["usage"]):  # nothing to act on: fold it
            table = folded(f"Within all {len(rows)} budgets", table)
        title = f"**{escape(entry['file'])}**\n\n" if len(files) > 1 else ""
        parts.append(title + table)
    return "\n\n".join(parts)


def _costs(report: Report) -> str:
    """Where each file's bytes go, its largest items, the estimated savings and its
    textures' GPU memory (``docs/statistics.md``)."""
    files = [costs for costs in file_costs(report.get("files", [])) if not costs.empty]
    if not files:
        return ""
    parts = [f"## {SECTION_TITLE}"]
    for costs in files:
        if len(files) > 1:
            parts.append(f"**{escape(costs.filename)}**")
        if costs.categories:
            rows = [[escape(s.label), s.size, s.percent] for s in costs.categories]
            rows.append(["**total**", f"**{format_size(costs.total)}**", "100%"])
            parts.append(
                gfm_table(["Where the bytes go", "Bytes", "Share"], "-rr", rows, fold=False)
            )
        else:
            parts.append(f"{escape(costs.not_broken_down)}: {format_size(costs.total)}.")
        if costs.attributes:
            rows = [[escape(s.label), s.size, s.percent] for s in costs.attributes]
            parts.append(gfm_table(["Geometry by attribute", "Bytes", "Share"], "-rr", rows))
        if costs.largest:
            rows = [[escape(s.label), s.size, s.percent] for s in costs.largest]
            parts.append(gfm_table(["Largest items", "Bytes", "Share"], "-rr", rows, fold=False))
        if costs.savings:
            rows = [
                [saving_title(saving), escape(saving["target"]), saving_text(saving)]
                for saving in costs.savings
            ]
            table = gfm_table(["Estimated saving", "Applies to", "Estimate"], "---", rows)
            parts.append(table + f"\n\n<sub>{ESTIMATES_NOTE}</sub>")
        if costs.textures:
            rows = [
                [
                    escape(texture["name"]),
                    f"{texture['width']:,} {TIMES} {texture['height']:,}",
                    escape(texture["format"]) + (" (assumed)" if texture["assumedFormat"] else ""),
                    str(len(texture["levels"])),
                    format_size(texture["bytes"]),
                ]
                for texture in costs.textures
            ]
            rows.append(["**total**", "", "", "", f"**{format_size(costs.gpu_total)}**"])
            parts.append(
                gfm_table(["GPU memory", "Size", "Format", "Levels", "Bytes"], "-r-rr", rows)
            )
    return "\n\n".join(parts)


def _issues(report: Report) -> str:
    groups = report["issues"]
    if not groups:
        return "## Issues\n\nNo issues found."
    counts = report["summary"]["severityCounts"]
    parts = [f"## Issues ({sum(counts.values())})"]
    for severity in SEVERITIES:
        chosen = [g for g in groups if g["severity"] == severity]
        if chosen:
            parts.append(f"### {SEVERITY_HEADINGS[severity]} ({counts[severity]})")
            parts.append("\n".join(_issue_group(group) for group in chosen))
    if report["summary"]["truncated"]:
        parts.append("_More issues were found than a report keeps; the counts include them all._")
    return "\n\n".join(parts)


def _issue_group(group: dict) -> str:
    """One list item: the title, the count, the first message and the code, the fix, then each
    location."""
    occurrences = group["occurrences"]
    headline = occurrences[0]["message"]
    lines = [
        f"- **{escape(group_headline(group))}** {TIMES}{group['count']}: {escape(headline)} "
        f"{_code(group['code'])}",
        f"  - **Fix:** {escape(group['fix'])}",
    ]
    places = [f"  - {_location(o, headline)}" for o in occurrences]
    lines += places[:FOLD_AFTER]
    if len(places) > FOLD_AFTER:
        hidden = "\n".join(places[FOLD_AFTER:])
        lines.append(
            "  " + folded(f"{len(places) - FOLD_AFTER} more locations", hidden, indent="  ")
        )
    unkept = group["count"] - len(occurrences)
    if unkept > 0:
        lines.append(f"  - _and {unkept:,} more not kept in the report_")
    return "\n".join(lines)


def _location(occurrence: dict, headline: str) -> str:
    where = [escape(occurrence.get("file") or "")]
    if "pointer" in occurrence:
        where.append(escape(occurrence["pointer"]))
    if "offset" in occurrence:
        where.append(f"byte {occurrence['offset']:,}")
    text = " ".join(w for w in where if w) or "the upload"
    if occurrence["message"] != headline:
        text += f": {escape(occurrence['message'])}"
    if "fix" in occurrence:
        text += f" (fix: {escape(occurrence['fix'])})"
    return text


def _comparison(report: Report) -> str:
    """A service job's comparison with its baseline job: the verdict, then what changed."""
    heading = comparison_heading(report)
    if heading is None:
        return ""
    lines = [f"- {escape(line)}" for line in comparison_lines(report)]
    return "\n".join(["## Comparison", "", escape(heading), *([""] if lines else []), *lines])


def _code(code: str) -> str:
    """An issue code, small, for engineers (codes are ``[A-Z0-9_]``: safe in a code span)."""
    return f"<sub>`{code}`</sub>"


def _footer(report: Report) -> str:
    facts = [
        f"AssetCheck {escape(report['assetcheck']['version'])}",
        f"engine profile {escape(report['engine']['name'])}",
    ]
    if report.get("job"):
        facts.append(f"job {escape(report['job']['job_id'])}")
    return "---\n\n<sub>" + " · ".join(facts) + "</sub>"


def gfm_table(
    headers: Sequence[str], aligns: str, rows: list[list[str]], *, fold: bool = True
) -> str:
    """A GFM table; ``aligns`` has one of ``-`` (left), ``r``, ``c`` per column. With ``fold``,
    rows beyond :data:`FOLD_ROWS` continue in a folded table of their own."""
    marks = {"-": "---", "r": "---:", "c": ":---:"}
    head = [_row(headers), _row(marks[a] for a in aligns)]
    if not fold or len(rows) <= FOLD_ROWS:
        return "\n".join([*head, *map(_row, rows)])
    shown = "\n".join([*head, *map(_row, rows[:FOLD_ROWS])])
    rest = "\n".join([*head, *map(_row, rows[FOLD_ROWS:])])
    return shown + "\n\n" + folded(f"{len(rows) - FOLD_ROWS} more", rest)


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def folded(summary: str, body: str, indent: str = "") -> str:
    """``body`` inside ``<details>``; the blank lines make GitHub parse it as Markdown."""
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n{indent}</details>"


def _counted(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _amount(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return escape(value)
