"""``assetcheck validate PATH...``: validate files and folders without a server, for people and
for CI."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from assetcheck.asset.dimensions import DimensionsError, ProductDimensions
from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from assetcheck.config.settings import Config
from assetcheck.daemon.client import NO_DAEMON_OPTION
from assetcheck.formats.registry import format_registry
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import Report, ReportFormat, report_formats
from assetcheck.scoring.profiles import resolve_profile
from assetcheck.start_up import resume_collector

from .baseline_option import add_baseline_options, judge, open_baseline, print_comparison
from .fail_under import add_fail_under, fail_under_problem, scores_under
from .format_option import add_format_option
from .inputs import add_selection_options, select_files
from .parallel import Outcome, add_jobs_option, validate_files
from .progress import Progress


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "validate",
        help="validate files and print a report",
        description="Validate GLB, glTF, FBX and ZIP files, and the files of folders "
        "(recursively). Exit status: 0 no errors, 1 errors found or a score under "
        "--fail-under, 2 usage error or unreadable path. With --baseline, only errors the "
        "baseline does not hold count.",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="a file, or a folder whose .glb, .gltf, .fbx, .obj, .usdz/.usd* and .zip files "
        "to validate",
    )
    parser.add_argument(
        "--engine",
        default="generic",
        help="engine profile whose budgets apply (default: generic; "
        "`assetcheck plugins` lists them)",
    )
    parser.add_argument(
        "--dimensions",
        metavar="WxHxD",
        help="the real product's width, height (up) and depth in metres, such as 0.6x0.9x0.4 "
        "(- for a side you do not know): the model must match them within 3%% "
        "(MODEL_DIMENSIONS_MISMATCH)",
    )
    add_format_option(parser, "one your plugins add (`assetcheck plugins` lists them)")
    add_fail_under(parser)
    add_jobs_option(parser)
    add_selection_options(parser, "validate")
    add_baseline_options(parser)
    parser.add_argument(
        NO_DAEMON_OPTION,
        action="store_true",
        help="validate in this process even when `assetcheck daemon` runs",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    pm = get_plugin_manager(config.plugin_config())
    resume_collector()
    formats = report_formats(pm)
    if args.output_format not in formats:
        print(
            f"assetcheck validate: unknown format {args.output_format!r}; "
            f"choose one of {', '.join(sorted(formats))}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    problem = fail_under_problem(args.fail_under)
    if problem:
        print(f"assetcheck validate: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.jobs < 1:
        print(
            "assetcheck validate: --jobs takes a number of processes, at least 1", file=sys.stderr
        )
        return EXIT_USAGE
    try:
        dimensions = ProductDimensions.from_text(args.dimensions) if args.dimensions else None
    except DimensionsError as error:
        print(f"assetcheck validate: {error}", file=sys.stderr)
        return EXIT_USAGE
    options = replace(config.validation_options(args.engine), dimensions=dimensions)
    try:
        resolve_profile(pm, options.engine, options.budget_overrides)
    except ValueError as error:  # an unknown engine, or a budget the config misspells
        print(f"assetcheck validate: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        baseline = open_baseline(args.baseline, args.update_baseline)
    except ValueError as error:  # BaselineError: a missing or foreign baseline file
        print(f"assetcheck validate: {error}", file=sys.stderr)
        return EXIT_USAGE
    selection = select_files(args.files, format_registry(pm), args.include, args.exclude)
    for problem in selection.problems:
        print(f"assetcheck validate: {problem}", file=sys.stderr)
    with validate_files(selection.files, options, pm, args.jobs) as outcomes:
        reports, unreadable = _collect(outcomes, len(selection.files))
        unreadable += len(selection.problems)
        complete = not unreadable
        try:
            comparison = (
                None
                if baseline is None
                else judge(baseline, reports, args.update_baseline, complete)
            )
        except ValueError as error:  # BaselineError: the baseline file cannot be written
            print(f"assetcheck validate: {error}", file=sys.stderr)
            return EXIT_USAGE
        # Rendered before leaving the block, which reaps the workers: each was killed as it
        # finished, and its exit runs on the other core meanwhile instead of being waited for.
        output = _rendered(reports, formats[args.output_format])
    sys.stdout.write(output)
    if args.output_format == "text" and len(reports) + unreadable > 1:
        print(summary_line(reports, unreadable, args.fail_under))
    if baseline is not None and comparison is not None:
        out = sys.stdout if args.output_format == "text" else sys.stderr
        print_comparison(comparison, baseline, args.update_baseline, complete, out)
    if unreadable:
        return EXIT_USAGE
    if comparison is not None:  # only new errors fail, none once accepted into the baseline
        failed = bool(comparison.new_at("error")) and not args.update_baseline
        failed |= any(scores_under(r["health_score"], args.fail_under) for r in reports)
    else:
        failed = any(not _passes(r, args.fail_under) for r in reports)
    return EXIT_FAILED if failed else EXIT_OK


def summary_line(reports: list[Report], unreadable: int, fail_under: int | None) -> str:
    """The line closing the text output of several files: how many were checked, passed and
    failed (as the exit status judges them), how many could not be read, and the issue totals.
    """
    failed = sum(1 for report in reports if not _passes(report, fail_under))
    checked = len(reports) + unreadable
    parts = [f"{len(reports) - failed} passed", f"{failed} failed"]
    if unreadable:
        parts.append(f"{unreadable} could not be read")
    totals = {
        severity: sum(r["summary"]["severityCounts"].get(severity, 0) for r in reports)
        for severity in ("error", "warning")
    }
    counts = ", ".join(f"{n} {severity}{'' if n == 1 else 's'}" for severity, n in totals.items())
    return f"{checked} files checked: {', '.join(parts)}; {counts}."


def _passes(report: Report, fail_under: int | None) -> bool:
    """Whether a file passes: no errors, and a score not under ``--fail-under``."""
    return bool(report["valid"]) and not scores_under(report["health_score"], fail_under)


def _collect(outcomes: Iterator[Outcome], total: int) -> tuple[list[Report], int]:
    """The reports of ``outcomes`` (``total`` of them, shown on the progress line), and how
    many files had none, each said on stderr."""
    reports: list[Report] = []
    unreadable = 0
    with Progress(total) as progress:
        for index, outcome in enumerate(outcomes, start=1):
            progress.step(index, str(outcome.path))
            if outcome.report is None:
                print(f"assetcheck validate: {outcome.path}: {outcome.error}", file=sys.stderr)
                unreadable += 1
                continue
            reports.append(outcome.report)
    return reports, unreadable


def _rendered(reports: list[Report], chosen: ReportFormat) -> str:
    """One report as the format renders it; several combined as the format combines them
    (one JSON list, one SARIF log) or, for formats that do not combine, one after another."""
    if len(reports) != 1 and chosen.combine is not None:
        return chosen.combine(reports)
    return "\n".join(chosen.render(report) for report in reports)
