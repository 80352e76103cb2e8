"""``assetcheck submit FILE... --url URL``: validate files on a running service, like ``validate``.

Built on :mod:`assetcheck.client`. The key comes from ``ASSETCHECK_API_KEY`` only: a key on a
command line ends up in shell histories and process lists. Every file is uploaded first, so
the service's workers take them in parallel, then each job is awaited at the pace its
``Retry-After`` asks for and its report fetched in ``--format``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from assetcheck.cli.fail_under import add_fail_under, fail_under_problem, scores_under
from assetcheck.client import (
    ApiError,
    Client,
    ClientError,
    JobCreated,
    JobStatus,
    Report,
)
from assetcheck.config.settings import Config

KEY_VARIABLE = "ASSETCHECK_API_KEY"
URL_VARIABLE = "ASSETCHECK_URL"
#: Refusals that are about the file itself (it fails, exit 1), not about how the service is
#: used (exit 2).
FILE_REFUSALS = ("FILE_TOO_LARGE", "UNSUPPORTED_FILE_TYPE", "MISSING_FILE")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "submit",
        help="validate files on a running AssetCheck service",
        description=f"Upload files to the service at --url (key from ${KEY_VARIABLE}), wait for "
        "their validation and print or save the reports. Exit status as for "
        "`validate`: 0 no errors, 1 errors found, a score under --fail-under, a "
        "file the service refused or could not validate, 2 usage error, "
        "unreadable path, or a service that cannot be used (unreachable, key "
        "refused, time-out).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.add_argument(
        "--url",
        default=os.environ.get(URL_VARIABLE),
        help=f"the service's root, e.g. http://127.0.0.1:8080 (default: ${URL_VARIABLE})",
    )
    parser.add_argument(
        "--engine", help="engine profile whose budgets apply (default: the service's, generic)"
    )
    parser.add_argument(
        "--format",
        default="text",
        dest="output_format",
        help="text (default), json, markdown, junit, or a format the service's plugins add",
    )
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        metavar="FILE",
        help="write the reports to FILE instead of standard output",
    )
    add_fail_under(parser)
    parser.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="how long to wait for all the validations (default: 600)",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    key = os.environ.get(KEY_VARIABLE, "").strip()
    problem = _usage_problem(args, key)
    if problem:
        return _fail(problem)
    try:
        client = Client(args.url, key)
        formats = client.report_formats()
        if args.output_format not in formats:
            return _fail(
                f"the service has no format {args.output_format!r}; choose one of "
                f"{', '.join(formats)}"
            )
        submitted, refused = _submit_all(client, args)
        reports, failed = _await_all(client, args, submitted)
    except ApiError as error:
        return _fail(f"the service refused the request: {error.message} ({error.code})")
    except ClientError as error:
        return _fail(str(error))
    _write(reports, args.output_format, args.output)
    return EXIT_FAILED if refused or failed else EXIT_OK


def _usage_problem(args: argparse.Namespace, key: str) -> str | None:
    if not args.url:
        return f"give the service's root with --url (or ${URL_VARIABLE})"
    if not key:
        return f"set ${KEY_VARIABLE} to an API key (`assetcheck keys create EMAIL`)"
    problem = fail_under_problem(args.fail_under)
    if problem:
        return problem
    unreadable = [str(path) for path in args.files if not path.is_file()]
    if unreadable:
        return f"{', '.join(unreadable)}: not a readable file"
    return None


def _submit_all(
    client: Client, args: argparse.Namespace
) -> tuple[list[tuple[Path, JobCreated]], bool]:
    """Upload every file; the jobs, and whether the service refused a file for its content.
    Any other refusal (key, plan, options) is the same for every file: it is raised."""
    submitted, refused = [], False
    for path in args.files:
        try:
            job = client.submit(path, engine=args.engine)
        except ApiError as error:
            if error.code not in FILE_REFUSALS:
                raise
            _note(f"{path}: refused: {error.message} ({error.code})")
            refused = True
            continue
        _note(f"{path}: queued as {job.job_id}")
        submitted.append((path, job))
    return submitted, refused


def _await_all(
    client: Client, args: argparse.Namespace, submitted: list[tuple[Path, JobCreated]]
) -> tuple[list[Report], bool]:
    """Wait for each job and fetch its report; whether any failed, found errors or scored
    under ``--fail-under``."""
    reports, failed = [], False
    for path, created in submitted:
        job = client.wait(created.job_id, timeout=args.timeout)
        reports.append(client.report(job.job_id, args.output_format))
        _note(f"{path}: {_outcome(job)}")
        failed = failed or not _passes(job, args.fail_under)
    return reports, failed


def _passes(job: JobStatus, fail_under: int | None) -> bool:
    if job.status != "completed" or not job.valid:
        return False
    return not scores_under(job.health_score, fail_under)


def _outcome(job: JobStatus) -> str:
    if job.status == "failed":
        error = job.error or {}
        return f"failed: {error.get('message', '')} ({error.get('code', '')})"
    verdict = "valid" if job.valid else "errors found"
    return f"{job.grade} {job.health_score}, {verdict}"


def _write(reports: list[Report], format_name: str, output: Path | None) -> None:
    """As ``validate`` prints them: several JSON reports are one list, other formats are
    concatenated."""
    if format_name == "json" and len(reports) != 1:
        from assetcheck.reports.builtin import render_json

        text = render_json([report.json() for report in reports])
    else:
        text = "\n".join(report.text() for report in reports)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


def _note(message: str) -> None:
    print(f"assetcheck submit: {message}", file=sys.stderr)


def _fail(message: str) -> int:
    _note(message)
    return EXIT_USAGE
