"""``docs/scoring.md``, generated from :mod:`assetcheck.scoring`: the weights, caps, bands and
worked examples are computed by the same code that scores validations."""

from __future__ import annotations

from assetcheck.scoring import (
    GRADE_BANDS,
    SECURITY_CAPS,
    SEVERITY_WEIGHTS,
    grade_for,
    health_score,
    penalty,
)

#: (what was found, occurrences per code with its severity, security levels found).
EXAMPLES: tuple[tuple[str, dict[str, tuple[int, str]], frozenset[str]], ...] = (
    ("nothing", {}, frozenset()),
    ("3 unused-object infos (one code)", {"UNUSED_OBJECT": (3, "info")}, frozenset()),
    ("1 error", {"E": (1, "error")}, frozenset()),
    ("1 error, 2 warnings of one code", {"E": (1, "error"), "W": (2, "warning")}, frozenset()),
    ("1,000 out-of-range indices (one error code)", {"E": (1000, "error")}, frozenset()),
    ("3 different errors", {"A": (1, "error"), "B": (1, "error"), "C": (1, "error")},
     frozenset()),
    ("a clean model in a ZIP with `../../etc/passwd`",
     {"ZIP_PATH_TRAVERSAL": (1, "error")}, frozenset({"critical"})),
)

INTRODUCTION = """# Health score and grade

Generated from `assetcheck/scoring.py` by `tools/generate_docs.py`; do not edit by hand.

Every validation ends with a `health_score`, an integer from 0 to 100, and a `grade`. The default
formula is deliberately simple so an artist can predict it; a plugin can replace it through the
`compute_health_score` hook (the grade always follows from the score by the bands below).

## Formula

Start at 100. For every issue code found, subtract

    weight(severity) * (1 + log10(occurrences))

Repeats of one code weigh less and less: a mistake repeated 1,000 times costs four times what one
occurrence costs, so a mesh with a million bad indices reads as "one serious problem", not as
"a million problems". Different codes add up. The result is rounded and kept within 0..100.
Severities are those after the engine profile's defaults and the configuration's overrides
(`[engines.<name>.severity]`); ignored codes (`[engines.<name>] ignore`) cost nothing."""

VALIDITY = """`valid` (in the report and the webhook) is true when no issue has severity `error`
and the security scan is safe (no critical or high warning)."""


def scoring_markdown() -> str:
    """The whole page."""
    parts = [
        INTRODUCTION,
        "| Severity | Weight |\n|---|---:|\n" + "\n".join(
            f"| {severity} | {weight:g} |" for severity, weight in SEVERITY_WEIGHTS.items()),
        "Then the security scan caps the score:",
        "| Worst security warning | Highest possible score | So the grade is at best |\n"
        "|---|---:|---|\n" + "\n".join(
            f"| {level} | {cap} | {grade_for(cap)} |" for level, cap in SECURITY_CAPS.items()),
        "## Grades",
        "| Grade | Score |\n|---|---|\n" + "\n".join(_bands()),
        VALIDITY,
        "## Worked examples",
        "| Found | Penalty | Score | Grade |\n|---|---:|---:|---|\n" + "\n".join(
            _example(*example) for example in EXAMPLES),
    ]
    return "\n\n".join(parts) + "\n"


def _bands() -> list[str]:
    rows, upper = [], 100
    for name, lower in GRADE_BANDS:
        rows.append(f"| {name} | {lower} to {upper} |")
        upper = lower - 1
    return rows


def _example(found: str, codes: dict[str, tuple[int, str]], levels: frozenset[str]) -> str:
    counts = {code: count for code, (count, _) in codes.items()}
    severities = {code: severity for code, (_, severity) in codes.items()}
    score = health_score(counts, severities, levels)
    capped = ", then capped" if levels else ""
    return f"| {found} | {penalty(counts, severities):.2f}{capped} | {score} | {grade_for(score)} |"
