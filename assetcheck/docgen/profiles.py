"""``docs/profiles.md``: the budgets and default severities of the built-in engine profiles."""

from __future__ import annotations

from assetcheck.scoring.profiles import (
    BUDGET_COUNTS,
    BUDGET_LABELS,
    BUILTIN_PROFILES,
    MESH_RULE_LABELS,
    Budgets,
    MeshRules,
)


def profiles_markdown() -> str:
    """``docs/profiles.md``: the budgets of every built-in engine profile."""
    names = list(BUILTIN_PROFILES)
    lines = [
        "# Engine profiles",
        "",
        "Generated from `assetcheck/scoring/profiles.py` by `tools/generate_docs.py`; do not edit "
        "by hand.",
        "Any budget can be changed per engine in the `[engines.<name>]` config section, under",
        "its key (`texture_size = 1024`); `docs/model.md` describes the `Budgets` a plugin's",
        "profile must give in full.",
        "",
        "| Budget | Key | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|---|" + "---:|" * len(names),
    ]
    for field_name in Budgets.__dataclass_fields__:
        values = [_budget(getattr(BUILTIN_PROFILES[n].budgets, field_name)) for n in names]
        lines.append(
            f"| {BUDGET_LABELS[field_name]} | `{field_name}` | " + " | ".join(values) + " |"
        )
    lines += ["", *(f"- `{p.name}`: {p.title}" for p in BUILTIN_PROFILES.values())]
    lines += ["", "## What each budget counts", "", "| Budget | Counts |", "|---|---|"]
    lines += [
        f"| {BUDGET_LABELS[name]} | {BUDGET_COUNTS[name]} |"
        for name in Budgets.__dataclass_fields__
    ]
    lines += [
        "",
        "## Mesh rules",
        "",
        "What each engine expects of mesh topology and UVs (`assetcheck/checks/"
        "topology.py`). Like\nbudgets, each can be changed in `[engines.<name>]` "
        "(`closed_meshes = true` for 3D printing\nor physics colliders).",
        "",
        "| Rule | Key | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|---|" + "---:|" * len(names),
    ]
    for field_name in MeshRules.__dataclass_fields__:
        values = [_budget(getattr(BUILTIN_PROFILES[n].mesh_rules, field_name)) for n in names]
        lines.append(
            f"| {MESH_RULE_LABELS[field_name][0]} | `{field_name}` | " + " | ".join(values) + " |"
        )
    lines += ["", "| Rule | Meaning |", "|---|---|"]
    lines += [f"| {label} | {meaning} |" for label, meaning in MESH_RULE_LABELS.values()]
    lines += [
        "",
        "## Default severities",
        "",
        "Budget codes (`BUDGET_*`) are errors for an engine you choose: a file that does "
        "not fit\nthat engine is invalid for it. Under `generic`, the profile used when no "
        "engine is chosen,\nthey are warnings: budgets are advice there and never make a "
        "file invalid.",
        "",
        "Profiles give some codes another severity than the registry's default:",
        "",
    ]
    for profile in BUILTIN_PROFILES.values():
        by_severity: dict[str, list[str]] = {}
        for code, severity in sorted(profile.severity.items()):
            by_severity.setdefault(severity, []).append(f"`{code}`")
        for severity, codes in by_severity.items():
            verb = "is" if len(codes) == 1 else "are"
            lines.append(f"- `{profile.name}`: {', '.join(codes)} {verb} {severity}")
    return "\n".join(lines) + "\n"


def _budget(value: int | bool | float) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}"
