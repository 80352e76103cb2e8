"""``--fail-under SCORE``: the option of the commands that judge files (``validate``,
``submit``), its range, and what it fails."""

from __future__ import annotations

import argparse


def add_fail_under(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fail-under",
        type=int,
        metavar="SCORE",
        help="exit 1 when any file's health score is below SCORE (0-100)",
    )


def fail_under_problem(fail_under: int | None) -> str | None:
    """Why ``fail_under`` is not a score from 0 to 100; None when it is one, or not given."""
    if fail_under is not None and not 0 <= fail_under <= 100:
        return "--fail-under takes a score from 0 to 100"
    return None


def scores_under(health_score: int | None, fail_under: int | None) -> bool:
    """Whether a file's ``health_score`` fails ``--fail-under`` (no score counts as 0)."""
    return fail_under is not None and (health_score or 0) < fail_under
