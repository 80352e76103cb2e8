"""``docs/profiles.md``: the budgets and default severities of the built-in engine profiles."""

from __future__ import annotations

from assetcheck.profiles import BUDGET_LABELS, BUILTIN_PROFILES, Budgets


def profiles_markdown() -> str:
    """``docs/profiles.md``: the budgets of every built-in engine profile."""
    names = list(BUILTIN_PROFILES)
    lines = [
        "# Engine profiles",
        "",
        "Generated from `assetcheck/profiles.py` by `tools/generate_docs.py`; do not edit by hand.",
        "Any budget can be changed per engine in the `[engines.<name>]` config section, under",
        "its key (`texture_size = 1024`); `docs/model.md` describes the `Budgets` a plugin's",
        "profile must give in full.",
        "",
        "| Budget | Key | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|---|" + "---:|" * len(names),
    ]
    for field_name in Budgets.__dataclass_fields__:
        values = [_budget(getattr(BUILTIN_PROFILES[n].budgets, field_name)) for n in names]
        lines.append(f"| {BUDGET_LABELS[field_name]} | `{field_name}` | "
                     + " | ".join(values) + " |")
    lines += ["", *(f"- `{p.name}`: {p.title}" for p in BUILTIN_PROFILES.values())]
    lines += ["", "## Default severities", "",
              "Profiles give some codes another severity than the registry's default:", ""]
    for profile in BUILTIN_PROFILES.values():
        for code, severity in sorted(profile.severity.items()):
            lines.append(f"- `{profile.name}`: `{code}` is {severity}")
    return "\n".join(lines) + "\n"


def _budget(value: int | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}"
