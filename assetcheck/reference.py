"""Reference pages generated from code: the issue table and the engine profiles.

``python tools/generate_docs.py`` writes them into ``docs/``; a test fails when they are stale.
"""

from __future__ import annotations

from assetcheck.codes.gltf import STRICTER_THAN_KHRONOS
from assetcheck.issues import IssueRegistry
from assetcheck.plugins import PluginConfig, build_registry, get_plugin_manager
from assetcheck.profiles import BUDGET_COUNTS, BUDGET_LABELS, BUILTIN_PROFILES, Budgets
from assetcheck.reference_scoring import scoring_markdown


def issues_markdown(registry: IssueRegistry) -> str:
    """``docs/issues.md``: every issue code, by area, with severity, message and fix."""
    lines = [
        "# Issue codes",
        "",
        "Generated from the issue registry by `tools/generate_docs.py`; do not edit by hand.",
        "Severity is the default; engine profiles can ignore a code or change its severity.",
        "Codes with a security level also appear in `securityScan.warnings`.",
    ]
    area = None
    for issue_type in registry:
        if issue_type.area != area:
            area = issue_type.area
            lines += ["", f"## {area}", "",
                      "| Code | Severity | Security | Message | How to fix |",
                      "|---|---|---|---|---|"]
        lines.append(
            f"| `{issue_type.code}` | {issue_type.severity} | {issue_type.security_level or ''} "
            f"| {_cell(issue_type.message)} | {_cell(issue_type.fix)} |"
        )
    lines += ["", "## Stricter than Khronos", "",
              "AssetCheck aims at the verdicts of the Khronos glTF-Validator. These codes are "
              "the\nexceptions: they make a file invalid that Khronos would call valid, on "
              "purpose.", ""]
    lines += [f"- `{code}`: {why}" for code, why in STRICTER_THAN_KHRONOS.items()]
    return "\n".join(lines) + "\n"


def profiles_markdown() -> str:
    """``docs/profiles.md``: the budgets of every built-in engine profile."""
    names = list(BUILTIN_PROFILES)
    lines = [
        "# Engine profiles",
        "",
        "Generated from `assetcheck/profiles.py` by `tools/generate_docs.py`; do not edit by hand.",
        "Any budget can be changed per engine in the `[engines.<name>]` config section.",
        "",
        "| Budget | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for field_name in Budgets.__dataclass_fields__:
        values = [_budget(getattr(BUILTIN_PROFILES[n].budgets, field_name)) for n in names]
        lines.append(f"| {BUDGET_LABELS[field_name]} | " + " | ".join(values) + " |")
    lines += ["", *(f"- `{p.name}`: {p.title}" for p in BUILTIN_PROFILES.values())]
    lines += ["", "## What each budget counts", "", "| Budget | Counts |", "|---|---|"]
    lines += [f"| {BUDGET_LABELS[name]} | {BUDGET_COUNTS[name]} |"
              for name in Budgets.__dataclass_fields__]
    lines += ["", "## Default severities", "",
              "Budget codes (`BUDGET_*`) are errors for an engine you choose: a file that does "
              "not fit\nthat engine is invalid for it. Under `generic`, the profile used when no "
              "engine is chosen,\nthey are warnings: budgets are advice there and never make a "
              "file invalid.", "",
              "Profiles give some codes another severity than the registry's default:", ""]
    for profile in BUILTIN_PROFILES.values():
        by_severity: dict[str, list[str]] = {}
        for code, severity in sorted(profile.severity.items()):
            by_severity.setdefault(severity, []).append(f"`{code}`")
        for severity, codes in by_severity.items():
            verb = "is" if len(codes) == 1 else "are"
            lines.append(f"- `{profile.name}`: {', '.join(codes)} {verb} {severity}")
    return "\n".join(lines) + "\n"


def _budget(value: int | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def generated_pages() -> dict[str, str]:
    """The generated pages by file name, from the built-in plugins only (no installed ones)."""
    registry = build_registry(get_plugin_manager(PluginConfig(entry_points=False)))
    return {"issues.md": issues_markdown(registry), "profiles.md": profiles_markdown(),
            "scoring.md": scoring_markdown()}
