"""``--baseline REPORT`` and ``--update-baseline``: ``assetcheck validate`` judged on the findings
an earlier run did not have (``docs/ci.md``, "Baselines").

The comparison (``reports.baseline``, with the SARIF reader it needs) is imported only by a run
given ``--baseline`` or ``--update-baseline``: about 15 ms of every other run's start-up."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

from assetcheck.reports import Report, visible

if TYPE_CHECKING:
    from assetcheck.reports.baseline import Comparison, Known


def add_baseline_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="REPORT",
        help="a JSON report or SARIF log an earlier run wrote: exit 1 only for errors it does "
        "not hold, and say which findings are new, unchanged and fixed",
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="write this run's findings to the --baseline file, in its format (SARIF for an "
        "existing SARIF log or a .sarif name, else JSON), and accept them",
    )


class Baseline(NamedTuple):
    """The ``--baseline`` file: its findings, and the format it is (to be) written in."""

    path: Path
    findings: list[Known]
    form: str


def open_baseline(path: Path | None, update: bool) -> Baseline | None:
    """The baseline ``path`` holds; None without ``--baseline``. With ``update``, a missing
    file is an empty baseline of the format its name says. Raises :class:`BaselineError` with
    a message for people when the options or the file are wrong."""
    if path is None and not update:
        return None
    from assetcheck.reports.baseline import BaselineError, read_baseline

    if path is None:
        raise BaselineError("--update-baseline needs --baseline FILE, the file to write")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if update:
            return Baseline(path, [], "sarif" if path.suffix.lower() == ".sarif" else "json")
        raise BaselineError(
            f"baseline {path} does not exist (write it with --update-baseline)"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise BaselineError(f"baseline {path} cannot be read: {error}") from error
    try:
        findings, form = read_baseline(text)
    except BaselineError as error:
        raise BaselineError(f"baseline {path} is no report AssetCheck wrote: {error}") from error
    return Baseline(path, findings, form)


def judge(baseline: Baseline, reports: list[Report], update: bool, complete: bool) -> Comparison:
    """The run's ``reports`` compared with ``baseline``, their findings marked with their
    ``baselineState``. With ``update`` and a ``complete`` run (every path read), the baseline
    file is written again from the reports first (without the marks), replacing the old one
    only once written whole."""
    from assetcheck.reports.baseline import (
        BaselineError,
        baseline_text,
        compare,
        mark,
        report_findings,
    )

    comparison = compare(report_findings(reports), baseline.findings)
    if update and complete:
        written = baseline.path.with_name(f".{baseline.path.name}.new")
        try:
            baseline.path.parent.mkdir(parents=True, exist_ok=True)
            written.write_text(baseline_text(reports, baseline.form), encoding="utf-8")
            os.replace(written, baseline.path)
        except OSError as error:
            raise BaselineError(f"baseline {baseline.path} cannot be written: {error}") from error
    mark(comparison)
    return comparison


def print_comparison(
    comparison: Comparison, baseline: Baseline, update: bool, complete: bool, out: TextIO
) -> None:
    """The new and the fixed findings, one a line, then the counts and what became of the
    baseline file."""
    for state, findings in (("new", comparison.new), ("fixed", comparison.fixed)):
        for known in findings:  # names from files, shown as the text report shows them
            print(visible(f"{state}: {known.describe()}"), file=out)
    action = ""
    if update:
        action = "; written" if complete else "; not written, as a path could not be read"
    print(f"Baseline {baseline.path}: {comparison.summary()}{action}.", file=out)
