"""The text rendering of a comparison: a verdict line, then each file that changed, then what
made it worse."""

from __future__ import annotations

from assetcheck.diff.figures import change_text, figure
from assetcheck.diff.model import METRIC_LABELS, BudgetChange, Diff, FileDiff
from assetcheck.reports import visible
from assetcheck.reports.baseline import Known


def render_text(diff: Diff) -> str:
    """The whole comparison for a terminal; ``No changes.`` when nothing changed."""
    lines = [visible(f"{diff.old} → {diff.new}: {_summary(diff)}")]
    for entry in diff.changed:
        lines += ["", *_file_lines(entry)]
    if diff.regressions:
        lines += ["", "Worse:"]
        lines += [visible(f"  {r.file}: {r.message}") for r in diff.regressions]
    return "\n".join(lines) + "\n"


def _summary(diff: Diff) -> str:
    counts = diff.summary()
    if not diff.changed:
        return f"No changes ({counts['files']} {_files(counts['files'])} compared)."
    files = ", ".join(f"{counts[status]} {status}" for status in ("changed", "added", "removed"))
    return (
        f"{files}, {counts['unchanged']} unchanged; findings: {counts['findingsAdded']} added, "
        f"{counts['findingsFixed']} fixed."
    )


def _files(count: int) -> str:
    return "file" if count == 1 else "files"


def _file_lines(entry: FileDiff) -> list[str]:
    renamed = (
        f" (was {entry.old_name})"
        if entry.old_name is not None
        and entry.new_name is not None
        and entry.old_name != entry.new_name
        else ""
    )
    lines = [visible(f"{entry.file}: {entry.status}{renamed}")]
    width = max(len(label) for label in METRIC_LABELS.values())
    one_side = entry.status in ("added", "removed")
    for change in entry.metrics:
        if change.changed or (one_side and change_text(change) != "?"):
            lines.append(f"  {METRIC_LABELS[change.metric]:<{width}}  {change_text(change)}")
    lines += [f"  {_budget_line(budget)}" for budget in entry.budgets if budget.changed]
    lines += [visible(f"  + {_finding(known)}") for known in entry.added]
    lines += [visible(f"  - {_finding(known)} (fixed)") for known in entry.fixed]
    return lines


def _budget_line(budget: BudgetChange) -> str:
    old = "?" if budget.old is None else figure(budget.budget, budget.old.used)
    new = "?" if budget.new is None else figure(budget.budget, budget.new.used)
    limit = budget.new or budget.old
    assert limit is not None
    state = ""
    if budget.newly_exceeded:
        state = "  NEWLY OVER"
    elif budget.old is not None and budget.old.over and not (budget.new and budget.new.over):
        state = "  back within"
    elif budget.new is not None and budget.new.over:
        state = "  still over"
    return (
        f"budget {budget.budget}: {old} → {new} (limit {figure(budget.budget, limit.limit)}){state}"
    )


def _finding(known: Known) -> str:
    where = f"  [{known.where}]" if known.where else ""
    return f"{known.severity} {known.code}: {known.message}{where}"
