"""``--format NAME``: the option of the commands that print reports (``validate``, ``submit``),
whose help names the formats the report registry holds rather than a list written by hand."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

DEFAULT_FORMAT = "text"


def add_format_option(
    parser: argparse.ArgumentParser, more: str = "", names: Sequence[str] | None = None
) -> None:
    """Add ``--format`` (into ``args.output_format``, default ``text``); its help lists the
    built-in report formats, then ``more`` says which plugins may add others and where they are
    listed (which plugins run is known only once the configuration is read, after parsing).
    A command with formats of its own (``diff``) gives their ``names``: only those are taken."""
    listed = ", ".join(builtin_format_names() if names is None else names)
    parser.add_argument(
        "--format",
        default=DEFAULT_FORMAT,
        dest="output_format",
        metavar="NAME",
        choices=names,
        help=f"{'report' if names is None else 'output'} format: {listed} "
        f"(default: {DEFAULT_FORMAT})" + (f", or {more}" if more else ""),
    )


def builtin_format_names() -> list[str]:
    """The names of the report formats AssetCheck registers itself, sorted."""
    from assetcheck.reports.builtin import register_report_formats

    return sorted(f.name for f in register_report_formats())
