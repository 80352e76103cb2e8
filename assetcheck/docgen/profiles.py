"""``docs/profiles.md``: the budgets and default severities of the built-in engine and store
profiles, and where each store profile's limits come from."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from assetcheck.scoring.profiles import (
    BUDGET_COUNTS,
    BUDGET_LABELS,
    BUILTIN_PROFILES,
    MESH_RULE_LABELS,
    Budgets,
    EngineProfile,
    MeshRules,
)
from assetcheck.scoring.store_profiles import STORE_PROFILES

#: Every built-in profile: the engines', then the stores'.
PROFILES = {**BUILTIN_PROFILES, **STORE_PROFILES}


def profiles_markdown() -> str:
    """``docs/profiles.md``: the budgets of every built-in engine profile."""
    lines = [
        "# Engine profiles",
        "",
        "Generated from `assetcheck/scoring/profiles.py` and `store_profiles.py` by "
        "`tools/generate_docs.py`; do not edit by hand.",
        "Any budget can be changed per engine in the `[engines.<name>]` config section, under",
        "its key (`texture_size = 1024`); `docs/model.md` describes the `Budgets` a plugin's",
        "profile must give in full.",
        "",
        *_budgets(),
        "",
        *_mesh_rules(),
        "",
        *_default_severities(),
        "",
        *_sources(),
    ]
    return "\n".join(lines) + "\n"


def _budgets() -> list[str]:
    """The budgets of each profile, its title, and what each budget counts."""
    keys = list(Budgets.__dataclass_fields__)
    return [
        *_settings_table(
            "Budget", ((BUDGET_LABELS[key], key) for key in keys), lambda p: p.budgets
        ),
        "",
        *(f"- `{p.name}`: {p.title}" for p in PROFILES.values()),
        "",
        "## What each budget counts",
        "",
        "| Budget | Counts |",
        "|---|---|",
        *(f"| {BUDGET_LABELS[key]} | {BUDGET_COUNTS[key]} |" for key in keys),
    ]


def _mesh_rules() -> list[str]:
    """The mesh rules of each profile, and what each rule means."""
    rows = ((MESH_RULE_LABELS[key][0], key) for key in MeshRules.__dataclass_fields__)
    return [
        "## Mesh rules",
        "",
        "What each engine expects of mesh topology and UVs (`assetcheck/checks/"
        "topology.py`). Like\nbudgets, each can be changed in `[engines.<name>]` "
        "(`closed_meshes = true` for 3D printing\nor physics colliders).",
        "",
        *_settings_table("Rule", rows, lambda p: p.mesh_rules),
        "",
        "| Rule | Meaning |",
        "|---|---|",
        *(f"| {label} | {meaning} |" for label, meaning in MESH_RULE_LABELS.values()),
    ]


def _settings_table(
    heading: str,
    rows: Iterable[tuple[str, str]],
    settings: Callable[[EngineProfile], Budgets | MeshRules],
) -> list[str]:
    """A row per ``(label, key)`` of ``rows``, a column per built-in profile: the value of
    ``key`` in that profile's ``settings``."""
    names = list(PROFILES)
    lines = [
        f"| {heading} | Key | " + " | ".join(f"`{name}`" for name in names) + " |",
        "|---|---|" + "---:|" * len(names),
    ]
    for label, key in rows:
        values = [_value(getattr(settings(PROFILES[name]), key)) for name in names]
        lines.append(f"| {label} | `{key}` | " + " | ".join(values) + " |")
    return lines


def _default_severities() -> list[str]:
    """The codes each profile gives another severity than the registry's default."""
    lines = [
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
    for profile in PROFILES.values():
        by_severity: dict[str, list[str]] = {}
        for code, severity in sorted(profile.severity.items()):
            by_severity.setdefault(severity, []).append(f"`{code}`")
        for severity, codes in by_severity.items():
            verb = "is" if len(codes) == 1 else "are"
            lines.append(f"- `{profile.name}`: {', '.join(codes)} {verb} {severity}")
    return lines


def _sources() -> list[str]:
    """Each store profile's documents, and the source of each of its limits."""
    lines = [
        "## Where the store profiles' limits come from",
        "",
        "The `3d-commerce`, `scene-viewer` and `shopify` profiles hold a file to the published "
        "requirements\nof where it ships. Each limit below cites its document; where the "
        "document gives no number,\nthe line says so and names the value used instead. "
        'These documents recommend ("should"),\nso a budget overrun is a warning under '
        "these profiles, as under `generic`.",
    ]
    for profile in STORE_PROFILES.values():
        lines += ["", f"### `{profile.name}`: {profile.title}", ""]
        lines += [f"- {document}" for document in profile.reference]
        lines += ["", "| Limit | Key | Value | Source |", "|---|---|---:|---|"]
        for key, citation in profile.sources.items():
            label, value = _limit(profile, key)
            lines.append(f"| {label} | `{key}` | {value} | {citation} |")
    return lines


def _limit(profile: EngineProfile, key: str) -> tuple[str, str]:
    """A budget's, rule's or code's label and its value under ``profile``."""
    if key in BUDGET_LABELS:
        return BUDGET_LABELS[key], _value(getattr(profile.budgets, key))
    if key in MESH_RULE_LABELS:
        return MESH_RULE_LABELS[key][0], _value(getattr(profile.mesh_rules, key))
    return "Severity", profile.severity[key]


def _value(value: int | bool | float) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}"
