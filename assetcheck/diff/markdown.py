"""The Markdown rendering of a comparison: a pull-request comment (GitHub-flavoured Markdown).

The verdict comes first, then one table row per file that changed (each statistic as
``old → new (change)``), what made it worse, and each file's budget use and findings, folded.
Every text from the asset or the command line goes through
:func:`assetcheck.reports.markdown.escape`, as in the Markdown report.
"""

from __future__ import annotations

from assetcheck.diff.figures import change_text, figure
from assetcheck.diff.model import METRIC_LABELS, METRICS, BudgetChange, Diff, FileDiff
from assetcheck.reports.baseline import Known
from assetcheck.reports.markdown import escape, folded, gfm_table
from assetcheck.scoring.profiles import BUDGET_LABELS

WORSE_MARK, BETTER_MARK = "🔴", "🟢"
SEVERITY_MARKS = {
    "error": "❌",
    "warning": "⚠️",
    "info": "\N{INFORMATION SOURCE}\N{VARIATION SELECTOR-16}",
    "hint": "💡",
}
STATUS_MARKS = {"added": "🆕 added", "removed": "🗑️ removed", "changed": "changed"}


def render_markdown(diff: Diff) -> str:
    """The whole comparison as one Markdown document."""
    sections = [_verdict(diff), _files_table(diff), _regressions(diff)]
    sections += [_details(entry) for entry in diff.changed]
    return "\n\n".join(section for section in sections if section) + "\n"


def _verdict(diff: Diff) -> str:
    counts = diff.summary()
    title = (
        f"## {WORSE_MARK} AssetCheck diff: worse"
        if diff.worse
        else (f"## {BETTER_MARK} AssetCheck diff: nothing got worse")
    )
    compared = f"{escape(diff.old)} → {escape(diff.new)}"
    if not diff.changed:
        return f"{title}\n\n{compared}: **no changes** ({counts['files']} compared)."
    return (
        f"{title}\n\n{compared}: {counts['changed']} changed, {counts['added']} added, "
        f"{counts['removed']} removed, {counts['unchanged']} unchanged; findings "
        f"**{counts['findingsAdded']} added**, **{counts['findingsFixed']} fixed**."
    )


def _files_table(diff: Diff) -> str:
    if not diff.changed:
        return ""
    rows = [
        [
            escape(entry.file),
            STATUS_MARKS[entry.status],
            *(change_text(change) for change in entry.metrics),
            f"+{len(entry.added)} / -{len(entry.fixed)}",
        ]
        for entry in diff.changed
    ]
    headers = ["File", "Status", *(METRIC_LABELS[metric] for metric in METRICS), "Findings"]
    return gfm_table(headers, "--" + "r" * len(METRICS) + "c", rows)


def _regressions(diff: Diff) -> str:
    if not diff.regressions:
        return ""
    lines = [f"### What got worse ({len(diff.regressions)})", ""]
    lines += [f"- **{escape(r.file)}**: {escape(r.message)}" for r in diff.regressions]
    return "\n".join(lines)


def _details(entry: FileDiff) -> str:
    """A file's budget changes and findings added and fixed, folded under its name."""
    parts = []
    budgets = [budget for budget in entry.budgets if budget.changed]
    if budgets:
        rows = [_budget_row(budget) for budget in budgets]
        parts.append(gfm_table(["Budget", "Old", "New", "Limit", ""], "-rrrc", rows, fold=False))
    for title, findings in (("Findings added", entry.added), ("Findings fixed", entry.fixed)):
        if findings:
            parts.append(f"**{title} ({len(findings)})**\n\n" + "\n".join(map(_finding, findings)))
    if not parts:
        return ""
    return folded(f"{escape(entry.file)}: budgets and findings", "\n\n".join(parts))


def _budget_row(budget: BudgetChange) -> list[str]:
    shown = budget.new or budget.old
    assert shown is not None
    if budget.newly_exceeded:
        state = "❌ newly over"
    elif budget.new is not None and budget.new.over:
        state = "❌ still over"
    elif budget.old is not None and budget.old.over:
        state = "✅ back within"
    else:
        state = "✅"
    return [
        BUDGET_LABELS.get(budget.budget, escape(budget.budget)),
        "—" if budget.old is None else figure(budget.budget, budget.old.used),
        "—" if budget.new is None else figure(budget.budget, budget.new.used),
        figure(budget.budget, shown.limit),
        state,
    ]


def _finding(known: Known) -> str:
    mark = SEVERITY_MARKS.get(known.severity, "")
    where = f" ({escape(known.where)})" if known.where else ""
    return f"- {mark} {known.severity} `{known.code}`: {escape(known.message)}{where}"
