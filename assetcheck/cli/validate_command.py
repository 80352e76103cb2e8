"""``assetcheck validate FILE...``: validate files without a server, for people and for CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assetcheck.config import Config
from assetcheck.engine import validate
from assetcheck.plugins import get_plugin_manager
from assetcheck.profiles import resolve_profile
from assetcheck.reports import Report, ReportFormat, report_formats
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report

from .progress import Progress

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "validate", help="validate files and print a report",
        description="Validate GLB, glTF, FBX and ZIP files. Exit status: 0 no errors, 1 errors "
                    "found or a score under --fail-under, 2 usage error or unreadable path.")
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.add_argument("--engine", default="generic",
                        help="engine profile whose budgets apply (default: generic; "
                             "`assetcheck plugins` lists them)")
    parser.add_argument("--format", default="text", dest="output_format",
                        help="text (default), json, markdown, or a format a plugin adds")
    parser.add_argument("--fail-under", type=int, metavar="SCORE",
                        help="exit 1 when any file's health score is below SCORE (0-100)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    pm = get_plugin_manager(config.plugin_config())
    formats = report_formats(pm)
    if args.output_format not in formats:
        print(f"assetcheck validate: unknown format {args.output_format!r}; "
              f"choose one of {', '.join(sorted(formats))}", file=sys.stderr)
        return EXIT_USAGE
    if args.fail_under is not None and not 0 <= args.fail_under <= 100:
        print("assetcheck validate: --fail-under takes a score from 0 to 100", file=sys.stderr)
        return EXIT_USAGE
    options = config.validation_options(args.engine)
    try:
        resolve_profile(pm, options.engine, options.budget_overrides)
    except ValueError as error:  # an unknown engine, or a budget the config misspells
        print(f"assetcheck validate: {error}", file=sys.stderr)
        return EXIT_USAGE
    reports: list[Report] = []
    unreadable = False
    with Progress(len(args.files)) as progress:
        for index, path in enumerate(args.files, start=1):
            progress.step(index, str(path))
            if not path.is_file():
                print(f"assetcheck validate: {path}: not a readable file", file=sys.stderr)
                unreadable = True
                continue
            try:
                result = validate(path, options=options, plugin_manager=pm)
            except OSError as error:
                print(f"assetcheck validate: {path}: {error.strerror}", file=sys.stderr)
                unreadable = True
                continue
            reports.append(build_report(result))
    _print(reports, formats[args.output_format])
    if unreadable:
        return EXIT_USAGE
    failed = any(
        not r["valid"] or (args.fail_under is not None and r["health_score"] < args.fail_under)
        for r in reports
    )
    return EXIT_FAILED if failed else EXIT_OK


def _print(reports: list[Report], chosen: ReportFormat) -> None:
    """Several reports in one JSON document are a list; other formats are concatenated."""
    if chosen.name == "json" and len(reports) != 1:
        sys.stdout.write(render_json(reports))
    else:
        sys.stdout.write("\n".join(chosen.render(report) for report in reports))
