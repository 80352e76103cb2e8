"""``assetcheck validate PATH...``: validate files and folders without a server, for people and
for CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from assetcheck.config.settings import Config
from assetcheck.formats.registry import format_registry
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import Report, ReportFormat, report_formats
from assetcheck.sandbox.cores import available_cores
from assetcheck.scoring.profiles import resolve_profile

from .fail_under import add_fail_under, fail_under_problem, scores_under
from .inputs import select_files
from .parallel import validate_files
from .progress import Progress


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "validate",
        help="validate files and print a report",
        description="Validate GLB, glTF, FBX and ZIP files, and the files of folders "
        "(recursively). Exit status: 0 no errors, 1 errors found or a score under "
        "--fail-under, 2 usage error or unreadable path.",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="a file, or a folder whose .glb, .gltf, .fbx, .obj and .zip files to validate",
    )
    parser.add_argument(
        "--engine",
        default="generic",
        help="engine profile whose budgets apply (default: generic; "
        "`assetcheck plugins` lists them)",
    )
    parser.add_argument(
        "--format",
        default="text",
        dest="output_format",
        help="text (default), json, markdown, or a format a plugin adds",
    )
    add_fail_under(parser)
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=available_cores(),
        metavar="N",
        help="validate N files at a time in worker processes (default: the number of cores)",
    )
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="in folders, validate only files matching GLOB (a name, or a path "
        "relative to the folder when it has a /); repeatable",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="in folders, skip files matching GLOB; repeatable",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    pm = get_plugin_manager(config.plugin_config())
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
    options = config.validation_options(args.engine)
    try:
        resolve_profile(pm, options.engine, options.budget_overrides)
    except ValueError as error:  # an unknown engine, or a budget the config misspells
        print(f"assetcheck validate: {error}", file=sys.stderr)
        return EXIT_USAGE
    selection = select_files(args.files, format_registry(pm), args.include, args.exclude)
    for problem in selection.problems:
        print(f"assetcheck validate: {problem}", file=sys.stderr)
    reports: list[Report] = []
    unreadable = bool(selection.problems)
    outcomes = validate_files(selection.files, options, pm, config.plugin_config(), args.jobs)
    with Progress(len(selection.files)) as progress:
        for index, outcome in enumerate(outcomes, start=1):
            progress.step(index, str(outcome.path))
            if outcome.report is None:
                print(f"assetcheck validate: {outcome.path}: {outcome.error}", file=sys.stderr)
                unreadable = True
                continue
            reports.append(outcome.report)
    _print(reports, formats[args.output_format])
    if unreadable:
        return EXIT_USAGE
    failed = any(
        not r["valid"] or scores_under(r["health_score"], args.fail_under) for r in reports
    )
    return EXIT_FAILED if failed else EXIT_OK


def _print(reports: list[Report], chosen: ReportFormat) -> None:
    """One report as the format renders it; several combined as the format combines them
    (one JSON list, one SARIF log) or, for formats that do not combine, one after another."""
    if len(reports) != 1 and chosen.combine is not None:
        sys.stdout.write(chosen.combine(reports))
    else:
        sys.stdout.write("\n".join(chosen.render(report) for report in reports))
