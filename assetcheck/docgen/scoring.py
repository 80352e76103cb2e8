"""``docs/scoring.md``, generated from :mod:`assetcheck.scoring`: the weights, caps, bands and
worked examples are computed by the same code that scores validations."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.scoring.score import (
    ERROR_CAP,
    GRADE_BANDS,
    SECURITY_CAPS,
    SEVERITY_WEIGHTS,
    UNREAD_CAP,
    grade_for,
    health_score,
    penalty,
    verdict_cap,
)


@dataclass(frozen=True)
class Example:
    """A worked example: what was found, occurrences per code with its severity, the security
    levels found and whether any model file could be read."""

    found: str
    codes: dict[str, tuple[int, str]] = field(default_factory=dict)
    security_levels: frozenset[str] = frozenset()
    model_read: bool = True


EXAMPLES: tuple[Example, ...] = (
    Example("nothing"),
    Example("3 unused-object infos (one code)", {"UNUSED_OBJECT": (3, "info")}),
    Example("2 warnings of one code", {"W": (2, "warning")}),
    Example("1 error", {"E": (1, "error")}),
    Example("1 error, 2 warnings of one code", {"E": (1, "error"), "W": (2, "warning")}),
    Example("1,000 out-of-range indices (one error code)", {"E": (1000, "error")}),
    Example("3 different errors", {"A": (1, "error"), "B": (1, "error"), "C": (1, "error")}),
    Example(
        "a GLB cut off inside its BIN chunk",
        {"GLB_UNEXPECTED_END_OF_CHUNK_DATA": (1, "error")},
        model_read=False,
    ),
    Example(
        "a 5-byte file named `.glb`",
        {"GLB_UNEXPECTED_END_OF_HEADER": (1, "error")},
        model_read=False,
    ),
    Example("a ZIP with no model file in it", {"NO_MODEL_FILES": (1, "error")}, model_read=False),
    Example(
        "a clean model in a ZIP with `../../etc/passwd`",
        {"ZIP_PATH_TRAVERSAL": (1, "error")},
        frozenset({"critical"}),
    ),
)

INTRODUCTION = """# Health score and grade

Generated from `assetcheck/scoring/score.py` by `tools/generate_docs.py`; do not edit by hand.

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

VERDICT_CAPS = f"""## The grade follows the verdict

Whatever formula computed the score (the one above or a plugin's), the score is then capped so
that the grade never contradicts what was found:

| Found | Highest possible score | So the grade is at best |
|---|---:|---|
| no model file could be read (unparseable, truncated, empty, no model in the archive) \
| {UNREAD_CAP} | {grade_for(UNREAD_CAP)} |
| any issue of severity `error` | {ERROR_CAP} | {grade_for(ERROR_CAP)} |"""

VALIDITY = """`valid` (in the report and the webhook) is true when no issue has severity `error`
and the security scan is safe (no critical or high warning)."""


def scoring_markdown() -> str:
    """The whole page."""
    parts = [
        INTRODUCTION,
        "| Severity | Weight |\n|---|---:|\n"
        + "\n".join(
            f"| {severity} | {weight:g} |" for severity, weight in SEVERITY_WEIGHTS.items()
        ),
        "Then the security scan caps the score:",
        "| Worst security warning | Highest possible score | So the grade is at best |\n"
        "|---|---:|---|\n"
        + "\n".join(
            f"| {level} | {cap} | {grade_for(cap)} |" for level, cap in SECURITY_CAPS.items()
        ),
        VERDICT_CAPS,
        "## Grades",
        "| Grade | Score |\n|---|---|\n" + "\n".join(_bands()),
        VALIDITY,
        "## Worked examples",
        "| Found | Penalty | Score | Grade |\n|---|---:|---:|---|\n"
        + "\n".join(_example(example) for example in EXAMPLES),
    ]
    return "\n\n".join(parts) + "\n"


def _bands() -> list[str]:
    rows, upper = [], 100
    for name, lower in GRADE_BANDS:
        rows.append(f"| {name} | {lower} to {upper} |")
        upper = lower - 1
    return rows


def _example(example: Example) -> str:
    counts = {code: count for code, (count, _) in example.codes.items()}
    severities = {code: severity for code, (_, severity) in example.codes.items()}
    raw = health_score(counts, severities)
    score = verdict_cap(
        raw,
        has_errors="error" in severities.values(),
        model_read=example.model_read,
        security_levels=example.security_levels,
    )
    capped = ", then capped" if score < raw else ""
    return (
        f"| {example.found} | {penalty(counts, severities):.2f}{capped} | {score} "
        f"| {grade_for(score)} |"
    )
