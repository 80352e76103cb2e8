"""``--format NAME``: the option of the commands that print reports (``validate``, ``submit``),
whose help names the formats the report registry holds rather than a list written by hand."""

from __future__ import annotations

import argparse

DEFAULT_FORMAT = "text"


def add_format_option(parser: argparse.ArgumentParser, more: str) -> None:
    """Add ``--format`` (into ``args.output_format``, default ``text``); its help lists the
    built-in report formats, then ``more`` says which plugins may add others and where they are
    listed (which plugins run is known only once the configuration is read, after parsing)."""
    parser.add_argument(
        "--format",
        default=DEFAULT_FORMAT,
        dest="output_format",
        metavar="NAME",
        help=f"report format: {', '.join(builtin_format_names())} (default: {DEFAULT_FORMAT}), "
        f"or {more}",
    )


def builtin_format_names() -> list[str]:
    """The names of the report formats AssetCheck registers itself, sorted."""
    from assetcheck.reports.builtin import register_report_formats

    return sorted(f.name for f in register_report_formats())
