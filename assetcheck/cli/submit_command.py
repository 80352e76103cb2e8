"""``assetcheck submit PATH... --url URL``: validate files on a running service, like ``validate``.

Built on :mod:`assetcheck.client`. The key comes from ``ASSETCHECK_API_KEY`` only: a key on a
command line ends up in shell histories and process lists. Folders are walked as ``validate``
walks them (:func:`~assetcheck.cli.inputs.select_files`, with ``--include`` and ``--exclude``).
Every file is uploaded first, ``--jobs`` at a time, so the service's workers take them in
parallel, then each job is awaited at the pace its ``Retry-After`` asks for and its report
fetched in ``--format``. The service's refusals are told in the command's words
(:func:`cli_message`), not in those of HTTP.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from assetcheck.asset.dimensions import DimensionsError, ProductDimensions
from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from assetcheck.cli.fail_under import add_fail_under, fail_under_problem, scores_under
from assetcheck.cli.format_option import add_format_option
from assetcheck.cli.inputs import add_selection_options, select_files
from assetcheck.client import (
    DEFAULT_POLL_SECONDS,
    ApiError,
    Client,
    ClientError,
    JobCreated,
    JobStatus,
    Report,
)
from assetcheck.config.settings import Config
from assetcheck.formats.registry import format_registry
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import ReportFormat, report_formats

KEY_VARIABLE = "ASSETCHECK_API_KEY"
URL_VARIABLE = "ASSETCHECK_URL"
#: Refusals that are about the file itself (it fails, exit 1), not about how the service is
#: used (exit 2).
FILE_REFUSALS = (
    "FILE_TOO_LARGE",
    "UNSUPPORTED_FILE_TYPE",
    "EMPTY_FILE",
    "MISSING_FILE",
    "PART_HEADERS_TOO_LARGE",
)
#: Refusals that mean "not now" (the account's queue is full, too many requests): the upload
#: is tried again after the ``Retry-After`` they give, within ``--timeout``.
RETRY_LATER = ("QUEUE_FULL", "RATE_LIMITED")
#: Uploads at a time by default: enough to keep a service's workers busy, few enough connections.
DEFAULT_UPLOADS = 4
#: What to tell a command-line user instead of the service's message, for the refusals whose
#: message speaks of the HTTP request (its parts, its headers) that this command builds itself.
CLI_WORDS = {
    "MISSING_FILE": "the service received no file: the upload was cut short on the way "
    "(a proxy in front of the service may limit uploads); check the file and retry",
    "PART_HEADERS_TOO_LARGE": "the file's name is too long for the service: rename the file "
    "to a shorter name",
    "INVALID_OPTIONS": "the service did not understand the options this command sent: the "
    "service and this assetcheck may be of different versions",
}


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
    parser.add_argument(
        "files",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="a file, or a folder whose model files to submit (as `validate` walks folders)",
    )
    parser.add_argument(
        "--url",
        default=os.environ.get(URL_VARIABLE),
        help=f"the service's root, e.g. http://127.0.0.1:8080 (default: ${URL_VARIABLE})",
    )
    parser.add_argument(
        "--engine", help="engine profile whose budgets apply (default: the service's, generic)"
    )
    parser.add_argument(
        "--dimensions",
        metavar="WxHxD",
        help="the real product's width, height (up) and depth in metres, such as 0.6x0.9x0.4 "
        "(- for a side you do not know): the model must match them within 3%%",
    )
    add_format_option(
        parser, "one the service's plugins add (an unknown name gets the service's list)"
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
        "--jobs",
        "-j",
        type=int,
        default=DEFAULT_UPLOADS,
        metavar="N",
        help=f"upload N files at a time (default: {DEFAULT_UPLOADS})",
    )
    add_selection_options(parser, "submit")
    parser.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="how long to wait for a full queue to take the uploads, and for each "
        "validation (default: 600)",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    key = os.environ.get(KEY_VARIABLE, "").strip()
    problem = _usage_problem(args, key)
    if problem:
        return _fail(problem)
    pm = get_plugin_manager(config.plugin_config())
    selection = select_files(args.files, format_registry(pm), args.include, args.exclude)
    if selection.problems:
        for problem in selection.problems:
            _note(problem)
        return EXIT_USAGE
    combine = _combiner(report_formats(pm).get(args.output_format), len(selection.files))
    try:
        client = Client(args.url, key)
        formats = client.report_formats()
        if args.output_format not in formats:
            return _fail(
                f"the service has no format {args.output_format!r}; choose one of "
                f"{', '.join(formats)}"
            )
        submitted, refused = _submit_all(client, args, selection.files)
        fetched = args.output_format if combine is None else "json"
        reports, failed = _await_all(client, args, submitted, fetched)
    except ApiError as error:
        return _fail(f"the service refused the request: {cli_message(error)} ({error.code})")
    except ClientError as error:
        return _fail(str(error))
    _write(reports, combine, args.output)
    return EXIT_FAILED if refused or failed else EXIT_OK


def cli_message(error: ApiError) -> str:
    """The service's refusal in this command's words: :data:`CLI_WORDS` for those whose
    message is about the HTTP request, the service's own message for the others."""
    return CLI_WORDS.get(error.code, error.message)


def _usage_problem(args: argparse.Namespace, key: str) -> str | None:
    if not args.url:
        return f"give the service's root with --url (or ${URL_VARIABLE})"
    if not key:
        return f"set ${KEY_VARIABLE} to an API key (`assetcheck keys create EMAIL`)"
    problem = fail_under_problem(args.fail_under)
    if problem:
        return problem
    if args.jobs < 1:
        return "--jobs takes a number of uploads at a time, at least 1"
    try:
        _dimensions(args)
    except DimensionsError as error:
        return str(error)
    return None


def _dimensions(args: argparse.Namespace) -> dict[str, float] | None:
    """``--dimensions`` as the API takes them; a :class:`DimensionsError` when unusable."""
    return ProductDimensions.from_text(args.dimensions).to_json() if args.dimensions else None


def _submit_all(
    client: Client, args: argparse.Namespace, files: list[Path]
) -> tuple[list[tuple[Path, JobCreated]], bool]:
    """Upload every file, ``--jobs`` at a time; the jobs in the order of ``files``, and
    whether the service refused a file for its content. Any other refusal (key, plan,
    options) is the same for every file: it is raised, and the uploads not started yet are
    dropped."""
    submitted, refused = [], False
    deadline = time.monotonic() + args.timeout
    pool = ThreadPoolExecutor(max(1, min(args.jobs, len(files))), thread_name_prefix="upload")
    try:
        options = {"engine": args.engine, "dimensions": _dimensions(args)}
        uploads = [pool.submit(_upload, client, path, options, deadline) for path in files]
        for path, upload in zip(files, uploads, strict=True):
            try:
                job = upload.result()
            except ApiError as error:
                if error.code not in FILE_REFUSALS:
                    raise
                _note(f"{path}: refused: {cli_message(error)} ({error.code})")
                refused = True
                continue
            _note(f"{path}: queued as {job.job_id}")
            submitted.append((path, job))
    finally:
        pool.shutdown(cancel_futures=True)
    return submitted, refused


def _upload(client: Client, path: Path, options: dict[str, Any], deadline: float) -> JobCreated:
    """Upload ``path``; a refusal of :data:`RETRY_LATER` is waited out (its ``Retry-After``)
    and the upload tried again, until ``deadline`` (``time.monotonic``) would pass."""
    while True:
        try:
            return client.submit(path, **options)
        except ApiError as error:
            pause = error.retry_after or DEFAULT_POLL_SECONDS
            if error.code not in RETRY_LATER or time.monotonic() + pause > deadline:
                raise
            _note(f"{path}: waiting {pause:g} s to upload: {error.message}")
            time.sleep(pause)


def _await_all(
    client: Client,
    args: argparse.Namespace,
    submitted: list[tuple[Path, JobCreated]],
    format_name: str,
) -> tuple[list[Report], bool]:
    """Wait for each job and fetch its report in ``format_name``; whether any failed, found
    errors or scored under ``--fail-under``."""
    reports, failed = [], False
    for path, created in submitted:
        job = client.wait(created.job_id, timeout=args.timeout)
        reports.append(client.report(job.job_id, format_name))
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


def _combiner(chosen: ReportFormat | None, files: int) -> ReportFormat | None:
    """The format that renders the reports of several files as one document (a JSON list,
    one SARIF log, one JUnit document), when ``chosen`` does that here; None when the service's
    renderings are printed one after another (one file, or a format that does not combine)."""
    if chosen is None or chosen.combine is None or files == 1:
        return None
    return chosen


def _write(reports: list[Report], combine: ReportFormat | None, output: Path | None) -> None:
    """As ``validate`` prints them: combined into one document by ``combine`` from the JSON
    reports, or the service's renderings one after another."""
    if combine is not None and combine.combine is not None:
        text = combine.combine([report.json() for report in reports])
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
