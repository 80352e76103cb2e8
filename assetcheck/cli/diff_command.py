"""``assetcheck diff OLD NEW``: what changed between two model files, two folders of them, or two
reports, and whether anything got worse (``docs/diff.md``).

Each side is told by its content, not its name: a folder, a JSON report (or list of them) or
SARIF log AssetCheck wrote, else a model file. Model files are validated with the ``validate``
command's own function (:func:`~assetcheck.cli.parallel.validate_files`), each under the name
that pairs it: a folder's files under their paths relative to the folder, two lone files both
under NEW's path, a lone file compared with a one-file report under the report's name, so a
finding's identity (its file is part of it) is the same on both sides.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pluggy

from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from assetcheck.config.settings import Config
from assetcheck.diff import Diff, ReportInputError, Snapshot, diff_snapshots, parse_threshold
from assetcheck.diff.markdown import render_markdown
from assetcheck.diff.snapshots import read_snapshots, report_snapshots
from assetcheck.diff.text import render_text
from assetcheck.formats.registry import SNIFF_BYTES, FormatRegistry, format_registry
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.scoring.profiles import resolve_profile

from .format_option import add_format_option
from .inputs import add_selection_options, select_files
from .parallel import add_jobs_option, validate_files

#: The output formats, by name: what renders a comparison.
RENDERERS = {
    "text": render_text,
    "json": lambda diff: json.dumps(diff.to_dict(), indent=2, ensure_ascii=False) + "\n",
    "markdown": render_markdown,
}


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "diff",
        help="compare two models, folders or reports",
        description="Show what changed between two model files, two folders of them, or two "
        "reports AssetCheck wrote (JSON or SARIF): statistics, budget use, findings added and "
        "fixed. Exit status: 0 nothing got worse, 1 something did (a new error or warning, a "
        "budget newly exceeded, a --fail-on threshold crossed), 2 usage error or unreadable "
        "path.",
    )
    parser.add_argument("old", type=Path, metavar="OLD", help="the old model, folder or report")
    parser.add_argument("new", type=Path, metavar="NEW", help="the new model, folder or report")
    parser.add_argument(
        "--engine",
        default="generic",
        help="engine profile whose budgets apply to the models validated (default: generic); "
        "reports keep the profile they were written with",
    )
    add_format_option(parser, names=list(RENDERERS))
    parser.add_argument(
        "--fail-on",
        action="append",
        default=[],
        type=_threshold,
        metavar="METRIC:+AMOUNT",
        help="also exit 1 when a file's statistic grows by more than AMOUNT (+10%%, +500, "
        "+2MB); METRIC is vertices, triangles, materials, textures, textures_gpu_memory or "
        "file_size; repeatable",
    )
    add_jobs_option(parser)
    add_selection_options(parser, "compare")
    parser.set_defaults(run=run)
    return parser


def _threshold(text: str) -> object:
    try:
        return parse_threshold(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix(f"--fail-on {text!r}: ")) from None


class UsageError(ValueError):
    """A side that cannot be compared; the message says why, for people."""


@dataclass
class Side:
    """One side of the comparison: the snapshots of its reports, and the model files still to
    validate with the names their reports give them."""

    path: Path
    snapshots: list[Snapshot]
    models: list[Path]
    names: list[str]


def run(args: argparse.Namespace, config: Config) -> int:
    pm = get_plugin_manager(config.plugin_config())
    if args.jobs < 1:
        print("assetcheck diff: --jobs takes a number of processes, at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        old, new = _sides(args, format_registry(pm))
        diff = _compare(old, new, args, config, pm)
    except UsageError as error:
        print(f"assetcheck diff: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(RENDERERS[args.output_format](diff))
    return EXIT_FAILED if diff.worse else EXIT_OK


def _sides(args: argparse.Namespace, formats: FormatRegistry) -> tuple[Side, Side]:
    """OLD and NEW as sides: two folders, or two files each a report or a model."""
    old, new = args.old, args.new
    for path in (old, new):
        if not path.is_dir() and not path.is_file():
            raise UsageError(f"{path}: not a readable file or folder")
    if old.is_dir() != new.is_dir():
        folder, file = (old, new) if old.is_dir() else (new, old)
        raise UsageError(f"{folder} is a folder and {file} is not: compare a folder with a folder")
    if old.is_dir():
        return _folder(old, formats, args), _folder(new, formats, args)
    sides = _file(old, formats), _file(new, formats)
    name = _common_name(*sides)
    for side in sides:
        side.names = [name] * len(side.models)
    return sides


def _folder(folder: Path, formats: FormatRegistry, args: argparse.Namespace) -> Side:
    """A folder's model files, each named by its path relative to the folder."""
    selection = select_files([folder], formats, args.include, args.exclude)
    if selection.problems:
        raise UsageError("; ".join(selection.problems))
    names = [path.relative_to(folder).as_posix() for path in selection.files]
    return Side(folder, [], selection.files, names)


def _common_name(old: Side, new: Side) -> str:
    """The name a lone model file is validated under, so its findings are known as the other
    side's: that of NEW's one-file report, else NEW's path, else that of OLD's one-file report.
    """
    if not new.models and len(new.snapshots) == 1:
        return new.snapshots[0].name
    if new.models or len(old.snapshots) != 1:
        return new.path.as_posix()
    return old.snapshots[0].name


def _file(path: Path, formats: FormatRegistry) -> Side:
    """A report's snapshots, or a model file to validate (named by :func:`_common_name`)."""
    try:
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES)
        snapshots = _report(path, head, formats)
    except OSError as error:
        raise UsageError(f"{path} cannot be read: {error.strerror or error}") from error
    if snapshots is not None:
        return Side(path, snapshots, [], [])
    refusal = formats.refusal(head)
    if refusal == "EMPTY_FILE":
        raise UsageError(f"{path} is empty")
    if refusal is not None:
        raise UsageError(f"{path} is neither a {formats.titles()} file nor a report")
    return Side(path, [], [path], [])


def _report(path: Path, head: bytes, formats: FormatRegistry) -> list[Snapshot] | None:
    """The snapshots of a JSON report or SARIF log at ``path``; None for other content (a glTF
    is JSON too). JSON that is neither a report nor a model is a usage error."""
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"["):
        return None
    try:
        return read_snapshots(path.read_text(encoding="utf-8-sig"))
    except (ReportInputError, UnicodeDecodeError) as error:
        if formats.sniff(head) is not None:
            return None
        raise UsageError(f"{path} is no report AssetCheck wrote: {error}") from None


def _compare(
    old: Side, new: Side, args: argparse.Namespace, config: Config, pm: pluggy.PluginManager
) -> Diff:
    """Validate the sides' model files (all in one run of workers), then compare."""
    models = [*old.models, *new.models]
    if models:
        options = config.validation_options(args.engine)
        try:
            resolve_profile(pm, options.engine, options.budget_overrides)
        except ValueError as error:  # an unknown engine, or a budget the config misspells
            raise UsageError(str(error)) from error
        reports = []
        with validate_files(models, options, pm, args.jobs, [*old.names, *new.names]) as done:
            for outcome in done:
                if outcome.report is None:
                    raise UsageError(f"{outcome.path}: {outcome.error}")
                reports.append(outcome.report)
        old.snapshots += report_snapshots(reports[: len(old.models)])
        new.snapshots += report_snapshots(reports[len(old.models) :])
    return diff_snapshots(
        old.snapshots,
        new.snapshots,
        args.fail_on,
        old_label=str(old.path),
        new_label=str(new.path),
        by_name=old.path.is_dir(),
    )
